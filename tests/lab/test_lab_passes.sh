#!/bin/bash
# SPDX-License-Identifier: MIT
# The passes stack (kernel/planted-regression/build --stack passes): two candidates, e1000e built with
# rx_extra_sum_passes 0 and 3 compiled in as the default; a guest of passes-3 must load its driver with no option
# and read 3 from /sys/module/e1000e/parameters/rx_extra_sum_passes, take another value written there, and still
# receive (a short tcp-rx with the parameter at 3). bench/lab-cost-ab rests on both: its B is a compiled-in
# default, its calibration writes the parameter between runs.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-passes.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1
lab_require_kernel_source

rc=0
"$NB_SRC/kernel/planted-regression/build" --stack passes --passes 0,3 --work "$tmp/passes" >"$tmp/build.out" \
	2>"$tmp/build.err" || rc=$?
cat "$tmp/build.err"
case $rc in
0) ;;
4) skip "the lab kernel or its headers could not be had (exit 4)" ;;
*) stop "kernel/planted-regression/build --stack passes exited $rc" ;;
esac
cands=$(tail -n 1 "$tmp/build.out")
expect "candidates" "$(cut -d' ' -f1 "$cands" | paste -sd,)" "passes-0,passes-3"
rc=0
"$NB_SRC/kernel/planted-regression/build" --stack passes --passes 0,x --work "$tmp/bad" >/dev/null 2>&1 || rc=$?
expect "build --passes 0,x (a usage error)" "$rc" 2

# the guest's view of the parameter, before the run: as loaded, after a write, and set back to 3 for the run
cat >"$tmp/setup.sh" <<'EOF'
p=/sys/module/e1000e/parameters/rx_extra_sum_passes
echo "loaded $(cat $p)"
echo 7 >$p && echo "written $(cat $p)"
echo 3 >$p
EOF
rc=0
"$NB_SRC/scripts/lab" run --kernel "$(awk '$1 == "passes-3" { print $2 }' "$cands")" --setup "$tmp/setup.sh" \
	--artifacts "$tmp/art" -- --tests tcp-rx --repetitions 1 --duration 2 --omit 1 --settle 1 --no-trace \
	-o "$tmp/r.json" >"$tmp/lab.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { tail -n 30 "$tmp/lab.log"; stop "scripts/lab run of passes-3 exited $rc"; }
expect "the compiled-in default, as loaded" "$(sed -n 's/^loaded //p' "$tmp/art/setup.log")" 3
expect "the parameter after a write" "$(sed -n 's/^written //p' "$tmp/art/setup.log")" 7
pkts=$(jq -r '.results[0].metrics.rx_packets_per_s.median // 0 | floor' "$tmp/r.json")
if [ "$pkts" -gt 1000 ]; then pass "tcp-rx at 3 passes: $pkts packets/s"; else fail "tcp-rx at 3 passes: $pkts packets/s"; fi
finish
