#!/bin/bash
# SPDX-License-Identifier: MIT
# The i.MX6's own Ethernet: an armhf guest on QEMU's SABRE Lite (i.MX6Q, Cortex-A9) with Debian 13's 6.12 armmp
# kernel, its FEC driven by fec, which receives into a page_pool and lists the pool's counters with its ethtool -S
# ones. netdev netlink does not list that pool, so the run's page_pool figures come from the driver's rx_pp_*
# counters: present, moving with the traffic, and equal to the same counters in the run's ethtool -S deltas. The
# results come back over the console (the board has no disk QEMU can give it), and every knob is left as found.
# Tracing is on: each point's diagnostic repetition must see the fec's NAPI polls and IRQs through the tracepoints
# of this 32-bit kernel, and its page_pool tracepoint figures must agree with the driver's rx_pp_* deltas of the
# same window (the diagnostics' own driver_counters), as net/core/page_pool.c counts them: a page given back to
# the page allocator per recycle_ring_full or recycle_released_refcnt (page_pool_put_unrefed_netmem, one page at
# a time on fec's skb path), up to 64 pages taken per alloc_slow (a bulk refill of the alloc cache, counted once)
# and one per alloc_slow_high_order. Pages handed out (alloc_fast + alloc_slow + high order) that the tracepoints
# did not see taken came recycled: that must match recycle_cached + recycle_ring, give or take what the cache
# and the ring held more or less at the end than at the start. Without the profile: its sampling interrupts cost
# this emulated board so much that the traced rates fell to a tenth or to nothing (see docs/lab.md).
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
k=6.12
lab_require_arch armhf qemu-system-arm "$k"

echo "== armhf kernel $k, SABRE Lite, fec, 2 cores"
report=$tmp/report.json art=$tmp/art
start=$(date +%s)
lab_run_retrying "$tmp/lab.log" "$art" --arch armhf --nic fec --kernel "$k" --cpus 2 -- \
	--tests udp-rx,tcp-rx --no-profile --duration 2 --omit 1 --settle 1 --repetitions 1 -o "$report"
echo "$(($(date +%s) - start)) s wall"
[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --arch armhf --nic fec exited $lab_rc"; finish; }
j() { jq -r "$@" "$report"; }
check "report matches the schema" validate_report "$report"
check "lab record says armhf, sabrelite, fec ($(j '[.lab.arch, .lab.machine, .lab.nic] | join(", ")'))" \
	test "$(j '[.lab.arch, .lab.machine, .lab.nic] | join(",")')" = armhf,sabrelite,fec
check "the guest's CPU is ARMv7 ($(j .host.cpu_model))" test "$(j '.host.cpu_model | startswith("ARMv7")')" = true
check "interface driver is fec ($(j .interface.driver))" test "$(j .interface.driver)" = fec
check "2 points, both ok ($(j '[.results[].status] | join(",")'))" \
	test "$(j '[.results[] | select(.status == "ok")] | length')" = 2
runs='[.results[].runs[]]'
check "every run's page_pool came from ethtool -S, netlink having listed no pool" \
	test "$(j "$runs | map(.page_pool.source == \"ethtool -S\" and (.page_pool.netlink_unavailable | test(\"no pool\"))) | all")" = true
check "pages were handed out and recycled in every run ($(j "$runs | map(.page_pool.total.alloc_fast) | join(\",\")"))" \
	test "$(j "$runs | map(.page_pool.total.alloc_fast > 0 and .page_pool.total.recycle_ring > 0) | all")" = true
# the page_pool view and the driver's own view are two readings of the same counters over the same window
check "page_pool alloc_fast equals the run's rx_pp_alloc_fast ethtool -S delta" \
	test "$(j "$runs | map(.page_pool.total.alloc_fast == .driver_counters.changed.rx_pp_alloc_fast) | all")" = true
check "pp_alloc_fast is a metric of each point" \
	test "$(j '[.results[] | .metrics.pp_alloc_fast.median > 0] | all')" = true
check "udp-rx received packets ($(j '.results[] | select(.test.name == "udp-rx") | .metrics.rx_packets_per_s.median | round') /s)" \
	test "$(j '[.results[] | select(.test.name == "udp-rx") | .metrics.rx_packets_per_s.median > 0] | all')" = true
