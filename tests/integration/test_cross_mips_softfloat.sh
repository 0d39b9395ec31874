#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2015  # pass() only echoes: "check && pass || fail" is an if-else here
# The lantiq xrx200's binary without the board: scripts/cross-build mips (soft float, musl, static) gives a
# big-endian MIPS32r2 ELF whose ABI says soft float and whose code holds no FPU instruction, and under
# qemu-mips-static -cpu 24Kc (a core without FPU, where a float instruction is SIGILL) it prints plan,
# report and compare on the seed fixtures byte for byte as this machine's build (NB_BIN) does: every
# golden output (tests/golden/check_outputs.sh), the seed replays' conclusions (check_seed_replays.sh), the
# boards' plans and every fixture report in four formats. The first cross build takes minutes (sources
# fetched and musl, jansson, libnl3, libpcap built); its time and the binary's size are printed.
# NB_MIPS_BIN=path tests that binary instead of cross-building.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${NB_BIN:?NB_BIN must point at the nicbench of this machine}"
tmp=$(mktemp -d /tmp/nb-mips.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

command -v qemu-mips-static >/dev/null || skip "qemu-mips-static not installed (qemu-user-static)"
command -v mips-linux-gnu-readelf >/dev/null || [ "$(id -u)" -eq 0 ] ||
	skip "no mips binutils, and not root to let cross-build install them"

bin=${NB_MIPS_BIN:-}
if [ -z "$bin" ]; then
	start=$(date +%s)
	rc=0
	"$NB_SRC/scripts/cross-build" mips >"$tmp/build.log" 2>&1 || rc=$?
	[ "$rc" -eq 3 ] || [ "$rc" -eq 4 ] && skip "cross-build mips could not fetch Debian's sources: $(tail -n 1 "$tmp/build.log")"
	[ "$rc" -eq 0 ] || { tail -n 20 "$tmp/build.log"; echo "FAIL: scripts/cross-build mips exited $rc"; exit 1; }
	echo "cross-build mips: $(($(date +%s) - start)) s"
	bin=$NB_SRC/build-mips/nicbench
fi
echo "binary: $bin, $(stat -c %s "$bin") bytes"

# what it is
desc=$(file -b "$bin")
grep -q 'ELF 32-bit MSB executable, MIPS, MIPS32 rel2' <<<"$desc" && pass "file: $desc" || fail "file: $desc"
grep -q 'statically linked' <<<"$desc" && pass "static" || fail "not static: $desc"
abi=$(mips-linux-gnu-readelf -A "$bin" | grep -E 'FP ABI|Tag_GNU_MIPS_ABI_FP' | sort -u | tr -s ' ' | tr '\n' ';')
grep -q 'Soft float' <<<"$abi" && ! grep -q 'Hard float' <<<"$abi" && pass "readelf -A: $abi" ||
	fail "readelf -A does not say soft float only: $abi"
# shellcheck source=scripts/lib/mips-musl-sysroot.sh
. "$NB_SRC/scripts/lib/mips-musl-sysroot.sh"
fpu=$(mips_fpu_insn_count "$bin")
[ "$fpu" = 0 ] && pass "no FPU instruction in $(mips-linux-gnu-objdump -d "$bin" | grep -c '^ *[0-9a-f]*:') instructions" ||
	fail "$fpu FPU instructions: $(mips-linux-gnu-objdump -d "$bin" | grep -E "$mips_fpu_insn_re" | head -n 3)"

# as a 24Kc runs it: qemu's 24Kc has no FPU, so one float instruction ends it with SIGILL
cat >"$tmp/nicbench-24kc" <<EOF
#!/bin/sh
exec qemu-mips-static -cpu 24Kc "$bin" "\$@"
EOF
chmod +x "$tmp/nicbench-24kc"
mips=$tmp/nicbench-24kc
v=$("$mips" --version 2>&1) && pass "--version: $(head -n 1 <<<"$v")" || fail "--version: $v"

# same ARGS...: this machine's build and the mips one print the same, exit alike (run in the fixtures)
same() {
	local out_x out_m rc_x=0 rc_m=0
	out_x=$(cd "$NB_SRC/tests/fixtures" && "$NB_BIN" "$@" 2>&1) || rc_x=$?
	out_m=$(cd "$NB_SRC/tests/fixtures" && "$mips" "$@" 2>&1) || rc_m=$?
	if [ "$out_x" = "$out_m" ] && [ "$rc_x" = "$rc_m" ]; then
		compared=$((compared + 1))
	else
		fail "nicbench $*: differs (exit $rc_x / $rc_m):"
		diff <(echo "$out_x") <(echo "$out_m") | head -n 10
	fi
}
compared=0
for c in "$NB_SRC"/configs/boards/*.json; do
	same plan --config "$c" --peer 192.0.2.1
done
for r in "$NB_SRC"/tests/fixtures/report/*.json "$NB_SRC"/tests/fixtures/compare/seeds/*.json; do
	for fmt in text json markdown html; do
		same report "$r" --format "$fmt"
	done
done
s=$NB_SRC/tests/fixtures/compare/seeds
same compare "$s/cpsw-base.json" "$s/cpsw-new.json"
same compare "$s/lan743x-base.json" "$s/lan743x-new.json" --format json
pass "$compared outputs of plan, report and compare alike on both"

# the checked outputs: the goldens byte for byte, and each seed's conclusion
bash "$NB_SRC/tests/golden/check_outputs.sh" "$mips" >"$tmp/golden.log" 2>&1 &&
	pass "golden outputs: $(tail -n 1 "$tmp/golden.log")" || { tail -n 20 "$tmp/golden.log"; fail "golden outputs differ"; }
bash "$NB_SRC/tests/golden/check_seed_replays.sh" "$mips" >"$tmp/seeds.log" 2>&1 &&
	pass "seed replays: $(grep -c '^ok' "$tmp/seeds.log") conclusions" ||
	{ grep -v '^ok' "$tmp/seeds.log" | head -n 20; fail "seed replays"; }

[ "$failures" -eq 0 ] || { echo "$failures failed"; exit 1; }
echo "PASS"
