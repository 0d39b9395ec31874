#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lab-bisect without the lab: it hands the search to `nicbench bisect` (here a stand-in that records its
# arguments and writes bisect.json, NB_LAB_NICBENCH) with the candidates' names, good end first, bad end last, and
# the lab's boot hook; the hook that nicbench would run takes a candidate's NAME, ROUND and OUT as its last three
# words (shown by running it on inputs it refuses before any boot); the first bad is printed with its WHAT;
# nicbench bisect's exit code is lab-bisect's; bad input is exit 2 with a message.
set -u
src=${NB_SRC:?NB_SRC: the source tree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
expect() { # what got want
	if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', want '$3'"; fail=1; else echo "ok: $1"; fi
}

for i in 0 1 2 3 4 5; do echo "c$i k$i commit number $i"; done >"$work/cands"
# the stand-in: `bisect --help` is known; `bisect ARGS` records ARGS one a line and writes WORK/bisect.json
cat >"$work/nicbench" <<'FAKE'
#!/bin/bash
[ "$1" = bisect ] || exit 2
[ "${2:-}" = --help ] && exit 0
printf '%s\n' "$@" >"$FAKE_LOG"
while [ $# -gt 0 ]; do
	[ "$1" = --work ] && w=$2
	shift
done
printf '{"first_bad": "%s"}\n' "$FIRST_BAD" >"$w/bisect.json"
exit "${FAKE_RC:-0}"
FAKE
chmod +x "$work/nicbench"
export NB_LAB_NICBENCH=$work/nicbench FAKE_LOG=$work/args

out=$(FIRST_BAD=c3 "$src/scripts/lab-bisect" "$work/cands" --work "$work/b" --cpus 2 2>"$work/err")
expect "exit: nicbench bisect's" "$?" 0
expect "the first bad, with its WHAT" "$out" "c3 commit number 3"
expect "the candidates by name, good end first, bad end last" "$(tail -n 6 "$work/args" | tr '\n' ' ')" "c0 c1 c2 c3 c4 c5 "
expect "the steps' defaults" "$(grep -A1 -x -e --max-pairs -e --ceiling -e --work "$work/args" | tr '\n' ' ')" \
	"--max-pairs 8 --ceiling 16 --work $work/b "
expect "no --gate unless asked: nicbench bisect's default gate" "$(grep -cx -e --gate "$work/args")" 0
hook=$(grep -A1 -x -e --boot "$work/args" | tail -n 1)
case $hook in
*"scripts/lab boot --candidates $work/cands --cpus 2 -- --tests tcp-rx "*) echo "ok: the hook: $hook" ;;
*) echo "FAIL: the hook is not the lab's boot with the candidates and the run's defaults: $hook"; fail=1 ;;
esac
# the hook as nicbench runs it: CMD NAME ROUND OUT through the shell; these are refused before any boot
bash -c "$hook c9 A:1/8:s $work/o.json" 2>"$work/hook.err"
expect "the hook looks a name up in the candidates: exit" "$?" 2
grep -q "no candidate 'c9'" "$work/hook.err" || { echo "FAIL: hook: $(cat "$work/hook.err")"; fail=1; }
bash -c "$hook c2 A:1 $work/o.json" 2>"$work/hook.err"
expect "the hook takes ROUND from its second-last word: exit" "$?" 2
grep -q "round 'A:1'" "$work/hook.err" || { echo "FAIL: hook: $(cat "$work/hook.err")"; fail=1; }

out=$(FIRST_BAD=c1 FAKE_RC=3 "$src/scripts/lab-bisect" "$work/cands" --gate throughput_bps@tcp-rx --max-rounds 4 \
	--ceiling 8 --work "$work/u" -- --tests tcp-tx 2>"$work/err")
expect "exit 3 passed on" "$?" 3
expect "--gate, --max-rounds and --ceiling passed on" \
	"$(grep -A1 -x -e --gate -e --max-pairs -e --ceiling "$work/args" | grep -v -- '^--$' | tr '\n' ' ')" \
	"--max-pairs 4 --ceiling 8 --gate throughput_bps@tcp-rx "
grep -A1 -x -e --boot "$work/args" | tail -n 1 | grep -q -- '-- --tests tcp-tx $' ||
	{ echo "FAIL: RUN ARGS not in the hook: $(cat "$work/args")"; fail=1; }

# usage errors: exit 2 with a message, nicbench not run
rm -f "$work/args"
"$src/scripts/lab-bisect" 2>"$work/err"; expect "no candidates file: exit" "$?" 2
echo "c0 k0" >"$work/one"
"$src/scripts/lab-bisect" "$work/one" 2>"$work/err"; expect "one candidate: exit" "$?" 2
printf 'c0 k0\nc0 k1\n' >"$work/twice"
"$src/scripts/lab-bisect" "$work/twice" 2>"$work/err"; expect "a name twice: exit" "$?" 2
printf 'c0 k0\nc/1 k1\n' >"$work/slash"
"$src/scripts/lab-bisect" "$work/slash" 2>"$work/err"; expect "a name with a slash: exit" "$?" 2
"$src/scripts/lab-bisect" "$work/cands" --max-rounds 9 --ceiling 4 2>"$work/err"; expect "ceiling below max: exit" "$?" 2
"$src/scripts/lab-bisect" "$work/cands" --frob 2>"$work/err"; expect "unknown option: exit" "$?" 2
expect "nicbench not run on bad input" "$([ -e "$work/args" ] && echo ran || echo not)" not
exit $fail
