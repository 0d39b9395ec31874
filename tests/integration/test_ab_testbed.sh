#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench ab on the veth test bed with a hook that runs a real `nicbench run` (tcp-rx, 2 runs of
# 1 s a boot; bench/lib/ab-hook-veth.sh): the peer's egress is a 1 Gbit/s link (a tbf) and a "slow" kernel
# gets 60% of it. One A/A set (fast fast, 4 pairs at most: 8 runs a side, past ab's 3 for a verdict, so a
# false regression can still show) must not call a regression (exit 0, 3 or 4, never 1); one set of
# fast slow must (exit 1). ~1 min. The bisect with this hook, whose steps run until each decides, is
# test_ab_testbed_bisect (slow tier); test_ab_replay has bisect's plumbing in the CI tier.
# On a machine that other programs load (cpu_other_pct >= 10% in a round), ab rightly withholds the verdict
# (exit 4): the slowdown cannot be judged then, and the test skips, as test_compare_testbed does.
set -u
NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
nb_require_root
command -v tc >/dev/null || { echo "SKIP: tc not installed"; exit 77; }
nb_in_testbed nbabt 10.200.89 --server-cpu 1
nb_work_dir
trap 'exit 130' INT TERM
skip_withheld() {  # WHAT LOG: ab withheld the verdict, the machine was loaded
	echo "SKIP: $1: exit 4, withheld: other programs loaded the machine ($(grep -o 'other programs took up to [0-9]*%' "$2" | head -1)); the verdict cannot be judged here"
	exit 77
}
export NB_BIN NB_AB_BED=nbabt
hook=$NB_SRC/bench/lib/ab-hook-veth.sh

"$NB_BIN" ab --boot "$hook" --work "$work/aa" --max-pairs 4 fast fast >"$work/aa.out" 2>"$work/aa.err"
rc=$?
tail -n 4 "$work/aa.err"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || [ "$rc" = 4 ] || { cat "$work/aa.out"; fail "ab fast fast: exit $rc, want 0, 3 or 4 (never 1)"; }
echo "ok: ab fast fast exits $rc after $(jq .pairs "$work/aa/state.json") pairs"

"$NB_BIN" ab --boot "$hook" --work "$work/slow" --max-pairs 8 fast slow >"$work/slow.out" 2>"$work/slow.err"
rc=$?
tail -n 4 "$work/slow.err"
[ "$rc" = 4 ] && skip_withheld "ab fast slow" "$work/slow.out"
[ "$rc" = 1 ] || { cat "$work/slow.out"; fail "ab fast slow: exit $rc, want 1 (regressed)"; }
grep -q "throughput_bps .*regressed" "$work/slow.out" || fail "ab fast slow: tcp-rx's throughput is not what regressed"
expect "verdict.json's verdict" "$(jq -r .verdict "$work/slow/verdict.json")" regression
echo "ok: ab fast slow exits 1 after $(jq .pairs "$work/slow/state.json") pairs"

echo "all checks passed"
