#!/bin/bash
# SPDX-License-Identifier: MIT
# Per-NAPI knobs over netdev netlink on a real veth (GRO on) in namespaces of our own: a
# sweep over gro_flush_timeout, napi_defer_hard_irqs and irq_suspend_timeout sets and reads
# back per NAPI, a per-NAPI value set before the run survives it (normal end, and SIGKILL +
# `knobs restore`), sysfs is never written, and the report carries paths, NAPIs and qstats.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
TOOL=$(dirname "$NB_BIN")/tests/nb_napi_tool
NS_A=nl-a-$$
NS_B=nl-b-$$
IF_A=nl$$a
IF_B=nl$$b
TMP=$(mktemp -d /tmp/nl-napi-XXXXXX)
server_pid=
run_pid=
failures=0

cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2>/dev/null
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
	wait 2>/dev/null
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
in_a() { ip netns exec "$NS_A" "$@"; }
expect() { if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
napi_line() { in_a "$TOOL" list "$IF_A" | head -1; }   # "ID gro defer suspend threaded"

[ "$(id -u)" -eq 0 ] || skip "needs root"
for t in ethtool iperf3 jq; do command -v $t >/dev/null || skip "needs $t"; done
[ -x "$TOOL" ] || skip "no nb_napi_tool at $TOOL"
ip netns add "$NS_A" 2>/dev/null || skip "cannot create network namespaces"
ip netns add "$NS_B"
ip link add "$IF_A" netns "$NS_A" type veth peer name "$IF_B" netns "$NS_B" || skip "no veth"
ip -n "$NS_A" addr add 10.201.13.1/24 dev "$IF_A"
ip -n "$NS_B" addr add 10.201.13.2/24 dev "$IF_B"
for ns in "$NS_A" "$NS_B"; do ip -n "$ns" link set lo up; done
ip -n "$NS_A" link set "$IF_A" up
ip -n "$NS_B" link set "$IF_B" up
in_a ethtool -K "$IF_A" gro on >/dev/null
ip netns exec "$NS_B" ethtool -K "$IF_B" tso off gso off >/dev/null 2>&1
ip netns exec "$NS_B" iperf3 -s -B 10.201.13.2 >/dev/null 2>&1 &
server_pid=$!
line=$(napi_line) || skip "napi-get does not list the veth's NAPI here"
[ -n "$line" ] || skip "napi-get lists no NAPI for a veth with GRO on (kernel < 6.8?)"
id=${line%% *}
in_a "$TOOL" set "$id" 7777 2 0 || skip "napi-set not available (kernel < 6.13?)"
sleep 0.5

echo "== the user's per-NAPI values, invisible to sysfs"
expect "NAPI $id before the run" "$(napi_line)" "$id 7777 2 0 0"
expect "sysfs gro_flush_timeout before" "$(in_a cat /sys/class/net/$IF_A/gro_flush_timeout)" 0
in_a "$NB_BIN" knobs show -i "$IF_A" >"$TMP/show" 2>&1
grep -Eq "^  gro_flush_timeout +7777$" "$TMP/show" && ok "knobs show reads the per-NAPI 7777" ||
	fail "knobs show: $(cat "$TMP/show")"
grep -Eq "^  $id +- +- +- +- +0 +7777 +2 +0 " "$TMP/show" && ok "knobs show lists NAPI $id" ||
	fail "no NAPI row in: $(cat "$TMP/show")"

run() { # NAME extra-args...: a sweep over the three per-NAPI knobs
	local name=$1
	shift
	${run_exec:+exec} ip netns exec "$NS_A" "$NB_BIN" run -i "$IF_A" --peer 10.201.13.2 --tests tcp-tx --omit 0 --repetitions 1 --settle 0.2 --no-trace \
		--knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 --knob irq_suspend_timeout=0,2000000 \
		-o "$TMP/$name.json" --journal "$TMP/$name.journal" --no-raw "$@"
}

# restore_matches REPORT BEFORE AFTER: the report's "restore" holds, per NAPI knob, the value a
# netlink read (this tool, not nicbench) gave before the run as original and after it as after
restore_matches() {
	local r=$1 before=($2) after=($3) k i=1
	expect "restore status in $(basename "$r")" "$(jq -r '.restore.status' "$r")" ok
	for k in gro_flush_timeout napi_defer_hard_irqs irq_suspend_timeout; do
		expect "$k original = the netlink read before" \
			"$(jq -r --arg k "$k" --arg s "napi $id" '.restore.knobs[] | select(.knob == $k and .scope == $s) | .original' "$r")" \
			"${before[$i]}"
		expect "$k after = the netlink read after" \
			"$(jq -r --arg k "$k" --arg s "napi $id" '.restore.knobs[] | select(.knob == $k and .scope == $s) | .after' "$r")" \
			"${after[$i]}"
		i=$((i + 1))
	done
	expect "restore paths" "$(jq -r '[.restore.knobs[].path] | unique | join(",")' "$r")" napi-netlink
}

echo "== a sweep: per-NAPI set and read-back, exact restore"
napi_before=$(napi_line)
run sweep --duration 1 >"$TMP/sweep.out" 2>&1
expect "exit code of the sweep" "$?" 0
r=$TMP/sweep.json
expect "points" "$(jq '.results | length' "$r")" 4
expect "points ok" "$(jq '[.results[] | select(.status == "ok")] | length' "$r")" 4
expect "paths" "$(jq -r '[.results[].knob_paths[]] | unique | join(",")' "$r")" napi-netlink
# each point's NAPI holds the point's values, read back per NAPI
bad=$(jq -r '.results[] | .knobs as $k | .napi.instances[0] |
	select(.gro_flush_timeout != $k.gro_flush_timeout or .napi_defer_hard_irqs != $k.napi_defer_hard_irqs or
	       .irq_suspend_timeout != $k.irq_suspend_timeout) | .id' "$r")
expect "points whose NAPI does not hold the point's values" "$bad" ""
expect "a point's NAPI id" "$(jq -r '.results[3].napi.instances[0].id' "$r")" "$id"
expect "suspend 2000000 read back" "$(jq -r '.results[3].knobs.irq_suspend_timeout' "$r")" 2000000
why=$(jq -r '.results[0].runs[0].qstats.unavailable // empty' "$r")
[ -n "$why" ] && ok "qstats absent on veth with the reason: $why" || fail "qstats: $(jq -c '.results[0].runs[0].qstats' "$r")"
jq -e '.results[0].runs[0].metrics | has("qstats_rx_packets") | not' "$r" >/dev/null &&
	ok "no qstats metric invented" || fail "qstats metric on a driver without qstats"
/usr/bin/python3 - "$r" "$NB_SRC/schema/nicbench-report.schema.json" <<'PY' && ok "report matches the schema" || fail "schema"
import json, sys
import jsonschema
report, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(report)
PY
expect "NAPI $id after the sweep" "$(napi_line)" "$id 7777 2 0 0"
restore_matches "$r" "$napi_before" "$(napi_line)"
"$NB_BIN" report "$r" | grep -q "^restore: ok, [0-9]* knob values put back as found" && ok "report prints the restore" ||
	fail "nicbench report: no restore line"
expect "sysfs gro_flush_timeout after (never written)" "$(in_a cat /sys/class/net/$IF_A/gro_flush_timeout)" 0
expect "sysfs napi_defer_hard_irqs after" "$(in_a cat /sys/class/net/$IF_A/napi_defer_hard_irqs)" 0
[ -e "$TMP/sweep.journal" ] && fail "journal left after a normal end" || ok "journal removed"

echo "== SIGKILL in the middle, then knobs restore"
in_a "$TOOL" set "$id" 4444 3 1000 || fail "pre-set 4444/3/1000"
napi_before=$(napi_line)
# exec, so that the PID is nicbench's own (ip netns exec execs it): a SIGKILL to a subshell would leave
# nicbench running on, and its later points would collide with the steps below
(exec >"$TMP/kill.out" 2>&1; run_exec=1 run kill --duration 3) &
run_pid=$!
for _ in $(seq 100); do
	# finished points are in the run record until the report is written at the end
	ends=$(grep -c '"type":"end"' "$TMP/kill.json.record" 2>/dev/null) || true
	[ "${ends:-0}" -ge 1 ] && break
	sleep 0.1
done
[ "$(cat "/proc/$run_pid/comm" 2>/dev/null)" = nicbench ] && ok "the SIGKILL goes to nicbench itself" ||
	fail "process $run_pid to be killed is $(cat "/proc/$run_pid/comm" 2>/dev/null), not nicbench"
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
changed=$(napi_line)
[ "$changed" != "$id 4444 3 1000 0" ] && ok "the run had changed the NAPI ($changed)" || fail "the run changed nothing"
grep -q "via=napi-netlink" "$TMP/kill.journal" && ok "journal keeps the per-NAPI path" ||
	fail "journal: $(cat "$TMP/kill.journal")"
grep -Pq "^gro_flush_timeout\t$id=4444\t" "$TMP/kill.journal" && ok "journal lists the NAPI's own value" ||
	fail "journal: $(cat "$TMP/kill.journal")"
in_a "$NB_BIN" knobs restore -i "$IF_A" --journal "$TMP/kill.journal" >"$TMP/restore.out" 2>&1
expect "exit code of knobs restore" "$?" 0
expect "NAPI $id after SIGKILL + restore" "$(napi_line)" "$id 4444 3 1000 0"
restore_matches "$TMP/kill.json" "$napi_before" "$(napi_line)"
expect "sysfs gro_flush_timeout after restore" "$(in_a cat /sys/class/net/$IF_A/gro_flush_timeout)" 0

echo "== one NAPI addressed by id and by queue"
in_a "$NB_BIN" run -i "$IF_A" --peer 10.201.13.2 --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0.2 --no-trace --knob "gro_flush_timeout@napi$id=5555" -o "$TMP/addr.json" --journal "$TMP/addr.journal" \
	--no-raw >"$TMP/addr.out" 2>&1
expect "exit code with @napi$id" "$?" 0
expect "addressed read-back" "$(jq -r ".results[0].knobs[\"gro_flush_timeout@napi$id\"]" "$TMP/addr.json")" 5555
expect "NAPI $id after the addressed run" "$(napi_line)" "$id 4444 3 1000 0"
in_a "$NB_BIN" run -i "$IF_A" --peer 10.201.13.2 --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0.2 --no-trace --knob "gro_flush_timeout@queue0=5555" -o "$TMP/q.json" --journal "$TMP/q.journal" \
	--no-raw >"$TMP/q.out" 2>&1
expect "@queue0 on veth (no queue->NAPI link)" "$(jq -r '.results[0].status' "$TMP/q.json")" unsupported
grep -q "linked to no NAPI" "$TMP/q.json" && ok "the reason is given" || fail "reason: $(jq -r '.results[0].error' "$TMP/q.json")"

echo "== threaded per NAPI: the thread's pid and CPU in the report"
in_a "$NB_BIN" run -i "$IF_A" --peer 10.201.13.2 --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0.2 --no-trace --knob threaded=1 -o "$TMP/thr.json" --journal "$TMP/thr.journal" --no-raw >"$TMP/thr.out" 2>&1
expect "exit code with threaded=1" "$?" 0
expect "threaded path" "$(jq -r '.results[0].knob_paths.threaded' "$TMP/thr.json")" napi-netlink
expect "NAPI thread listed" "$(jq -r '.results[0].napi.instances[0] | (.pid != null and .thread_cpu != null)' "$TMP/thr.json")" true
expect "NAPI $id after the threaded run" "$(napi_line)" "$id 4444 3 1000 0"

echo "== threaded=2 (busy-poll, Linux 6.19+): taken and read back, or unsupported with the reason"
in_a "$NB_BIN" run -i "$IF_A" --peer 10.201.13.2 --tests tcp-tx --duration 1 --omit 0 --repetitions 1 \
	--settle 0.2 --no-trace --knob threaded=0,2 -o "$TMP/bp.json" --journal "$TMP/bp.journal" --no-raw >"$TMP/bp.out" 2>&1
expect "exit code with threaded=0,2 (unsupported is no failure)" "$?" 0
expect "threaded=0 point" "$(jq -r '.results[0].status' "$TMP/bp.json")" ok
case "$(jq -r '.results[1].status' "$TMP/bp.json")" in
ok) expect "threaded=2 read back (the kernel has busy-poll)" "$(jq -r '.results[1].knobs.threaded' "$TMP/bp.json")" 2 ;;
unsupported)
	grep -q "needs Linux 6.19+" "$TMP/bp.json" && ok "threaded=2 unsupported on $(uname -r): $(jq -r '.results[1].error' "$TMP/bp.json")" ||
		fail "reason: $(jq -r '.results[1].error' "$TMP/bp.json")" ;;
*) fail "threaded=2 point: $(jq -c '.results[1] | {status, error}' "$TMP/bp.json")" ;;
esac
expect "NAPI $id after the threaded=0,2 run" "$(napi_line)" "$id 4444 3 1000 0"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo PASS