# fec's two IRQs (its queues' and its other events', both named after the device) one by one: in every run their
# own rates add up to the interface's
check "per-IRQ rates add up to interrupts_per_s in every run ($(j '[.results[0].runs[0].metrics | to_entries[] | select(.key | test("^irq[0-9]+_per_s$")) | "\(.key) \(.value | round)"] | join(", ")'))" \
	test "$(j "$runs | map(.metrics | ([to_entries[] | select(.key | test(\"^irq[0-9]+_per_s\$\")) | .value]) as \$each
		| (\$each | length) >= 1 and ((\$each | add) - .interrupts_per_s | fabs) <= 1e-6 * (.interrupts_per_s + 1)) | all")" = true
check "the NIC took interrupts in some run" test "$(j "$runs | map(.metrics.interrupts_per_s > 0) | any")" = true
# ---- the traced window (each point's diagnostic repetition) ----
check "every point has an ok diagnostic repetition ($(j '[.results[].diagnostics.status] | join(",")'))" \
	test "$(j '[.results[] | .diagnostics.status == "ok"] | all')" = true
check "the tracepoints saw fec's NAPI polls and IRQs in every traced window ($(j '[.results[] | "\(.id) \(.diagnostics.metrics.napi_polls_per_s | round) polls/s \(.diagnostics.metrics.hardirqs_per_s | round) irqs/s"] | join(", ")'))" \
	test "$(j '[.results[].diagnostics.metrics | .napi_polls_per_s > 0 and .hardirqs_per_s > 0] | all')" = true
check "the traced window's counters are its own (page_pool and driver_counters in every diagnostics)" \
	test "$(j '[.results[].diagnostics | .page_pool.source == "ethtool -S" and .driver_counters.source == "ethtool -S"] | all')" = true
# one line a point: id, pages the tracepoints saw taken and given back (-1: no figure), and the window's deltas
j -r '.results[] | .id as $id | .diagnostics | (.driver_counters.changed // {}) as $c | (.metrics // {}) as $m |
	[$id, ($m.pp_trace_alloc_pages // -1), ($m.pp_trace_release_pages // -1), ($c.rx_pp_alloc_fast // 0),
	 ($c.rx_pp_alloc_slow // 0), ($c.rx_pp_alloc_slow_high_order // 0), ($c.rx_pp_recycle_cached // 0),
	 ($c.rx_pp_recycle_ring // 0), ($c.rx_pp_recycle_ring_full // 0), ($c.rx_pp_recycle_released_refcnt // 0)]
	| @tsv' >"$tmp/pp.tsv"
# the point's notes carry the absent figures' reason
j -r '.results[] | [.id, ([.notes[]? | select(test("page_pool tracepoints: no pool took"))] | length)] | @tsv' >"$tmp/notes.tsv"
pp_points=0
while IFS=$'\t' read -r id taken given fast slow high cached ring ring_full refcnt; do
	noted=$(awk -v id="$id" '$1 == id { print $2 }' "$tmp/notes.tsv")
	moved=$((slow + high + ring_full + refcnt))
	echo "$id: tracepoints: $taken pages taken, $given given back; ethtool -S: alloc_fast $fast alloc_slow $slow" \
		"high_order $high recycle_cached $cached recycle_ring $ring ring_full $ring_full released_refcnt $refcnt"
	if [ "$taken" = -1 ]; then
		# nothing traced: only right when the counters say no page came from or went back to the allocator
		check "$id: no page_pool tracepoint figure, and the counters agree that no page moved ($moved)" test "$moved" = 0
		check "$id: the notes say why the page_pool tracepoint figures are absent" test "${noted:-0}" -ge 1
		continue
	fi
	pp_points=$((pp_points + 1))
	# the 1% of the done-when line, and at least one page: the counters and the events stop within the same
	# few instructions, not at once
	within() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; t = 0.01 * b; if (t < 1) t = 1; exit !(d <= t) }'; }
	check "$id: pages given back $given = recycle_ring_full + recycle_released_refcnt $((ring_full + refcnt)) within 1%" \
		within "$given" "$((ring_full + refcnt))"
	check "$id: pages taken $taken within alloc_slow + high_order $((slow + high)) .. 64 x alloc_slow + high_order $((64 * slow + high)) (1% slack)" \
		awk -v t="$taken" -v lo="$((slow + high))" -v hi="$((64 * slow + high))" 'BEGIN { exit !(t >= lo * 0.99 - 1 && t <= hi * 1.01 + 1) }'
	echo "$id: $(awk -v t="$taken" -v s="$slow" -v h="$high" 'BEGIN { if (s > 0) printf "%.2f pages taken per alloc_slow", (t - h) / s; else printf "no alloc_slow" }')"
	handed=$((fast + slow + high))
	implied=$((handed - taken))
	# what the cache (128) and the ring (fec: its RX ring's size) held more at one edge than at the other
	slack=$(awk -v h="$handed" 'BEGIN { s = 0.01 * h; if (s < 128 + 512) s = 128 + 512; printf "%d", s }')
	check "$id: recycling implied by the tracepoints ($implied of $handed pages handed out) matches recycle_cached + recycle_ring ($((cached + ring))) within $slack pages" \
		awk -v a="$implied" -v b="$((cached + ring))" -v s="$slack" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= s) }'
done <"$tmp/pp.tsv"
check "some point's page_pool moved pages to or from the allocator, and the tracepoints saw it ($pp_points points)" \
	test "$pp_points" -ge 1
k_of() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
for knob in irq_affinity threaded gro_flush_timeout napi_defer_hard_irqs; do
	check "$knob left as found ($(k_of before "$knob") -> $(k_of after "$knob"))" \
		test "$(k_of before "$knob")" = "$(k_of after "$knob")" -a "$(k_of after "$knob")" != null
done
echo "boot $(j .lab.boot_s) s wall, guest $(j .lab.guest_boot_s) s; $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
finish
