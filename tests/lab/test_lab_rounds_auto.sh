#!/bin/bash
# SPDX-License-Identifier: MIT
# `scripts/lab ab 6.1 6.1 --rounds auto`: nicbench ab with the lab as its boot hook, pairs of alternating boots until
# the sequential verdict decides, on a tiny matrix gated on throughput. A/A (the same kernel both sides) must never be called regressed (exit 1: a false
# alarm); a slowdown made on B's boots only (`--b-netem "rate ..."`, a netem rate limit on the guest's egress far
# below what tcp-tx reaches under TCG) must be exit 1, regressed. Both stop at --max-rounds pairs at the latest, and
# their reports are paired rounds (I = 1..pairs of both sides, one set, under ab's --work).
# A/A may end undecided (exit 3): "unchanged" needs the whole confidence sequence inside +-10%, and TCG guests on
# a busy 2-vCPU host swing by more than that from boot to boot, so within a short max it is not always reached.
# Measured here (TCG, 2 vCPUs): A/A undecided after 5 pairs (exit 3; tcp-rx's sequence -40%..+106%), 380 s; the
# slowdown regressed after 4 pairs (-98%..-88%), 237 s.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-rounds-auto.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1

max=${NB_ROUNDS_AUTO_MAX:-5}
matrix=(--repetitions 2 --duration 3 --omit 1 --settle 1 --no-trace)

# ab_auto NAME TEST [ab options...]: one set into $tmp/NAME, with lib.sh's retry rule (a guest that crashed or
# did not finish: once more). Sets rc and pairs (the B reports, as each pair ends with both sides).
ab_auto() {
	local name=$1 test=$2 attempt
	shift 2
	for attempt in 1 2; do
		rm -rf "$tmp/$name"
		mkdir -p "$tmp/$name"
		"$NB_SRC/scripts/lab" ab 6.1 6.1 --rounds auto --max-rounds "$max" --gate throughput_bps --cpus 2 \
			--work "$tmp/$name/work" --artifacts "$tmp/$name/art" "$@" -- --tests "$test" "${matrix[@]}" \
			>"$tmp/$name/ab.out" 2>"$tmp/$name/ab.err"
		rc=$?
		grep '^lab: ' "$tmp/$name/ab.err"
		echo "== $name attempt $attempt: scripts/lab ab --rounds auto exited $rc"
		lab_guest_failed "$rc" "$tmp/$name"/art/*/console.log || break
	done
	cat "$tmp/$name/ab.out"
	pairs=$(round_count "$tmp/$name/work" B)
	echo "$name: $pairs pairs, exit $rc"
}

# check_rounds NAME: the reports of the set are rounds 1..pairs of both sides of one set, each "of" the max
check_rounds() {
	local name=$1 side i r set_id=""
	check "$name: between 3 and $max pairs ($pairs)" test "$pairs" -ge 3 -a "$pairs" -le "$max"
	check "$name: as many A as B reports" test "$(round_count "$tmp/$name/work" A)" = "$pairs"
	for side in A B; do
		for i in $(seq "$pairs"); do
			r=$(round_report "$tmp/$name/work" "$side" "$i")
			[ -n "$r" ] || { fail "$name: no report of round $side $i"; continue; }
			[ -n "$set_id" ] || set_id=$(jq -r '.round.set // ""' "$r")
			check "$name: $(basename "$r") is round $side $i/$max of set $set_id" \
				test "$(jq -c .round "$r")" = "{\"side\":\"$side\",\"index\":$i,\"of\":$max,\"set\":\"$set_id\"}"
		done
	done
	check "$name: ab paired the rounds ($pairs pairs)" grep -q "paired by round index: $pairs pairs" "$tmp/$name/ab.out"
	check "$name: ab judged sequentially" grep -q '^  sequential: tcp-' "$tmp/$name/ab.out"
}

t0=$(date +%s)
ab_auto aa tcp-rx
aa_rc=$rc aa_pairs=$pairs
check "A/A: exit 0 (unchanged) or 3 (undecided at $max pairs), never 1 (a false alarm) nor 2, 4, 5 (got $rc)" \
	test "$rc" -eq 0 -o "$rc" -eq 3
[ "$rc" -eq 3 ] && check "A/A: undecided only after the max ($pairs of $max pairs)" test "$pairs" -eq "$max"
check_rounds aa
t1=$(date +%s)

# tcp-tx reaches some hundreds of Mbit/s in the TCG guest: a 40 Mbit/s limit is a slowdown of most of it
ab_auto slow tcp-tx --b-netem "rate 40mbit"
check "slowdown on B: exit 1, regressed (got $rc)" test "$rc" -eq 1
check "slowdown on B: tcp-tx throughput called regressed" \
	grep -q 'sequential: tcp-tx.* throughput_bps: regressed' "$tmp/slow/ab.out"
netems=$(find "$tmp/slow/work" -name '*.json' -print0 | xargs -0 jq -rs \
	'map(select(.round?.side) | "\(.round.side)=\(.lab.netem // "-")") | unique | join(",")')
check "slowdown on B: only B's reports carry the netem ($netems)" test "$netems" = "A=-,B=rate 40mbit"
check_rounds slow
t2=$(date +%s)
echo "measured: A/A exit $aa_rc after $aa_pairs pairs in $((t1 - t0)) s; slowdown exit $rc after $pairs pairs in $((t2 - t1)) s"
finish
