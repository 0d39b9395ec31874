#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lab-bisect's search on a scripted measurement (no lab): the first bad candidate is named, an undecided
# step costs more pairs and is run again (never skipped), ends that do not differ stop the search, and a step that
# stays undecided at the ceiling stops it with the range left. The fake step regresses when the candidate is at or
# past FIRST_BAD and the good end is not, like a real step whose verdict is decided.
set -u
src=${NB_SRC:?NB_SRC: the source tree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
expect() { # what got want
	if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; fail=1; else echo "ok: $1"; fi
}

for i in 0 1 2 3 4 5 6 7; do echo "c$i k$i commit number $i"; done >"$work/cands"
cat >"$work/fake-ab" <<'FAKE'
#!/bin/bash
# fake-ab GOOD CAND DIR PAIRS: k<index> kernels; FIRST_BAD the first regressed index; UNDECIDED_BELOW: a step
# with fewer pairs than this answers "undecided" (3)
g=${1#k} c=${2#k}
echo "$1 $2 $4 ${NB_BISECT_EXTEND:-unset} $(basename "$3")" >>"$(dirname "$3")/calls"
[ "$4" -lt "${UNDECIDED_BELOW:-0}" ] && exit 3
[ "$c" -ge "$FIRST_BAD" ] && [ "$g" -lt "$FIRST_BAD" ] && exit 1
exit 0
FAKE
chmod +x "$work/fake-ab"

for first_bad in 1 3 5 7; do
	out=$(FIRST_BAD=$first_bad "$src/scripts/lab-bisect" "$work/cands" --ab "$work/fake-ab" --work "$work/b$first_bad" 2>"$work/err")
	expect "first bad at $first_bad: exit" "$?" 0
	expect "first bad at $first_bad: named" "$out" "c$first_bad commit number $first_bad"
	expect "first bad at $first_bad: summary" "$(jq -r .first_bad "$work/b$first_bad/bisect.json")" "c$first_bad"
	# ends, then a binary search over 6 inner candidates: at most 1 + 3 steps
	steps=$(jq '.steps | length' "$work/b$first_bad/bisect.json")
	[ "$steps" -le 4 ] && [ "$steps" -ge 3 ] || { echo "FAIL: $steps steps for 8 candidates"; fail=1; }
done

# every step measures the candidate beside the known-good end, never beside a candidate not yet judged
bad_pair=$(awk '{ if (substr($1,2) >= 5) print }' "$work/b5/calls")
expect "the good side of every step is good" "$bad_pair" ""

# undecided at 4 pairs, decided at 8: the step runs again with twice the pairs
out=$(FIRST_BAD=3 UNDECIDED_BELOW=8 "$src/scripts/lab-bisect" "$work/cands" --ab "$work/fake-ab" --max-rounds 4 \
	--ceiling 8 --work "$work/u" 2>"$work/err")
expect "undecided then decided: exit" "$?" 0
expect "undecided then decided: named" "$out" "c3 commit number 3"
# each of the (at most 4) searches was undecided once at 4 pairs, then decided at 8
expect "undecided steps recorded" "$(jq -c '[.steps[] | [.verdict, .max_pairs]] | unique' "$work/u/bisect.json")" \
	'[["regressed",8],["same",8],["undecided",4]]'
expect "steps alternate undecided, decided" "$(jq -r '[.steps[].max_pairs] | map(tostring) | join(" ")' "$work/u/bisect.json")" \
	"4 8 4 8 4 8 4 8"
expect "more pairs after undecided" "$(awk '{print $3}' "$work/u/calls" | sort -u | tr '\n' ' ')" "4 8 "
# the second call goes on with the first's pairs: the same step directory, told to extend
expect "4 pairs start a step, 8 extend it" "$(awk '{print $3, $4}' "$work/u/calls" | sort -u | tr '\n' ' ')" "4 0 8 1 "
expect "an extension keeps its step's directory" \
	"$(awk '{ d[$5]++ } END { for (k in d) if (d[k] != 2) print k, d[k] }' "$work/u/calls")" ""
expect "an extension keeps its step's number" "$(jq -r '[.steps[].step] | map(tostring) | join(" ")' "$work/u/bisect.json")" \
	"1 1 2 2 3 3 4 4"

# still undecided at the ceiling: exit 3 and the range
FIRST_BAD=3 UNDECIDED_BELOW=99 "$src/scripts/lab-bisect" "$work/cands" --ab "$work/fake-ab" --max-rounds 4 --ceiling 8 \
	--work "$work/x" >/dev/null 2>"$work/err"
expect "undecided at the ceiling: exit" "$?" 3
grep -q "cannot tell" "$work/err" || { echo "FAIL: no 'cannot tell' in: $(cat "$work/err")"; fail=1; }

# ends alike: nothing to bisect
FIRST_BAD=99 "$src/scripts/lab-bisect" "$work/cands" --ab "$work/fake-ab" --work "$work/s" >/dev/null 2>"$work/err"
expect "ends alike: exit" "$?" 1
expect "ends alike: result" "$(jq -r .result "$work/s/bisect.json")" ends-alike

# usage errors: exit 2 with a message
"$src/scripts/lab-bisect" 2>"$work/err"; expect "no candidates file: exit" "$?" 2
echo "c0 k0" >"$work/one"
"$src/scripts/lab-bisect" "$work/one" --ab "$work/fake-ab" 2>"$work/err"; expect "one candidate: exit" "$?" 2
"$src/scripts/lab-bisect" "$work/cands" --gate throughput_bps 2>"$work/err"; expect "gate without a point: exit" "$?" 2
exit $fail
