#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench bisect on the veth test bed with the hook of test_ab_testbed (bench/lib/ab-hook-veth.sh: a real
# `nicbench run` of tcp-rx a boot, the peer's egress a 1 Gbit/s tbf, a "slow" kernel 60% of it): c0..c4 with
# c2 the first slow one must name c2 (its gate: tcp-rx's throughput, minimum effect 10%, so that its A/A step
# decides "same" within the ceiling). Slow tier: each step runs until it decides, ~35 s to minutes. The CI
# tier keeps bisect's plumbing in test_ab_replay (recorded rounds) and the live hook in test_ab_testbed.
# On a machine that other programs load (cpu_other_pct >= 10% in a round), the step rightly withholds its
# verdict (exit 4), and the test skips.
set -u
NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
nb_require_root
command -v tc >/dev/null || { echo "SKIP: tc not installed"; exit 77; }
nb_in_testbed nbabb 10.200.91 --server-cpu 1
nb_work_dir
trap 'exit 130' INT TERM
export NB_BIN NB_AB_BED=nbabb
hook=$NB_SRC/bench/lib/ab-hook-veth.sh

NB_AB_SLOW="c2 c3 c4" "$NB_BIN" bisect --boot "$hook" --work "$work/bisect" --gate throughput_bps@tcp-rx \
	--min-effect 10 --max-pairs 6 --ceiling 12 c0 c1 c2 c3 c4 >"$work/bisect.out" 2>"$work/bisect.err"
rc=$?
grep "^nicbench bisect: " "$work/bisect.err"
if [ "$rc" = 4 ]; then
	echo "SKIP: bisect: exit 4, withheld: other programs loaded the machine ($(grep -o 'other programs took up to [0-9]*%' \
		"$(ls -d "$work"/bisect/step-* | tail -1)/verdict.txt" | head -1)); the verdict cannot be judged here"
	exit 77
fi
expect "bisect exit code" "$rc" 1
expect "bisect names" "$(cat "$work/bisect.out")" c2
expect "bisect.json first_bad" "$(jq -r .first_bad "$work/bisect/bisect.json")" c2
echo "all checks passed"
