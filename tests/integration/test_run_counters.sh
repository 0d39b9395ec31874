#!/bin/bash
# SPDX-License-Identifier: MIT
# The counters that explain a run, on the veth test bed: every run holds its ethtool -S
# deltas (veth's NAPI counts the packets it polls), page_pool deltas or their absence with the
# reason, and every point the kernel log lines logged while it ran (a line the test writes to
# /dev/kmsg naming the interface during the sweep must be in one).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
[ -r /dev/kmsg ] && [ -w /dev/kmsg ] || { echo "SKIP: /dev/kmsg not readable and writable"; exit 77; }
nb_in_testbed nbr8 10.200.8

nb_work_dir
marker="nicbench-test-$$ $NB_IFACE counters"
rc=0
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx,udp-rx --duration 1 --omit 0 \
	--repetitions 2 --settle 0.2 -o "$work/r.json" --journal "$work/journal" &
run_pid=$!
# written while the points run: kept at level 4 (warning) and because it names the interface
for _ in 1 2 3 4; do
	sleep 1
	echo "<4>$marker" > /dev/kmsg
done
wait "$run_pid" || rc=$?
run_pid=
expect "exit code of the run" "$rc" 0
validate_report "$work/r.json"
r=$work/r.json

expect "points ok" "$(jq '[.results[] | select(.status == "ok")] | length' "$r")" 2
expect "every run has driver_counters from ethtool -S" \
	"$(jq '[.results[].runs[].driver_counters.source == "ethtool -S"] | all' "$r")" true
expect "veth lists its counters" "$(jq '[.results[].runs[].driver_counters.listed >= 10] | all' "$r")" true
# veth's NAPI counts every packet it polls (GRO on, the sender's TSO off): the peer's data under
# udp-rx, the peer's ACKs under tcp-tx
expect "rx_queue_0_xdp_packets moved in every run" \
	"$(jq '[.results[].runs[].driver_counters.changed.rx_queue_0_xdp_packets > 0] | all' "$r")" true
expect "only counters that moved are kept" \
	"$(jq '[.results[].runs[].driver_counters.changed[] > 0] | all' "$r")" true
expect "peer_ifindex (a constant) is not a change" \
	"$(jq '[.results[].runs[].driver_counters.changed | has("peer_ifindex")] | any' "$r")" false
# veth counts no missed/fifo drops: the metrics the NIC-drops rule reads are absent, not 0
expect "no rx_missed_errors metric on veth" \
	"$(jq '[.results[].runs[].metrics | has("rx_missed_errors")] | any' "$r")" false

# page_pool: pools with counters, or absent with the reason (6.18: veth's pools are not tied to
# the device, so page-pool-get lists none) and then no pp_* metric
expect "page_pool present or absent with a reason" \
	"$(jq '[.results[].runs[].page_pool | has("pools") or .source == "ethtool -S" or (.unavailable | type == "string" and length > 10)] | all' "$r")" true
expect "no pp_* metric where page_pool is absent" \
	"$(jq '[.results[].runs[] | select(.page_pool | has("unavailable")) | .metrics | keys[] | startswith("pp_")] | any' "$r")" false
expect "pp_* metrics where pools are listed" \
	"$(jq '[.results[].runs[] | select(.page_pool | has("pools")) | .metrics | has("pp_inflight_pages")] | all' "$r")" true
jq -r '.results[0].runs[0].page_pool | .unavailable // "pools: \(.pools | length)"' "$r"

# `knobs counters`: what a run reads, now: veth's ethtool -S as "name value" lines, as many as the header says,
# and the page_pool view; an unknown interface is a usage error
"$NB_BIN" knobs counters -i "$NB_IFACE" >"$work/counters.txt"
listed=$(sed -n 's/^# ethtool -S .*: \([0-9]*\) counters$/\1/p' "$work/counters.txt")
expect "knobs counters: one line a counter" "$(grep -c '^[a-z0-9_]* [0-9][0-9]*$' "$work/counters.txt")" "$listed"
expect "knobs counters: as many as the run listed" "$listed" "$(jq '.results[0].runs[0].driver_counters.listed' "$r")"
expect "knobs counters: peer_ifindex is veth's" "$(grep -c '^peer_ifindex [1-9]' "$work/counters.txt")" 1
expect "knobs counters: a page_pool line" "$(grep -c '^# page_pool of ' "$work/counters.txt")" 1
rc=0
"$NB_BIN" knobs counters -i nosuch0 >/dev/null 2>"$work/counters.err" || rc=$?
expect "knobs counters -i nosuch0 exits 2" "$rc" 2
grep -q "nosuch0" "$work/counters.err" || fail "the error does not name the interface: $(cat "$work/counters.err")"

expect "every point has a kernel_log" "$(jq '[.results[] | .kernel_log | has("lines")] | all' "$r")" true
expect "the marker line is in a point's kernel log" \
	"$(jq --arg m "$marker" '[.results[].kernel_log.lines[] | select(.text == $m)] | length > 0' "$r")" true
expect "it was kept at level 4" \
	"$(jq --arg m "$marker" '[.results[].kernel_log.lines[] | select(.text == $m) | .level == 4] | all' "$r")" true
expect "no line is longer than the cap" "$(jq '[.results[].kernel_log.lines[].text | length < 200] | all' "$r")" true
echo "PASS"
