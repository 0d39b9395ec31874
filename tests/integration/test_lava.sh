#!/bin/bash
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2015  # pass() only echoes: "check && pass || fail" is an if-else here
# The LAVA files in contrib/lava: the MultiNode job template passes Debian lava-common's job schema (and broken
# copies of it do not), the test definition passes the Lava-Test Test Definition 1.0 schema, and its steps, run
# for both roles against stand-in lava-send/lava-wait/lava-test-case commands that record their calls, exchange
# the peer's address and turn a fixture report into the expected lava-test-case calls. Then the same steps run
# for real: peer and DUT in two namespaces joined by a veth pair, with the nicbench under test.
set -u

NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
NB_FIXTURES=${NB_FIXTURES:-$NB_SRC/tests/fixtures}
PY=/usr/bin/python3 # Debian's python, where lava-common lives (not a pyenv one on the PATH)
lava=$NB_SRC/contrib/lava
tmp=$(mktemp -d /tmp/nbb-lava.XXXXXX)
ns_dut=nbb-lava-dut-$$
ns_peer=nbb-lava-peer-$$
pids=()
failures=0

cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	ip netns del "$ns_dut" 2>/dev/null
	ip netns del "$ns_peer" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$PY" -c 'import yaml, lava_common.schemas' 2>/dev/null ||
	skip "Debian's lava-common and python3-yaml are not installed (apt-get install lava-common python3-yaml)"
command -v jq >/dev/null || skip "jq not installed"

# --- 1. the job template against lava-common's schema, and mutated copies that must be rejected ---
cat >"$tmp/validate.py" <<'EOF'
import sys, yaml
from lava_common.schemas import validate
from voluptuous import Invalid

def mutate(job, how):
    if how == "action-without-role":
        next(iter(job["actions"][0].values())).pop("role")
    elif how == "device-type-with-multinode":
        job["device_type"] = "r9a07g044l2-smarc"
    elif how == "no-timeouts":
        job.pop("timeouts")
    elif how == "bad-definition-name":
        for action in job["actions"]:
            if "test" in action:
                action["test"]["definitions"][0]["name"] = "nicbench dut"
    return job

job = mutate(yaml.safe_load(open(sys.argv[1])), sys.argv[2])
try:
    validate(job, strict=True)
except Invalid as exc:
    print("invalid: %s" % exc)
    sys.exit(1)
print("valid")
EOF
out=$("$PY" "$tmp/validate.py" "$lava/multinode-job.yaml" none 2>&1) && pass "job template: $out" ||
	fail "job template rejected by lava_common.schemas.validate: $out"
for how in action-without-role device-type-with-multinode no-timeouts bad-definition-name; do
	out=$("$PY" "$tmp/validate.py" "$lava/multinode-job.yaml" "$how" 2>&1) && fail "validator accepted a job with $how" ||
		pass "validator rejects $how (${out:0:90})"
done

# The single-node QEMU job (run for real by scripts/lava-local, tests/lab/test_lab_lava_local.sh) passes too.
out=$("$PY" "$tmp/validate.py" "$lava/qemu-job.yaml" none 2>&1) && pass "QEMU job template: $out" ||
	fail "QEMU job template rejected by lava_common.schemas.validate: $out"

# Both roles are in the template and each runs the definition in its own role.
roles=$("$PY" - "$lava/multinode-job.yaml" <<'EOF'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
roles = sorted(job["protocols"]["lava-multinode"]["roles"])
tests = [a["test"] for a in job["actions"] if "test" in a]
pairs = sorted("%s=%s:%s" % (t["role"][0], t["definitions"][0]["parameters"]["ROLE"], t["definitions"][0]["path"])
               for t in tests)
print(" ".join(roles), "|", " ".join(pairs))
EOF
)
[ "$roles" = "dut peer | dut=dut:contrib/lava/nicbench.yaml peer=peer:contrib/lava/nicbench.yaml" ] &&
	pass "roles and test definitions: $roles" || fail "roles and test definitions: '$roles'"

# --- 2. the test definition against the Lava-Test Test Definition 1.0 schema ---
out=$("$PY" - "$lava/nicbench.yaml" 2>&1 <<'EOF'
import sys, yaml
from voluptuous import Schema
from lava_common.schemas.test.testdef import testdef
Schema(testdef())(yaml.safe_load(open(sys.argv[1])))
print("valid")
EOF
) && pass "test definition: $out" || fail "test definition rejected: $out"

# --- 3. the definition's steps, as LAVA runs them: params as shell variables, then the steps, from the repo root ---
# make_run ROLE KEY=VALUE... writes run-ROLE.sh with the definition's params overridden like a job's parameters.
make_run() {
	"$PY" - "$lava/nicbench.yaml" "$@" >"$tmp/run-$1.sh" <<'EOF'
import shlex, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
params = {k: str(v) for k, v in d.get("params", {}).items()}
params["ROLE"] = sys.argv[2]
for kv in sys.argv[3:]:
    k, v = kv.split("=", 1)
    params[k] = v
print("set -e")
for k, v in params.items():
    print("%s=%s" % (k, shlex.quote(v)))
for step in d["run"]["steps"]:
    print(step)
EOF
}

