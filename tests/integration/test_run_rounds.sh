#!/bin/bash
# SPDX-License-Identifier: MIT
# A small alternating set on the veth test bed: 2 rounds a side (A B, B A), each a report made with
# --round SIDE:I/2:SET, one of them interleaved. Checks the report objects (round, diagnostics in round 1
# only, each interleaved run's round), `nicbench report`'s round line, bad --round values (exit 2), and that
# compare over rounds (A1 A2 -- B1 B2) reads the set: a verdict (0, 1 or 3), never an input error.
set -u
NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
nb_require_root
nb_in_testbed nbrrt 10.200.88
nb_work_dir

run_round() {  # run_round SIDE I [options]
	local side=$1 i=$2
	shift 2
	"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx,tcp-rx --duration 1 --omit 0 --repetitions 2 \
		--settle 0.2 --idle-check 0 --peer-local --no-raw --no-profile --journal "$work/journal" \
		--round "$side:$i/2:itest" -o "$work/$side$i.json" "$@" >"$work/run.log" 2>&1 ||
		{ cat "$work/run.log"; fail "nicbench run --round $side:$i/2 failed"; }
}

for bad in C:1/2 A:3/2 A:0/2 A:1 "A:1/2:no spaces"; do
	"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --round "$bad" -o "$work/bad.json" 2>"$work/bad.err"
	expect "exit code of --round '$bad'" "$?" 2
	grep -q -- "--round" "$work/bad.err" || fail "--round '$bad': the message does not name the flag: $(cat "$work/bad.err")"
done

run_round A 1 --interleave
run_round B 1
run_round B 2
run_round A 2

for f in A1 A2 B1 B2; do
	side=${f:0:1} i=${f:1:1}
	expect "$f round" "$(jq -c .round "$work/$f.json")" "{\"side\":\"$side\",\"index\":$i,\"of\":2,\"set\":\"itest\"}"
	want=false
	[ "$i" = 1 ] && want=true
	expect "$f diagnostics.in_this_report" "$(jq .diagnostics.in_this_report "$work/$f.json")" "$want"
	# tracing may be unavailable (no tracefs): then no report holds the repetition, with the reason per point
	expect "$f points with a diagnostic repetition or a reason" \
		"$(jq '[.results[] | select(has("diagnostics") or has("trace_unavailable"))] | length' "$work/$f.json")" \
		"$([ "$i" = 1 ] && echo 2 || echo 0)"
done
expect "A1 interleaved runs' rounds" "$(jq -c '[.results[].runs[].round]' "$work/A1.json")" "[1,2,1,2]"
expect "B1 sequential runs carry no round" "$(jq -c '[.results[].runs[] | has("round")] | any' "$work/B1.json")" false
"$NB_BIN" report "$work/B2.json" >"$work/report.txt" || fail "nicbench report B2.json failed"
grep -qx "round B 2/2, set itest; diagnostics in round 1 (not this report)" "$work/report.txt" ||
	fail "nicbench report does not show the round line: $(head -3 "$work/report.txt")"
echo "ok: nicbench report shows the round"

"$NB_BIN" compare "$work/A1.json" "$work/A2.json" -- "$work/B1.json" "$work/B2.json" >"$work/cmp.txt" 2>"$work/cmp.err"
rc=$?
cat "$work/cmp.txt" "$work/cmp.err"
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ] || fail "compare over rounds: exit $rc (want a verdict: 0, 1 or 3)"
grep -qi "round" "$work/cmp.txt" || fail "compare over rounds does not say it compared rounds"
echo "ok: compare read the rounds (exit $rc)"
echo "all checks passed"
