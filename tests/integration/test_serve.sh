#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench serve as the iperf3 peer: --once answers one iperf3 CLI client and exits; a broken
# client makes the supervisor restart the server; SIGTERM stops a long-running server cleanly.
# Runs in its own network namespace (prefix nbi) on that namespace's loopback.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NS="nbi-serve-$$"
PORT_ONCE=15220
PORT_LOOP=15221
WORK=$(mktemp -d /tmp/nbi-serve.XXXXXX)
PIDS=()
FAILED=0

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; FAILED=1; }
pass() { echo "ok: $*"; }

cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
command -v iperf3 >/dev/null || skip "iperf3 CLI not installed"
"$NB_BIN" serve --help >/dev/null 2>&1 || skip "this nicbench has no 'serve' command"
ip netns add "$NS" 2>/dev/null || skip "cannot create network namespace $NS"
ip -n "$NS" link set lo up || skip "cannot bring up lo in $NS"

in_ns() { ip netns exec "$NS" "$@"; }

# Wait until something listens on 127.0.0.1:$1 inside the namespace.
wait_listen() {
	local i
	for i in $(seq 50); do
		in_ns ss -Htln "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# Wait up to 5 s for the text $1 to appear in the log file $2.
wait_log() {
	local i
	for i in $(seq 50); do
		grep -q "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

# Wait up to $2 seconds for our child $1 to end; sets ST to its exit status (or "running").
# Not meant for $(...): a subshell cannot reap the parent's children.
wait_exit() {
	local i
	ST=running
	for i in $(seq $(($2 * 10))); do
		if ! kill -0 "$1" 2>/dev/null; then
			wait "$1"
			ST=$?
			return
		fi
		sleep 0.1
	done
}

# 1. --once: one CLI client gets a real result, then serve exits with 0.
# Not through in_ns: $! must be nicbench itself (ip netns exec execs it), not a subshell.
ip netns exec "$NS" "$NB_BIN" serve --once -p "$PORT_ONCE" -B 127.0.0.1 2>"$WORK/once.log" &
once_pid=$!
PIDS+=("$once_pid")
if ! wait_listen "$PORT_ONCE"; then
	fail "serve --once is not listening on 127.0.0.1:$PORT_ONCE"
	cat "$WORK/once.log"
	exit 1
fi
in_ns iperf3 -c 127.0.0.1 -p "$PORT_ONCE" -t 2 --json >"$WORK/once.json" 2>&1
client_rc=$?
bps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"])' \
	"$WORK/once.json" 2>/dev/null)
if [ "$client_rc" = 0 ] && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)' "${bps:-0}"; then
	pass "iperf3 -c against serve --once: $bps bit/s"
else
	fail "iperf3 -c against serve --once: rc $client_rc, throughput '${bps:-none}'"
	head -20 "$WORK/once.json"
fi
wait_exit "$once_pid" 5
[ "$ST" = 0 ] && pass "serve --once exited with 0 after one test" || fail "serve --once after one test: $ST"
if grep -q "test 1 from 127.0.0.1:.*TCP, 1 stream, client sends.*server CPU .* of one core" "$WORK/once.log"; then
	pass "per-test line: $(grep 'test 1 from' "$WORK/once.log")"
else
	fail "no per-test CPU line in the log"
fi

# 2. A long-running server: a client that connects and hangs up is an error the supervisor
#    counts and recovers from; the next real client is served; SIGTERM then stops it cleanly.
ip netns exec "$NS" "$NB_BIN" serve -p "$PORT_LOOP" -B 127.0.0.1 --stats-interval 0.5 2>"$WORK/loop.log" &
loop_pid=$!
PIDS+=("$loop_pid")
wait_listen "$PORT_LOOP" || fail "serve is not listening on 127.0.0.1:$PORT_LOOP"
in_ns bash -c "exec 3<>/dev/tcp/127.0.0.1/$PORT_LOOP; sleep 0.3; exec 3>&-"
# A client that connects before the failed child has closed its listener is reset (iperf3 -s
# does the same between tests): wait for the restart to be logged, then for the new listener.
wait_log "error 1; restarting the server" "$WORK/loop.log" && pass "restart after the broken client was logged" \
	|| fail "no restart logged"
wait_listen "$PORT_LOOP" || fail "serve did not listen again after the broken client"
in_ns iperf3 -c 127.0.0.1 -p "$PORT_LOOP" -t 1 -R >"$WORK/loop.txt" 2>&1 \
	&& pass "iperf3 -c -R after a restart" || fail "iperf3 -c -R after a restart: $(tail -2 "$WORK/loop.txt")"
# serve logs a test after reaping its child, a moment after the client is done
wait_log "test 1 from .*server sends" "$WORK/loop.log" && pass "reverse test reported" || fail "reverse test not reported"

children=$(pgrep -P "$loop_pid")
kill -TERM "$loop_pid"
wait_exit "$loop_pid" 5
[ "$ST" = 0 ] && pass "SIGTERM: serve exited with 0" || fail "SIGTERM: serve exit status $ST"
grep -q "stopped by SIGTERM after 1 test, 1 error" "$WORK/loop.log" \
	&& pass "stop summary logged" || fail "no stop summary: $(tail -1 "$WORK/loop.log")"
for c in $children; do
	kill -0 "$c" 2>/dev/null && fail "server child $c still alive after SIGTERM"
done
[ -n "$children" ] && pass "server child(ren) $children gone"
in_ns ss -Htln "sport = :$PORT_LOOP" | grep -q . && fail "port $PORT_LOOP still listening after SIGTERM"

if [ "$FAILED" != 0 ]; then
	echo "--- once.log"; cat "$WORK/once.log"
	echo "--- loop.log"; cat "$WORK/loop.log"
	exit 1
fi
echo "PASS"
