#!/bin/bash
# SPDX-License-Identifier: MIT
# Knobs come back after SIGINT (nicbench restores them itself) and after SIGKILL (the
# journal survives and `nicbench knobs restore` applies it); a leftover journal stops
# the next run before it changes anything.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbr2 10.200.4

nb_work_dir
sys=/sys/class/net/$NB_IFACE
set_unusual() {
	echo 1 > "$sys/threaded"
	echo 23456 > "$sys/gro_flush_timeout"
	echo 5 > "$sys/napi_defer_hard_irqs"
}
check_unusual() {
	expect "threaded after $1" "$(knob threaded)" 1
	expect "gro_flush_timeout after $1" "$(knob gro_flush_timeout)" 23456
	expect "napi_defer_hard_irqs after $1" "$(knob napi_defer_hard_irqs)" 5
}
# a sweep whose every point changes all three knobs away from the unusual values
start_sweep() {
	"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 2 --omit 0 --repetitions 1 \
		--settle 0.2 --no-trace --knob threaded=0 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1,1000:2 \
		-o "$work/$1.json" --journal "$work/journal" --no-raw 2>"$work/$1.err" &
	run_pid=$!
}
wait_for_points() { # FILE N: wait until the run record of report FILE holds N finished points
	for _ in $(seq 100); do
		ends=$(grep -c '"type":"end"' "$1.record" 2>/dev/null) || true
		[ "${ends:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "the run record of $1 never reached $2 points"
}

# SIGINT in the middle of the second point
set_unusual
start_sweep int
wait_for_points "$work/int.json" 1
sleep 0.5
[ "$(knob threaded)" = 0 ] || fail "the sweep did not change threaded (test is not testing anything)"
kill -INT "$run_pid"
rc=0; wait "$run_pid" || rc=$?; run_pid=
expect "exit code after SIGINT" "$rc" 130
check_unusual SIGINT
[ ! -e "$work/journal" ] || fail "journal left behind after SIGINT"
# the point the signal cut short is there, incomplete, with no run (its only one was interrupted)
expect "points kept in the report after SIGINT" "$(jq '.results | length' "$work/int.json")" 2
expect "the finished point after SIGINT" "$(jq -r '.results[0].status' "$work/int.json")" ok
expect "the point cut short by SIGINT" "$(jq -r '.results[1].status' "$work/int.json")" incomplete
expect "runs of the point cut short" "$(jq '.results[1].runs | length' "$work/int.json")" 0
[ ! -e "$work/int.json.record" ] || fail "run record left behind after SIGINT (the report holds it)"
grep -q "restored" "$work/int.err" || fail "no word of the restore on stderr: $(cat "$work/int.err")"

# SIGKILL: nothing runs in nicbench, the journal is the only way back
start_sweep kill
wait_for_points "$work/kill.json" 1
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null || true
run_pid=
[ -e "$work/journal" ] || fail "no journal after SIGKILL"
[ "$(knob threaded)" = 0 ] || fail "threaded was not changed before the kill"

# the next run refuses to start while the journal is there, and changes nothing: not the
# knobs, and not a report already at its -o path
echo '{"an": "earlier report"}' > "$work/blocked.json"
rc=0
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--knob threaded=1 -o "$work/blocked.json" --journal "$work/journal" 2>"$work/blocked.err" || rc=$?
expect "exit code with a leftover journal" "$rc" 2
grep -q "knobs restore" "$work/blocked.err" || fail "leftover-journal message does not say how to restore: $(cat "$work/blocked.err")"
expect "threaded untouched by the refused run" "$(knob threaded)" 0
expect "earlier report untouched by the refused run" "$(cat "$work/blocked.json")" '{"an": "earlier report"}'
ls "$work"/blocked.json.tmp.* >/dev/null 2>&1 && fail "temporary report file left behind"

rc=0
"$NB_BIN" knobs restore -i "$NB_IFACE" --journal "$work/journal" || rc=$?
expect "exit code of knobs restore" "$rc" 0
check_unusual "SIGKILL + knobs restore"
[ ! -e "$work/journal" ] || fail "journal left behind after knobs restore"
expect "finished points in the report written by knobs restore" \
	"$(jq '[.results[] | select(.status == "ok")] | length' "$work/kill.json")" 1
echo "PASS"
