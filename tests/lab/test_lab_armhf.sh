#!/bin/bash
# SPDX-License-Identifier: MIT
# An armhf guest (QEMU virt under TCG, Cortex-A15, virtio-net) on Debian 12's armmp kernel running the static armhf
# nicbench of scripts/cross-build, the binary a 32-bit Arm board (TI cpsw, i.MX6) gets: a sweep of irq_affinity
# over CPU 0 and CPU 1 finishes with both points ok, reads the affinity back as set, moves the NIC's interrupts,
# and leaves every knob as it found it.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
k=6.1
lab_require_arch armhf qemu-system-arm "$k"

echo "== armhf kernel $k, virtio-net, 2 vCPUs"
report=$tmp/report.json art=$tmp/art
start=$(date +%s)
lab_run_retrying "$tmp/lab.log" "$art" --arch armhf --kernel "$k" --cpus 2 -- \
	--tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 --knob irq_affinity=0/1 -o "$report"
echo "$(($(date +%s) - start)) s wall"
[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --arch armhf --kernel $k exited $lab_rc"; finish; }
j() { jq -r "$@" "$report"; }
check "report matches the schema" validate_report "$report"
check "lab record says armhf, tcg, virtio-net ($(j '.lab.arch + ", " + .lab.accel + ", " + .lab.nic'))" \
	test "$(j '.lab.arch + "," + .lab.accel + "," + .lab.nic')" = armhf,tcg,virtio-net
check "guest kernel is Debian's armmp $k ($(j .host.kernel.release))" \
	test "$(j ".host.kernel.release | startswith(\"$k.\") and endswith(\"-armmp\")")" = true
# an ARMv7 guest runs no x86 or arm64 binary: the report came from the armhf build
check "the guest's CPU is ARMv7 ($(j .host.cpu_model))" test "$(j '.host.cpu_model | startswith("ARMv7")')" = true
check "interface driver is virtio_net ($(j .interface.driver))" test "$(j .interface.driver)" = virtio_net
check "2 points, both ok with throughput ($(j '[.results[].status] | join(",")'))" \
	test "$(j '[.results[] | select(.status == "ok" and .metrics.throughput_bps.median > 0)] | length')" = 2
check "irq_affinity read back as set ($(j '[.results[].knobs.irq_affinity] | join(",")'))" \
	test "$(j '[.results[].knobs.irq_affinity] | join(",")')" = 0,1
k_of() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
for knob in irq_affinity threaded gro_flush_timeout napi_defer_hard_irqs; do
	check "$knob left as found ($(k_of before "$knob") -> $(k_of after "$knob"))" \
		test "$(k_of before "$knob")" = "$(k_of after "$knob")" -a "$(k_of after "$knob")" != null
done
# The second point pinned the queues' vectors to CPU 1: CPU 1 took interrupts of virtio0-input.* during the run.
cpu1=$(awk '/virtio0-input/ { n += $3 } END { print n + 0 }' "$art/interrupts-after.txt")
cpu1_before=$(awk '/virtio0-input/ { n += $3 } END { print n + 0 }' "$art/interrupts-before.txt")
check "CPU 1 took RX interrupts while pinned there ($cpu1_before -> $cpu1)" test "$cpu1" -gt $((cpu1_before + 100))
echo "boot $(j .lab.boot_s) s wall, guest $(j .lab.guest_boot_s) s; $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
finish
