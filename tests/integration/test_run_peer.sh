#!/bin/bash
# SPDX-License-Identifier: MIT
# A peer that is down gives a clear error and recorded failures (exit 1); a peer that
# accepts and never answers gives timeouts, and the sweep goes on to the next point.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbr3 10.200.5 --no-server

work=$(mktemp -d)
listener_pid=
cleanup() {
	if [ -n "$listener_pid" ]; then kill "$listener_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
peer_ip=${NB_PEER%:*}

# nobody listens on the peer
rc=0
start=$(date +%s)
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx,udp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0 --connect-timeout 3 -o "$work/down.json" --journal "$work/journal" 2>"$work/down.err" || rc=$?
elapsed=$(( $(date +%s) - start ))
expect "exit code with the peer down" "$rc" 1
expect "failed points" "$(jq '[.results[] | select(.status == "failed")] | length' "$work/down.json")" 2
jq -e '.results[0].error | test("refused"; "i")' "$work/down.json" >/dev/null ||
	fail "error does not say the connection was refused: $(jq -r '.results[0].error' "$work/down.json")"
grep -qi "refused" "$work/down.err" || fail "stderr does not say why: $(cat "$work/down.err")"
[ "$elapsed" -lt 30 ] || fail "peer-down sweep took ${elapsed}s"
echo "ok: peer down took ${elapsed}s"

# a peer that completes the TCP handshake (the kernel does, from the backlog) and never answers
ip netns exec "$NB_PEER_NS" /usr/bin/python3 -c '
import socket, sys, time
s = socket.socket()
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(16)
time.sleep(120)' "$peer_ip" "${NB_PEER##*:}" &
listener_pid=$!
sleep 0.5
rc=0
start=$(date +%s)
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx,tcp-rx --duration 1 --omit 0 --repetitions 1 \
	--settle 0 --connect-timeout 2 --grace 1 -o "$work/hung.json" --journal "$work/journal" 2>"$work/hung.err" || rc=$?
elapsed=$(( $(date +%s) - start ))
expect "exit code with a hung peer" "$rc" 1
expect "timed-out points (the sweep went on)" "$(jq '[.results[] | select(.status == "timeout")] | length' "$work/hung.json")" 2
[ "$elapsed" -lt 30 ] || fail "hung-peer sweep took ${elapsed}s"
echo "ok: hung peer took ${elapsed}s"
validate_report "$work/hung.json"
echo "PASS"
