#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2015  # pass() only echoes: "check && pass || fail" is an if-else here
# contrib/gitlab-ci.yml: its structure (stages, artifacts, JUnit report, exit-code policy), then its script lines
# run as a GitLab runner runs them (bash, stop at the first failing line) with the nicbench under test and
# generated reports: an unchanged report passes and publishes JUnit, a regression fails the job, a missing
# baseline fails it, and the run job tolerates "some points failed" (exit 1) but not a usage error.
set -u

NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
PY=/usr/bin/python3
ci=$NB_SRC/contrib/gitlab-ci.yml
tmp=$(mktemp -d /tmp/nbb-gitlab.XXXXXX)
failures=0
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$PY" -c 'import yaml' 2>/dev/null || skip "Debian's python3-yaml is not installed"

# --- 1. structure ---
out=$("$PY" - "$ci" 2>&1 <<'EOF'
import sys, yaml
ci = yaml.safe_load(open(sys.argv[1]))
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
need(ci.get("stages") == ["benchmark", "compare"], "stages are benchmark, compare")
run, cmp_ = ci.get("nicbench-run", {}), ci.get("nicbench-compare", {})
need(run.get("stage") == "benchmark" and cmp_.get("stage") == "compare", "jobs sit in their stages")
need(cmp_.get("needs") == ["nicbench-run"], "compare needs the run job's artifacts")
need(any("$NICBENCH_REPORT_DIR/new.json" in p for p in run.get("artifacts", {}).get("paths", [])),
     "run job keeps new.json as an artifact")
junit_lines = [l for l in cmp_.get("script", []) if " compare " in l and "--format junit" in l]
need(len(junit_lines) == 1, "exactly one 'compare --format junit' line")
need(bool(junit_lines) and not junit_lines[0].rstrip().endswith("|| true"), "the junit line's exit code is the job's")
need(bool(junit_lines) and "-o \"$NICBENCH_REPORT_DIR/compare.xml\"" in junit_lines[0], "junit written to compare.xml")
need(cmp_.get("artifacts", {}).get("reports", {}).get("junit") == "$NICBENCH_REPORT_DIR/compare.xml",
     "compare.xml published as the JUnit report")
need(cmp_.get("artifacts", {}).get("when") == "always", "artifacts kept when the job fails")
need(cmp_.get("allow_failure") == {"exit_codes": [3, 4]}, "only exits 3 (undecided) and 4 (withheld) are allowed to fail")
need("NICBENCH_BASELINE" in ci.get("variables", {}), "NICBENCH_BASELINE variable")
for job in ("nicbench-run", "nicbench-compare"):
    need(all(isinstance(l, str) for l in ci[job]["script"]), job + " script is a list of lines")
print("; ".join(problems) if problems else "structure ok")
sys.exit(1 if problems else 0)
EOF
) && pass "$out" || fail "$out"

# write_job JOB FILE: the job's variables (defaults of the template) and script lines as a runner executes them.
write_job() {
	"$PY" - "$ci" "$1" >"$2" <<'EOF'
import shlex, sys, yaml
ci = yaml.safe_load(open(sys.argv[1]))
print("set -eo pipefail")
for k, v in ci["variables"].items():
    print('[ -n "${%s+set}" ] || %s=%s; export %s' % (k, k, shlex.quote(str(v)), k))
for line in ci[sys.argv[2]]["script"]:
    print(line)
EOF
}
write_job nicbench-compare "$tmp/compare-job.sh"
write_job nicbench-run "$tmp/run-job.sh"

