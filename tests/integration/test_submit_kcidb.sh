#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench submit against a loopback stand-in for KCIDB's REST daemon (kcidb_rest_server.py, python3's http.server
# on 127.0.0.1 and a free port, whose ingester validates against schema/kcidb): processed after inprogress and
# ready (exit 0, the file archived byte for byte); failed by validation (exit 1, the reason printed); 401, 413,
# 503 then success, 503 for ever and a timeout, each with its documented exit code and the retries it should make;
# http to a non-loopback host refused; and the token in no output, no trace and no log. Needs no root.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

: "${NB_BIN:?NB_BIN must point at the nicbench binary}"
: "${NB_SRC:?NB_SRC must point at the source tree}"
FIX=${NB_FIXTURES:-$NB_SRC/tests/fixtures}
SCHEMA=$NB_SRC/schema/kcidb/kcidb-v5.3.schema.json
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed"
grep -q KCIDB_REST <<<"$("$NB_BIN" submit --help)" || fail "nicbench submit --help says nothing of KCIDB_REST"

TMP=$(mktemp -d /tmp/nb-submit-kcidb.XXXXXX)
srv_pid=
trap '[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; [ -n "${NB_KEEP:-}" ] || rm -rf "$TMP"' EXIT

# a token that looks like kcidb-ng's (a JWT), random so a grep for it cannot hit anything else
TOKEN="eyJhbGciOiJIUzI1NiJ9.$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9').sig$RANDOM"
python3 "$NB_SRC/tests/integration/kcidb_rest_server.py" --token "$TOKEN" --schema "$SCHEMA" \
	--spool "$TMP/spool" --log "$TMP/server.log" >"$TMP/port" 2>"$TMP/server.err" &
srv_pid=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
PORT=$(cat "$TMP/port")
[ -n "$PORT" ] || fail "the stand-in server did not start: $(cat "$TMP/server.err")"

# the payload: what report --format kcidb writes (a checkout, a build, tests with numbers)
"$NB_BIN" report "$FIX/report/veth-sweep.json" --format kcidb -o "$TMP/good.json" || fail "report --format kcidb"
# one KCIDB would reject: version 5.3, JSON, but a status the schema does not know (the ingester's call, not ours)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["tests"][0]["status"]="BOGUS"; json.dump(d, open(sys.argv[2],"w"))' \
	"$TMP/good.json" "$TMP/bad.json"

# submit NAME EXPECTED_EXIT PATH [submit options]: runs with KCIDB_REST on the stand-in, -v (the trace too)
submit() {
	local name=$1 want=$2 path=$3 rc=0
	shift 3
	KCIDB_REST="http://$TOKEN@127.0.0.1:$PORT$path" "$NB_BIN" submit -v --poll 0.05 --backoff 0.05 "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "$name: exit $rc, want $want; $(cat "$TMP/$name.out" "$TMP/$name.err")"
	echo "ok: $name: exit $rc"
}

submit processed 0 "" "$TMP/good.json"
grep -q 'inprogress' "$TMP/processed.out" && grep -q 'ready' "$TMP/processed.out" &&
	grep -q 'processed by http://127.0.0.1' "$TMP/processed.out" || fail "processed: $(cat "$TMP/processed.out")"
archived=$(ls "$TMP/spool/archive/")
[ "$(echo "$archived" | wc -w)" -eq 1 ] && cmp -s "$TMP/good.json" "$TMP/spool/archive/$archived" ||
	fail "the archived submission is not the file as written"
grep -q "$(basename "$archived" .json | sed 's/^submission-//')" "$TMP/processed.out" || fail "the id is not printed"
# the /submit form of KCIDB_REST (kci-dev's) names the same endpoint
submit submit_form 0 /submit "$TMP/good.json"

submit failed 1 "" "$TMP/bad.json"
grep -q 'failed: File failed to pass validation' "$TMP/failed.err" || fail "failed: no reason: $(cat "$TMP/failed.err")"

# 401: a wrong token, not retried
rc=0; KCIDB_REST="http://wrong-token@127.0.0.1:$PORT" "$NB_BIN" submit --backoff 0.05 "$TMP/good.json" \
	>"$TMP/unauth.out" 2>"$TMP/unauth.err" || rc=$?
