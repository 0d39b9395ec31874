#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of nicbench's tracing on the veth test bed: tcp-rx throughput with tracing off (A),
# tracepoints only (B) and tracepoints + profile (C), alternating A B C A B C ..., then the
# median of each and the ratios B/A and C/A. Needs root, iperf3, ethtool, libtraceevent-dev.
# usage: run.sh [REPS] [SECONDS] [THREADED]
set -u
REPS=${1:-5}
SECS=${2:-5}
THREADED=${3:-0}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/nbt-cost.XXXXXX)
TB_TAG=c$$
. "$HERE/testbed.sh"

cleanup() {
	tb_down
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$HERE/build.sh" "$WORK/trace-window" || exit 1
tb_up || { echo "cannot build the test bed" >&2; exit 1; }
# Software segmentation on the sender so tcp-rx goes through the DUT veth's own NAPI.
ip netns exec "$TB_PEER_NS" ethtool -K "$TB_PEER_IF" tso off gso off >/dev/null
tb_set_threaded "$THREADED"

# One tcp-rx test; prints the receiver's bits per second. $1: off | trace | profile
one_run() {
	local tracer= bps
	case $1 in
	trace) ip netns exec "$TB_DUT_NS" "$WORK/trace-window" "$TB_DUT_IF" $((SECS + 1)) --no-profile >"$WORK/tw" 2>&1 &
	       tracer=$! ;;
	profile) ip netns exec "$TB_DUT_NS" "$WORK/trace-window" "$TB_DUT_IF" $((SECS + 1)) >"$WORK/tw" 2>&1 &
	       tracer=$! ;;
	esac
	sleep 0.5
	bps=$(ip netns exec "$TB_DUT_NS" iperf3 -c "$TB_PEER_IP" -R -t "$SECS" -J 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"])')
	[ -n "$tracer" ] && wait "$tracer"
	if [ "$1" != off ] && grep -q '^unavailable' "$WORK/tw"; then
		echo "tracing unavailable: $(cat "$WORK/tw")" >&2
		exit 77
	fi
	if [ "$1" != off ]; then
		awk '$4 == "trace_lost_samples" && $5 > 0 { print "    lost samples: " $5 }' "$WORK/tw" >&2
		awk '$4 == "tracer_cpu_ms_per_s" { print $5 }' "$WORK/tw" >>"$WORK/cpu.$1"
		# kernel time spent writing trace records, as the profile sees it
		[ "$1" = profile ] && awk '$3 == "profile" && $5 ~ /^(perf_|__perf_)/ { s += $4 } END { print s + 0 }' \
			"$WORK/tw" >>"$WORK/perfshare"
	fi
	echo "$bps"
	sleep 0.3
}

declare -A runs
for i in $(seq "$REPS"); do
	for mode in off trace profile; do
		v=$(one_run $mode)
		runs[$mode]+="$v "
		awk -v i="$i" -v m="$mode" -v v="$v" 'BEGIN { printf "rep %d %-7s %6.2f Gbit/s\n", i, m, v / 1e9 }'
	done
done
python3 - "${runs[off]}" "${runs[trace]}" "${runs[profile]}" "$REPS" "$SECS" "$THREADED" \
	"$(cat "$WORK/cpu.trace")" "$(cat "$WORK/cpu.profile")" "$(cat "$WORK/perfshare")" <<'PY'
import statistics, sys
off, trace, prof = ([float(x) for x in a.split()] for a in sys.argv[1:4])
cpu_trace, cpu_prof, perfshare = ([float(x) for x in a.split()] for a in sys.argv[7:10])
runs = {"off": off, "trace": trace, "profile": prof}
m = {k: statistics.median(v) for k, v in runs.items()}
print("tcp-rx on veth, threaded=%s, %s x %s s each, alternating off/trace/profile" % (sys.argv[6], sys.argv[4], sys.argv[5]))
for k, v in runs.items():
    print("  %-8s median %6.2f Gbit/s  (min %.2f, max %.2f)" % (k, m[k] / 1e9, min(v) / 1e9, max(v) / 1e9))
# Adjacent runs share the machine's background load: the median of per-repetition
# ratios is steadier than the ratio of medians when the load drifts.
paired_t = statistics.median(t / o for t, o in zip(trace, off))
paired_p = statistics.median(p / o for p, o in zip(prof, off))
print("ratio tracepoints/off = %.3f (median of paired ratios %.3f)" % (m["trace"] / m["off"], paired_t))
print("ratio tracepoints+profile/off = %.3f (median of paired ratios %.3f)" % (m["profile"] / m["off"], paired_p))
print("tracer reader thread: %.1f ms CPU per s (tracepoints), %.1f ms/s (with profile)" %
      (statistics.median(cpu_trace), statistics.median(cpu_prof)))
print("kernel perf_* functions in the profile: %.1f%% of busy samples (median)" % statistics.median(perfshare))
PY
