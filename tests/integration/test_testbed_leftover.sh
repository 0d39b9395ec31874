#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/testbed and what an earlier test bed left: namespaces of a killed test bed (no process
# in them) are removed and the new one starts; namespaces with processes still in them are kept
# and refused; a test bed whose name is in use by a running one is refused and left alone.
# The names carry this test's PID, so nothing of anyone else's is touched.
set -u
source "$(dirname "$0")/lib.sh"
nb_require_root

name=nblo$$
dut=$name-dut peer=$name-peer
work=$(mktemp -d)
sleeper=
first=
cleanup() {
	for pid in $sleeper $first; do
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	ip netns del "$dut" 2>/dev/null
	ip netns del "$peer" 2>/dev/null
	rm -f "/run/lock/nicbench-testbed-$name.lock" "/tmp/nicbench-testbed-$name.lock"   # a name of this run only
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ns_exists() { ip netns list | grep -qE "^$1( |\$)"; }
testbed() { "$NB_SRC/scripts/testbed" --name "$name" --subnet 10.200.61 --no-server "$@"; }

# 1. What a SIGKILLed test bed leaves: both namespaces and the veth pair, no process.
ip netns add "$dut" && ip netns add "$peer" || fail "cannot create the namespaces $dut, $peer"
ip link add "$name-d" netns "$dut" type veth peer name "$name-p" netns "$peer"
rc=0
testbed -- sh -c 'ip -br addr show "$NB_IFACE"' >"$work/out" 2>"$work/err" || rc=$?
expect "exit status over a left-over test bed" "$rc" 0
grep -q "removed namespace $dut $peer, left over" "$work/err" || fail "no notice of the removal: $(cat "$work/err")"
grep -q "10.200.61.1/24" "$work/out" || fail "the new test bed's DUT has no 10.200.61.1: $(cat "$work/out")"
! ns_exists "$dut" && ! ns_exists "$peer" || fail "the test bed did not remove its namespaces on exit"
echo "ok: left-over namespaces removed, the test bed ran and removed its own"

# 2. A left-over namespace that a process still runs in is not removed.
ip netns add "$dut" || fail "cannot create $dut"
ip netns exec "$dut" sleep 60 &
sleeper=$!
for _ in $(seq 50); do [ -n "$(ip netns pids "$dut")" ] && break; sleep 0.1; done
rc=0
testbed -- true >"$work/out" 2>"$work/err" || rc=$?
expect "exit status over a busy left-over namespace" "$rc" 2
grep -q "processes still run in it (PIDs $sleeper" "$work/err" || fail "the refusal does not name PID $sleeper: $(cat "$work/err")"
ns_exists "$dut" || fail "the refused test bed removed $dut, where PID $sleeper runs"
kill -0 "$sleeper" 2>/dev/null || fail "PID $sleeper did not survive the refused test bed"
echo "ok: a busy left-over namespace is refused and kept"
kill -KILL "$sleeper"; wait "$sleeper" 2>/dev/null; sleeper=
ip netns del "$dut"

# 3. A name in use by a running test bed is refused; the running one is not disturbed.
testbed -- sh -c "touch $work/ready; sleep 3; ip -br link show \"\$NB_IFACE\" >$work/first" 2>"$work/err1" &
first=$!
for _ in $(seq 100); do [ -e "$work/ready" ] && break; sleep 0.1; done
[ -e "$work/ready" ] || fail "the first test bed did not start: $(cat "$work/err1")"
rc=0
testbed -- true >"$work/out" 2>"$work/err" || rc=$?
expect "exit status of a second test bed with the same name" "$rc" 2
grep -q "test bed '$name' is in use" "$work/err" || fail "the refusal does not say the name is in use: $(cat "$work/err")"
rc=0
wait "$first" || rc=$?
first=
expect "exit status of the first test bed" "$rc" 0
grep -q "^$name-d" "$work/first" || fail "the first test bed lost its veth while the second was refused"
! ns_exists "$dut" && ! ns_exists "$peer" || fail "the first test bed did not remove its namespaces"
echo "ok: a second test bed with the same name is refused, the first runs on"
