#!/bin/bash
# SPDX-License-Identifier: MIT
# Tracepoint metrics and profile on a veth test bed: tcp-rx with threaded NAPI 0 and 1
# must give NAPI polls, 1..budget packets per poll, less NET_RX softirq time when
# threaded, networking functions in the profile, and leave tracefs exactly as found.
set -u

SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
SKIP=77

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit $SKIP; }
for tool in ip iperf3 ethtool cc pkg-config; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit $SKIP; }
done
pkg-config --exists libtraceevent || { echo "SKIP: libtraceevent-dev not installed"; exit $SKIP; }

WORK=$(mktemp -d /tmp/nbt-trace.XXXXXX)
CLIENT_PID=
WINDOW_PID=
RUN_PID=
TB_TAG=t$$
. "$SRC/bench/trace-cost/testbed.sh"

MOUNTED_TRACEFS=
cleanup() {
	local pid
	for pid in $WINDOW_PID $CLIENT_PID $RUN_PID; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	tb_down
	[ -n "$MOUNTED_TRACEFS" ] && umount /sys/kernel/tracing 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*"; exit 1; }

"$SRC/bench/trace-cost/build.sh" "$WORK/trace-window" || fail "cannot build the trace-window helper"

TRACEFS=/sys/kernel/tracing
# A run killed by SIGKILL may leave a tracefs mount it made (harmless, and what systemd
# does at boot); mount it here so the state compared below is the inside of tracefs.
if [ ! -d "$TRACEFS/events" ]; then
	mount -t tracefs nodev "$TRACEFS" 2>/dev/null || { echo "SKIP: cannot mount tracefs"; exit $SKIP; }
	MOUNTED_TRACEFS=1
fi
# Everything a tracing user could leave changed: global and per-event switches, filters, buffers.
tracefs_state() {
	[ -d "$TRACEFS/events" ] || { echo "tracefs not mounted"; return; }
	for f in tracing_on current_tracer buffer_size_kb set_event trace_clock \
		events/napi/napi_poll/enable events/napi/napi_poll/filter \
		events/irq/softirq_entry/enable events/irq/softirq_entry/filter \
		events/irq/softirq_exit/enable events/irq/irq_handler_entry/enable; do
		printf '%s=%s\n' "$f" "$(cat "$TRACEFS/$f" 2>/dev/null | tr '\n' ' ')"
	done
	ls "$TRACEFS/instances" 2>/dev/null | tr '\n' ' '
}
before=$(tracefs_state)

tb_up || fail "cannot build the veth test bed"
# veth hands a TSO super-packet to the backlog instead of its own NAPI (it is not
# eligible for veth GRO), so the sender side segments in software.
ip netns exec "$TB_PEER_NS" ethtool -K "$TB_PEER_IF" tso off gso off >/dev/null || fail "tso off on $TB_PEER_IF"

# One traced 2 s window in the middle of a 5 s tcp-rx test; output in $WORK/threaded$1.
traced_window() {
	tb_set_threaded "$1" || fail "set threaded=$1 on $TB_DUT_IF"
	ip netns exec "$TB_DUT_NS" iperf3 -c "$TB_PEER_IP" -R -t 5 >"$WORK/iperf$1.txt" 2>&1 &
	CLIENT_PID=$!
	sleep 1.5
	ip netns exec "$TB_DUT_NS" "$WORK/trace-window" "$TB_DUT_IF" 2 >"$WORK/threaded$1" 2>&1
	local rc=$?
	wait "$CLIENT_PID"
	CLIENT_PID=
	if grep -q '^unavailable' "$WORK/threaded$1"; then
		echo "SKIP: $(cat "$WORK/threaded$1")"
		exit $SKIP
	fi
	[ $rc = 0 ] || fail "trace-window threaded=$1: $(cat "$WORK/threaded$1")"
	grep -E 'receiver' "$WORK/iperf$1.txt" | tail -1
}

metric() { awk -v k="$2" '$3 == "metric" && $4 == k { print $5 }' "$WORK/threaded$1"; }

traced_window 0
traced_window 1
for th in 0 1; do
	echo "--- threaded=$th"
	grep -E 'metric (napi|net_rx_softirq|hardirq|trace_lost)|profile ' "$WORK/threaded$th" | head -16
done

for th in 0 1; do
	polls=$(metric $th napi_polls_per_s)
	ppp=$(metric $th napi_packets_per_poll)
	[ -n "$polls" ] && awk -v v="$polls" 'BEGIN { exit !(v > 0) }' || fail "threaded=$th: napi_polls_per_s '$polls'"
	[ -n "$ppp" ] && awk -v v="$ppp" 'BEGIN { exit !(v >= 1 && v <= 64) }' ||
		fail "threaded=$th: napi_packets_per_poll '$ppp' outside 1..64"
	grep -q "metric hardirqs_per_s" "$WORK/threaded$th" && fail "threaded=$th: veth has no IRQs, hardirqs_per_s must be absent"
done
rx0=$(metric 0 net_rx_softirq_ns_per_s)
rx1=$(metric 1 net_rx_softirq_ns_per_s)
awk -v a="$rx0" -v b="$rx1" 'BEGIN { exit !(a > 0 && b < a) }' ||
	fail "NET_RX softirq time did not fall with threaded NAPI: $rx0 -> $rx1 ns/s"

# The top of the profile while the kernel moves packets must show the network stack.
net_syms=$(awk '$3 == "profile" { print $5 }' "$WORK/threaded0" | grep -E \
	'veth|tcp|skb|napi|gro|net_rx|netif|ip_|inet|sock|_copy_(to|from)_iter|csum' | head -5)
[ -n "$net_syms" ] || fail "no networking function in the threaded=0 profile"
echo "networking symbols in the profile: $(echo $net_syms)"

# A traced process killed mid-window leaves nothing: perf events die with it.
tb_set_threaded 0
ip netns exec "$TB_DUT_NS" "$WORK/trace-window" "$TB_DUT_IF" 30 >/dev/null 2>&1 &
WINDOW_PID=$!
sleep 1
kill -KILL "$WINDOW_PID"
wait "$WINDOW_PID" 2>/dev/null
WINDOW_PID=
after=$(tracefs_state)
[ "$before" = "$after" ] || fail "tracefs state changed: before [$before] after [$after]"
echo "tracefs state unchanged after two windows and a SIGKILL"
tb_down

# Fallbacks: without permission tracing is off with the reason; without a tracefs mount
# (a private mount namespace) it mounts tracefs and unmounts it again at close.
if command -v setpriv >/dev/null; then
	chmod 755 "$WORK" "$WORK/trace-window"
	out=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$WORK/trace-window" lo 0.2 2>&1)
	rc=$?
	[ $rc = 3 ] && [[ $out == unavailable*"Permission denied"* ]] ||
		fail "as nobody: want exit 3 and a permission reason, got $rc: $out"
	echo "as nobody: $out"
fi
if command -v unshare >/dev/null; then
	out=$(unshare -m --propagation private bash -c \
		'umount '"$TRACEFS"' && "$0" lo 0.2 | grep -c napi_polls_per_s; grep -c " tracefs " /proc/self/mounts' \
		"$WORK/trace-window" 2>&1 | tr '\n' ' ')
	[ "$out" = "1 0 " ] || fail "without a tracefs mount: want a window and no mount left, got: $out"
	echo "without a tracefs mount: mounted for the window, unmounted at close"
fi
[ "$before" = "$(tracefs_state)" ] || fail "tracefs state changed by the fallback checks"

# The same through `nicbench run`: the figures land in the report, per point.
if [ ! -x "${NB_BIN:-}" ] || ! command -v jq >/dev/null; then
	echo "PASS (nicbench run part skipped: no NB_BIN or jq)"
	exit 0
fi
r=$WORK/r.json
"$SRC/scripts/testbed" --name nbt --subnet 10.200.50 -- bash -c \
	'"$0" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-rx --duration 2 --omit 0 --repetitions 2 \
	 --settle 0.2 --knob threaded=0,1 -o "$1" --journal "$2"' "$NB_BIN" "$r" "$WORK/journal" >"$WORK/run.txt" 2>&1 &
RUN_PID=$!
# While traffic flows (nicbench has its iperf3 child), count nicbench's perf event fds: an open
# tracepoint event keeps its probe in the kernel's path even when disabled, so the measured
# repetitions must run with none and only the diagnostic one with them.
: >"$WORK/perf_fds"
while kill -0 "$RUN_PID" 2>/dev/null; do
	main=$(pgrep -o -f "^$NB_BIN run -i")
	if [ -n "$main" ] && pgrep -P "$main" >/dev/null; then
		ls -l "/proc/$main/fd" 2>/dev/null | grep -c 'perf_event' >>"$WORK/perf_fds"
	fi
	sleep 0.1
done
wait "$RUN_PID" || fail "nicbench run: $(tail -5 "$WORK/run.txt")"
RUN_PID=
untraced=$(grep -c '^0$' "$WORK/perf_fds")
traced=$(grep -vc '^0$' "$WORK/perf_fds")
echo "samples during traffic: $untraced without perf events, $traced with them"
[ "$untraced" -ge 10 ] || fail "perf events open during the measured repetitions: only $untraced of $((untraced + traced)) samples had none"
[ "$traced" -ge 3 ] || fail "no perf events during the diagnostic repetitions ($traced samples had them)"
# the tracepoint figures come from each point's diagnostic repetition, apart from the medians
jq -c '.results[] | {id, napi_polls_per_s: .diagnostics.metrics.napi_polls_per_s,
	napi_packets_per_poll: .diagnostics.metrics.napi_packets_per_poll,
	net_rx_softirq_ns_per_s: .diagnostics.metrics.net_rx_softirq_ns_per_s, softirq_pct: .metrics.softirq_pct.median,
	top: [.profile[0:4][] | "\(.symbol) \(.share_pct | floor)%"]}' "$r"
