#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench ab and bisect around the boots, with a hook that replays recorded veth rounds
# (ab-replay-hook.sh; no traffic, ~40 s): bad usage exits 2 with a message that says what is wrong; a
# set killed with SIGKILL after 3 pairs and run again with the same --work ends with the same reports
# and verdict as a set never stopped; a hook that fails twice stops the set with exit 5, every report
# kept, and the same command then resumes it; bisect extends an undecided step and names the first bad.
set -u
NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
nb_work_dir
trap 'if [ -n "$run_pid" ]; then kill -9 "$run_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
hook=$NB_SRC/tests/integration/ab-replay-hook.sh

# usage: exit 2 and a message naming the problem
usage_case() {  # WANT_IN_MESSAGE COMMAND ARGS...
	local want=$1 rc
	shift
	"$NB_BIN" "$@" >"$work/usage.out" 2>"$work/usage.err"
	rc=$?
	[ "$rc" = 2 ] || fail "nicbench $*: exit $rc, want 2 ($(cat "$work/usage.err"))"
	grep -qF -- "$want" "$work/usage.err" || fail "nicbench $*: the message lacks '$want': $(cat "$work/usage.err")"
	echo "ok: nicbench $* -> exit 2, '$want'"
}
usage_case "--boot CMD is needed" ab --work "$work/u" aa-A aa-B
usage_case "--work DIR is needed" ab --boot "$hook" aa-A aa-B
usage_case "expected two kernels" ab --boot "$hook" --work "$work/u" aa-A
usage_case "--max-pairs '0'" ab --boot "$hook" --work "$work/u" --max-pairs 0 aa-A aa-B
usage_case "unknown option '--no-such'" ab --boot "$hook" --work "$work/u" --no-such aa-A aa-B
usage_case "no metric \"throughput_bsp\"" ab --boot "$hook" --work "$work/u" --gate throughput_bsp aa-A aa-B
usage_case "--set 'a b'" ab --boot "$hook" --work "$work/u" --set "a b" aa-A aa-B
usage_case "two kernels at least" bisect --boot "$hook" --work "$work/u" aa-A
usage_case "--ceiling 4 is below --max-pairs 8" bisect --boot "$hook" --work "$work/u" --ceiling 4 aa-A aa-B
[ ! -e "$work/u" ] || fail "a usage error made the work directory"

# the reference: an A/A set never stopped
"$NB_BIN" ab --boot "$hook" --work "$work/whole" --max-pairs 10 aa-A aa-B >"$work/whole.out" 2>"$work/whole.err"
rc_whole=$?
n_whole=$(find "$work/whole/A" "$work/whole/B" -name '*.json' | wc -l)
echo "uninterrupted: exit $rc_whole, $n_whole reports"
[ "$rc_whole" = 0 ] || [ "$rc_whole" = 3 ] || fail "A/A replay: exit $rc_whole, want 0 or 3: $(tail -3 "$work/whole.err")"
[ "$n_whole" -gt 6 ] || fail "A/A replay: $n_whole reports; the kill test needs a set of more than 3 pairs"
expect "the verdict files" "$(ls "$work/whole" | grep -c '^verdict\.\(txt\|json\)$')" 2

# the same, killed (SIGKILL) once 3 pairs are in the state, then run again
NB_REPLAY_SLEEP=0.3 "$NB_BIN" ab --boot "$hook" --work "$work/killed" --max-pairs 10 aa-A aa-B >/dev/null 2>"$work/killed1.err" &
run_pid=$!
for _ in $(seq 200); do
	[ "$(jq -r '.pairs // 0' "$work/killed/state.json" 2>/dev/null || echo 0)" -ge 3 ] && break
	sleep 0.1
done
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
pairs_kept=$(jq .pairs "$work/killed/state.json")
[ "$pairs_kept" -ge 3 ] || fail "killed: the state kept $pairs_kept pairs, want 3 or more"
[ -f "$work/killed/A/1.json" ] && [ -f "$work/killed/B/3.json" ] || fail "killed: the first 3 pairs' reports are not all there"
echo "ok: killed with $pairs_kept pairs in the state"
"$NB_BIN" ab --boot "$hook" --work "$work/killed" --max-pairs 10 aa-A aa-B >"$work/killed.out" 2>"$work/killed2.err"
rc=$?
grep -q "resuming set" "$work/killed2.err" || fail "the rerun did not resume: $(head -3 "$work/killed2.err")"
expect "exit code after the resume" "$rc" "$rc_whole"
expect "reports after the resume" "$(find "$work/killed/A" "$work/killed/B" -name '*.json' | wc -l)" "$n_whole"
expect "verdict after the resume" "$(grep '^verdict:' "$work/killed.out")" "$(grep '^verdict:' "$work/whole.out")"
# the work directory stays a set of these kernels
usage_case "holds the set of kernels aa-A and aa-B" ab --boot "$hook" --work "$work/killed" slow-A slow-B

# a hook that fails from its 3rd boot on: pair 1 made, pair 2's first boot fails twice
NB_REPLAY_COUNT=$work/count NB_REPLAY_FAIL=3 "$NB_BIN" ab --boot "$hook" --work "$work/fail" slow-A slow-B \
	>/dev/null 2>"$work/fail.err"
expect "exit code of a boot that failed twice" "$?" 5
expect "hook runs" "$(cat "$work/count")" 4
grep -q "failed twice" "$work/fail.err" || fail "no word of the failed boot: $(tail -3 "$work/fail.err")"
[ -f "$work/fail/A/1.json" ] && [ -f "$work/fail/B/1.json" ] || fail "pair 1's reports are gone"
expect "state after the failure" "$(jq -r .status "$work/fail/state.json")" "boot failed"
expect "logs of the failed tries" "$(ls "$work/fail/log" | grep -c '\.2\.try[12]\.log$')" 2
"$NB_BIN" ab --boot "$hook" --work "$work/fail" slow-A slow-B >/dev/null 2>"$work/fail2.err"
expect "exit code once the hook works again (slow-B regressed)" "$?" 1

# bisect: slow-A good; aa-A from another recording, a step that needs more than its first pairs
"$NB_BIN" bisect --boot "$hook" --work "$work/bisect" --max-pairs 4 --ceiling 16 slow-A aa-A slow-B slow-B slow-B \
	>"$work/bisect.out" 2>"$work/bisect.err"
expect "bisect exit code" "$?" 1
expect "first bad" "$(cat "$work/bisect.out")" slow-B
expect "bisect.json first_bad" "$(jq -r .first_bad "$work/bisect/bisect.json")" slow-B
expect "bisect steps" "$(jq '.steps | length' "$work/bisect/bisect.json")" 3
grep -q "extending it to" "$work/bisect.err" || fail "no step was extended: $(grep 'step 3' "$work/bisect.err" | tail -3)"
echo "ok: an undecided step was extended, not skipped"
echo "all checks passed"
