#!/bin/bash
# SPDX-License-Identifier: MIT
# What `nicbench report` prints under each point's row, read against the report's own numbers, on two lab reports
# of the seeds' recipes (tests/fixtures/report/README.md): the IRQ split the lantiq engineer set by hand is visible
# (rx:0,tx:1 puts the rx IRQ's interrupts on CPU0 and the tx IRQ's on CPU1; rx:0,tx:0 leaves CPU1 none), the MTU
# of both ends and the carrier wait, the kernel log line the change caused, the driver's counters that moved, and
# Markdown and HTML carry the same lines; on the i.MX6 guest's flood, the page_pool line. No root, no traffic.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${NB_BIN:?NB_BIN must point at the nicbench binary}"
: "${NB_SRC:?NB_SRC must point at the source tree}"
nb_work_dir
fx=$NB_SRC/tests/fixtures/report
lantiq=$fx/lab-lantiq-irq-split.json
mtu=$fx/lab-lan743x-mtu.json

"$NB_BIN" report "$lantiq" >"$work/lantiq.txt"
# the lines under a point's row, up to the next row (rows start in column 1)
notes_of() { awk -v id="$2" '$1 == id { on = 1; next } on && /^[^ ]/ { exit } on' "$1"; }
# the report's own median of a metric over a point's ok runs, rounded as the text prints it
median() {
	jq -r --arg id "$2" --arg m "$3" '.results[] | select(.id == $id) | [.runs[] | select(.status == "ok") | .metrics[$m]]
		| sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end
		| if . >= 10000 then "\(. / 100 | round / 10 | tostring | if test("\\.") then . else . + ".0" end)k"
		  else "\(round)" end' "$1"
}
for id in tcp-rx/irq_affinity=rx0-tx1 tcp-tx/irq_affinity=rx0-tx1; do
	line=$(notes_of "$work/lantiq.txt" "$id" | grep 'NIC IRQs/s by role')
	rx=$(median "$lantiq" "$id" irq_rx_per_s) tx=$(median "$lantiq" "$id" irq_tx_per_s)
	c0=$(median "$lantiq" "$id" cpu0_interrupts_per_s) c1=$(median "$lantiq" "$id" cpu1_interrupts_per_s)
	expect "$id: the line" "$line" "$(printf '%*s' 42 '')NIC IRQs/s by role: rx $rx, tx $tx; by CPU: cpu0 $c0, cpu1 $c1"
	# split: CPU0 took the rx IRQ's interrupts, CPU1 the tx IRQ's
	expect "$id: cpu0 carries rx" "$c0" "$rx"
	expect "$id: cpu1 carries tx" "$c1" "$tx"
done
for id in tcp-rx/irq_affinity=rx0-tx0 tcp-tx/irq_affinity=rx0-tx0; do
	notes_of "$work/lantiq.txt" "$id" | grep -q 'by CPU: cpu0 [0-9.k]*, cpu1 0$' ||
		fail "$id: CPU1 should take none of the NIC's interrupts: $(notes_of "$work/lantiq.txt" "$id")"
	echo "ok: $id: CPU1 took none"
done
notes_of "$work/lantiq.txt" tcp-rx/irq_affinity=rx0-tx1 | grep -q "traffic process on CPU $(median "$lantiq" \
	tcp-rx/irq_affinity=rx0-tx1 traffic_cpu_open)" || fail "the traffic's CPU is not the report's"
echo "ok: the traffic's CPU"
notes_of "$work/lantiq.txt" tcp-tx/irq_affinity=rx0-tx1 |
	grep -q "driver counters that moved (ethtool -S, run 1): tx_bytes +$(jq -r '.results[0].runs[0].driver_counters.changed.tx_bytes' "$lantiq")," ||
	fail "the driver counters line does not lead with run 1's largest counter"
echo "ok: the driver counters, largest first"
# counters named in words, as cpsw names them: its overruns and CRC errors are trouble and lead, whatever their case
jq '.results[0].runs[0].driver_counters.changed = {"Good Rx Frames": 60000, "Rx Octets": 3840000,
	"Rx DMA Overruns": 900, "Rx CRC Errors": 2}' "$lantiq" >"$work/cpsw-counters.json"
