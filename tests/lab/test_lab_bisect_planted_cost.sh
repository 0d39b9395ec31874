#!/bin/bash
# SPDX-License-Identifier: MIT
# The bisect on the cost-only stack: kernel/planted-regression/build --stack cost makes six candidates (the lab's 6.1
# with e1000e rebuilt at each commit of a stack whose planted commit, 0003, folds a checksum over every received
# frame: CPU time per packet, little throughput where the emulation sets it), and scripts/lab-bisect (nicbench
# bisect, the lab as its boot hook) with nicbench bisect's default gate, throughput and kernel_cpu_ns_per_packet,
# must name 0003. The same bisect with the throughput-only gate runs beside it, for the note: its result is
# printed, not judged (it may name 0003, end undecided, or find the ends alike). A default-gate bisect still
# undecided at the ceiling (exit 3) skips, as test_lab_bisect_planted's does.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-bisect-cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1
lab_require_kernel_source

t0=$(date +%s)
rc=0
"$NB_SRC/kernel/planted-regression/build" --stack cost --work "$tmp/planted" >"$tmp/build.out" 2>"$tmp/build.err" || rc=$?
cat "$tmp/build.err"
case $rc in
0) ;;
4) skip "the lab kernel or its headers could not be had (exit 4)" ;;
*) stop "kernel/planted-regression/build --stack cost exited $rc" ;;
esac
cands=$(tail -n 1 "$tmp/build.out")
expect "candidates" "$(grep -c . "$cands")" 6
t1=$(date +%s)

# bisect NAME [GATE...]: scripts/lab-bisect into $tmp/NAME; sets rc and prints the steps
bisect() {
	local name=$1 t
	shift
	t=$(date +%s)
	rc=0
	"$NB_SRC/scripts/lab-bisect" "$cands" "$@" --max-rounds 8 --ceiling 16 --work "$tmp/$name" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	grep -E '^bisect: ' "$tmp/$name.err"
	jq -c '.steps[]?' "$tmp/$name/bisect.json" 2>/dev/null
	echo "== $name: exit $rc in $(($(date +%s) - t)) s, $(round_count "$tmp/$name" B) pairs: $(cat "$tmp/$name.out")"
}

bisect default
default_rc=$rc
case $default_rc in
0 | 1) ;;
3) skip "a step stayed undecided at 16 pairs (the host too noisy to tell)" ;;
*) stop "scripts/lab-bisect exited $rc (4: a side disturbed; 5: a boot failed)" ;;
esac
expect "the default gate's first bad candidate" "$(cut -d' ' -f1 "$tmp/default.out" | cut -c1-3)" "03-"
expect "bisect.json names it" "$(jq -r '.first_bad[0:3]' "$tmp/default/bisect.json")" "03-"
t2=$(date +%s)

bisect throughput --gate throughput_bps@tcp-rx
echo "the throughput-only gate on the same stack: exit $rc, first bad '$(cat "$tmp/throughput.out")'"
echo "builds $((t1 - t0)) s; default gate $((t2 - t1)) s; throughput only $(($(date +%s) - t2)) s"
finish
