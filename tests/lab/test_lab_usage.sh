#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lab's bad input: each mistake gets exit 2 and a line that names it, before anything is fetched or booted.
# Then the command line `lab ab --rounds` hands nicbench ab, with a stand-in nicbench (nothing boots).
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (scripts/lab checks root before it reads nicbench's arguments)"; exit 77; }

# expect_usage WANTED-TEXT ARGS...: scripts/lab ARGS exits 2 and says WANTED-TEXT on stderr.
expect_usage() {
	local want=$1 rc
	shift
	"$NB_SRC/scripts/lab" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$want" "$tmp/err"; then
		pass "lab $* -> 2: $(head -n 1 "$tmp/err")"
	else
		fail "lab $* -> $rc, stderr '$(head -c 200 "$tmp/err")', want 2 and '$want'"
	fi
}
expect_usage "unknown command 'bogus'" bogus
expect_usage "--cpus 'x'" run --cpus x
expect_usage "--cpus '0'" run --cpus 0
expect_usage "--mem '100'" run --mem 100
expect_usage "--accel 'fast'" run --accel fast
expect_usage "unknown option --frobnicate" run --frobnicate
expect_usage "unexpected 'tcp-rx'" run tcp-rx
expect_usage "ab needs two kernels" ab 6.1
expect_usage "the lab sets the interface" run -- -i eth1
expect_usage "the lab sets the interface" run -- --peer=192.0.2.1
expect_usage "-o needs a path" run -- -o
expect_usage "--config /nonexistent.json: cannot read it" run -- --config /nonexistent.json
expect_usage "no such bzImage '/nonexistent/bzImage'" run --kernel /nonexistent/bzImage -- --tests tcp-rx
expect_usage "-o is not taken" ab 6.1 6.12 -- -o x.json
expect_usage "--netem 'delay 1ms; reboot'" run --netem 'delay 1ms; reboot' -- --tests tcp-rr
expect_usage "--netem ''" run --netem '' -- --tests tcp-rr
expect_usage "--nic 'rtl8139': e1000e, virtio-net, e1000 or fec" run --nic rtl8139
expect_usage "--guest-bin '/nonexistent/tool': no such file" run --guest-bin /nonexistent/tool
expect_usage "--setup '/nonexistent.sh': cannot read it" run --setup /nonexistent.sh
NB_LAB_TCG_THREAD=many expect_usage "NB_LAB_TCG_THREAD 'many': single" run -- --tests tcp-rx
expect_usage "--arch 'sparc': x86_64, arm64, armhf, mipsel or riscv64" run --arch sparc
expect_usage "Debian 12 has no riscv64 kernel" run --arch riscv64 --kernel 6.1 -- --tests tcp-rx
expect_usage "an arm64 guest boots Debian's kernels only" run --arch arm64 --kernel /nonexistent/Image -- --tests tcp-rx
expect_usage "no KVM for a foreign architecture" run --arch arm64 --accel kvm
expect_usage "--netem needs --arch x86_64" run --arch riscv64 --netem 'delay 1ms'
expect_usage "the guest is arm64 (AArch64)" run --arch arm64 --guest-bin "$(command -v busybox)"
expect_usage "boot needs KERNEL ROUND OUT" boot
expect_usage "boot needs KERNEL ROUND OUT" boot 6.1 A:1/2
expect_usage "round 'X:1/2'" boot 6.1 X:1/2 "$tmp/x.json"
expect_usage "round 'A:1'" boot --cpus 2 -- --tests tcp-rx 6.1 A:1 "$tmp/x.json"
expect_usage "boot: -o is not taken" boot 6.1 A:1/2:s "$tmp/x.json" -- -o y.json
expect_usage "no candidate 'c9'" boot --candidates /dev/null c9 A:1/2:s "$tmp/x.json"
expect_usage "--b-netem 'rate 1mbit; reboot'" boot --b-netem 'rate 1mbit; reboot' 6.1 B:1/2:s "$tmp/x.json"
expect_usage "--work goes with --rounds" ab 6.1 6.1 --work "$tmp/w"
expect_usage "--gate, --floor and --min-effect go with --rounds" ab 6.1 6.1 --gate throughput_bps
expect_usage "--rounds 'many'" ab 6.1 6.1 --rounds many
# ab --rounds hands the experiment to nicbench ab (here a stand-in that records its arguments): the lab's options
# and RUN ARGS go into the hook, the gate, --work and the pairs to nicbench ab, and the hook, run as nicbench runs
# it (CMD KERNEL ROUND OUT), takes its last three words (shown on a ROUND it refuses before any boot)
if command -v qemu-system-x86_64 >/dev/null; then
	printf '#!/bin/sh\n[ "$2" = --help ] && exit 0\nprintf "%%s\\n" "$@" >"%s"\nexit 3\n' "$tmp/ab.args" >"$tmp/nicbench"
	chmod +x "$tmp/nicbench"
	NB_LAB_NICBENCH=$tmp/nicbench "$NB_SRC/scripts/lab" ab 6.1 6.12 --rounds auto --max-rounds 4 --gate throughput_bps \
		--work "$tmp/w" --b-netem 'rate 10mbit' --cpus 1 -- --tests tcp-rx --duration 2 >/dev/null 2>"$tmp/err"
	check "lab ab --rounds: nicbench ab's exit (3) is the lab's" test $? -eq 3
	check "lab ab --rounds: nicbench ab gets the pairs, the work directory, the gate and the kernels" test \
		"$(grep -v -F -x -e --boot -e "$(sed -n 3p "$tmp/ab.args")" "$tmp/ab.args" | tr '\n' ' ')" = \
		"ab --max-pairs 4 --work $tmp/w --gate throughput_bps 6.1 6.12 "
	hook=$(sed -n 3p "$tmp/ab.args")
	case $hook in
	*"scripts/lab boot --arch x86_64 --nic e1000e --cpus 1 "*"--b-netem rate\ 10mbit -- --tests tcp-rx --duration 2 ") pass "the hook: $hook" ;;
	*) fail "the hook lacks the lab's options or RUN ARGS: $hook" ;;
	esac
	sh -c "$hook 6.1 A:1 $tmp/o.json" 2>"$tmp/err"
	check "the hook takes KERNEL ROUND OUT from its end (exit 2 on ROUND A:1)" test $? -eq 2
	check "the hook names the ROUND it refused" grep -q "round 'A:1'" "$tmp/err"
fi
"$NB_SRC/scripts/lab" --help >"$tmp/help" 2>&1
check "--help exits 0 and describes run and ab" grep -q 'scripts/lab ab KERNEL_A KERNEL_B' "$tmp/help"
check "--help describes the boot hook" grep -q 'scripts/lab boot .*KERNEL ROUND OUT' "$tmp/help"
# Nothing of a run was left behind by the refusals.
check "no lab- namespace left" test -z "$(ip netns list 2>/dev/null | grep '^lab-')"
finish
