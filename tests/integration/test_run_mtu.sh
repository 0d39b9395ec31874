#!/bin/bash
# SPDX-License-Identifier: MIT
# The mtu knob on both ends: with nicbench serve as the peer, both veth ends are at 9000 in the
# 9000 point and back at their originals afterwards, also when the run is stopped by SIGTERM or
# killed outright (serve restores when the control connection drops); a plain iperf3 peer gets
# the documented warning (peer_mtu auto) or a failed point (peer_mtu require).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root

if [ -z "${NB_IFACE:-}" ]; then
	"$NB_SRC/scripts/testbed" --name nbmtu1 --subnet 10.200.47 --nicbench-serve "$NB_BIN" -- bash "$0" serve
	"$NB_SRC/scripts/testbed" --name nbmtu2 --subnet 10.200.48 -- bash "$0" iperf3
	echo "PASS"
	exit 0
fi

nb_work_dir
case=$1
peer_mtu() { ip netns exec "$NB_PEER_NS" cat "/sys/class/net/$NB_PEER_IFACE/mtu"; }
dut_mtu() { cat "/sys/class/net/$NB_IFACE/mtu"; }
# exec: in the background, $! is then nicbench itself, which the signals below must reach
run() {
	exec "$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests udp-tx --omit 0 --repetitions 1 --settle 0.2 \
		--no-trace --idle-check 0 --journal "$work/journal" "$@"
}
expect "$case: DUT starts at 1500" "$(dut_mtu)" 1500
expect "$case: peer starts at 1500" "$(peer_mtu)" 1500

if [ "$case" = iperf3 ]; then
	rc=0
	(run --duration 1 --knob mtu=1500,9000 -o "$work/warn.json") >"$work/warn.out" 2>&1 || rc=$?
	cat "$work/warn.out"
	expect "auto, plain iperf3: exit code" "$rc" 0
	grep -q "warning: the mtu knob sets $NB_IFACE only, not the peer .*nothing listens on the peer's control port" \
		"$work/warn.out" || fail "auto, plain iperf3: no warning that the peer was not set"
	expect "auto: the peer is recorded as not set" \
		"$(jq -c '[.results[].mtu | [.dut, .peer, .peer_how]]' "$work/warn.json")" \
		'[[1500,null,"not set"],[9000,null,"not set"]]'
	rc=0
	(run --duration 1 --knob mtu=9000 --peer-mtu require -o "$work/req.json") >"$work/req.out" 2>&1 || rc=$?
	cat "$work/req.out"
	expect "require, plain iperf3: exit code" "$rc" 1
	expect "require: the point failed" "$(jq -r '.results[0].status' "$work/req.json")" failed
	jq -r '.results[0].error' "$work/req.json" | grep -q "set the peer's mtu: nothing listens .* (peer_mtu is require)" ||
		fail "require: error '$(jq -r '.results[0].error' "$work/req.json")'"
	expect "$case: DUT restored" "$(dut_mtu)" 1500
	expect "$case: peer untouched" "$(peer_mtu)" 1500
	exit 0
fi

# 1. a whole run: the peer is at 9000 while the 9000 point runs, both restored after; the datagram
# length follows each point's MTU (--length mtu: one datagram a frame, MTU - 28)
(run --duration 3 --knob mtu=1500,9000 --length mtu -o "$work/both.json") >"$work/both.out" 2>&1 &
run_pid=$!
seen=
for _ in $(seq 150); do
	if [ "$(peer_mtu)" = 9000 ] && [ "$(dut_mtu)" = 9000 ]; then seen=yes; break; fi
	sleep 0.1
done
rc=0
wait "$run_pid" || rc=$?
run_pid=
cat "$work/both.out"
expect "both ends seen at 9000 during the 9000 point" "${seen:-no}" yes
expect "run exit code" "$rc" 0
validate_report "$work/both.json"
expect "report: both ends per point" \
	"$(jq -c '[.results[].mtu | [.dut, .peer, .peer_how, .peer_iface]]' "$work/both.json")" \
	"[[1500,1500,\"nicbench serve\",\"$NB_PEER_IFACE\"],[9000,9000,\"nicbench serve\",\"$NB_PEER_IFACE\"]]"
expect "--length mtu: the test says mtu" "$(jq -c '[.results[].test.length]' "$work/both.json")" '["mtu","mtu"]'
expect "--length mtu: each point's length" "$(jq -c '[.results[].udp_length]' "$work/both.json")" '[1472,8972]'
expect "--length mtu: what iperf3 sent" \
	"$(jq -c '[.results[].runs[0].iperf.start.test_start.blksize]' "$work/both.json")" '[1472,8972]'
expect "DUT restored after the run" "$(dut_mtu)" 1500
expect "peer restored after the run" "$(peer_mtu)" 1500

# 2. SIGTERM and SIGKILL in the 9000 point: the peer goes back when the connection drops
for sig in TERM KILL; do
	(run --duration 30 --knob mtu=9000 -o "$work/$sig.json") >"$work/$sig.out" 2>&1 &
	run_pid=$!
	for _ in $(seq 150); do [ "$(peer_mtu)" = 9000 ] && break; sleep 0.1; done
	expect "SIG$sig: the peer at 9000 before the signal" "$(peer_mtu)" 9000
	sleep 0.5
	kill -"$sig" "$run_pid"
	wait "$run_pid" || true
	run_pid=
	for _ in $(seq 100); do [ "$(peer_mtu)" = 1500 ] && break; sleep 0.1; done
	expect "SIG$sig: peer restored" "$(peer_mtu)" 1500
	if [ "$sig" = KILL ]; then
		"$NB_BIN" knobs restore --journal "$work/journal" >/dev/null 2>&1 || true
	fi
	expect "SIG$sig: DUT restored" "$(dut_mtu)" 1500
done