# Stand-ins: lava-test-case appends its arguments to calls-ROLE.txt; lava-send drops a message file with its
# key=value pairs; lava-wait waits for it and copies the pairs to the MultiNode cache, as LAVA does.
mkdir -p "$tmp/bin" "$tmp/msgs"
cat >"$tmp/bin/lava-test-case" <<'EOF'
#!/bin/sh
echo "$*" >>"$NBB_CALLS"
EOF
cat >"$tmp/bin/lava-test-raise" <<'EOF'
#!/bin/sh
echo "raise $*" >>"$NBB_CALLS"
exit 1
EOF
cat >"$tmp/bin/lava-send" <<'EOF'
#!/bin/sh
name=$1
shift
printf '%s\n' "$@" >"$NBB_MSGS/$name.tmp" && mv "$NBB_MSGS/$name.tmp" "$NBB_MSGS/$name"
echo "send $name $*" >>"$NBB_CALLS"
EOF
cat >"$tmp/bin/lava-wait" <<'EOF'
#!/bin/sh
for _ in $(seq 600); do
	if [ -e "$NBB_MSGS/$1" ]; then
		cp "$NBB_MSGS/$1" "$MULTINODE_CACHE"
		echo "wait $1" >>"$NBB_CALLS"
		exit 0
	fi
	sleep 0.1
