#!/bin/bash
# SPDX-License-Identifier: MIT
# The packet-rate profile (seed 003): the peer's UDP data goes to a foreign MAC, the DUT is
# promiscuous through libpcap while the sweep runs and not after it, the driver's receive
# counters see the packets while the stack drops them, and --capture writes bounded .pcap files.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
command -v nft >/dev/null || { echo "SKIP: nft not installed"; exit 77; }
foreign=02:00:00:6e:62:01
nb_in_testbed nbr4 10.200.11 --foreign-mac "$foreign"

work=$(mktemp -d)
run_pid=
cleanup() {
	if [ -n "$run_pid" ]; then kill "$run_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
promiscuity() { ip -d link show "$NB_IFACE" | grep -o 'promiscuity [0-9]*' | cut -d' ' -f2; }

expect "promiscuity before" "$(promiscuity)" 0
"$NB_BIN" run --config "$NB_SRC/configs/boards/packet-rate.json" -i "$NB_IFACE" --peer "$NB_PEER" \
	--duration 3 --omit 0 --repetitions 1 --settle 0.2 --rate 100M --knob threaded=0,1 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0 --capture 20 \
	--no-trace -o "$work/pr.json" --journal "$work/journal" 2>"$work/err" &
run_pid=$!
seen=0
for _ in $(seq 60); do
	if [ "$(promiscuity)" = 1 ]; then seen=1; break; fi
	sleep 0.1
done
rc=0; wait "$run_pid" || rc=$?; run_pid=
[ "$rc" = 0 ] || cat "$work/err" >&2
expect "exit code" "$rc" 0
expect "promiscuous while the sweep ran" "$seen" 1
expect "promiscuity after" "$(promiscuity)" 0
validate_report "$work/pr.json"
r=$work/pr.json
expect "points" "$(jq '.results | length' "$r")" 2
# 100 Mbit/s of 60-byte datagrams is ~200 kpps offered; the driver side must see thousands
jq -e '[.results[].metrics.rx_packets_per_s.median > 5000] | all' "$r" >/dev/null ||
	fail "rx_packets_per_s too low: $(jq -c '[.results[].metrics.rx_packets_per_s.median]' "$r")"
# ... and the stack none of them: they were not for this host
jq -e '[.results[].metrics | .throughput_bps.median < 1e5 and .udp_in_datagrams_per_s.median < 100] | all' "$r" >/dev/null ||
	fail "the stack received the datagrams, the foreign MAC did not take: $(jq -c '[.results[].metrics | [.throughput_bps.median, .udp_in_datagrams_per_s.median]]' "$r")"
echo "ok: rx_packets_per_s $(jq -c '[.results[].metrics.rx_packets_per_s.median | floor]' "$r"), iperf3 received nothing"
for i in 1 2; do
	f=$work/pr.p$i.pcap
	[ -s "$f" ] || fail "no capture file $f"
	expect "capture $i packets in the report" "$(jq ".results[$((i - 1))].capture.packets" "$r")" 20
	/usr/bin/python3 - "$f" "$foreign" <<'PY' || fail "capture $f is not 20 frames with some for the foreign MAC"
import struct, sys
data = open(sys.argv[1], "rb").read()
magic, = struct.unpack("<I", data[:4])
assert magic == 0xa1b2c3d4, hex(magic)
want = bytes.fromhex(sys.argv[2].replace(":", ""))
off, frames, foreign = 24, 0, 0
while off + 16 <= len(data):
    incl, = struct.unpack("<I", data[off + 8:off + 12])
    frames += 1
    foreign += data[off + 16:off + 22] == want
    off += 16 + incl
assert frames == 20, frames
assert foreign > 0, "no frame for the foreign MAC"
PY
	echo "ok: $f is a pcap with 20 frames, some for $foreign"
done
echo "PASS"
