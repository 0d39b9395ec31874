#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench ab --pairs N, the fixed design, with the hook that replays recorded veth rounds (ab-replay-hook.sh;
# no traffic, ~15 s): it takes exactly N pairs in alternating order even where the sequential design decides
# sooner, looks at none on the way, and ends with the verdict and exit code of `nicbench compare
# --fail-on-inconclusive` over WORK/A and WORK/B under the same gate; --pairs and --max-pairs exclude each
# other (exit 2); a set killed with SIGKILL resumes to the same verdict; a work directory keeps its design.
set -u
NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
nb_work_dir
trap 'if [ -n "$run_pid" ]; then kill -9 "$run_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
hook=$NB_SRC/tests/integration/ab-replay-hook.sh
# two gated metrics: were the alpha split between them (as the sequential design does), the intervals would differ
gate=throughput_bps,cpu_busy_pct

usage_case() {  # WANT_IN_MESSAGE ARGS...
	local want=$1 rc
	shift
	"$NB_BIN" ab "$@" >"$work/usage.out" 2>"$work/usage.err"
	rc=$?
	[ "$rc" = 2 ] || fail "nicbench ab $*: exit $rc, want 2 ($(cat "$work/usage.err"))"
	grep -qF -- "$want" "$work/usage.err" || fail "nicbench ab $*: the message lacks '$want': $(cat "$work/usage.err")"
	echo "ok: nicbench ab $* -> exit 2, '$want'"
}
usage_case "--pairs and --max-pairs exclude each other" --boot "$hook" --work "$work/u" --pairs 4 --max-pairs 8 slow-A slow-B
usage_case "--pairs '0'" --boot "$hook" --work "$work/u" --pairs 0 slow-A slow-B
usage_case "--pairs '501'" --boot "$hook" --work "$work/u" --pairs 501 slow-A slow-B
[ ! -e "$work/u" ] || fail "a usage error made the work directory"

# same_as_compare DIR RC: DIR's verdict files and exit code are compare's over DIR/A and DIR/B (but for the
# way the sides are named: compare names the directories, ab the reports in them)
same_as_compare() {
	local dir=$1 rc=$2 crc
	local unnamed='walk(if type == "object" then del(.path) else . end)' body='/^  rounds:/,/^verdict:/p'
	"$NB_BIN" compare --fail-on-inconclusive --color never --gate "$gate" "$dir/A" "$dir/B" >"$work/cmp.txt" 2>/dev/null
	crc=$?
	expect "$dir: ab's exit code against compare --fail-on-inconclusive's" "$rc" "$crc"
	diff <(sed -n "$body" "$work/cmp.txt") <(sed -n "$body" "$dir/verdict.txt") >&2 ||
		fail "$dir/verdict.txt is not compare's text verdict (diff above)"
	[ "$(grep -c . "$work/cmp.txt")" -gt 8 ] || fail "compare's text verdict is short: $(cat "$work/cmp.txt")"
	"$NB_BIN" compare -f json --fail-on-inconclusive --gate "$gate" "$dir/A" "$dir/B" >"$work/cmp.json" 2>/dev/null
	[ "$(jq -S "$unnamed" "$work/cmp.json")" = "$(jq -S "$unnamed" "$dir/verdict.json")" ] ||
		fail "$dir/verdict.json is not compare's JSON verdict: $(diff <(jq -S "$unnamed" "$work/cmp.json") \
			<(jq -S "$unnamed" "$dir/verdict.json") | head -5)"
	echo "ok: $(basename "$dir"): exit $rc and the verdict files are compare's ($(grep '^verdict:' "$dir/verdict.txt"))"
}