check() { [ "$(jq "$2" "$r")" = true ] || fail "report: $1"; echo "ok: $1"; }
check "two points ok" '[.results[] | select(.status == "ok")] | length == 2'
check "napi polls on every point" '[.results[].diagnostics.metrics.napi_polls_per_s > 0] | all'
check "1 <= packets per poll <= 64" \
	'[.results[].diagnostics.metrics.napi_packets_per_poll | . >= 1 and . <= 64] | all'
check "NET_RX softirq time falls with threaded NAPI" \
	'[.results[] | {(.knobs.threaded | tostring): .diagnostics.metrics.net_rx_softirq_ns_per_s}] | add | .["1"] < .["0"]'
check "hardirqs_per_s absent on veth" '[.results[].diagnostics.metrics | has("hardirqs_per_s")] | any | not'
check "no tracepoint metric in the measured runs" \
	'[.results[] | (.metrics, .runs[].metrics) | keys | map(select(test("napi_polls|softirq_ns|trace_lost"))) | length == 0] | all'
check "the measured medians are of the two measured runs only" '[.results[].metrics.throughput_bps.n == 2] | all'
check "a profile on every point, networking functions in it" \
	'[.results[] | [.profile[0:20][].symbol | test("veth|tcp|skb|napi|gro|net_rx|netif|ip_|inet|sock|_copy_(to|from)_iter|csum")] | any] | all'

"$SRC/scripts/testbed" --name nbt --subnet 10.200.50 -- bash -c \
	'"$0" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-rx --duration 1 --omit 0 --repetitions 1 \
	 --no-trace -o "$1" --journal "$2"' "$NB_BIN" "$r" "$WORK/journal" >"$WORK/run.txt" 2>&1 ||
	fail "nicbench run --no-trace: $(tail -5 "$WORK/run.txt")"
check "--no-trace: no tracepoint metrics and no profile" \
	'[.results[] | (.metrics | keys | map(select(test("napi_polls|softirq_ns|trace_lost"))) | length == 0) and ((.profile // []) | length == 0) and (has("diagnostics") | not)] | all'
echo "PASS"
