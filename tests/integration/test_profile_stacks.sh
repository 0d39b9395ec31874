#!/bin/bash
# SPDX-License-Identifier: MIT
# Call chains on the veth test bed: a tcp-rx run with the diagnostic repetition writes its
# folded kernel stacks beside the report, the report names them, the receive path's stacks
# hold net_rx_action or napi_poll frames under their callers, and compare's HTML draws them.
set -u

SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
SKIP=77

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit $SKIP; }
for tool in ip iperf3 ethtool jq; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit $SKIP; }
done
[ -x "${NB_BIN:-}" ] || { echo "SKIP: NB_BIN is not set to the nicbench binary"; exit $SKIP; }

WORK=$(mktemp -d /tmp/nbt-stacks.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)" \
	"perf_event_max_stack=$(cat /proc/sys/kernel/perf_event_max_stack 2>/dev/null)"
r=$WORK/r.json
"$SRC/scripts/testbed" --name nbs --subnet 10.200.51 -- bash -c \
	'"$0" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-rx --duration 2 --omit 1 --repetitions 1 \
	 --settle 0.3 --idle-check 0 -o "$1" --journal "$2"' "$NB_BIN" "$r" "$WORK/journal" >"$WORK/run.txt" 2>&1 ||
	fail "nicbench run: $(tail -5 "$WORK/run.txt")"

notes=$(jq -r '.results[0].trace_notes // "" , .results[0].trace_unavailable // ""' "$r" | tr '\n' ' ')
if [ "$(jq '.results[0] | has("profile_stacks")' "$r")" != true ]; then
	# no sampling or no call chains here: absent with the reason, never an empty file
	[ -z "$(ls "$WORK"/r.p*.folded 2>/dev/null)" ] || fail "a folded file without profile_stacks in the report"
	[[ $notes == *profile* || $notes == *tracing* || $notes == *perf* ]] ||
		fail "no profile_stacks and no reason: '$notes'"
	echo "SKIP: no call chains here: $notes"
	exit $SKIP
fi
file=$(jq -r '.results[0].profile_stacks.file' "$r")
[ "$file" = r.p1.folded ] || fail "profile_stacks.file is '$file', want r.p1.folded beside the report"
folded=$WORK/$file
[ -s "$folded" ] || fail "$folded missing or empty"
samples=$(awk '{ s += $NF } END { print s + 0 }' "$folded")
want=$(jq '.results[0].profile_stacks.samples' "$r")
[ "$samples" = "$want" ] || fail "the file holds $samples samples, the report says $want"
lines=$(wc -l <"$folded")
[ "$lines" = "$(jq '.results[0].profile_stacks.stacks' "$r")" ] || fail "stack count differs from the file's $lines lines"
awk 'NF < 2 || $NF !~ /^[0-9]+$/ { exit 1 }' "$folded" || fail "a line of $folded is not 'stack count'"
# the receive path: net_rx_action / napi_poll with a caller below them (a real chain, not an IP)
rx=$(grep -E '[^ ;]+;([^ ;]+;)*(net_rx_action|__napi_poll|napi_poll)(;| )' "$folded" | head -3)
[ -n "$rx" ] || fail "no stack with a caller of net_rx_action or napi_poll in $folded"
echo "receive-path stacks:"
echo "$rx" | cut -c1-200

# compare draws the flame graph, self-contained, beside the movers
cp "$folded" "$WORK/b.p1.folded"
sed 's/r\.p1\.folded/b.p1.folded/' "$r" >"$WORK/b.json"
"$NB_BIN" compare "$r" "$WORK/b.json" --format html >"$WORK/c.html" 2>"$WORK/c.err"
rc=$?
[ $rc -le 2 ] || fail "compare --format html: exit $rc: $(cat "$WORK/c.err")"
grep -q '<h3>Differential flame graphs</h3>' "$WORK/c.html" || fail "no flame graph in compare's HTML"
grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$WORK/c.html" || fail "no svg element"
grep -q '<title>net_rx_action: ' "$WORK/c.html" || fail "no net_rx_action frame in the flame graph"
echo "PASS: $samples samples in $lines stacks; flame graph drawn"