# a 40% slowdown: the sequential design decides it before 6 pairs...
"$NB_BIN" ab --boot "$hook" --work "$work/seq" --max-pairs 6 --gate "$gate" slow-A slow-B >/dev/null 2>"$work/seq.err"
expect "sequential exit on the slowdown" "$?" 1
seq_pairs=$(jq .pairs "$work/seq/state.json")
[ "$seq_pairs" -lt 6 ] || fail "the sequential design took $seq_pairs pairs: the fixed one's test needs an early decision"
echo "ok: the sequential design decided after $seq_pairs pairs"
# ...the fixed design takes all 6, in the order A B, B A, A B, ..., with no look on the way
NB_REPLAY_COUNT=$work/count "$NB_BIN" ab --boot "$hook" --work "$work/fixed" --pairs 6 --gate "$gate" slow-A slow-B \
	>"$work/fixed.out" 2>"$work/fixed.err"
rc=$?
expect "fixed exit on the slowdown" "$rc" 1
expect "hook runs" "$(cat "$work/count")" 12
expect "pairs in the state" "$(jq .pairs "$work/fixed/state.json")" 6
expect "design in the state" "$(jq -r .design "$work/fixed/state.json")" fixed
expect "looks in the state" "$(jq .looks "$work/fixed/state.json")" 0
expect "reports" "$(find "$work/fixed/A" "$work/fixed/B" -name '*.json' | wc -l)" 12
expect "boot order" "$(sed -n 's/.*pair \([0-9]*\)\/6, \([AB]\): boot.*/\2/p' "$work/fixed.err" | tr -d '\n')" ABBAABBAABBA
! grep -q "^nicbench ab: after [0-9]* pair" "$work/fixed.err" || fail "the fixed design looked before its end: $(grep -m1 after "$work/fixed.err")"
cmp -s "$work/fixed.out" "$work/fixed/verdict.txt" || fail "stdout is not verdict.txt"
same_as_compare "$work/fixed" "$rc"

# A/A: compare's exit code (0, or 3 with a gated metric inconclusive) and verdict
"$NB_BIN" ab --boot "$hook" --work "$work/aa" --pairs 5 --gate "$gate" aa-A aa-B >/dev/null 2>"$work/aa.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "A/A fixed: exit $rc, want 0 or 3: $(tail -3 "$work/aa.err")"
same_as_compare "$work/aa" "$rc"

# killed with SIGKILL once 2 pairs are in, then run again: the same 6 pairs and verdict
NB_REPLAY_SLEEP=0.3 "$NB_BIN" ab --boot "$hook" --work "$work/killed" --pairs 6 --gate "$gate" slow-A slow-B \
	>/dev/null 2>&1 &
run_pid=$!
for _ in $(seq 200); do
	[ "$(jq -r '.pairs // 0' "$work/killed/state.json" 2>/dev/null || echo 0)" -ge 2 ] && break
	sleep 0.1
done
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
kept=$(jq .pairs "$work/killed/state.json")
[ "$kept" -ge 2 ] && [ "$kept" -lt 6 ] || fail "killed: $kept pairs in the state, want 2..5"
# a sequential call on the fixed set's directory is refused: its pairs were not taken by looking
usage_case "holds a set of the fixed design" --boot "$hook" --work "$work/killed" --max-pairs 6 slow-A slow-B
"$NB_BIN" ab --boot "$hook" --work "$work/killed" --pairs 6 --gate "$gate" slow-A slow-B >/dev/null 2>"$work/killed.err"
rc=$?
grep -q "resuming set" "$work/killed.err" || fail "the rerun did not resume: $(head -3 "$work/killed.err")"
expect "exit code after the resume" "$rc" 1
expect "pairs after the resume" "$(jq .pairs "$work/killed/state.json")" 6
expect "verdict after the resume" "$(grep '^verdict:' "$work/killed/verdict.txt")" "$(grep '^verdict:' "$work/fixed/verdict.txt")"
same_as_compare "$work/killed" "$rc"
# and a sequential set is not continued as a fixed one
usage_case "holds a set of the sequential design" --boot "$hook" --work "$work/seq" --pairs 6 slow-A slow-B
echo "all checks passed"
