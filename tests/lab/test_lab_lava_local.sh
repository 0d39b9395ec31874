#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lava-local for real: Debian's lava-dispatcher runs contrib/lava/qemu-job.yaml (the board job's test
# definition) on a QEMU device booting the lab's 6.1 kernel; LAVA's own results must list a passing case per point
# with its throughput. Then rounds (A and B kernels alternating in one job, 6.12). Then a bad job (a boot prompt
# the guest never prints) must fail with LAVA's error shown.
# Needs root, lava-dispatcher (not installed here: skip), qemu and the lab's 6.1 and 6.12 kernels. About 2-4 min.
set -u

NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nbb-lava-local.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
[ -x /usr/bin/lava-run ] || { echo "SKIP: lava-dispatcher not installed (apt-get install --no-install-recommends lava-dispatcher)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "SKIP: no qemu-system-x86_64"; exit 77; }
[ -c /dev/net/tun ] || { echo "SKIP: no /dev/net/tun"; exit 77; }

start=$(date +%s)
"$NB_SRC/scripts/lava-local" --no-install --out "$tmp/good" -- --tests tcp-tx,tcp-rx --duration 2 --omit 0 \
	--repetitions 1 --settle 0 >"$tmp/good.out" 2>"$tmp/good.err"
rc=$?
if [ $rc -eq 4 ] && grep -q 'could not make the images' "$tmp/good.err"; then
	echo "SKIP: the lab could not make its images: $(tail -n 2 "$tmp/good.err")"
	exit 77
fi
[ $rc -eq 0 ] && pass "good job: exit 0 in $(($(date +%s) - start)) s" ||
	fail "good job exit $rc: $(tail -n 15 "$tmp/good.out" "$tmp/good.err")"
grep -qx 'lava job pass' "$tmp/good.out" && pass "LAVA: job pass" || fail "no 'lava job pass' line: $(cat "$tmp/good.out")"
for t in tcp-tx tcp-rx; do
	v=$(awk -v t="$t" '$1 == "0_nicbench" && $2 == t && $3 == "pass" && $5 == "Mbit/s" { print $4 }' "$tmp/good.out")
	if [ -n "$v" ] && awk -v v="$v" 'BEGIN { exit !(v > 1) }'; then
		pass "LAVA case $t pass, measurement $v Mbit/s"
	else
		fail "no passing LAVA case $t with a throughput: $(cat "$tmp/good.out")"
	fi
done
# results.yaml is LAVA's own records: the same case with its measurement and units.
/usr/bin/python3 - "$tmp/good/results.yaml" <<'PY' && pass "results.yaml holds tcp-tx with measurement and units" || fail "results.yaml lacks tcp-tx's measurement"
import sys, yaml
r = [x for x in yaml.safe_load(open(sys.argv[1])) if x.get("case") == "tcp-tx" and x.get("definition") == "0_nicbench"]
sys.exit(0 if r and float(r[0]["measurement"]) > 1 and r[0]["units"] == "Mbit/s" and r[0]["result"] == "pass" else 1)
PY

# Rounds: one job, four boots alternating A B B A (here 6.12 both sides, e1000e), each run with --round; the
# reports come back through the log and `nicbench compare A -- B` runs over them. Two pairs are too few for the
# sign test (5 at alpha 0.10), so the A/A verdict is inconclusive and compare exits 0.
start=$(date +%s)
"$NB_SRC/scripts/lava-local" --no-install --kernel 6.12 --kernel-b 6.12 --rounds 2 --out "$tmp/rounds" -- \
	--tests tcp-tx --duration 2 --omit 0 --repetitions 1 --settle 0 >"$tmp/rounds.out" 2>"$tmp/rounds.err"
rc=$?
[ $rc -eq 0 ] && pass "rounds job: exit 0 in $(($(date +%s) - start)) s" ||
	fail "rounds job exit $rc: $(tail -n 15 "$tmp/rounds.out" "$tmp/rounds.err")"
for d in 0_nicbench-A1 1_nicbench-B1 2_nicbench-B2 3_nicbench-A2; do
	grep -q "^$d tcp-tx pass [0-9.]* Mbit/s" "$tmp/rounds.out" && pass "LAVA case $d tcp-tx pass" ||
		fail "no passing LAVA case tcp-tx in $d: $(grep "^$d" "$tmp/rounds.out")"
done
for r in A/A1 A/A2 B/B1 B/B2; do
	[ "$(jq -r '.round | "\(.side)\(.index)/\(.of)"' "$tmp/rounds/reports/$r.json" 2>/dev/null)" = "${r#*/}/2" ] &&
		pass "report $r.json names its round" || fail "report $r.json missing or without its round"
done
grep -q '^  rounds: 2 of A, 2 of B.*2 pairs' "$tmp/rounds.out" && pass "compare over rounds:$(grep '^  rounds: ' "$tmp/rounds.out")" ||
	fail "compare over rounds printed no rounds line: $(tail -n 20 "$tmp/rounds.out")"

# A bad job: LAVA waits for a prompt the guest never prints, times out, and the job fails with its error.
start=$(date +%s)
"$NB_SRC/scripts/lava-local" --no-install --out "$tmp/bad" --prompt 'no-such-prompt# ' --boot-timeout 30 -- \
	--tests tcp-tx --duration 1 --omit 0 --repetitions 1 --settle 0 >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
[ $rc -eq 1 ] && pass "bad prompt: exit 1 in $(($(date +%s) - start)) s" || fail "bad prompt: exit $rc (want 1)"
grep -q '^LAVA error: .*timed out' "$tmp/bad.out" && pass "bad prompt: $(grep '^LAVA error' "$tmp/bad.out")" ||
	fail "bad prompt: LAVA's error not shown: $(cat "$tmp/bad.out")"
grep -q '0_nicbench' "$tmp/bad.out" && fail "bad prompt: a test case ran anyway" || pass "bad prompt: no test case ran"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
