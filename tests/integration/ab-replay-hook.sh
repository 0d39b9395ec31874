#!/bin/bash
# SPDX-License-Identifier: MIT
# A boot hook for nicbench ab and bisect that boots nothing: it replays recorded rounds of the veth test
# bed (tests/fixtures/compare/rounds: KERNEL "aa-A", "aa-B", "slow-A", "slow-B"), round I taking fixture
# ((I - 1) % 5) + 1, with the round nicbench asked for written into it. The schedule, the state file and the
# resume are then tested without traffic. NB_REPLAY_SLEEP: seconds a boot takes (a kill can land inside one);
# NB_REPLAY_FAIL=N: boots whose count (in NB_REPLAY_COUNT, a file) is N or more exit 1 without a report.
# usage: ab-replay-hook.sh KERNEL ROUND OUT
set -eu
kernel=$1 round=$2 out=$3
here=$(cd "$(dirname "$0")/../fixtures/compare/rounds" && pwd)
if [ -n "${NB_REPLAY_COUNT:-}" ]; then
	n=$(($(cat "$NB_REPLAY_COUNT" 2>/dev/null || echo 0) + 1))
	echo "$n" >"$NB_REPLAY_COUNT"
	if [ -n "${NB_REPLAY_FAIL:-}" ] && [ "$n" -ge "$NB_REPLAY_FAIL" ]; then
		echo "replay hook: boot $n of kernel $kernel fails, as asked (NB_REPLAY_FAIL=$NB_REPLAY_FAIL)" >&2
		exit 1
	fi
fi
[[ "$round" =~ ^([AB]):([0-9]+)/([0-9]+):(.+)$ ]] || { echo "replay hook: bad round '$round'" >&2; exit 2; }
side=${BASH_REMATCH[1]} index=${BASH_REMATCH[2]} of=${BASH_REMATCH[3]} set=${BASH_REMATCH[4]}
fixture=$here/$kernel$(((index - 1) % 5 + 1)).json
[ -r "$fixture" ] || { echo "replay hook: no fixture $fixture for kernel '$kernel'" >&2; exit 2; }
sleep "${NB_REPLAY_SLEEP:-0}"
jq --arg side "$side" --argjson index "$index" --argjson of "$of" --arg set "$set" \
	'.round = {side: $side, index: $index, of: $of, set: $set}' "$fixture" >"$out.tmp"
mv "$out.tmp" "$out"
echo "replay hook: $kernel round $round from $(basename "$fixture")"
