#!/bin/bash
# SPDX-License-Identifier: MIT
# Foreign load on the veth test bed: every run gets cpu_other_pct; a busy loop started by
# this test is named by the idle check and marks the runs disturbed in the report and the
# table; --redact leaves the hostname and the kernel command line out.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbpc1 10.200.14

work=$(mktemp -d)
spinner=
cleanup() {
	[ -z "$spinner" ] || kill "$spinner" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

run() {
	"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --peer-local --tests tcp-tx,udp-rx --duration 2 --omit 0 \
		--repetitions 2 --settle 0.2 --no-trace --journal "$work/journal" "$@"
}

# 1. the plain run: cpu_other_pct on every run, the idle check in the report, --redact
rc=0
run -o "$work/quiet.json" --redact >"$work/quiet.out" 2>&1 || rc=$?
cat "$work/quiet.out"
expect "exit code" "$rc" 0
validate_report "$work/quiet.json"
r=$work/quiet.json
expect "cpu_other_pct in every run" "$(jq '[.results[].runs[].metrics | has("cpu_other_pct")] | all' "$r")" true
expect "cpu_other_pct is a share" "$(jq '[.results[].runs[].metrics.cpu_other_pct | . >= 0 and . <= 100] | all' "$r")" true
expect "idle check recorded" "$(jq '.idle_check.seconds > 0.5 and (.idle_check.busy_pct | type) == "number"' "$r")" true
expect "peer_local in the effective config" "$(jq .config.peer_local "$r")" true
expect "hostname redacted" "$(jq -r .host.hostname "$r")" "(redacted)"
expect "cmdline redacted" "$(jq -r .host.kernel.cmdline "$r")" "(redacted)"
expect "no raw iperf3 JSON with --redact" "$(jq '[.results[].runs[] | has("iperf")] | any' "$r")" false
if grep -qF "$(hostname)" "$r"; then fail "the hostname is still in the redacted report"; fi
grep -q "spread: (max - min) / median" "$work/quiet.out" || fail "the table has no spread legend"
# tcp-tx sends from this host: its iperf3 child's CPU decides sender-bound?, never on udp-rx
expect "sender_bound only on TX points" \
	"$(jq '[.results[] | select(.test.direction == "rx") | has("sender_bound")] | any' "$r")" false
expect "sender_bound where the child was near a core" \
	"$(jq '[.results[] | select(.test.direction == "tx") |
		(.metrics.iperf_host_cpu_pct.median >= 90) == (.sender_bound == true)] | all' "$r")" true
echo "tcp-tx iperf_host_cpu_pct median: $(jq '.results[0].metrics.iperf_host_cpu_pct.median' "$r")"
echo "quiet run cpu_other_pct: $(jq -c '[.results[].runs[].metrics.cpu_other_pct | floor]' "$r")"

# 2. a busy loop in the root of this test bed takes a CPU for the whole sweep
sh -c 'while :; do :; done' &
spinner=$!
rc=0
run -o "$work/busy.json" >"$work/busy.out" 2>&1 || rc=$?
kill "$spinner"
wait "$spinner" 2>/dev/null || true
spinner=
cat "$work/busy.out"
expect "exit code under foreign load" "$rc" 0
validate_report "$work/busy.json"
r=$work/busy.json
grep -q "warning: the machine is not quiet" "$work/busy.out" || fail "no idle-check warning"
# the spinner is a child of this script, so its comm is sh
jq -e '.idle_check.busiest | map(.comm) | index("sh") != null' "$r" >/dev/null ||
	fail "the idle check does not name the spinner: $(jq -c .idle_check "$r")"
expect "idle check busy >= 10%" "$(jq '.idle_check.busy_pct >= 10' "$r")" true
echo "busy run cpu_other_pct: $(jq -c '[.results[].runs[].metrics.cpu_other_pct | floor]' "$r")"
# the spinner holds one of the CPUs: at least half the runs see it
expect "runs marked disturbed" \
	"$(jq '([.results[].runs[] | select(.disturbed == true)] | length) as $d |
		([.results[].runs[]] | length) as $n | $d >= $n / 2' "$r")" true
expect "disturbed_runs counts them" \
	"$(jq '[.results[] | (.disturbed_runs // 0) == ([.runs[] | select(.disturbed == true)] | length)] | all' "$r")" true
grep -q "(disturbed [0-9]/2)" "$work/busy.out" || fail "the table marks no point disturbed"
grep -q "warning: in [0-9] point.* other programs took up to" "$work/busy.out" || fail "no foreign-load note"

# 3. compare says that the foreign load differs
rc=0
"$NB_BIN" compare "$work/quiet.json" "$work/busy.json" >"$work/cmp.out" 2>"$work/cmp.err" || rc=$?
cat "$work/cmp.err"
grep -q "warning: foreign load differs" "$work/cmp.err" || fail "compare does not warn of the foreign load"
echo "PASS"
