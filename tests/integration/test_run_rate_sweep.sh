#!/bin/bash
# SPDX-License-Identifier: MIT
# --rate as a sweep on the packet-rate profile (seed 003): two rates make two udp-rx points whose ids
# carry the rate, each run at its own rate (the driver counts more packets at the higher one), each
# point's headline is rx_packets_per_s, and `nicbench report` shows it in pps.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
command -v nft >/dev/null || { echo "SKIP: nft not installed"; exit 77; }
nb_in_testbed nbrs1 10.200.141 --foreign-mac 02:00:00:6e:62:02

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
r=$work/sweep.json

"$NB_BIN" plan --config "$NB_SRC/configs/boards/packet-rate.json" -i "$NB_IFACE" --peer "$NB_PEER" \
	--rate 20M,100M --knob threaded=0 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0 >"$work/plan"
grep -q 'udp-rx/rate=20M/threaded=0' "$work/plan" || fail "plan does not list the 20M point: $(cat "$work/plan")"
grep -q 'udp-rx/rate=100M/threaded=0' "$work/plan" || fail "plan does not list the 100M point: $(cat "$work/plan")"

rc=0
"$NB_BIN" run --config "$NB_SRC/configs/boards/packet-rate.json" -i "$NB_IFACE" --peer "$NB_PEER" \
	--duration 2 --omit 0 --repetitions 1 --settle 0.2 --rate 20M,100M --knob threaded=0 \
	--knob gro_flush_timeout:napi_defer_hard_irqs=0:0 --no-trace -o "$r" --journal "$work/journal" \
	2>"$work/err" || rc=$?
[ "$rc" = 0 ] || cat "$work/err" >&2
expect "exit code" "$rc" 0
validate_report "$r"
expect "points" "$(jq '.results | length' "$r")" 2
expect "first id" "$(jq -r '.results[0].id' "$r")" "udp-rx/rate=20M/threaded=0/gro_flush_timeout=0/napi_defer_hard_irqs=0"
expect "second id" "$(jq -r '.results[1].id' "$r")" "udp-rx/rate=100M/threaded=0/gro_flush_timeout=0/napi_defer_hard_irqs=0"
expect "rates in the tests" "$(jq -c '[.results[].test.rate]' "$r")" "[20000000,100000000]"
expect "headlines" "$(jq -c '[.results[].headline]' "$r")" '["rx_packets_per_s","rx_packets_per_s"]'
expect "the sweep in the config" "$(jq -c '.config.udp.rate' "$r")" '["20M","100M"]'
# 20 and 100 Mbit/s of 60-byte datagrams offer ~40k and ~200k packets/s: the higher rate must show
# clearly more at the driver (veth may drop some of the 100M flood, never down to the 20M figure)
lo=$(jq '.results[0].metrics.rx_packets_per_s.median' "$r")
hi=$(jq '.results[1].metrics.rx_packets_per_s.median' "$r")
jq -en "$lo > 5000 and $hi > 1.5 * $lo" >/dev/null || fail "rx_packets_per_s 20M: $lo, 100M: $hi"
echo "ok: rx_packets_per_s 20M $lo, 100M $hi"
"$NB_BIN" report "$r" >"$work/table"
grep -Eq '^udp-rx/rate=100M/\S+ +[0-9.]+ kpps ' "$work/table" || fail "report table shows no pps: $(cat "$work/table")"
echo "ok: the report's table shows the packet rate"
echo "PASS"
