#!/bin/bash
# SPDX-License-Identifier: MIT
# The i.MX6's own Ethernet: an armhf guest on QEMU's SABRE Lite (i.MX6Q, Cortex-A9) with Debian 13's 6.12 armmp
# kernel, its FEC driven by fec, which receives into a page_pool and lists the pool's counters with its ethtool -S
# ones. netdev netlink does not list that pool, so the run's page_pool figures come from the driver's rx_pp_*
# counters: present, moving with the traffic, and equal to the same counters in the run's ethtool -S deltas. The
# results come back over the console (the board has no disk QEMU can give it), and every knob is left as found.
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
	--tests udp-rx,tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 -o "$report"
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
k_of() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
for knob in irq_affinity threaded gro_flush_timeout napi_defer_hard_irqs; do
	check "$knob left as found ($(k_of before "$knob") -> $(k_of after "$knob"))" \
		test "$(k_of before "$knob")" = "$(k_of after "$knob")" -a "$(k_of after "$knob")" != null
done
echo "boot $(j .lab.boot_s) s wall, guest $(j .lab.guest_boot_s) s; $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
finish
