#!/bin/bash
# SPDX-License-Identifier: MIT
# A small sweep on the veth test bed writes a valid report with the knobs as read back, prints the
# table `report --format table` prints of it,
# hardware coalescing (which veth lacks) gives unsupported points, and every knob is
# back to its unusual starting value afterwards.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbr1 10.200.3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo 1 > "/sys/class/net/$NB_IFACE/threaded"
echo 12345 > "/sys/class/net/$NB_IFACE/gro_flush_timeout"
echo 3 > "/sys/class/net/$NB_IFACE/napi_defer_hard_irqs"

rc=0
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx,udp-rx --duration 1 --omit 0 \
	--repetitions 2 --settle 0.2 --no-trace --knob threaded=0,1 \
	--knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 \
	-o "$work/r.json" --journal "$work/journal" >"$work/run.out" || rc=$?
expect "exit code of the sweep" "$rc" 0
# the table printed after the run is the report's table, read back from the file: byte for byte
# what `report --format table` prints (the run adds only its count line)
"$NB_BIN" report "$work/r.json" --format table >"$work/table.out"
grep -v '^[0-9]* ok, [0-9]* failed or timed out' "$work/run.out" | grep -v '^nicbench run:' >"$work/run.table" || true
cmp -s "$work/run.table" "$work/table.out" || { diff "$work/run.table" "$work/table.out"; fail "the run's table differs from report --format table"; }
grep -q "spread: (max - min) / median" "$work/table.out" || fail "report --format table has no legend"
expect "threaded after the sweep" "$(knob threaded)" 1
expect "gro_flush_timeout after the sweep" "$(knob gro_flush_timeout)" 12345
expect "napi_defer_hard_irqs after the sweep" "$(knob napi_defer_hard_irqs)" 3
[ ! -e "$work/journal" ] || fail "journal left behind after a normal end"
validate_report "$work/r.json"

r=$work/r.json
expect "points" "$(jq '.results | length' "$r")" 8
expect "points ok" "$(jq '[.results[] | select(.status == "ok")] | length' "$r")" 8
expect "schema" "$(jq -r .schema "$r")" nicbench-report/1
expect "interface driver" "$(jq -r .interface.driver "$r")" veth
# knobs are recorded as read back, and they match what the id asked for
expect "read-back knobs match the ids" \
	"$(jq '[.results[] | (.id | split("/")[1:] | map(split("=") | {(.[0]): (.[1] | tonumber? // .)}) | add) == .knobs] | all' "$r")" true
expect "throughput > 0 everywhere" "$(jq '[.results[].metrics.throughput_bps.median > 0] | all' "$r")" true
expect "runs per point" "$(jq '[.results[].metrics.throughput_bps.n == 2] | all' "$r")" true
for m in cpu_busy_pct softirq_pct irq_pct user_pct system_pct; do
	expect "$m present everywhere" "$(jq --arg m "$m" '[.results[].metrics | has($m)] | all' "$r")" true
done
expect "lost_percent on UDP points" "$(jq '[.results[] | select(.test.protocol == "udp") | .metrics | has("lost_percent")] | all' "$r")" true
expect "no lost_percent on TCP points" "$(jq '[.results[] | select(.test.protocol == "tcp") | .metrics | has("lost_percent")] | any' "$r")" false
# NAPI threads exist only in threaded mode: their CPU share is absent, not 0, without them
expect "napi_thread_pct only with threaded=1" \
	"$(jq '[.results[] | (.knobs.threaded == 1) == (.metrics | has("napi_thread_pct"))] | all' "$r")" true
expect "raw iperf JSON kept" "$(jq '[.results[].runs[].iperf.end | type == "object"] | all' "$r")" true
expect "raw samples kept" "$(jq '[.results[].runs[].samples.t | length > 3] | all' "$r")" true
# every series column has a number in each run; the napi/ threads' column only with threaded=1
for col in cpu_busy_pct softirq_pct irq_pct rx_packets_per_s tx_packets_per_s; do
	expect "samples.$col measured" \
		"$(jq --arg c "$col" '[.results[].runs[] | .samples[$c] // [] | map(numbers) | length > 0] | all' "$r")" true
done
expect "samples.napi_thread_pct only with threaded=1" "$(jq '[.results[] | (.knobs.threaded == 1) ==
	([.runs[] | .samples.napi_thread_pct // [] | map(numbers) | length > 0] | all)] | all' "$r")" true
expect "tcp-tx samples see packets sent" \
	"$(jq '[.results[] | select(.test.name == "tcp-tx") | .runs[].samples.tx_packets_per_s | max > 1000] | all' "$r")" true

# veth has no hardware coalescing: unsupported points, exit 0, the reason in the report
rc=0
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0 --knob rx-usecs=10,50 -o "$work/hw.json" --journal "$work/journal" --no-raw --json \
	>"$work/stdout.json" || rc=$?
expect "exit code with unsupported knobs" "$rc" 0
expect "unsupported points" "$(jq '[.results[] | select(.status == "unsupported")] | length' "$work/hw.json")" 2
jq -e '.results[0].error | test("rx-usecs")' "$work/hw.json" >/dev/null || fail "unsupported error does not name the knob"
validate_report "$work/hw.json"
expect "--json prints the report on stdout" "$(jq -c .results "$work/stdout.json")" "$(jq -c .results "$work/hw.json")"
expect "threaded still as before" "$(knob threaded)" 1
echo "PASS"
