#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A boot hook for `nicbench ab` and `nicbench bisect` on the veth test bed (scripts/testbed), where a
# "kernel" is a word. The peer's egress is a link of NB_AB_LINK_KBIT (default 1000000: a board's gigabit
# link; a tbf), so that the link, not the shared machine's mood, sets tcp-rx, as on a board; a kernel named
# in NB_AB_SLOW (default "slow") gets NB_AB_SLOW_PCT (60) % of that link, a slowdown of B's rx tests. Each
# boot is a real `nicbench run` of a short tcp-rx. (A limit taken as 60% of the bed's unlimited tcp-rx does
# not hold here: on the shared 2-CPU machine that swings from 3 to 10 Gbit/s between minutes.)
# usage: ab-hook-veth.sh KERNEL ROUND OUT   (as nicbench ab calls it; run inside the test bed)
# Environment: NB_BIN, NB_IFACE, NB_PEER (scripts/testbed sets the last two); NB_AB_BED, the test bed's
#   --name (for the tbf); NB_AB_LINK_KBIT [1000000]; NB_AB_SLOW ["slow"], words of slow kernels;
#   NB_AB_SLOW_PCT [60]; NB_AB_TESTS [tcp-rx]; NB_AB_DURATION [1] s; NB_AB_REPS [2] runs a report;
#   NB_AB_ARGS [""], more words for nicbench run, after the others (a later --settle or --omit wins).
set -euo pipefail
kernel=$1 round=$2 out=$3
: "${NB_BIN:?}" "${NB_IFACE:?}" "${NB_PEER:?}" "${NB_AB_BED:?NB_AB_BED: the test bed name}"
. "$(dirname "${BASH_SOURCE[0]}")/veth-bed.sh"
slow=0
for k in ${NB_AB_SLOW:-slow}; do
	[ "$k" = "$kernel" ] && slow=1
done
tmp=$(mktemp -d /tmp/nb-ab-hook.XXXXXX)  # the run's journal goes in it (it must not exist before the run)
trap 'bed_tbf_off "$NB_AB_BED"; rm -rf "$tmp"' EXIT
kbit=${NB_AB_LINK_KBIT:-1000000}
[ "$slow" = 1 ] && kbit=$((kbit * ${NB_AB_SLOW_PCT:-60} / 100))
bed_tbf_on "$NB_AB_BED" "$kbit"
echo "ab hook: kernel $kernel: the peer's egress at $kbit kbit/s"
# shellcheck disable=SC2086 # NB_AB_ARGS is a list of words
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests "${NB_AB_TESTS:-tcp-rx}" --duration "${NB_AB_DURATION:-1}" \
	--omit 0 --repetitions "${NB_AB_REPS:-2}" --settle 0.2 --idle-check 0 --peer-local --no-raw --no-profile \
	--no-trace --journal "$tmp/journal" ${NB_AB_ARGS:-} --round "$round" -o "$out"