done
echo "wait $1 timed out" >>"$NBB_CALLS"
exit 1
EOF
# A stand-in nicbench for the fixture run: 'run' writes the fixture report where -o says; 'serve' idles.
cat >"$tmp/bin/nicbench-fixture" <<'EOF'
#!/bin/sh
echo "$*" >>"$NBB_NICBENCH_ARGS"
case "$1" in
--version) echo "nicbench 0.0.0-fixture" ;;
serve) [ "${2:-}" = --help ] && exit 0; exec sleep 60 ;;
run)
	while [ $# -gt 1 ]; do
		[ "$1" = -o ] && cp "$NBB_FIXTURE_REPORT" "$2"
		shift
	done ;;
*) exit 2 ;;
esac
EOF
chmod +x "$tmp/bin"/*

# run_role ROLE DIR [ns]: run run-ROLE.sh from the repo root with the stand-ins first on the PATH.
run_role() {
	local role=$1 dir=$2 ns=${3:-}
	local -a prefix=()
	[ -n "$ns" ] && prefix=(ip netns exec "$ns")
	(cd "$NB_SRC" && NBB_CALLS="$dir/calls-$role.txt" NBB_MSGS="$dir/msgs" \
		MULTINODE_CACHE="$dir/cache-$role.txt" NBB_NICBENCH_ARGS="$dir/nicbench-args-$role.txt" \
		NBB_FIXTURE_REPORT="$NB_FIXTURES/lava/report.json" PATH="$tmp/bin:$PATH" \
		"${prefix[@]}" timeout 300 sh "$tmp/run-$role.sh" >"$dir/out-$role.txt" 2>&1)
}

fx=$tmp/fixture
mkdir -p "$fx/msgs"
make_run peer NICBENCH="$tmp/bin/nicbench-fixture" PEER_IFACE=lo PEER_PORT=15320 REPORT_DIR="$fx/peer"
run_role peer "$fx" &
peer_pid=$!
pids+=("$peer_pid")
make_run dut NICBENCH="$tmp/bin/nicbench-fixture" REPORT_DIR="$fx/dut"
run_role dut "$fx"
dut_rc=$?
wait "$peer_pid"
peer_rc=$?
pids=()
[ $dut_rc -eq 0 ] && pass "DUT steps exit 0" || fail "DUT steps exit $dut_rc: $(tail -c 600 "$fx/out-dut.txt")"
[ $peer_rc -eq 0 ] && pass "peer steps exit 0" || fail "peer steps exit $peer_rc: $(tail -c 600 "$fx/out-peer.txt")"

# The peer served on its own address and sent it; the DUT waited for it and ran against it.
grep -qx 'serve -B 127.0.0.1 -p 15320' "$fx/nicbench-args-peer.txt" 2>/dev/null && pass "peer: nicbench serve -B 127.0.0.1 -p 15320" ||
	fail "peer did not start 'nicbench serve -B 127.0.0.1 -p 15320': $(cat "$fx/nicbench-args-peer.txt" 2>&1)"
expected_exchange="send nicbench-peer-ready ip=127.0.0.1 port=15320
wait nicbench-dut-done"
[ "$(grep -E '^(send|wait) ' "$fx/calls-peer.txt")" = "$expected_exchange" ] && pass "peer: lava-send address, lava-wait for the DUT" ||
	fail "peer's MultiNode calls: $(grep -E '^(send|wait) ' "$fx/calls-peer.txt" | tr '\n' ';')"
grep -qx 'peer-server --result pass' "$fx/calls-peer.txt" && pass "peer: test case peer-server pass" || fail "peer: no peer-server pass case"
grep -q -- "^run -i eth0 --peer 127.0.0.1:15320 -o $fx/dut/report.json --config configs/boards/rzg2l.json" "$fx/nicbench-args-dut.txt" &&
	pass "DUT: nicbench run against the address the peer sent" ||
	fail "DUT ran: $(grep '^run' "$fx/nicbench-args-dut.txt" 2>&1)"
[ "$(grep -E '^(send|wait) ' "$fx/calls-dut.txt")" = "wait nicbench-peer-ready
send nicbench-dut-done " ] && pass "DUT: lava-wait for the peer, lava-send when done" ||
	fail "DUT's MultiNode calls: $(grep -E '^(send|wait) ' "$fx/calls-dut.txt" | tr '\n' ';')"

# Every point and measured metric of the fixture became one lava-test-case call; absent metrics none.
grep -vE '^(send|wait) ' "$fx/calls-dut.txt" >"$fx/cases-dut.txt"
if diff -u "$NB_FIXTURES/lava/expected-dut-calls.txt" "$fx/cases-dut.txt" >"$fx/cases.diff"; then
	pass "DUT: $(wc -l <"$fx/cases-dut.txt") lava-test-case calls as expected from the fixture report"
else
	fail "DUT lava-test-case calls differ from the expected ones:"
	cat "$fx/cases.diff"
fi

# --- 4. for real: peer and DUT namespaces over a veth pair, iperf traffic, the nicbench under test ---
if [ "$(id -u)" -ne 0 ] || [ -z "${NB_BIN:-}" ] || [ ! -x "${NB_BIN:-}" ]; then
	echo "skip part: the real MultiNode run needs root and NB_BIN"
elif ! ip netns add "$ns_dut" 2>/dev/null || ! ip netns add "$ns_peer" 2>/dev/null; then
	echo "skip part: cannot create network namespaces"
else
	ip link add nbb-lava-d$$ netns "$ns_dut" type veth peer name nbb-lava-p$$ netns "$ns_peer"
	ip -n "$ns_dut" addr add 10.200.60.1/24 dev nbb-lava-d$$
	ip -n "$ns_peer" addr add 10.200.60.2/24 dev nbb-lava-p$$
	for ns in "$ns_dut" "$ns_peer"; do
		ip -n "$ns" link set lo up
	done
	ip -n "$ns_dut" link set nbb-lava-d$$ up
	ip -n "$ns_peer" link set nbb-lava-p$$ up
	real=$tmp/real
	mkdir -p "$real/msgs"
	make_run peer NICBENCH="$NB_BIN" PEER_IFACE=nbb-lava-p$$ PEER_PORT=15321 REPORT_DIR="$real/peer"
	run_role peer "$real" "$ns_peer" &
	peer_pid=$!
	pids+=("$peer_pid")
	make_run dut NICBENCH="$NB_BIN" CONFIG="" IFACE=nbb-lava-d$$ METRICS="throughput_bps" REPORT_DIR="$real/dut" \
		RUN_ARGS="--tests tcp-tx,tcp-rx --duration 1 --omit 0 --repetitions 1 --settle 0 --connect-timeout 20"
	run_role dut "$real" "$ns_dut"
	dut_rc=$?
	wait "$peer_pid"
	peer_rc=$?
	pids=()
	[ $dut_rc -eq 0 ] && [ $peer_rc -eq 0 ] && pass "real run: both roles exit 0" ||
		fail "real run: DUT $dut_rc, peer $peer_rc: $(tail -c 600 "$real/out-dut.txt") / $(tail -c 300 "$real/out-peer.txt")"
	grep -qx 'nicbench-run --result pass' "$real/calls-dut.txt" && pass "real run: nicbench-run pass" ||
		fail "real run: $(tr '\n' ';' <"$real/calls-dut.txt")"
	for t in tcp-tx tcp-rx; do
		line=$(grep "^$t.throughput_bps --result pass --measurement " "$real/calls-dut.txt")
		value=$(echo "$line" | awk '{ print $5 }')
		if [ -n "$value" ] && awk -v v="$value" 'BEGIN { exit !(v > 1) }' && [[ "$line" == *"--units Mbit/s" ]]; then
			pass "real run: $t measured $value Mbit/s over the veth pair"
		else
			fail "real run: no $t throughput case: $(tr '\n' ';' <"$real/calls-dut.txt")"
		fi
	done
fi

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
