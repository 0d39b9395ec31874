#!/bin/bash
# SPDX-License-Identifier: MIT
# The argument handling of scripts/cross-build and of scripts/lab --arch for the boards' ISAs, none of which needs
# a package or a guest: unknown targets are usage errors naming the known ones, mipsel has no kernel beyond
# Debian 12's, and a --guest-bin of the wrong ISA or byte order is refused before anything is fetched.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-cross-usage.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches the extended regex PATTERN.
expect() {
	local code=$1 pattern=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$* -> exit $code (got $rc)" test "$rc" -eq "$code"
	check "$*: says /$pattern/ ($(head -n 1 "$tmp/err"))" grep -Eq -e "$pattern" "$tmp/err"
}
cb=$NB_SRC/scripts/cross-build lab=$NB_SRC/scripts/lab

expect 2 'usage: .*aarch64\|armhf\|mipsel\|mips\|riscv64\|x86_64' "$cb"
expect 2 'usage: .*armhf' "$cb" sparc
expect 2 'usage: ' "$cb" arm

expect 2 "--arch 'sparc': x86_64, arm64, armhf, mipsel or riscv64" "$lab" fetch --arch sparc 6.1
expect 2 'Debian 12 is the last release with mipsel' "$lab" fetch --arch mipsel 6.12
expect 2 'Debian 12 is the last release with mipsel' "$lab" fetch --arch mipsel backports
expect 2 "--arch armhf --kernel 6.6: an armhf guest boots Debian's kernels only" "$lab" fetch --arch armhf 6.6
expect 2 '--nic .*e1000e, virtio-net, e1000 or fec' "$lab" fetch --arch mipsel --nic pcnet 6.1
# fec is the i.MX6's own Ethernet: only the armhf SABRE Lite has it
expect 2 '--nic fec: .*needs --arch armhf' "$lab" fetch --arch arm64 --nic fec 6.12
expect 2 '--nic fec --cpus 6: the i.MX6Q has 4 cores' "$lab" fetch --arch armhf --nic fec --cpus 6 6.12

# --guest-bin: the ISA and the byte order are checked (readelf), a compiler of each kind permitting
x86=$(type -P ls)
expect 2 "built for .*, the guest is armhf \\(ARM\\)" "$lab" fetch --arch armhf --guest-bin "$x86" 6.1
if command -v mips-linux-gnu-gcc >/dev/null; then
	# no big-endian libc in Debian: a freestanding static binary is enough for readelf
	echo 'void __start(void) { for (;;) ; }' | mips-linux-gnu-gcc -nostdlib -static -x c - -o "$tmp/be" 2>"$tmp/cc.err"
	expect 2 'big-endian, the mipsel guest is little-endian' "$lab" fetch --arch mipsel --guest-bin "$tmp/be" 6.1
else
	echo "skip: gcc-mips-linux-gnu not installed (scripts/install-deps --boards): the byte-order check is not run"
fi
if command -v arm-linux-gnueabihf-gcc >/dev/null; then
	echo 'void _start(void) { for (;;) ; }' | arm-linux-gnueabihf-gcc -nostdlib -static -x c - -o "$tmp/arm" 2>"$tmp/cc.err"
	expect 2 'built for ARM, the guest is mipsel \(MIPS\)' "$lab" fetch --arch mipsel --guest-bin "$tmp/arm" 6.1
	# ARM is not AArch64: the arm64 guest refuses a 32-bit Arm binary
	expect 2 'built for ARM, the guest is arm64 \(AArch64\)' "$lab" fetch --arch arm64 --guest-bin "$tmp/arm" 6.1
fi

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
