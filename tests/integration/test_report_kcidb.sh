#!/bin/bash
# SPDX-License-Identifier: MIT
# --format kcidb of nicbench report and nicbench compare against the KCIDB I/O v5.3 JSON Schema
# (kcidb-io's own, in schema/kcidb/). Checks the statuses, numbers and
# ids too, the issues and incidents of a regression, and that a broken document is rejected (the validator
# is real). Needs no root.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

: "${NB_BIN:?NB_BIN must point at the nicbench binary}"
: "${NB_SRC:?NB_SRC must point at the source tree}"
FIX=${NB_FIXTURES:-$NB_SRC/tests/fixtures}
SCHEMA=${NB_KCIDB_SCHEMA:-$NB_SRC/schema/kcidb/kcidb-v5.3.schema.json}
[ -r "$SCHEMA" ] || fail "no KCIDB schema at $SCHEMA (it is in the tree: schema/kcidb/)"
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"

TMP=$(mktemp -d /tmp/nb-report-kcidb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# kcidb_check OUT.json REPORT.json MODE [BASE.json]: schema-valid, and the tests say what the reports hold.
kcidb_check() {
	python3 - "$SCHEMA" "$@" <<'PY' || fail "KCIDB output $1 is not what it should be"
import json, sys
import jsonschema

schema, out, report, mode = (sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
base = json.load(open(sys.argv[5])) if len(sys.argv) > 5 else None
doc, rep = json.load(open(out)), json.load(open(report))
jsonschema.validate(doc, json.load(open(schema)))
assert doc["version"] == {"major": 5, "minor": 3}, doc["version"]
tests = doc["tests"]
assert len({t["id"] for t in tests}) == len(tests), "test ids repeat"

def gated(p):
    name = p["test"]["name"] if p.get("test") else p["id"]
    return ["throughput_bps"] + (["cpu_busy_pct"] if name.endswith("-rx") else [])

want = {(p["id"], m) for p in rep["results"] for m in gated(p)}
got = {(t["misc"]["point_id"], t["misc"]["metric"]): t for t in tests}
if mode == "report":
    assert set(got) == want, f"tests {sorted(set(got) ^ want)[:4]} differ from points x gated metrics"
    for p in rep["results"]:
        for m in gated(p):
            t = got[(p["id"], m)]
            assert t["environment"]["misc"]["kernel_release"] == rep["host"]["kernel"]["release"]
            assert t["misc"]["bottleneck"], t
            if p["status"] == "ok" and m in p["metrics"]:
                assert t["status"] == "DONE", t["status"]
                assert abs(t["number"]["value"] - p["metrics"][m]["median"]) <= 1e-6 * abs(p["metrics"][m]["median"]) + 1e-9
                assert t["number"].get("unit") == ("bit/s" if m == "throughput_bps" else "%"), t["number"]
            else:
                assert t["status"] in ("ERROR", "SKIP", "MISS"), (p["id"], t["status"])
else:
    statuses = {k: t["status"] for k, t in got.items()}
    for key, status in json.loads(mode).items():
        pid, m = key.split(" ")
        assert statuses.get((pid, m)) == status, f"{key}: {statuses.get((pid, m))}, want {status}"
print(f"ok: {out}: {len(tests)} tests valid against KCIDB v5.3")
PY
}

SWEEP=$FIX/report/veth-sweep.json
"$NB_BIN" report "$SWEEP" --format kcidb -o "$TMP/sweep.kcidb.json" || fail "report --format kcidb failed"
kcidb_check "$TMP/sweep.kcidb.json" "$SWEEP" report
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["builds"][0]["id"] == d["tests"][0]["build_id"]' \
	"$TMP/sweep.kcidb.json" || fail "the tests do not belong to the build the file carries"

# compare: PASS/FAIL from the verdicts (G2UL: UDP TX -24% is a regression, TCP RX +34% is not)
rc=0
"$NB_BIN" compare "$FIX/compare/g2ul-base.json" "$FIX/compare/g2ul-new.json" --format kcidb -o "$TMP/g2ul.kcidb.json" || rc=$?
[ "$rc" -eq 1 ] || fail "compare --format kcidb: exit $rc, want 1 (a regression)"
kcidb_check "$TMP/g2ul.kcidb.json" "$FIX/compare/g2ul-new.json" \
	'{"udp-tx throughput_bps": "FAIL", "tcp-rx throughput_bps": "PASS", "tcp-rx cpu_busy_pct": "PASS", "udp-rx throughput_bps": "PASS"}'
# the regression as KCIDB data: one issue (culprit: the code) and one incident (its FAIL test) a regressed metric
kcidb_regressions() {
	python3 - "$@" <<'PY' || fail "KCIDB issues/incidents of $1 are not what they should be"
import json, sys
doc, want = json.load(open(sys.argv[1])), json.loads(sys.argv[2])
commit = sys.argv[3] if len(sys.argv) > 3 else None
tests = {t["id"]: t for t in doc["tests"]}
failed = {(t["misc"]["point_id"], t["misc"]["metric"]) for t in tests.values() if t["misc"].get("verdict") == "regressed"}
assert failed == {tuple(k.split(" ")) for k in want}, f"regressed tests {failed}, want {want}"
issues, incidents = doc.get("issues", []), doc.get("incidents", [])
assert len(issues) == len(want) == len(incidents), (len(issues), len(incidents), want)
by_id = {i["id"]: i for i in issues}
for inc in incidents:
    issue, test = by_id[inc["issue_id"]], tests[inc["test_id"]]
    assert inc["issue_version"] == issue["version"] and inc["present"] is True
    assert inc["build_id"] == test["build_id"]
    assert test["status"] == "FAIL" and test["misc"]["issue_id"] == issue["id"]
    assert issue["culprit"] == {"code": True, "tool": False, "harness": False}, issue["culprit"]
    m = issue["misc"]
    assert (m["point_id"], m["metric"]) == (test["misc"]["point_id"], test["misc"]["metric"])
    assert m["new_median"] == test["number"]["value"] and m["base_median"] == test["misc"]["base_median"]
    assert m["change"] in issue["comment"] and m["point_id"] in issue["comment"]
    assert m.get("commit") == commit, (m.get("commit"), commit)
    if commit:
        assert commit in issue["comment"]
print(f"ok: {sys.argv[1]}: {len(issues)} issue(s) and incident(s) for {sorted(want)}")
PY
}
kcidb_regressions "$TMP/g2ul.kcidb.json" '["udp-tx throughput_bps"]'
# report --base: the same verdicts, the bisect's commit and the published report's URL
COMMIT=0123456789abcdef0123456789abcdef01234567
rc=0
"$NB_BIN" report "$FIX/compare/g2ul-new.json" --base "$FIX/compare/g2ul-base.json" --format kcidb --commit "$COMMIT" \
	--report-url "https://lab.example.org/runs/42/g2ul-new.json?raw=1" -o "$TMP/g2ul-commit.kcidb.json" ||
	fail "report --base --commit --report-url failed"
kcidb_check "$TMP/g2ul-commit.kcidb.json" "$FIX/compare/g2ul-new.json" '{"udp-tx throughput_bps": "FAIL"}'
kcidb_regressions "$TMP/g2ul-commit.kcidb.json" '["udp-tx throughput_bps"]' "$COMMIT"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["checkouts"][0]["git_commit_hash"] == sys.argv[2]
assert all(t["output_files"] == [{"name": "g2ul-new.json", "url": "https://lab.example.org/runs/42/g2ul-new.json?raw=1"}] for t in d["tests"])' \
	"$TMP/g2ul-commit.kcidb.json" "$COMMIT" || fail "--commit/--report-url did not reach the checkout and the tests"
rc=0; "$NB_BIN" report "$SWEEP" --format kcidb --commit XYZ >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'hex' "$TMP/err" || fail "--commit XYZ: exit $rc"
rc=0; "$NB_BIN" report "$SWEEP" --format kcidb --report-url /tmp/x.json >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--report-url /tmp/x.json: exit $rc"

# a point that failed in the base and runs now is fixed: PASS
"$NB_BIN" report "$FIX/compare/five-new.json" --base "$FIX/compare/five-base-failed.json" --format kcidb \
	--origin farm_lab --build-id farm_lab:build-42 -o "$TMP/five.kcidb.json" || fail "report --base --format kcidb failed"
kcidb_check "$TMP/five.kcidb.json" "$FIX/compare/five-new.json" '{"udp-rx throughput_bps": "PASS", "tcp-tx throughput_bps": "PASS"}'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "builds" not in d and "checkouts" not in d and "issues" not in d
assert all(t["build_id"] == "farm_lab:build-42" and t["origin"] == "farm_lab" and t["id"].startswith("farm_lab:") for t in d["tests"])' \
	"$TMP/five.kcidb.json" || fail "--origin/--build-id were not used"

# bad options are usage errors
rc=0; "$NB_BIN" report "$SWEEP" --format kcidb --origin Bad-Origin >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'a-z0-9_' "$TMP/err" || fail "--origin Bad-Origin: exit $rc, $(cat "$TMP/err")"
rc=0; "$NB_BIN" report "$SWEEP" --format kcidb --build-id nocolon >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--build-id nocolon: exit $rc"

# the validator rejects what KCIDB would: a status it does not know
python3 - "$SCHEMA" "$TMP/sweep.kcidb.json" <<'PY' || fail "the schema accepted a test with status BOGUS"
import json, sys
import jsonschema
doc = json.load(open(sys.argv[2]))
doc["tests"][0]["status"] = "BOGUS"
try:
    jsonschema.validate(doc, json.load(open(sys.argv[1])))
except jsonschema.ValidationError:
    print("ok: a broken document is rejected")
    sys.exit(0)
sys.exit(1)
PY
# ... and an issue without its version, or an incident pointing at a malformed id
python3 - "$SCHEMA" "$TMP/g2ul.kcidb.json" <<'PY' || fail "the schema accepted a broken issue or incident"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
for breakage in ("issue", "incident"):
    doc = json.load(open(sys.argv[2]))
    if breakage == "issue":
        del doc["issues"][0]["version"]
    else:
        doc["incidents"][0]["issue_id"] = "No-Origin"
    try:
        jsonschema.validate(doc, schema)
        sys.exit(1)
    except jsonschema.ValidationError:
        print(f"ok: a broken {breakage} is rejected")
PY
echo PASS
