# SPDX-License-Identifier: MIT
# Over `nicbench compare --format json`: how many gated metrics compare withheld as disturbed (other
# programs' load or host steal on a side: the reason of an exit 3); 0 when none. Shared by
# scripts/lab's --rounds auto loop and the benches (bench/lib/veth-bed.sh).
[.points[]? | .metrics // {} | to_entries[] | select(.value.gated and .value.verdict == "inconclusive"
	and ((.value.reason // "") | startswith("disturbed") or startswith("host steal")))] | length
