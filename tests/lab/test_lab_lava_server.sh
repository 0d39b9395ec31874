#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lava-server for real: a LAVA instance from Debian's packages (PostgreSQL 15, gunicorn on the loopback of
# its own namespace, lava-scheduler and lava-worker as processes stopped by PID) runs the nicbench QEMU job
# (contrib/lava/qemu-job.yaml, the lab's 6.1 kernel) submitted with lavacli; `lavacli results` must list a passing
# case per point whose measurement is the report's median, and the report must come back whole from the job's log.
# Then stop must leave no process and no namespace behind. Needs root, lava-server (scripts/lava-server install;
# not installed: skip; scripts/run-tests --all installs it first), qemu and the lab's 6.1 kernel. About 3-6 min on an idle machine.
set -u

NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
srv=$NB_SRC/scripts/lava-server
state=${NB_LAVA_STATE:-/var/lib/nicbench-lava-server}
tmp=$(mktemp -d /tmp/nbb-lava-server.XXXXXX)
started=0
trap '[ $started -eq 1 ] && "$srv" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
[ -x /usr/bin/lava-server ] && command -v lavacli >/dev/null ||
	{ echo "SKIP: lava-server/lavacli not installed (scripts/lava-server install: about 6 min, 61 packages)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "SKIP: no qemu-system-x86_64"; exit 77; }
[ -c /dev/net/tun ] || { echo "SKIP: no /dev/net/tun"; exit 77; }
if "$srv" status | grep -q ': running'; then
	echo "SKIP: an instance is running already ($srv status); this test starts its own"
	exit 77
fi

t0=$(date +%s)
started=1
"$srv" start >"$tmp/start.out" 2>&1 && pass "started in $(($(date +%s) - t0)) s" ||
	{ fail "start: $(tail -n 15 "$tmp/start.out")"; exit 1; }

"$srv" job 6.1 "$tmp/job" --tests tcp-tx,tcp-rx --duration 2 --omit 0 --repetitions 1 --settle 0 \
	>"$tmp/job.out" 2>&1 && pass "job: $(tr '\n' ' ' <"$tmp/job/job.cost")" ||
	fail "job: $(tail -n 15 "$tmp/job.out")"

# LAVA's records, as lavacli reads them back, against the report the job's log carried
/usr/bin/python3 - "$tmp/job/results.yaml" "$tmp/job/report.json" <<'PY' && pass "lavacli results: measurements = the report's medians" || fail "lavacli results do not match the report"
import json, sys, yaml
results, rep = yaml.safe_load(open(sys.argv[1])), json.load(open(sys.argv[2]))
cases = {r["name"]: r for r in results if r.get("suite", "").endswith("nicbench")}
points = {p["id"]: p for p in rep["results"]}
assert set(points) == {"tcp-tx", "tcp-rx"}, sorted(points)
for pid, p in points.items():
    r = cases[pid]
    assert r["result"] == "pass", r
    want = p["metrics"]["throughput_bps"]["median"] / 1e6
    got = float(r["measurement"])
    assert abs(got - want) <= 0.01 + 1e-6 * want, (pid, got, want)
    assert r["unit"] == "Mbit/s", r
    print(f"  {pid}: LAVA {got} {r['unit']}, report median {want:.3f} Mbit/s")
PY
jq -e '.results | length == 2' "$tmp/job/report.json" >/dev/null && pass "the report came back whole ($(wc -c <"$tmp/job/report.json") bytes)" ||
	fail "no whole report in $tmp/job/report.json"

"$srv" stop >"$tmp/stop.out" 2>&1
started=0
left=$(ls "$state/pids" 2>/dev/null)
[ -z "$left" ] && ! ip netns list | grep -q '^nb-lava-srv' && pass "stop left no process and no namespace" ||
	fail "after stop: pids $left, $(ip netns list | grep nb-lava-srv)"

[ "$failures" -eq 0 ] && echo PASS || { echo "FAIL: $failures"; exit 1; }