"$NB_BIN" report "$work/cpsw-counters.json" >"$work/cpsw-counters.txt"
notes_of "$work/cpsw-counters.txt" tcp-tx/irq_affinity=rx0-tx1 |
	grep -q "driver counters that moved (ethtool -S, run 1): Rx DMA Overruns +900, Rx CRC Errors +2, Rx Octets +3840000, Good Rx Frames +60000" ||
	fail "cpsw's trouble counters should lead: $(notes_of "$work/cpsw-counters.txt" tcp-tx/irq_affinity=rx0-tx1 | grep 'driver counters')"
echo "ok: trouble counters matched without case (cpsw's Rx DMA Overruns, Rx CRC Errors)"

"$NB_BIN" report "$mtu" >"$work/mtu.txt"
notes_of "$work/mtu.txt" tcp-rx/mtu=9000 | grep -q "MTU 9000 on both ends (the peer's labtap[0-9]* through nicbench serve); here: carrier back after 2.03 s" ||
	fail "the 9000 point's MTU line: $(notes_of "$work/mtu.txt" tcp-rx/mtu=9000)"
echo "ok: both ends' MTU and the carrier wait"
notes_of "$work/mtu.txt" tcp-rx/mtu=9000 | grep -q "kernel log: 1 line during the point, first: e1000e 0000:00:02.0 eth0: NIC Link is Up" ||
	fail "the kernel log line"
echo "ok: the kernel log"
[ "$(notes_of "$work/mtu.txt" tcp-tx/mtu=9000 | grep -c 'kernel log')" = 0 ] || fail "a kernel log line where the point logged none"
echo "ok: no kernel log line where none was logged"

# the cpsw flood on the lab's i.MX6 (fec): the page_pool line is the report's own medians, read from the driver's
# ethtool -S counters, as each run's page_pool says
fec=$fx/lab-fec-cpsw-flood.json
"$NB_BIN" report "$fec" >"$work/fec.txt"
[ "$(jq '[.results[].runs[].page_pool.source == "ethtool -S"] | all' "$fec")" = true ] ||
	fail "the fec report's page_pool should come from ethtool -S"
line=$(notes_of "$work/fec.txt" udp-rx | grep '^ *page_pool')
for m in pp_alloc_fast:"alloc fast" pp_recycle_ring:"recycled ring"; do
	expect "udp-rx: ${m#*:}" "$(grep -o "${m#*:} [0-9.k]*" <<<"$line")" "${m#*:} $(median "$fec" udp-rx "${m%%:*}")"
done
# fec's IRQs one by one (271 carries its queues), each the report's own median
line=$(notes_of "$work/fec.txt" tcp-tx | grep 'NIC IRQs/s')
for irq in 271 272; do
	expect "tcp-tx: IRQ $irq" "$(grep -o "by IRQ:.*" <<<"$line" | grep -o " $irq [0-9.k]*" | sed 's/^ //')" \
		"$irq $(median "$fec" tcp-tx "irq${irq}_per_s")"
done
line=$(notes_of "$work/fec.txt" udp-rx | grep '^ *page_pool')
expect "udp-rx: recycled" "$(grep -o 'recycled [0-9.]*%' <<<"$line")" \
	"recycled $(jq -r '[.results[] | select(.id == "udp-rx") | .runs[] | .metrics.pp_recycle_pct] | sort | (.[0] + .[1]) / 2 * 10 | round / 10 | tostring | if test("\\.") then . else . + ".0" end' "$fec")%"

# the same lines in Markdown and HTML
"$NB_BIN" report "$mtu" --format markdown >"$work/mtu.md"
grep -q '^- `tcp-rx/mtu=9000`: kernel log: 1 line' "$work/mtu.md" || fail "Markdown lacks the notes"
"$NB_BIN" report "$mtu" --format html >"$work/mtu.html"
grep -q '<span class="note">MTU 9000 on both ends' "$work/mtu.html" || fail "HTML lacks the notes"
echo "ok: Markdown and HTML"
echo PASS