[ "$rc" -eq 4 ] && grep -q 'HTTP 401 (the token in KCIDB_REST was not accepted)' "$TMP/unauth.err" ||
	fail "401: exit $rc, $(cat "$TMP/unauth.err")"
[ "$(grep -c '^POST /submit 401' "$TMP/server.log")" -eq 1 ] || fail "401 was retried: $(cat "$TMP/server.log")"

# 413: too large for the server, not retried
submit too_large 4 /small "$TMP/good.json"
grep -q 'HTTP 413 (the file is larger than the server takes)' "$TMP/too_large.err" || fail "413: $(cat "$TMP/too_large.err")"
[ "$(grep -c '^POST /small/submit 413' "$TMP/server.log")" -eq 1 ] || fail "413 was retried"

# 503 once on /submit and once on /status, then success: retried with backoff, exit 0
submit flaky 0 /flaky "$TMP/good.json"
grep -q 'server error: Service Unavailable; retry 1 of 5' "$TMP/flaky.out" || fail "flaky: no retry said: $(cat "$TMP/flaky.out")"
[ "$(grep -c '^POST /flaky/submit 503' "$TMP/server.log")" -eq 1 ] || fail "flaky: 503s"

# 503 for ever: exit 5 after 1 + --retries requests
submit down 5 /down "$TMP/good.json" --retries 2
[ "$(grep -c '^POST /down/submit 503' "$TMP/server.log")" -eq 3 ] || fail "down: not 3 requests"
grep -q 'kept answering with a server error after 3 request' "$TMP/down.err" || fail "down: $(cat "$TMP/down.err")"

# nobody listening: a network error, retried, exit 5
rc=0; KCIDB_REST="http://$TOKEN@127.0.0.1:1" "$NB_BIN" submit -v --backoff 0.05 --retries 1 "$TMP/good.json" \
	>"$TMP/noserver.out" 2>"$TMP/noserver.err" || rc=$?
[ "$rc" -eq 5 ] && grep -q 'could not be reached after 2 request' "$TMP/noserver.err" || fail "no server: exit $rc"

# stuck in "ready": the timeout's own exit code, the id printed
submit stuck 6 /stuck "$TMP/good.json" --timeout 0.5
grep -q "still 'ready'" "$TMP/stuck.err" || fail "stuck: $(cat "$TMP/stuck.err")"

# usage errors (2), nothing sent: no KCIDB_REST, no token, http to a host that is not loopback, not KCIDB 5.3
rc=0; env -u KCIDB_REST "$NB_BIN" submit "$TMP/good.json" 2>"$TMP/e" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'KCIDB_REST is not set' "$TMP/e" || fail "no KCIDB_REST: exit $rc"
rc=0; KCIDB_REST="http://127.0.0.1:$PORT" "$NB_BIN" submit "$TMP/good.json" 2>"$TMP/e" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'no token' "$TMP/e" || fail "no token: exit $rc, $(cat "$TMP/e")"
rc=0; KCIDB_REST="http://$TOKEN@192.0.2.1" "$NB_BIN" submit "$TMP/good.json" 2>"$TMP/plain.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'clear text' "$TMP/plain.err" || fail "http to 192.0.2.1: exit $rc, $(cat "$TMP/plain.err")"
rc=0; KCIDB_REST="http://$TOKEN@127.0.0.1:$PORT" "$NB_BIN" submit "$FIX/report/veth-sweep.json" 2>"$TMP/notkcidb.err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'not a KCIDB v5.3 document' "$TMP/notkcidb.err" || fail "a report as payload: exit $rc"

# the token: in no output, no trace (-v: headers went out, Authorization hidden) and no server log
grep -q '^> Authorization: Bearer \[token hidden\]' "$TMP/processed.err" || fail "-v shows no hidden Authorization"
grep -q '^> POST /submit' "$TMP/processed.err" || fail "-v traced nothing"
if grep -rlF "$TOKEN" "$TMP"/*.out "$TMP"/*.err "$TMP/e" "$TMP/server.log"; then
	fail "the token appears in the files above"
fi
echo PASS
