#!/bin/bash
# SPDX-License-Identifier: MIT
# The seeds' published figures replayed through nicbench (tests/fixtures/compare/seeds, made by make_fixtures.py)
# must print each seed's conclusion: cpsw's packet rate 47k -> 65k improved with TCP unchanged (and, backwards,
# regressed under the default gate, which judges a flood point's packet rate), lan743x's
# 203 -> 496 Mbit/s at MTU 1500 improved (and 803 -> 849 at 9000), lantiq's rx and tx IRQs on one CPU chosen
# over the split for the stream the board sent (tcp-tx), by its margin, and the ravb series' G2UL figures
# (+6/+34/+500/-24%). The replays are true to the threads: each board's CPU and bus address, cpsw's perf top
# as printed (the recycling signature, no share perf top did not print) and drawn as a flame graph.
# usage: check_seed_replays.sh NICBENCH
set -u
bin=$1
fx=$(cd "$(dirname "$0")/../fixtures/compare" && pwd)
s=$fx/seeds
fail=0
# has WHAT OUTPUT REGEX: OUTPUT holds a line matching REGEX
has() {
	if grep -Eq -- "$3" <<<"$2"; then echo "ok: $1"; else echo "FAIL: $1: no line matching /$3/ in:"; echo "$2"; fail=1; fi
}
code() {
	if [ "$2" = "$3" ]; then echo "ok: $1 exits $3"; else echo "FAIL: $1: exit $2, want $3"; fail=1; fi
}

out=$("$bin" compare "$s/cpsw-base.json" "$s/cpsw-new.json" 2>&1); rc=$?
has "cpsw: packet rate +38% improved" "$out" 'rx_packets_per_s .* \+38\.[0-9]%  improved'
has "cpsw: TCP 732 -> 742 unchanged" "$out" 'throughput_bps .*732\.00 Mbit/s .*742\.00 Mbit/s .*unchanged'
code "cpsw compare" "$rc" 0
# perf top's profiles as printed: the shift into softirq and out of the spin unlock moved; free_unref_page,
# unlisted after (below 0.58%), is no 2.3 -> 0.0 mover
has "cpsw: softirq entry 1.7% -> 16.2% a mover" "$out" '__softirqentry_text_start 1\.7% -> 16\.2% \(\+14\.5 pts\)'
if grep -q 'free_unref_page' <<<"$out"; then echo "FAIL: cpsw: free_unref_page shown as a mover:"; echo "$out"; fail=1
else echo "ok: cpsw: no invented mover (free_unref_page)"; fi
for side in base new; do
	f=$s/cpsw-$side.json
	[ "$(jq -r '.host.cpu_model + " " + .interface.bus_info' "$f")" = "ARMv7 Processor rev 2 (v7l) 4a100000.ethernet" ] &&
		echo "ok: cpsw $side: an AM335x's CPU and cpsw" || { echo "FAIL: cpsw $side: board"; fail=1; }
done
jq -e '[.results[0].profile[].symbol] | index("page_pool_release_page") != null' "$s/cpsw-base.json" >/dev/null &&
	jq -e '[.results[0].profile[].symbol] | index("page_pool_put_page") != null and index("page_pool_release_page") == null' \
		"$s/cpsw-new.json" >/dev/null && echo "ok: cpsw: the recycling signature kept" ||
	{ echo "FAIL: cpsw: page_pool_release_page before, page_pool_put_page after"; fail=1; }
out=$("$bin" compare --gate rx_packets_per_s@udp-rx "$s/cpsw-new.json" "$s/cpsw-base.json" 2>&1); rc=$?
has "cpsw backwards: -28% regressed" "$out" 'rx_packets_per_s .* -27\.[0-9]%  regressed'
code "cpsw backwards, gated on the packet rate" "$rc" 1

# the udp-rx point is a flood (60-byte datagrams at a fixed rate): its headline, packets per second
# received, is gated by default and heads its row in the report's table
out=$("$bin" compare "$s/cpsw-new.json" "$s/cpsw-base.json" 2>&1); rc=$?
has "cpsw backwards, default gate: -28% regressed and gated" "$out" '^  \* rx_packets_per_s +65\.8 kpps +47\.6 kpps +-27\.[0-9]%  regressed'
has "cpsw backwards, default gate: udp-rx REGRESSED" "$out" '^udp-rx: REGRESSED'
code "cpsw backwards, default gate" "$rc" 1
out=$("$bin" report "$s/cpsw-base.json" 2>&1); rc=$?
has "cpsw report: udp-rx shows its packet rate" "$out" '^udp-rx +47\.6 kpps +47\.5 kpps \.\. 48\.0 kpps '
code "cpsw report" "$rc" 0
# the text names the folded stacks; the HTML draws them (perf top's shares as printed)
has "cpsw report: names its folded stacks" "$out" '^ +kernel stacks \(folded, for a flame graph\): .*/cpsw-base\.udp-rx\.folded$'
out=$("$bin" report --format html "$s/cpsw-base.json" 2>&1)
has "cpsw report, HTML: a flame graph" "$out" '<h3>Flame graphs</h3>'
has "cpsw report, HTML: the recycling frame at perf top's share" "$out" '<g><title>page_pool_release_page: 1\.19% \(119 samples\)</title>'
out=$("$bin" report --format markdown "$s/cpsw-base.json" 2>&1)
has "cpsw report, Markdown: udp-rx shows its packet rate" "$out" '^\| udp-rx \| 47\.6 kpps \|'

