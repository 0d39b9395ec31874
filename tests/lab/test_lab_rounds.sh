#!/bin/bash
# SPDX-License-Identifier: MIT
# `scripts/lab ab 6.1 6.1 --rounds 2` on a tiny matrix: nicbench ab with the lab as its boot hook, four boots in the
# order A B B A (two pairs: too few for the sequential verdict to decide, so all four run), each report carries its
# round (side, index, of, one set id), only round 1 of each side holds the diagnostic repetition, and ab ends with
# its verdict over the rounds (exit 0, 1 or 3: a verdict, never 2, an input error, nor 5, a boot that failed).
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-rounds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1

# A guest that crashed in any of the four boots, or a lab that did not finish: once more (lib.sh's rule).
for attempt in 1 2; do
	rm -rf "$tmp/art" "$tmp/work"
	"$NB_SRC/scripts/lab" ab 6.1 6.1 --rounds 2 --cpus 2 --work "$tmp/work" --artifacts "$tmp/art" -- \
		--tests tcp-rx --duration 2 --omit 1 --settle 0 --repetitions 2 >"$tmp/ab.out" 2>"$tmp/ab.err"
	rc=$?
	grep '^lab: ' "$tmp/ab.err"
	echo "== attempt $attempt: scripts/lab ab --rounds 2 exited $rc"
	lab_guest_failed "$rc" "$tmp"/art/*/console.log || break
done
cat "$tmp/ab.out"
check "scripts/lab ab --rounds 2 exited with a verdict (0, 1 or 3), not $rc" test "$rc" -le 1 -o "$rc" -eq 3
# the boots' order: each boot's artifacts (SIDE.I) by the time its console log was last written
order=$(cd "$tmp/art" 2>/dev/null && ls -tr -- */console.log | cut -c1 | tr -d '\n')
check "boots in the order A B B A (got '$order')" test "$order" = ABBA
set_id=""
for side in A B; do
	for i in 1 2; do
		r=$(round_report "$tmp/work" "$side" "$i")
		[ -n "$r" ] || { fail "no report of round $side $i under $tmp/work"; continue; }
		check "$(basename "$r") matches the schema" validate_report "$r"
		check "$(basename "$r"): round $side $i of 2" test "$(jq -c '.round | [.side, .index, .of]' "$r")" = "[\"$side\",$i,2]"
		[ -n "$set_id" ] || set_id=$(jq -r '.round.set // ""' "$r")
		check "$(basename "$r"): one set ($set_id)" test "$(jq -r '.round.set // ""' "$r")" = "$set_id"
		if [ "$i" = 1 ]; then
			check "$(basename "$r"): round 1 holds the diagnostics (or says why tracing is unavailable)" \
				test "$(jq '.diagnostics.in_this_report and ([.results[] | select(has("diagnostics") or has("trace_unavailable"))] | length) == (.results | length)' "$r")" = true
		else
			check "$(basename "$r"): round 2 runs no diagnostic repetition" \
				test "$(jq '(.diagnostics.in_this_report | not) and ([.results[] | select(has("diagnostics"))] | length) == 0' "$r")" = true
		fi
	done
done
check "the verdict named the rounds it paired" grep -qiE 'round' "$tmp/ab.out"
finish
