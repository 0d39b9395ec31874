#!/bin/bash
# SPDX-License-Identifier: MIT
# IRQs by role on a real driver: the 6.1 e1000e guest (MSI-X vectors eth0-rx-0, eth0-tx-0, eth0) with a board
# profile whose irq_names patterns alone pick the NIC's IRQs (they name no interface, and leave the misc vector
# "eth0" out), sweeping irq_affinity=rx:0,tx:1 and rx:0,tx:0 as seed 004's lantiq engineer did by hand. The report
# must show the point ids by role, the affinities read back as set, per-role and per-CPU interrupt rates that
# follow the setting, no irqbalance and no foreign moves, and every vector's affinity restored after the sweep.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1

report=$tmp/irq-roles.json art=$tmp/art
# Patterns that could be any driver's: without them nicbench would also take the misc vector "eth0".
cat >"$tmp/board.json" <<'JSON'
{
  "board": {"name": "QEMU e1000e (lab)", "cpus": 2, "irq_names": {"rx": "*-rx-[0-9]*", "tx": "*-tx-[0-9]*"}},
  "knobs": {"irq_affinity": ["rx:0,tx:1", "rx:0,tx:0"]}
}
JSON
lab_run_retrying "$tmp/lab.log" "$art" --kernel 6.1 --cpus 2 -- --config "$tmp/board.json" --tests tcp-rx \
	--duration 3 --omit 1 --settle 1 --repetitions 1 -o "$report"
rc=$lab_rc
[ $rc -eq 0 ] || { fail "scripts/lab run exited $rc"; finish; }
[ -f "$report" ] || { fail "no report at $report"; finish; }
check "report matches the schema (with its lab record)" validate_report "$report"
j() { jq -r "$@" "$report"; }
p() { jq -r "[.results[] | select(.knobs.irq_affinity == \"$1\")][0] | $2" "$report"; }

check "nic e1000e" test "$(j .lab.nic)" = e1000e
for v in eth0-rx-0 eth0-tx-0 eth0; do
	check "/proc/interrupts has vector $v" grep -Eq "[[:space:]]$v\$" "$art/interrupts-before.txt"
done
check "every point ok ($(j '[.results[] | .status] | join(",")'))" \
	test "$(j '[.results[] | select(.status != "ok")] | length')" = 0
check "point ids by role ($(j '[.results[].id] | join(" ")'))" \
	test "$(j '[.results[].id] | join(" ")')" = "tcp-rx/irq_affinity=rx0-tx1 tcp-rx/irq_affinity=rx0-tx0"
# Read back: a list per role where the roles differ, one list where every IRQ agrees.
check "irq_affinity read back as rx:0,tx:1 and 0 ($(j '[.results[].knobs.irq_affinity] | join(" ")'))" \
	test "$(j '[.results[].knobs.irq_affinity] | join(" ")')" = "rx:0,tx:1 0"

# Roles: rx and tx counted, misc absent (the patterns leave "eth0" out: missing, not 0).
for a in "rx:0,tx:1" 0; do
	check "point $a: irq_rx_per_s ($(p $a .metrics.irq_rx_per_s.median)) and irq_tx_per_s ($(p $a .metrics.irq_tx_per_s.median)) > 0" \
		test "$(p $a '(.metrics.irq_rx_per_s.median // 0) > 0 and (.metrics.irq_tx_per_s.median // 0) > 0')" = true
	check "point $a: irq_misc_per_s absent" test "$(p $a .metrics.irq_misc_per_s)" = null
	check "point $a: interrupts_per_s = rx + tx" \
		test "$(p $a '.metrics | ((.interrupts_per_s.median - .irq_rx_per_s.median - .irq_tx_per_s.median) | fabs) < 0.01 * .interrupts_per_s.median')" = true
	check "point $a: irqbalance_running 0, irq_affinity_moved 0" \
		test "$(p $a '[.metrics.irqbalance_running.median, .metrics.irq_affinity_moved.median] | join(",")')" = "0,0"
	check "point $a: traffic_cpu_close recorded ($(p $a .metrics.traffic_cpu_close.median))" \
		test "$(p $a '.metrics.traffic_cpu_close.median != null')" = true
done
# One by one: each role has one vector here, so each vector's own rate (irqN_per_s) is its role's.
irq_of() { awk -v n="$1" '$NF == n { sub(":", "", $1); print $1 }' "$art/interrupts-before.txt"; }
rxn=$(irq_of eth0-rx-0) txn=$(irq_of eth0-tx-0)
for a in "rx:0,tx:1" 0; do
	check "point $a: irq${rxn}_per_s is irq_rx_per_s, irq${txn}_per_s is irq_tx_per_s" \
		test "$(p $a ".metrics | .\"irq${rxn}_per_s\".median == .irq_rx_per_s.median and .\"irq${txn}_per_s\".median == .irq_tx_per_s.median")" = true
done
# Per CPU: with tx on CPU 1 its interrupts land there; with both on CPU 0 CPU 1 takes none of the NIC's.
c1=$(p "rx:0,tx:1" .metrics.cpu1_interrupts_per_s.median) tx=$(p "rx:0,tx:1" .metrics.irq_tx_per_s.median)
c0=$(p "rx:0,tx:1" .metrics.cpu0_interrupts_per_s.median) rx=$(p "rx:0,tx:1" .metrics.irq_rx_per_s.median)
check "rx:0,tx:1: cpu1_interrupts_per_s ($c1) is tx's ($tx) within 10%" \
	awk -v a="$c1" -v b="$tx" 'BEGIN { exit !(b > 0 && a >= 0.9 * b && a <= 1.1 * b) }'
check "rx:0,tx:1: cpu0_interrupts_per_s ($c0) is rx's ($rx) within 10%" \
	awk -v a="$c0" -v b="$rx" 'BEGIN { exit !(b > 0 && a >= 0.9 * b && a <= 1.1 * b) }'
c1=$(p 0 .metrics.cpu1_interrupts_per_s.median) all=$(p 0 .metrics.interrupts_per_s.median)
check "rx:0,tx:0: cpu1_interrupts_per_s ($c1) under 2% of interrupts_per_s ($all)" \
	awk -v a="$c1" -v b="$all" 'BEGIN { exit !(b > 0 && a < 0.02 * b) }'

# Restored: every vector (knobs show finds them by name, the misc one too) as before the sweep.
k() { jq -r ".knobs.irq_affinity.value" "$art/knobs-$1.json"; }
check "irq_affinity restored after the sweep ($(k before) -> $(k after))" test "$(k before)" = "$(k after)" -a "$(k after)" != null
finish
