#!/bin/bash
# SPDX-License-Identifier: MIT
# The lab's planted e1000e stack as a history: kernel/planted-regression/build turns Debian's linux-source-6.1 into
# six candidate kernels (the lab's 6.1 with its e1000e rebuilt at each commit of a five-commit stack; 0003 hands
# received frames to the stack without GRO), each is booted K times (NB_HISTORY_BOOTS, default 2) through the lab's
# boot hook, rounds interleaved (round 1: 00..05, round 2: 00..05, ...), every report goes into a history database
# as its candidate's commit, in order, and `nicbench history analyze --unit report` must put the change point of
# tcp-rx's throughput between 02 and 03 and exit 1. Six commits are too few for a test that shuffles commits (20
# ways to split them: no split can reach alpha 0.01); over the boots (12 at K = 2) it can, and that is exact for
# boots measured interleaved. With --min-segment 2 --edge-buffer 2 the split may fall after 02, 03 or 04, so where
# it lands is measured, not given. A change point elsewhere, or an improvement, is a failure; none at all (the host
# too noisy between boots to tell at this K) is a skip that prints the boots' throughput.
# Expected time on a quiet machine: the builds about 1 min, a boot of tcp-rx 2 x 3 s about 26 s
# (kernel/planted-regression/README.md), so about 6-7 min at K = 2. Run here 2026-12-08 at a load average of 3-13
# (other sessions' QEMU guests): builds 153 s, 12 boots 375 s, 930 s in all with the wait for the traffic lock;
# the boots' tcp-rx 320-623 Mbit/s (00: 492 and 623, 03: 533 and 380), no change point: a skip. A second run at
# the same time gave 252-608 Mbit/s and the same skip. Quiet, the README's boots were within 2% of each other.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
NB_BIN=${NB_BIN:-$NB_SRC/build/nicbench}
K=${NB_HISTORY_BOOTS:-2}
tmp=$(mktemp -d /tmp/nb-lab-history.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1
lab_require_kernel_source
[ -x "$NB_BIN" ] || skip "no nicbench at $NB_BIN (build it, or set NB_BIN)"
if "$NB_BIN" history list --db "$tmp/probe.db" 2>&1 | grep -q 'built without SQLite'; then
	skip "this nicbench was built without SQLite"
fi
case $K in '' | *[!0-9]*) stop "NB_HISTORY_BOOTS='$K': a whole number of boots a candidate" ;; esac
[ "$K" -ge 2 ] || stop "NB_HISTORY_BOOTS=$K: at least 2 boots a candidate (six single boots cannot reach alpha)"

t0=$(date +%s)
rc=0
"$NB_SRC/kernel/planted-regression/build" --work "$tmp/planted" >"$tmp/build.out" 2>"$tmp/build.err" || rc=$?
cat "$tmp/build.err"
case $rc in
0) ;;
4) skip "the lab kernel or its headers could not be had (exit 4)" ;;
*) stop "kernel/planted-regression/build exited $rc" ;;
esac
cands=$(tail -n 1 "$tmp/build.out")
[ -f "$cands" ] || stop "the build printed no candidates file ('$cands')"
mapfile -t names < <(awk 'NF { print $1 }' "$cands")
expect "candidates" "${#names[@]}" 6
t1=$(date +%s)
echo "== 6 candidates built in $((t1 - t0)) s: ${names[*]}"

# the boots, rounds interleaved so that a slow spell of the host falls on every candidate alike
run_args=(--tests tcp-rx --repetitions 2 --duration 3 --omit 1 --settle 1 --no-trace)
mkdir -p "$tmp/reports"
for k in $(seq 1 "$K"); do
	for name in "${names[@]}"; do
		out=$tmp/reports/r$k-$name.json
		rc=0
		"$NB_SRC/scripts/lab" boot --candidates "$cands" -- "${run_args[@]}" "$name" "A:$k/$K:history" "$out" \
			>"$tmp/boot-$k-$name.log" 2>&1 || rc=$?
		if [ $rc -ne 0 ] || [ ! -f "$out" ]; then
			tail -n 20 "$tmp/boot-$k-$name.log"
			stop "scripts/lab boot of $name (round $k) exited $rc"
		fi
		echo "boot $k of $name: tcp-rx $(jq -r '[.results[] | select(.test.name == "tcp-rx") | .metrics.throughput_bps.median][0] / 1e6 | floor' "$out") Mbit/s"
	done
done
t2=$(date +%s)
echo "== $((6 * K)) boots in $((t2 - t1)) s"

# into the history in the order they were measured: round by round, candidate by candidate
for k in $(seq 1 "$K"); do
	for name in "${names[@]}"; do
		"$NB_BIN" history add --db "$tmp/history.db" --commit "$name" --branch planted "$tmp/reports/r$k-$name.json" \
			>/dev/null || stop "history add of $name round $k"
	done
done
expect "commits in the history" "$("$NB_BIN" history list --db "$tmp/history.db" | grep -c ' planted ')" "$((6 * K))"

rc=0
"$NB_BIN" history analyze --db "$tmp/history.db" --unit report --min-segment 2 --edge-buffer 2 \
	--metrics throughput_bps --gate throughput_bps@tcp-rx --format json >"$tmp/analysis.json" || rc=$?
"$NB_BIN" history analyze --db "$tmp/history.db" --unit report --min-segment 2 --edge-buffer 2 \
	--metrics throughput_bps --gate throughput_bps@tcp-rx >"$tmp/analysis.txt"
cat "$tmp/analysis.txt"
changes=$(jq -c '[.series[] | select(.point | startswith("tcp-rx")) | .changes[]? | {last_good, first_bad, kind, change_pct, p_value}]' \
	"$tmp/analysis.json")
echo "tcp-rx throughput change points: $changes"
case $rc in
0 | 1) ;;
*) stop "history analyze exited $rc" ;;
esac
if [ "$changes" = "[]" ]; then
	skip "no change point in tcp-rx's throughput over $((6 * K)) boots (the boots too noisy to tell at K = $K; NB_HISTORY_BOOTS raises it)"
fi
expect "change points in tcp-rx's throughput" "$(jq 'length' <<<"$changes")" 1
expect "last good" "$(jq -r '.[0].last_good[0:3]' <<<"$changes")" "02-"
expect "first bad" "$(jq -r '.[0].first_bad[0:3]' <<<"$changes")" "03-"
expect "its kind" "$(jq -r '.[0].kind' <<<"$changes")" regression
expect "analyze's exit (a gated regression that still holds)" "$rc" 1
echo "the history put the change at $(jq -r '.[0] | "\(.last_good)..\(.first_bad), \(.change_pct)%"' <<<"$changes") over $((6 * K)) boots; $(($(date +%s) - t0)) s in all"
finish
