#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGKILL during a point's second repetition: `nicbench knobs restore` puts the knobs back and
# writes the report from the run record, with the first repetition in it and the point marked
# incomplete (valid against the schema); compare reads that report and says so.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbk12 10.200.112

nb_work_dir
sys=/sys/class/net/$NB_IFACE
echo 0 > "$sys/threaded"
echo 34567 > "$sys/gro_flush_timeout"

record=$work/kill.json.record
runs_in_record() { # how many finished repetitions the record holds
	[ -e "$record" ] || { echo 0; return; }
	grep -c '"type":"run"' "$record" || true
}

"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 2 --omit 0 --repetitions 3 \
	--settle 0.2 --knob threaded=1 --knob gro_flush_timeout=0 -o "$work/kill.json" --journal "$work/journal" \
	2>"$work/kill.err" &
run_pid=$!
for _ in $(seq 150); do
	[ "$(runs_in_record)" -ge 1 ] && break
	sleep 0.1
done
expect "finished repetitions in the record before the kill" "$(runs_in_record)" 1
# well inside the second repetition (settle 0.2 s + connect, then 2 s of traffic)
sleep 1.2
expect "still in the second repetition" "$(runs_in_record)" 1
expect "threaded while the run is on" "$(knob threaded)" 1
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null || true
run_pid=
[ ! -e "$work/kill.json" ] || fail "a report was written before the end of the run (the record should hold the runs)"
[ -e "$work/journal" ] || fail "no journal after SIGKILL"
grep -q "^@record	$record\$" "$work/journal" || fail "the journal does not name the run record: $(cat "$work/journal")"

"$NB_BIN" knobs restore --journal "$work/journal" > "$work/restore.out" || fail "knobs restore failed: $(cat "$work/restore.out")"
cat "$work/restore.out"
expect "threaded after SIGKILL + knobs restore" "$(knob threaded)" 0
expect "gro_flush_timeout after SIGKILL + knobs restore" "$(knob gro_flush_timeout)" 34567
[ ! -e "$work/journal" ] || fail "journal left behind after knobs restore"
grep -q "wrote report $work/kill.json" "$work/restore.out" || fail "knobs restore did not say where the report went"
[ ! -e "$record" ] || fail "the run record is left after the report was written from it"
validate_report "$work/kill.json"
expect "points in the report" "$(jq '.results | length' "$work/kill.json")" 1
expect "status of the point cut short" "$(jq -r '.results[0].status' "$work/kill.json")" incomplete
expect "repetitions kept" "$(jq '.results[0].runs | length' "$work/kill.json")" 1
expect "the kept repetition" "$(jq -r '.results[0].runs[0].status' "$work/kill.json")" ok
expect "its raw iperf output" "$(jq '.results[0].runs[0].iperf.end.sum_received.bits_per_second > 0' "$work/kill.json")" true
expect "throughput aggregated from it" "$(jq '.results[0].metrics.throughput_bps.n' "$work/kill.json")" 1
expect "knob read back" "$(jq -r '.results[0].knobs.threaded' "$work/kill.json")" 1
# the report of a killed run says what its journal found and what knobs restore left
expect "restore status" "$(jq -r '.restore.status' "$work/kill.json")" ok
expect "gro_flush_timeout original (read before the run)" \
	"$(jq -r '[.restore.knobs[] | select(.knob == "gro_flush_timeout") | .original] | unique | join(",")' "$work/kill.json")" 34567
expect "gro_flush_timeout after (as read now)" \
	"$(jq -r '[.restore.knobs[] | select(.knob == "gro_flush_timeout") | .after] | unique | join(",")' "$work/kill.json")" \
	"$(knob gro_flush_timeout)"
expect "threaded original and after" \
	"$(jq -r '[.restore.knobs[] | select(.knob == "threaded") | .original, .after] | unique | join(",")' "$work/kill.json")" 0

# a second restore finds nothing to do and says so
rc=0
"$NB_BIN" knobs restore --journal "$work/journal" >/dev/null 2>&1 || rc=$?
expect "exit code of a second knobs restore" "$rc" 2

# compare reads the incomplete point's finished run and says it was incomplete
rc=0
"$NB_BIN" compare "$work/kill.json" "$work/kill.json" > "$work/cmp.out" 2>&1 || rc=$?
cat "$work/cmp.out"
grep -qi "incomplete" "$work/cmp.out" || fail "compare does not say the point was incomplete"
echo "PASS"
