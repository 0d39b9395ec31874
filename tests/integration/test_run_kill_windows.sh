#!/bin/bash
# SPDX-License-Identifier: MIT
# SIGKILL in the last steps of a run and of `nicbench knobs restore`, after the knobs are put
# back: when the report is renamed into place, when the run record is removed, when the journal
# is removed. strace kills the process at that system call (fault injection on the path). At
# every such moment a later `nicbench knobs restore` must leave the knobs restored, a valid
# report holding every finished repetition, and neither journal nor record behind.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root
command -v strace >/dev/null || { echo "SKIP: strace not installed"; exit 77; }
nb_in_testbed nbkw12 10.200.113

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sys=/sys/class/net/$NB_IFACE
echo 0 > "$sys/threaded"
echo 34567 > "$sys/gro_flush_timeout"
report=$work/w.json
record=$report.record
journal=$work/journal

# kill_at PATH SYSCALLS CMD...: run CMD, SIGKILLed by strace at its first SYSCALLS on PATH ("-":
# any path). strace -P matches only a rename's source, the temporary file, whose name holds the
# writer's pid; the report's rename is nicbench's only one, so it needs no path.
kill_at() {
	local path=$1 calls=$2 only=()
	shift 2
	[ "$path" = - ] || only=(-P "$path")
	strace -qq -o /dev/null "${only[@]}" -e trace="$calls" -e inject="$calls":signal=KILL:when=1 "$@" \
		>"$work/killed.out" 2>&1 || true
}

run_killed_at() { # PATH SYSCALLS: a full run (2 repetitions) killed at that call
	rm -f "$report" "$record" "$journal"
	kill_at "$1" "$2" "$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 1 --omit 0 \
		--repetitions 2 --settle 0 --idle-check 0 --no-trace --knob gro_flush_timeout=0 -o "$report" --journal "$journal"
}

# present WHAT FILE yes|no
present() {
	local got=no
	[ -e "$2" ] && got=yes
	expect "$1: $(basename "$2") there" "$got" "$3"
}

check_restored() { # WHAT: knobs restore finishes the job
	local rc=0
	"$NB_BIN" knobs restore --journal "$journal" >"$work/restore.out" 2>&1 || rc=$?
	expect "$1: knobs restore exit code ($(tr '\n' ' ' <"$work/restore.out"))" "$rc" 0
	expect "$1: gro_flush_timeout" "$(knob gro_flush_timeout)" 34567
	present "$1, after knobs restore" "$journal" no
	present "$1, after knobs restore" "$record" no
	validate_report "$report"
	expect "$1: point status" "$(jq -r '.results[0].status' "$report")" ok
	expect "$1: repetitions in the report" "$(jq '[.results[0].runs[] | select(.status == "ok")] | length' "$report")" 2
	# a writer killed at the rename left its temporary file; restore removes it and says so
	expect "$1: temporary report files left" "$(compgen -G "$report.tmp.*" || true)" ""
	if [ "${2:-}" = temp-left ]; then
		expect "$1: restore says it removed the temporary file" \
			"$(grep -q "^removed $report\.tmp\.[0-9]*: a half-written report" "$work/restore.out" && echo said)" said
	fi
	return 0
}

temp_left() { # WHAT: a REPORT.tmp.PID is there, its writer gone
	expect "$1: a temporary report file there" "$(compgen -G "$report.tmp.*" >/dev/null && echo yes)" yes
}

rename_calls=rename,renameat,renameat2
unlink_calls=unlink,unlinkat

# the run, killed after its knobs were restored
run_killed_at - "$rename_calls"
present "run killed at the report's rename" "$report" no
present "run killed at the report's rename" "$record" yes
present "run killed at the report's rename" "$journal" yes
expect "knob already restored by the run" "$(knob gro_flush_timeout)" 34567
temp_left "run killed at the report's rename"
check_restored "run killed at the report's rename" temp-left

# the next run removes a dead writer's temporary file too, even one that stops at the journal
# the killed run left
run_killed_at - "$rename_calls"
temp_left "run killed at the report's rename, before the next run"
rc=0
"$NB_BIN" run -i "$NB_IFACE" --peer "$NB_PEER" --tests tcp-tx --duration 1 --omit 0 --repetitions 1 --no-trace \
	--knob gro_flush_timeout=0 -o "$report" --journal "$journal" >"$work/next.out" 2>&1 || rc=$?
expect "next run refused over the killed run's journal" "$([ "$rc" -ne 0 ] && echo refused || echo "ran ($rc)")" refused
expect "next run: temporary report files left" "$(compgen -G "$report.tmp.*" || true)" ""
expect "next run says it removed the temporary file" \
	"$(grep -c "^nicbench run: removed $report\.tmp\.[0-9]*: a half-written report" "$work/next.out" || true)" 1
check_restored "run killed at the report's rename, after the next run"

run_killed_at "$record" "$unlink_calls"
present "run killed at the record's removal" "$report" yes
present "run killed at the record's removal" "$journal" yes
check_restored "run killed at the record's removal"

run_killed_at "$journal" "$unlink_calls"
present "run killed at the journal's removal" "$report" yes
present "run killed at the journal's removal" "$record" no
check_restored "run killed at the journal's removal"

# knobs restore itself, killed at the same steps, then run again
for step in "-:$rename_calls" "$record:$unlink_calls" "$journal:$unlink_calls"; do
	path=${step%%:*} calls=${step#*:}
	run_killed_at - "$rename_calls"
	what="knobs restore killed at $calls of $(basename "$path")"
	[ "$path" = - ] && what="knobs restore killed at the report's rename"
	kill_at "$path" "$calls" "$NB_BIN" knobs restore --journal "$journal"
	present "$what" "$journal" yes
	if [ "$path" = - ]; then
		check_restored "$what, run again" temp-left
	else
		check_restored "$what, run again"
	fi
done
echo "PASS"
