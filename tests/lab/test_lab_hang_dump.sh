#!/bin/bash
# SPDX-License-Identifier: MIT
# A guest still running at its deadline says where it is before the lab stops it: a 6.12 guest given a
# 60 s transfer and a 25 s deadline (NB_LAB_TIMEOUT) must end with exit 5, one "hung guest: vCPU N" line
# a vCPU with its program counter resolved to a kernel symbol (System.map, nokaslr), the monitor's
# registers in hang.txt, and the kernel's own SysRq backtrace on the console (sysrq_always_enabled,
# Alt+SysRq+l pressed on the emulated keyboard). This is the path a real hang takes (docs/lab.md).
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.12

start=$(date +%s)
NB_LAB_TIMEOUT=25 "$NB_SRC/scripts/lab" run --kernel 6.12 --nic virtio-net --cpus 2 --artifacts "$tmp/art" -- \
	--tests tcp-tx --duration 60 --omit 0 --settle 0 --repetitions 1 --no-trace -o "$tmp/r.json" \
	>"$tmp/lab.out" 2>"$tmp/lab.err"
rc=$?
echo "lab exit $rc after $(($(date +%s) - start)) s"
grep '^lab: hung guest' "$tmp/lab.err"
check "exit 5: the guest did not finish (got $rc)" test "$rc" -eq 5
check "the deadline was announced" grep -q 'still running after 25 s' "$tmp/lab.err"
for cpu in 0 1; do
	line=$(grep "^lab: hung guest: vCPU $cpu: " "$tmp/lab.err")
	check "vCPU $cpu located: ${line#lab: hung guest: }" test -n "$line"
	# a resolved program counter reads symbol+0xoffset, an unresolved one a bare 0x address
	check "vCPU $cpu's program counter resolved to a symbol" grep -Eq "vCPU $cpu: .* at [A-Za-z_][A-Za-z0-9_.]*\+0x" \
		"$tmp/lab.err"
done
check "hang.txt holds the monitor's registers" grep -q 'RIP=' "$tmp/art/hang.txt"
check "the guest kernel printed its SysRq backtrace" grep -q 'sysrq: Show backtrace of all active CPUs' \
	"$tmp/art/console.log"
check "no report was written for the stopped run" test ! -e "$tmp/r.json"
[ "$failures" -eq 0 ] || { echo "hang.txt begins:"; head -n 30 "$tmp/art/hang.txt"; }
finish
