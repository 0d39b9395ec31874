#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench compare on the veth test bed: the same configuration run twice (A/A) gives no
# regression, and a tc rate limit on the peer's veth below the measured TCP RX throughput
# is flagged as a regression of tcp-rx and of nothing else.
#
# The repetitions of the reports are interleaved (A, A', limited; three rounds) and merged
# per side: on a shared machine the speed drifts over minutes, and two reports made one
# after the other would differ by that drift, which is real but not what an A/A checks.
# A gate's minimum effect must sit above its test bed's noise, and the slowdown above both:
# veth between namespaces on a small shared VM moves by tens of percent from run to run, so
# the defaults are a 25% minimum effect and a limit at 50% of the slower first-round TCP RX
# run. On a quiet runner NB_COMPARE_LIMIT_PCT=70 NB_COMPARE_MIN_EFFECT=15 works as well.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
TESTBED=$NB_SRC/scripts/testbed
NAME=nbc
SUBNET=10.200.40
TESTS=tcp-tx,tcp-rx,udp-tx,udp-rx
ROUNDS=3
LIMIT_PCT=${NB_COMPARE_LIMIT_PCT:-50}
MIN_EFFECT=${NB_COMPARE_MIN_EFFECT:-25}
TMP=$(mktemp -d /tmp/nbc-compare-XXXXXX)
failures=0

cleanup() {
	# scripts/testbed removes its namespaces itself; these are for a test bed killed hard.
	ip netns del "$NAME-dut" 2>/dev/null
	ip netns del "$NAME-peer" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces"
for tool in ip tc ethtool iperf3 jq; do
	command -v "$tool" >/dev/null || skip "$tool not installed"
done
[ -x "$TESTBED" ] || skip "scripts/testbed not found"
if ip netns list | grep -qE "^$NAME-(dut|peer)( |$)"; then
	skip "namespaces $NAME-dut/$NAME-peer exist (another run of this test?)"
fi

# one_rep FILE [testbed options]: one repetition of the four tests on a fresh test bed.
one_rep() {
	local out=$1
	shift
	if ! "$TESTBED" --name "$NAME" --subnet "$SUBNET" "$@" -- \
		"$NB_BIN" run -i "$NAME-d" --peer "$SUBNET.2" --tests "$TESTS" --duration 2 --omit 1 \
		--repetitions 1 --settle 0.5 --no-raw --journal "$TMP/journal" -o "$out" >"$TMP/run.log" 2>&1; then
		cat "$TMP/run.log"
		return 1
	fi
	grep -E '^(tcp|udp)-' "$TMP/run.log" | sed "s|^|  $(basename "$out" .json): |"
}

# merge OUT IN...: one report with the runs and metric values of all inputs, per point.
# The medians are dropped: compare takes the median of the merged values.
merge() {
	local out=$1
	shift
	jq -s '.[0] + {results: ([.[].results[]] | group_by(.id) | map(.[0] + {
		status: (if all(.[]; .status == "ok") then "ok" else (map(select(.status != "ok")) | .[0].status) end),
		runs: [.[].runs[]?],
		metrics: ([.[].metrics | to_entries[]] | group_by(.key)
			| map({key: .[0].key, value: {values: [.[].value.values[]?]}}) | from_entries)}))}' \
		"$@" >"$out"
}


# compare WHAT BASE NEW: text and JSON output kept as $TMP/cmp-WHAT.{txt,json,err}; returns
# the exit code.
compare() {
	local what=$1 base=$2 new=$3 rc
	"$NB_BIN" compare --min-effect "$MIN_EFFECT" "$base" "$new" >"$TMP/cmp-$what.txt" 2>"$TMP/cmp-$what.err"
	rc=$?
	"$NB_BIN" compare --min-effect "$MIN_EFFECT" --format json "$base" "$new" >"$TMP/cmp-$what.json" 2>/dev/null
	echo "--- nicbench compare --min-effect $MIN_EFFECT $(basename "$base") $(basename "$new"): exit $rc"
	cat "$TMP/cmp-$what.txt" "$TMP/cmp-$what.err"
	return "$rc"
}

point_verdicts() {
	jq -r '.points[] | "\(.id) \(.verdict)"' "$1"
}

limit_mbit=
for round in $(seq "$ROUNDS"); do
	echo "--- round $round"
	one_rep "$TMP/a-$round.json" || skip "the test bed or nicbench run failed (see above)"
	one_rep "$TMP/aa-$round.json" || skip "the test bed or nicbench run failed (see above)"
	if [ -z "$limit_mbit" ]; then
		# Relative to the slower first-round TCP RX run: below the A runs, so a real slowdown.
		min_bps=$(jq -s '[.[].results[] | select(.id == "tcp-rx") | .metrics.throughput_bps.values[]] | min' \
			"$TMP/a-1.json" "$TMP/aa-1.json")
		case $min_bps in '' | null) fail "no tcp-rx throughput in the first round"; exit 1 ;; esac
		limit_mbit=$(awk -v b="$min_bps" -v p="$LIMIT_PCT" 'BEGIN { printf "%d", b * p / 100 / 1e6 }')
		echo "  rate limit on the peer's egress: ${limit_mbit} Mbit/s (${LIMIT_PCT}% of $(awk -v b="$min_bps" \
			'BEGIN { printf "%d", b / 1e6 }') Mbit/s)"
	fi
	one_rep "$TMP/limited-$round.json" --rate-limit "${limit_mbit}Mbit" ||
		skip "the rate-limited run failed (see above)"
done
merge "$TMP/A.json" "$TMP"/a-[0-9]*.json
merge "$TMP/A2.json" "$TMP"/aa-[0-9]*.json
merge "$TMP/limited.json" "$TMP"/limited-[0-9]*.json

compare aa "$TMP/A.json" "$TMP/A2.json"
rc=$?
if [ "$rc" -eq 0 ]; then ok "A/A: no regression (exit 0)"; else fail "A/A: exit $rc, want 0"; fi
regressed=$(point_verdicts "$TMP/cmp-aa.json" | awk '$2 == "regressed" || $2 == "broken" { print $1 }' | xargs)
[ -z "$regressed" ] && ok "A/A: no point regressed" || fail "A/A: regressed points: $regressed"

compare limited "$TMP/A.json" "$TMP/limited.json"
rc=$?
if [ "$rc" -eq 1 ]; then ok "rate limit: regression (exit 1)"; else fail "rate limit: exit $rc, want 1"; fi
verdict=$(point_verdicts "$TMP/cmp-limited.json" | awk '$1 == "tcp-rx" { print $2 }')
[ "$verdict" = regressed ] && ok "rate limit: tcp-rx regressed" || fail "rate limit: tcp-rx is '$verdict', want regressed"
others=$(point_verdicts "$TMP/cmp-limited.json" | awk '$1 != "tcp-rx" && ($2 == "regressed" || $2 == "broken") { print $1 }' | xargs)
[ -z "$others" ] && ok "rate limit: no other point regressed" || fail "rate limit: also regressed: $others"

# Every report was made with the same settings: no environment warning either way.
if grep -q "differ in more than the kernel\|test settings of" "$TMP/cmp-aa.err" "$TMP/cmp-limited.err"; then
	fail "environment warning between runs of one configuration"
else
	ok "no environment warning"
fi

if ip netns list | grep -qE "^$NAME-(dut|peer)( |$)"; then fail "namespaces left behind"; fi
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
