#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2015  # pass() only echoes: "check && pass || fail" is an if-else here
# The static cross builds (scripts/cross-build aarch64, then riscv64) under qemu-user: static and of the right
# machine, --version (naming its netdev and ethtool netlink paths), plan, and a real short TCP run over loopback
# (in a namespace of its own) against an iperf3
# server that this test starts. aarch64 must pass; riscv64 is skipped only if its Debian 13 packages cannot be
# fetched. NB_AARCH64_BIN / NB_RISCV64_BIN = path tests that binary instead of cross-building.
set -u

NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ns=nbb-qemu-$$
port=15310
tmp=$(mktemp -d /tmp/nbb-qemu.XXXXXX)
iperf_pid=""
failures=0

cleanup() {
	[ -n "$iperf_pid" ] && kill "$iperf_pid" 2>/dev/null && wait "$iperf_pid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ "$(id -u)" -eq 0 ] || skip "needs root (cross-build installs packages; the run uses a network namespace)"
command -v iperf3 >/dev/null || skip "iperf3 not installed"
command -v jq >/dev/null || skip "jq not installed"
ip netns add "$ns" 2>/dev/null || skip "cannot create network namespace $ns"
ip -n "$ns" link set lo up
ip netns exec "$ns" iperf3 -s -B 127.0.0.1 -p "$port" --logfile "$tmp/iperf3.log" &
iperf_pid=$!
for _ in $(seq 50); do
	ip netns exec "$ns" ss -Htln "sport = :$port" | grep -q . && break
	sleep 0.1
done

# build ARCH: the static binary's path on stdout. NB_<ARCH>_BIN skips the cross build. Returns 3 when the cross
# build could not fetch its packages (no mirror: a missing tool, not a broken build).
build() {
	local arch=$1 override
	override=NB_${arch^^}_BIN
	if [ -n "${!override:-}" ]; then
		echo "${!override}"
		return 0
	fi
	"$NB_SRC/scripts/cross-build" "$arch" >"$tmp/cross-build-$arch.log" 2>&1
	local rc=$?
	grep -E '^nicbench: [0-9]+ bytes' "$tmp/cross-build-$arch.log" >&2
	if [ $rc -ne 0 ]; then
		tail -n 30 "$tmp/cross-build-$arch.log" >&2
		return $rc
	fi
	echo "$NB_SRC/build-$arch/nicbench"
}

# check ARCH MACHINE: the four checks on one architecture's static binary.
check() {
	local arch=$1 machine_want=$2 bin qemu rc
	echo "== $arch"
	bin=$(build "$arch")
	rc=$?
	if [ $rc -eq 3 ] && [ "$arch" != aarch64 ]; then
		echo "skip part: scripts/cross-build $arch could not fetch its packages"
		return
	elif [ $rc -ne 0 ]; then
		fail "scripts/cross-build $arch exited $rc"
		return
	fi
	qemu=$(command -v "qemu-$arch-static") || { fail "qemu-$arch-static missing after cross-build"; return; }
	[ -x "$bin" ] || { fail "no binary at $bin"; return; }

	# 1. It is what the boards need: an executable of their machine with no interpreter and no shared libraries.
	local machine
	machine=$(readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
	[ "$machine" = "$machine_want" ] && pass "machine is $machine" || fail "machine is '$machine', expected $machine_want"
	if readelf -lW "$bin" | grep -q 'INTERP' || readelf -d "$bin" 2>/dev/null | grep -q 'NEEDED'; then
		fail "binary is dynamically linked: $(readelf -d "$bin" | grep NEEDED | tr -s ' ' | tr '\n' ';')"
	else
		pass "static: no INTERP, no NEEDED ($(stat -c %s "$bin") bytes)"
	fi

	# 2. --version under emulation says the same as the host build.
	local version host_version
	version=$("$qemu" "$bin" --version 2>&1)
	if [[ "$version" =~ ^nicbench\ [0-9]+\.[0-9]+\.[0-9]+ ]]; then
		pass "--version: $version"
	else
		fail "--version printed '$version'"
	fi
	# The board on a 6.13+ kernel needs napi-get/napi-set (else sysfs wipes per-NAPI values): the static link
	# must carry libnl's netlink, and --version names what the binary has.
	local nl
	nl=$(sed -n 's/^netlink: //p' <<<"$version")
	[[ "$nl" == *"netdev netlink (napi-get, napi-set"* && "$nl" == *"ethtool netlink"* && "$nl" == *libnl* ]] &&
		pass "static build has netlink: $nl" || fail "--version names no netdev and ethtool netlink: '$nl'"
	if [ -n "${NB_BIN:-}" ] && [ -x "$NB_BIN" ]; then
		host_version=$("$NB_BIN" --version 2>&1)
		[ "$version" = "$host_version" ] && pass "same version as the host build" ||
			fail "$arch says '$version', host says '$host_version'"
	fi

	# 3. plan: pure computation, so the emulated binary must print exactly what the host binary prints.
	local plan_args=(plan --config "$NB_SRC/configs/boards/rzg2ul.json" -i lo --peer "127.0.0.1:$port")
	"$qemu" "$bin" "${plan_args[@]}" >"$tmp/plan.$arch" 2>&1
	rc=$?
	if grep -q 'not implemented' "$tmp/plan.$arch"; then
		echo "skip part: 'nicbench plan' is not implemented in this tree yet"
	elif [ $rc -ne 0 ]; then
		fail "plan exited $rc: $(head -c 400 "$tmp/plan.$arch")"
	else
		grep -q 'estimated time' "$tmp/plan.$arch" && pass "plan printed $(grep -c '^ *[0-9]' "$tmp/plan.$arch") points" ||
			fail "plan printed no estimate: $(head -c 400 "$tmp/plan.$arch")"
		if [ -n "${NB_BIN:-}" ] && [ -x "$NB_BIN" ]; then
			"$NB_BIN" "${plan_args[@]}" >"$tmp/plan.host" 2>&1
			diff -u "$tmp/plan.host" "$tmp/plan.$arch" >"$tmp/plan.diff" && pass "plan output identical to the host build" ||
				fail "plan output differs from the host build: $(head -c 600 "$tmp/plan.diff")"
		fi
	fi

	# 4. A real TCP test over the namespace's loopback against the iperf3 server started above.
	local report=$tmp/report-$arch.json accepted_before status bps
	accepted_before=$(grep -c 'Accepted connection' "$tmp/iperf3.log" 2>/dev/null)
	ip netns exec "$ns" "$qemu" "$bin" run -i lo --peer "127.0.0.1:$port" --tests tcp-tx --duration 2 --omit 0 \
		--repetitions 1 --settle 0 --connect-timeout 20 -o "$report" >"$tmp/run-$arch.log" 2>&1
	rc=$?
	if grep -q 'not implemented' "$tmp/run-$arch.log"; then
		echo "skip part: 'nicbench run' is not implemented in this tree yet"
		return
	elif [ $rc -ne 0 ]; then
		fail "run exited $rc: $(tail -c 800 "$tmp/run-$arch.log")"
		return
	fi
	status=$(jq -r '.results[0].status' "$report" 2>&1)
	bps=$(jq -r '.results[0].metrics.throughput_bps.median // "absent"' "$report" 2>&1)
	[ "$status" = "ok" ] && pass "tcp-tx point status ok" || fail "tcp-tx point status '$status'"
	if [[ "$bps" =~ ^[0-9.e+]+$ ]] && awk -v b="$bps" 'BEGIN { exit !(b > 1e6) }'; then
		pass "tcp-tx throughput $(awk -v b="$bps" 'BEGIN { printf "%.1f Mbit/s", b / 1e6 }') under qemu-$arch"
	else
		fail "throughput_bps median is '$bps'"
	fi
	# The server saw this test, so the figure is traffic, not a default.
	[ "$(grep -c 'Accepted connection' "$tmp/iperf3.log")" -gt "${accepted_before:-0}" ] &&
		pass "iperf3 server served the emulated client" ||
		fail "the iperf3 server log shows no new connection: $(tail -c 400 "$tmp/iperf3.log")"
}

check aarch64 AArch64
check riscv64 RISC-V

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