# --- 2. the run job with a stand-in nicbench: exit 1 (points failed) passes, exit 2 fails ---
cat >"$tmp/nicbench-stub" <<'EOF'
#!/bin/sh
echo "$*" >>"$STUB_ARGS"
[ "$1" = --version ] && { echo "nicbench stub"; exit 0; }
exit "$STUB_RC"
EOF
chmod +x "$tmp/nicbench-stub"
for case in 0:0 1:0 2:1; do
	stub_rc=${case%:*} want=${case#*:}
	(cd "$tmp" && STUB_ARGS="$tmp/stub-args" STUB_RC=$stub_rc NICBENCH="$tmp/nicbench-stub" NICBENCH_PEER=192.0.2.1 \
		bash "$tmp/run-job.sh" >"$tmp/run-job.out" 2>&1)
	rc=$?
	if { [ "$want" -eq 0 ] && [ $rc -eq 0 ]; } || { [ "$want" -ne 0 ] && [ $rc -ne 0 ]; }; then
		pass "run job with nicbench run exiting $stub_rc: job exit $rc"
	else
		fail "run job with nicbench run exiting $stub_rc: job exit $rc ($(tail -c 300 "$tmp/run-job.out"))"
	fi
done
grep -q -- '^run --config configs/boards/rzg2l.json -i eth0 --peer 192.0.2.1 -o nicbench-reports/new.json' "$tmp/stub-args" &&
	pass "run job passes config, interface, peer and output" || fail "run job called: $(grep '^run' "$tmp/stub-args" | head -n 1)"
(cd "$tmp" && STUB_ARGS="$tmp/stub-args" STUB_RC=0 NICBENCH="$tmp/nicbench-stub" bash "$tmp/run-job.sh" >/dev/null 2>&1) &&
	fail "run job without NICBENCH_PEER passed" || pass "run job without NICBENCH_PEER fails"

# With NICBENCH_ROUNDS the run job makes one report a round, each with --round B:I/N; the compare job compares the
# baseline's rounds with them (A... -- B...).
: >"$tmp/stub-args"
(cd "$tmp" && STUB_ARGS="$tmp/stub-args" STUB_RC=0 NICBENCH="$tmp/nicbench-stub" NICBENCH_PEER=192.0.2.1 NICBENCH_ROUNDS=2 \
	CI_PIPELINE_ID=77 bash "$tmp/run-job.sh" >/dev/null 2>&1) || fail "run job with NICBENCH_ROUNDS=2 failed"
rounds=$(grep '^run' "$tmp/stub-args" | grep -o -- '--round [^ ]* -o [^ ]*' | tr '\n' ';')
[ "$rounds" = "--round B:1/2:p77 -o nicbench-reports/rounds/new.1.json;--round B:2/2:p77 -o nicbench-reports/rounds/new.2.json;" ] &&
	pass "run job with NICBENCH_ROUNDS=2 makes two rounds, no single report" || fail "run job with rounds called: $rounds"
mkdir -p "$tmp/base-rounds"
: >"$tmp/stub-args"
(cd "$tmp" && STUB_ARGS="$tmp/stub-args" STUB_RC=0 NICBENCH="$tmp/nicbench-stub" NICBENCH_ROUNDS=2 \
	NICBENCH_BASELINE="$tmp/base-rounds" bash "$tmp/compare-job.sh" >/dev/null 2>&1) || fail "compare job with rounds failed"
[ "$(grep -c -- "^compare .*$tmp/base-rounds -- nicbench-reports/rounds" "$tmp/stub-args")" = 3 ] &&
	pass "compare job with rounds compares BASELINE -- the new rounds" ||
	fail "compare job with rounds called: $(grep '^compare' "$tmp/stub-args" | head -n 1)"

# --- 3. the compare job with the real nicbench and generated reports ---
if [ -z "${NB_BIN:-}" ] || [ ! -x "${NB_BIN:-}" ]; then
	echo "skip part: NB_BIN (the nicbench binary) is not set"
elif grep -q 'not implemented' <<<"$("$NB_BIN" compare --help 2>&1)"; then
	echo "skip part: 'nicbench compare' is not implemented in this tree yet"
else
	# Five runs per point; "regressed" loses 30% TCP RX throughput, far beyond noise and the 5% minimum effect.
	"$PY" - "$tmp" <<'EOF'
import json, sys
def report(scale_rx):
    results = []
    for test in ("tcp-tx", "tcp-rx"):
        base = 900e6 if test == "tcp-tx" else 700e6
        if test == "tcp-rx":
            base *= scale_rx
        tput = [base * (1 + d) for d in (-0.004, -0.002, 0.0, 0.002, 0.004)]
        cpu = [60.0 + d for d in (-0.4, -0.2, 0.0, 0.2, 0.4)]
        def stats(v):
            s = sorted(v)
            m = sum(v) / len(v)
            return {"median": s[len(s) // 2], "mean": m, "min": s[0], "max": s[-1],
                    "stddev": (sum((x - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5, "n": len(v), "values": v}
        results.append({
            "id": test,
            "test": {"name": test, "protocol": "tcp", "direction": test[-2:], "duration": 10, "omit": 2,
                     "rate": 0, "length": 0, "streams": 1},
            "knobs": {}, "status": "ok",
            "runs": [{"status": "ok", "metrics": {"throughput_bps": t, "cpu_busy_pct": c}} for t, c in zip(tput, cpu)],
            "metrics": {"throughput_bps": stats(tput), "cpu_busy_pct": stats(cpu)},
        })
    return {"schema": "nicbench-report/1", "tool": {"name": "nicbench", "version": "0.1.0"},
            "created": "2026-11-30T04:00:00Z",
            "host": {"hostname": "board", "kernel": {"release": "6.1.101-cip25"}, "cpus": 2},
            "interface": {"name": "eth0", "driver": "ravb"}, "peer": {"host": "192.0.2.1", "port": 5201},
            "config": {"duration": 10, "omit": 2, "repetitions": 5, "tests": ["tcp-tx", "tcp-rx"], "knobs": {}},
            "results": results}
for name, scale in (("baseline", 1.0), ("same", 1.0), ("regressed", 0.7)):
    json.dump(report(scale), open("%s/%s.json" % (sys.argv[1], name), "w"), indent=1)
EOF
	# compare_job NEW [BASELINE]: run the compare job in a fresh directory; prints the job's exit code.
	compare_job() {
		local dir=$tmp/job-$1
		mkdir -p "$dir/nicbench-reports"
		cp "$tmp/$1.json" "$dir/nicbench-reports/new.json"
		(cd "$dir" && NICBENCH="$NB_BIN" NICBENCH_BASELINE="${2:-$tmp/baseline.json}" \
			bash "$tmp/compare-job.sh" >"$dir/job.out" 2>&1)
		echo $?
	}
	# junit_summary FILE: "tests failures" from the JUnit XML, or "unparsable".
	junit_summary() {
		"$PY" - "$1" <<'EOF'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception as exc:
    print("unparsable: %s" % exc)
    sys.exit(0)
cases = root.findall(".//testcase")
failed = [c.get("name", "") + "@" + c.get("classname", "") for c in cases if c.find("failure") is not None]
print(len(cases), len(failed), " ".join(failed))
EOF
	}

	rc=$(compare_job same)
	summary=$(junit_summary "$tmp/job-same/nicbench-reports/compare.xml")
	[ "$rc" = 0 ] && pass "unchanged report: compare job exit 0" ||
		fail "unchanged report: job exit $rc: $(tail -c 500 "$tmp/job-same/job.out")"
	read -r ncases nfailed _ <<<"$summary"
	[[ "$ncases" =~ ^[0-9]+$ ]] && [ "$ncases" -gt 0 ] && [ "$nfailed" = 0 ] &&
		pass "unchanged report: JUnit with $ncases test cases, 0 failures" || fail "unchanged report: JUnit '$summary'"
	[ -s "$tmp/job-same/nicbench-reports/compare.md" ] && pass "Markdown verdicts written" || fail "no compare.md"

	rc=$(compare_job regressed)
	summary=$(junit_summary "$tmp/job-regressed/nicbench-reports/compare.xml")
	[ "$rc" = 1 ] && pass "regressed report: compare job exit 1, the pipeline fails" ||
		fail "regressed report: job exit $rc: $(tail -c 500 "$tmp/job-regressed/job.out")"
	read -r ncases nfailed failed_names <<<"$summary"
	[[ "$nfailed" =~ ^[0-9]+$ ]] && [ "$nfailed" -ge 1 ] && [[ "$failed_names" == *tcp-rx* ]] && [[ "$failed_names" != *tcp-tx* ]] &&
		pass "regressed report: JUnit fails $nfailed case(s), all tcp-rx ($failed_names)" ||
		fail "regressed report: JUnit '$summary'"

	rc=$(compare_job same "$tmp/no-such-baseline.json")
	[ "$rc" = 2 ] && pass "missing baseline: job exit 2" || fail "missing baseline: job exit $rc"
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
