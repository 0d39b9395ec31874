#!/bin/bash
# A/A on the veth test bed with compare's defaults: the same configuration on both sides,
# over several pairs, must give no metric (gated or not) regressed or improved, exit 0, and a
# default text output that fits on a screen. With --floor none the same reports are judged by
# the relative rules alone; that count is printed beside, to show what the floors hold back.
#
# Each side of a pair is three one-repetition runs made alternately with the other side's
# (A B A B A B) and merged: on a shared machine the speed drifts over a minute, and two
# reports made one after the other differ by that drift, which is real but not what an A/A
# checks. NB_AA_PAIRS (default 3) pairs of tcp-tx, tcp-rx, udp-rx, 2 s runs.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
TESTBED=$NB_SRC/scripts/testbed
NAME=nbcaa
SUBNET=10.200.41
TESTS=tcp-tx,tcp-rx,udp-rx
PAIRS=${NB_AA_PAIRS:-3}
SCREEN=40
TMP=$(mktemp -d /tmp/nbc-aa-XXXXXX)
failures=0

cleanup() {
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
for tool in ip ethtool iperf3 jq; do
	command -v "$tool" >/dev/null || skip "$tool not installed"
done
[ -x "$TESTBED" ] || skip "scripts/testbed not found"
if ip netns list | grep -qE "^$NAME-(dut|peer)( |$)"; then
	skip "namespaces $NAME-dut/$NAME-peer exist (another run of this test?)"
fi

one_rep() {
	"$TESTBED" --name "$NAME" --subnet "$SUBNET" -- \
		"$NB_BIN" run -i "$NAME-d" --peer "$SUBNET.2" --tests "$TESTS" --duration 2 --omit 1 \
		--repetitions 1 --settle 0.5 --no-raw --journal "$TMP/journal" -o "$1" >"$TMP/run.log" 2>&1 ||
		{ cat "$TMP/run.log"; return 1; }
}

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

# count JSON VERDICT...: metrics of every point with one of these verdicts
count() {
	local json=$1
	shift
	jq --args '[.points[].metrics[].verdict | select(IN($ARGS.positional[]))] | length' "$json" "$@"
}

total_moved=0 total_moved_nofloor=0
for pair in $(seq "$PAIRS"); do
	for r in 1 2 3; do
		one_rep "$TMP/a$r.json" || skip "the test bed or nicbench run failed (see above)"
		one_rep "$TMP/b$r.json" || skip "the test bed or nicbench run failed (see above)"
	done
	merge "$TMP/A$pair.json" "$TMP"/a[123].json
	merge "$TMP/B$pair.json" "$TMP"/b[123].json
	"$NB_BIN" compare --color never "$TMP/A$pair.json" "$TMP/B$pair.json" >"$TMP/cmp.txt" 2>"$TMP/cmp.err"
	rc=$?
	"$NB_BIN" compare --format json "$TMP/A$pair.json" "$TMP/B$pair.json" >"$TMP/cmp.json" 2>/dev/null
	"$NB_BIN" compare --format json --floor none "$TMP/A$pair.json" "$TMP/B$pair.json" >"$TMP/nofloor.json" 2>/dev/null
	moved=$(count "$TMP/cmp.json" regressed improved)
	moved_nofloor=$(count "$TMP/nofloor.json" regressed improved)
	lines=$(wc -l <"$TMP/cmp.txt")
	echo "--- pair $pair: exit $rc; regressed+improved: $moved (floors off: $moved_nofloor);" \
		"inconclusive: $(count "$TMP/cmp.json" inconclusive) (floors off: $(count "$TMP/nofloor.json" inconclusive));" \
		"text: $lines lines"
	cat "$TMP/cmp.txt"
	[ "$rc" -eq 0 ] && ok "pair $pair: exit 0" || fail "pair $pair: exit $rc, want 0"
	[ "$moved" -eq 0 ] && ok "pair $pair: no metric regressed or improved" ||
		fail "pair $pair: $moved metrics regressed or improved: $(jq -r '[.points[] | .id as $p | .metrics |
			to_entries[] | select(.value.verdict == "regressed" or .value.verdict == "improved") |
			"\($p) \(.key)"] | join(", ")' "$TMP/cmp.json")"
	[ "$lines" -le "$SCREEN" ] && ok "pair $pair: text fits on a screen ($lines lines)" ||
		fail "pair $pair: text is $lines lines, more than $SCREEN"
	# JSON keeps every metric, each with the floor it was judged with (null: none).
	missing_floor=$(jq '[.points[].metrics[] | select(has("floor") | not)] | length' "$TMP/cmp.json")
	[ "$missing_floor" -eq 0 ] && ok "pair $pair: every JSON metric says its floor" ||
		fail "pair $pair: $missing_floor JSON metrics without a floor key"
	total_moved=$((total_moved + moved))
	total_moved_nofloor=$((total_moved_nofloor + moved_nofloor))
done
echo "over $PAIRS pairs: $total_moved metrics regressed or improved with floors, $total_moved_nofloor without"

if ip netns list | grep -qE "^$NAME-(dut|peer)( |$)"; then fail "namespaces left behind"; fi
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
