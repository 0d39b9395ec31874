#!/bin/bash
# SPDX-License-Identifier: MIT
# The starving board (seed 000's RZ/Five case) on the lab: a 1-vCPU 6.1 guest flooded with UDP (udp-rx at -b0),
# threaded=0 without coalescing against threaded=1 with software coalescing (20000 ns, 1). The sweep must finish
# with every point recorded (ok with figures, or timeout/failed with why), the knobs restored and the guest alive.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1

report=$tmp/starving.json art=$tmp/art
"$NB_SRC/scripts/lab" run --kernel 6.1 --cpus 1 --artifacts "$art" -- --tests udp-rx --rate 0 \
	--knob threaded=0,1 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 \
	--duration 3 --omit 1 --settle 1 --repetitions 1 -o "$report" >"$tmp/lab.log" 2>&1
rc=$?
tail -n 12 "$tmp/lab.log"
check "scripts/lab run exited 0 or 1 (a point may time out), not $rc" test "$rc" -eq 0 -o "$rc" -eq 1
[ -f "$report" ] || { fail "no report at $report"; finish; }
j() { jq -r "$@" "$report"; }
check "report matches the schema" validate_report "$report"
check "the guest had 1 vCPU ($(j .host.cpus), lab $(j .lab.cpus))" test "$(j '[.host.cpus, .lab.cpus] | join(",")')" = "1,1"
check "all 4 points recorded" test "$(j '.results | length')" = 4
check "each point ok with throughput, or timeout/failed with an error" \
	test "$(j '[.results[] | select((.status == "ok" and .metrics.throughput_bps.median > 0)
		or (.status != "ok" and (.error // "") != ""))] | length')" = 4
check "a flood: more than half of the datagrams lost on every ok point" \
	test "$(j '[.results[] | select(.status == "ok" and (.metrics.lost_percent.median // 0) <= 50)] | length')" = 0
for m in softirq_pct time_squeeze udp_rcvbuf_errors interrupts_per_s; do
	check "$m on every ok point" test "$(j "[.results[] | select(.status == \"ok\" and .metrics.$m == null)] | length")" = 0
done
check "napi_thread_pct on the ok threaded=1 points" \
	test "$(j '[.results[] | select(.status == "ok" and .knobs.threaded == 1 and .metrics.napi_thread_pct == null)] | length')" = 0
k() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
for knob in threaded gro_flush_timeout napi_defer_hard_irqs rx-usecs; do
	check "$knob restored ($(k before "$knob") -> $(k after "$knob"))" \
		test "$(k before "$knob")" = "$(k after "$knob")" -a "$(k after "$knob")" != null
done
check "the guest was alive after the sweep (uptime $(cat "$art/alive" 2>/dev/null) s)" test -s "$art/alive"
finish
