#!/bin/bash
# SPDX-License-Identifier: MIT
# A mipsel guest (QEMU malta under TCG, a 34K core, e1000 on malta's PCI) on Debian 12's 4kc-malta kernel running
# the static mipsel nicbench of scripts/cross-build: a threaded sweep finishes with both points ok and the knobs as
# found; then irq_affinity, which malta cannot route (the e1000's interrupt is on the i8259, which has no
# affinity), fails its point with the kernel's own error and leaves the affinity as it was.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
k=6.1
lab_require_arch mipsel qemu-system-mipsel "$k"
k_of() { jq -r ".knobs[\"$2\"].value" "$3/knobs-$1.json"; }

echo "== mipsel kernel $k, e1000, 1 vCPU: threaded 0 and 1"
report=$tmp/threaded.json art=$tmp/art-threaded
start=$(date +%s)
lab_run_retrying "$tmp/lab-threaded.log" "$art" --arch mipsel --kernel "$k" --cpus 1 -- \
	--tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 --knob threaded=0,1 -o "$report"
echo "$(($(date +%s) - start)) s wall"
if [ "$lab_rc" -eq 0 ] && [ -f "$report" ]; then
	j() { jq -r "$@" "$report"; }
	check "report matches the schema" validate_report "$report"
	check "lab record says mipsel, tcg, e1000 ($(j '.lab.arch + ", " + .lab.accel + ", " + .lab.nic'))" \
		test "$(j '.lab.arch + "," + .lab.accel + "," + .lab.nic')" = mipsel,tcg,e1000
	check "guest kernel is Debian's 4kc-malta $k ($(j .host.kernel.release))" \
		test "$(j ".host.kernel.release | startswith(\"$k.\") and endswith(\"-4kc-malta\")")" = true
	check "the guest's CPU is the 34K ($(j .host.cpu_model))" test "$(j '.host.cpu_model | startswith("MIPS 34K")')" = true
	check "interface driver is e1000 ($(j .interface.driver))" test "$(j .interface.driver)" = e1000
	check "2 points, both ok with throughput ($(j '[.results[].status] | join(",")'))" \
		test "$(j '[.results[] | select(.status == "ok" and .metrics.throughput_bps.median > 0)] | length')" = 2
	check "threaded read back as set (0 and 1)" test "$(j '[.results[].knobs.threaded | tostring] | join(",")')" = 0,1
	for knob in threaded gro_flush_timeout napi_defer_hard_irqs irq_affinity; do
		check "$knob left as found ($(k_of before "$knob" "$art") -> $(k_of after "$knob" "$art"))" \
			test "$(k_of before "$knob" "$art")" = "$(k_of after "$knob" "$art")" -a "$(k_of after "$knob" "$art")" != null
	done
	echo "boot $(j .lab.boot_s) s wall, guest $(j .lab.guest_boot_s) s; $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
else
	fail "scripts/lab run --arch mipsel --kernel $k (threaded) exited $lab_rc"
fi

echo "== mipsel kernel $k: irq_affinity=0, which malta's i8259 cannot take"
report=$tmp/affinity.json art=$tmp/art-affinity
lab_run_retrying "$tmp/lab-affinity.log" "$art" --arch mipsel --kernel "$k" --cpus 1 -- \
	--tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 --knob irq_affinity=0 -o "$report"
# nicbench's exit code when a point failed is 1; the report is still handed back
if [ "$lab_rc" -eq 1 ] && [ -f "$report" ]; then
	err=$(jq -r '.results[0].error // empty' "$report")
	check "the point failed ($(jq -r '.results[0].status' "$report"))" test "$(jq -r '.results[0].status' "$report")" = failed
	# "IRQ 10 (eth0): Input/output error (...: ... or its interrupt controller cannot steer it (an i8259 XT-PIC, say))"
	err_names_eio() {
		[[ "$err" =~ ^set\ irq_affinity=0\ on\ eth0:\ IRQ\ [0-9]+\ \(eth0\):\ Input/output\ error ]] &&
			[[ "$err" == *"cannot steer it (an i8259 XT-PIC"* ]]
	}
	check "its error names the knob, the IRQ, the kernel's EIO and the i8259 as a cause ($err)" err_names_eio
	check "irq_affinity left as found ($(k_of before irq_affinity "$art") -> $(k_of after irq_affinity "$art"))" \
		test "$(k_of before irq_affinity "$art")" = "$(k_of after irq_affinity "$art")" -a "$(k_of after irq_affinity "$art")" != null
	check "the e1000's interrupt is on the i8259 (XT-PIC)" grep -q 'XT-PIC.*eth0' "$art/interrupts-after.txt"
else
	fail "scripts/lab run --arch mipsel --kernel $k (irq_affinity) exited $lab_rc, expected 1 with a report"
fi
finish
