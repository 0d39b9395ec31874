#!/bin/bash
# SPDX-License-Identifier: MIT
# The iperf3 program backend (traffic_backend iperf3: the board's own `iperf3 --json`, for a nicbench built
# without libiperf) against the real iperf3 server of the veth bed: the same points, statuses and metric
# names as libiperf's run of the same sweep, the report saying which backend ran, the traffic's CPU
# figures following the program, and a missing program refused before any point runs.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
nb_in_testbed nbip 10.200.47

nb_work_dir
sweep=(-i "$NB_IFACE" --peer "$NB_PEER" --tests "tcp-tx,tcp-rx,udp-tx,udp-rx" --rate 200M --duration 1 --omit 0
	--repetitions 1 --settle 0 --no-trace --idle-check 0 --journal "$work/journal")

"$NB_BIN" run "${sweep[@]}" --traffic-backend libiperf -o "$work/lib.json" 2>"$work/lib.err" ||
	fail "libiperf run failed: $(tail -5 "$work/lib.err")"
"$NB_BIN" run "${sweep[@]}" --traffic-backend iperf3 -o "$work/prog.json" 2>"$work/prog.err" ||
	fail "iperf3 program run failed: $(tail -5 "$work/prog.err")"
validate_report "$work/prog.json"

expect "libiperf report's backend" "$(jq -r .tool.traffic_backend "$work/lib.json")" libiperf
expect "program report's backend" "$(jq -r .tool.traffic_backend "$work/prog.json")" iperf3
expect "program report's effective config" "$(jq -r .config.traffic_backend "$work/prog.json")" iperf3
expect "the program's version" "$(jq -r .tool.iperf3_version "$work/prog.json")" \
	"$(iperf3 --version | sed -n '1s/^iperf \([^ ]*\).*/\1/p')"
expect "the program run" "$(jq -r .tool.iperf3_program "$work/prog.json")" iperf3

# the same points, all ok, with the same metrics (names) in each
points() { jq -r '.results[] | "\(.id) \(.status)"' "$1"; }
expect "points and statuses" "$(points "$work/prog.json")" "$(points "$work/lib.json")"
expect "ok points" "$(jq '[.results[] | select(.status == "ok")] | length' "$work/prog.json")" 4
metric_names() { jq -r '.results[] | .id + ": " + ([.runs[0].metrics | keys[]] | join(" "))' "$1"; }
diff <(metric_names "$work/lib.json") <(metric_names "$work/prog.json") >"$work/names.diff" ||
	fail "the backends' runs carry different metrics:
$(cat "$work/names.diff")"
echo "ok: $(jq '[.results[].runs[0].metrics | keys | length] | add' "$work/prog.json") metric values, named alike"

# the figures are the program's: throughput near the UDP rate asked, and the traffic process's CPU
# (the program, whose pid the child announced) measured
udp_tx=$(jq '.results[] | select(.id | startswith("udp-tx")) | .runs[0].metrics.throughput_bps' "$work/prog.json")
awk -v t="$udp_tx" 'BEGIN { exit !(t > 100e6 && t < 220e6) }' || fail "udp-tx at 200M gave $udp_tx bit/s"
jq -e '.results[] | select(.id | startswith("tcp-tx")) | .runs[0].metrics.traffic_proc_pct > 1' "$work/prog.json" \
	>/dev/null || fail "tcp-tx's traffic_proc_pct does not follow the iperf3 program"
jq -e '.results[0].runs[0].iperf.start.version | startswith("iperf 3")' "$work/prog.json" >/dev/null ||
	fail "the run does not keep the program's raw JSON"
echo "ok: udp-tx at 200M: $udp_tx bit/s; the program's CPU measured"

# the HTML report's environment names the backend
# (the page is read whole first: grep -q would stop at the match and, under pipefail, the writer's SIGPIPE
# would fail the pipeline)
"$NB_BIN" report "$work/prog.json" --format html >"$work/prog.html"
grep -q 'traffic backend.*iperf3' "$work/prog.html" ||
	fail "the HTML report does not name the backend"

# a missing program: refused (usage, exit 2) before anything runs, naming it
rc=0
"$NB_BIN" run "${sweep[@]}" --traffic-backend iperf3 --iperf3 /nonexistent/iperf3 -o "$work/none.json" \
	2>"$work/none.err" || rc=$?
expect "exit code without the program" "$rc" 2
grep -q '/nonexistent/iperf3.*No such file' "$work/none.err" || fail "no reason given: $(cat "$work/none.err")"
[ ! -e "$work/none.json" ] || fail "a report was written without the program"
echo "PASS"
