#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lava-local for real: Debian's lava-dispatcher runs contrib/lava/qemu-job.yaml (the board job's test
# definition) on a QEMU device booting the lab's 6.1 kernel; LAVA's own results must list a passing case per point
# with its throughput. Then rounds (nicbench ab with lava-local as its boot hook, 6.12). Then a bad job (a boot prompt
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

# Rounds: nicbench ab with lava-local as its boot hook, a LAVA job a boot (here 6.12 both sides, e1000e), each run
# with --round; two pairs are too few for the sequential verdict to decide, so all four boots run, A B B A, and ab
# ends undecided (3) or with a verdict (0, 1), never with a failed boot (5).
start=$(date +%s)
"$NB_SRC/scripts/lava-local" --no-install --kernel 6.12 --kernel-b 6.12 --rounds 2 --out "$tmp/rounds" -- \
	--tests tcp-tx --duration 2 --omit 0 --repetitions 1 --settle 0 >"$tmp/rounds.out" 2>"$tmp/rounds.err"
rc=$?
[ $rc -le 1 ] || [ $rc -eq 3 ] && pass "rounds: nicbench ab exit $rc in $(($(date +%s) - start)) s" ||
	fail "rounds: exit $rc: $(tail -n 15 "$tmp/rounds.out" "$tmp/rounds.err")"
order=$(cd "$tmp/rounds" 2>/dev/null && ls -dtr -- boot-*/lava.log | sed 's/^boot-\(.\).*/\1/' | tr -d '\n')
[ "$order" = ABBA ] && pass "boots A B B A, a job each" || fail "boots in the order '$order', want ABBA"
for r in A:1 A:2 B:1 B:2; do
	n=$(find "$tmp/rounds/ab" -name '*.json' -print0 2>/dev/null | xargs -0 -r jq -r '.round? | select(.) | "\(.side):\(.index)/\(.of)"' 2>/dev/null |
		grep -cx "$r/2")
	[ "$n" = 1 ] && pass "a report of round $r under ab's work directory" || fail "$n reports of round $r"
done
grep -q '^  rounds: 2 of A, 2 of B.*2 pairs' "$tmp/rounds.out" && pass "the verdict over rounds:$(grep '^  rounds: ' "$tmp/rounds.out")" ||
	fail "nicbench ab printed no rounds line: $(tail -n 20 "$tmp/rounds.out")"

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