out=$("$bin" compare "$s/lan743x-base.json" "$s/lan743x-new.json" 2>&1); rc=$?
has "lan743x: MTU 1500 improved" "$out" '^tcp-rx/mtu=1500: IMPROVED'
has "lan743x: 203 -> 496 Mbit/s" "$out" 'throughput_bps .*203\.00 Mbit/s .*496\.00 Mbit/s .*\+144\.3%  improved'
has "lan743x: MTU 9000 improved" "$out" 'throughput_bps .*803\.00 Mbit/s .*849\.00 Mbit/s .*\+5\.7%  improved'
# 27 retransmits a 20-s run to none: a change, not noise under a floor of 100 drops
has "lan743x: retransmits 27 -> 0 improved" "$out" '^    retransmits +27 +0 +-100\.0%  improved'
code "lan743x compare" "$rc" 0

# the board sent the stream (cat /dev/zero | nc on the lantiq): tcp-tx, 9.3 MiB/s against 8.3
out=$("$bin" report "$s/lantiq-irq-split.json" 2>&1); rc=$?
has "lantiq: both IRQs on one CPU chosen" "$out" 'tcp-tx: .*irq_affinity=rx0-tx0 \(78\.0 Mbit/s\)'
has "lantiq: the split at 8.3 MiB/s shown" "$out" '^tcp-tx/irq_affinity=rx0-tx1 +69\.6 Mbit/s'
has "lantiq: the margin over the split" "$out" 'irq_affinity=rx0-tx0, margin over the runner-up irq_affinity=rx0-tx1: tcp-tx \+12\.0%'
has "lantiq: a 34Kc on the xRX200" "$out" 'xrx200'
[ "$(jq -r '.host.cpu_model + " " + .interface.bus_info' "$s/lantiq-irq-split.json")" = "MIPS 34Kc V5.6 1e10b308.eth" ] &&
	echo "ok: lantiq: a 34Kc and the xRX200's net device" || { echo "FAIL: lantiq: board"; fail=1; }
code "lantiq report" "$rc" 0
[ "$(jq -r '.host.cpu_model + " " + .interface.bus_info' "$s/lan743x-base.json")" = "ARMv7 Processor rev 10 (v7l) 0000:01:00.0" ] &&
	echo "ok: lan743x: an i.MX6's Cortex-A9, the lan7430 on PCIe" || { echo "FAIL: lan743x: board"; fail=1; }

out=$("$bin" compare "$fx/g2ul-base.json" "$fx/g2ul-new.json" 2>&1); rc=$?
for want in 'tcp-tx: IMPROVED' 'tcp-rx: IMPROVED' 'udp-rx: IMPROVED' 'udp-tx: REGRESSED'; do
	has "ravb G2UL: $want" "$out" "^$want"
done
code "ravb G2UL compare" "$rc" 1
# each seed's recipe (configs/seeds/) is a config that plans: its points and ids as the seed ran them
seeds=$(cd "$(dirname "$0")/../../configs/seeds" && pwd)
for f in "$seeds"/*.json; do
	out=$("$bin" plan --config "$f" --peer 192.0.2.1 2>&1); rc=$?
	code "recipe $(basename "$f") plans" "$rc" 0
	has "recipe $(basename "$f"): a time estimate" "$out" '^estimated time: '
done
out=$("$bin" plan --config "$seeds/lantiq-irq-split.json" --peer 192.0.2.1 2>&1)
has "lantiq recipe: UDP at 1000M with the IRQs split" "$out" 'udp-rx/rate=1000M/irq_affinity=rx0-tx1'
has "lantiq recipe: both IRQs on one CPU, the board sending" "$out" 'tcp-tx/irq_affinity=rx0-tx0'
out=$("$bin" plan --config "$seeds/lan743x-mtu.json" --peer 192.0.2.1 2>&1)
has "lan743x recipe: MTU 9000" "$out" 'tcp-rx/mtu=9000'
exit $fail
