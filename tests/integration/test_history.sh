#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench history on series made from a real report (tests/fixtures/report/lab-lan743x-mtu.json,
# e1000e in the QEMU lab), rewritten once per commit by tests/tools/history_series.py (seeded):
#   - 30 commits, the first 20 at one level, the last 10 at 15% lower throughput (2% noise per
#     report and metric): analyze names the change between c20 and c21 and exits 1;
#   - the same without the step: no change point anywhere, exit 0;
#   - one report of 30 at 30% lower alone: no change point, exit 0;
#   - six commits of two reports each with a 20% step: none over commits, named 02..03 with --unit report;
#   - the same report twice is stored once; a truncated report, a report of another schema, a file
#     that is not SQLite, another program's database and a locked database: exit 2 with a message,
#     and the database still holds what it held.
# No root, no network: the database is a file in a temporary directory.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NB_SRC=${NB_SRC:?NB_SRC must point at the source tree}
. "$NB_SRC/tests/integration/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
if "$NB_BIN" history list --db /nonexistent 2>&1 | grep -q 'built without SQLite'; then
	echo "SKIP: this nicbench was built without SQLite"
	exit 77
fi
FIXTURE=$NB_SRC/tests/fixtures/report/lab-lan743x-mtu.json
GEN=$NB_SRC/tests/tools/history_series.py
nb_work_dir

# make KIND GENERATOR-ARGS...: 30 reports in $work/KIND, added one commit each to $work/KIND.db
make_history() {
	local kind=$1
	shift
	mkdir -p "$work/$kind"
	python3 "$GEN" "$FIXTURE" "$work/$kind" 30 "$@" || fail "generate $kind"
	for i in $(seq -w 1 30); do
		"$NB_BIN" history add --db "$work/$kind.db" --commit "c$i" --branch main "$work/$kind/r$i.json" >/dev/null ||
			fail "history add $kind r$i"
	done
}

make_history step --step-at 21 --step-pct 15 --noise-pct 2 --seed 1
make_history flat --noise-pct 2 --seed 2
make_history spike --spike-at 14 --spike-pct 30 --noise-pct 2 --seed 3

# --- the step: named between c20 and c21, still holding, exit 1 ---
"$NB_BIN" history analyze --db "$work/step.db" >"$work/step.txt"
expect "analyze exit with a 15% step" "$?" 1
grep -q '^nicbench noticed a 1[0-9]\.[0-9]% regression of throughput_bps at tcp-rx/mtu=1500 on commit c21 ' "$work/step.txt" ||
	fail "no 'noticed a ~15% regression ... on commit c21' line: $(head -5 "$work/step.txt")"
grep -q 'last good c20, first bad c21' "$work/step.txt" || fail "the text does not name c20 and c21"
grep -q 'still regressed at the newest commit c30' "$work/step.txt" || fail "the text does not say it still holds"
grep -q '%stddev     %change' "$work/step.txt" || fail "no %stddev %change %stddev table"
grep -q 'nicbench bisect --boot HOOK --work bisect-c21 c20 CANDIDATE... c21' "$work/step.txt" || fail "no bisect command"
"$NB_BIN" history analyze --db "$work/step.db" --format json >"$work/step.json"
expect "analyze --format json exit" "$?" 1
# every change point is the step, on throughput (the other metrics carry noise only)
expect "change points not at c20..c21 or not of throughput_bps" \
	"$(jq '[.series[] | .metric as $m | .changes[] | select(.last_good != "c20" or .first_bad != "c21" or $m != "throughput_bps")] | length' "$work/step.json")" 0
expect "throughput series with the step" \
	"$(jq '[.series[] | select(.metric == "throughput_bps" and (.changes | length) == 1)] | length' "$work/step.json")" 4
jq -e '[.series[].changes[] | .change_pct < -10 and .change_pct > -20 and .ci_lo_pct < .change_pct and .still] | all' \
	"$work/step.json" >/dev/null || fail "a change is not about -15% with an interval around it, still holding"
"$NB_BIN" history analyze --db "$work/step.db" --format junit >"$work/step.xml"
expect "junit exit" "$?" 1
expect "junit failures" "$(grep -c '<failure' "$work/step.xml")" 4
"$NB_BIN" history analyze --db "$work/step.db" --format kcidb >"$work/step.kcidb"
expect "kcidb exit" "$?" 1
expect "kcidb FAIL tests" "$(jq '[.tests[] | select(.status == "FAIL")] | length' "$work/step.kcidb")" 4
"$NB_BIN" history analyze --db "$work/step.db" --format html -o "$work/step.html"
expect "html exit" "$?" 1
# throughput_bps of the 4 points and cpu_busy_pct of the 2 rx points (the default gate)
expect "html: one drawing per gated or changed series" "$(grep -c "<svg" "$work/step.html")" 6
# with the git tree: one commit between is the culprit; three are listed for nicbench bisect
if command -v git >/dev/null; then
	git init -q "$work/git"
	for i in $(seq -w 1 30); do
		git -C "$work/git" -c user.email=nb@invalid -c user.name=nb commit -q --allow-empty -m "c$i"
		git -C "$work/git" tag "c$i"
		if [ "$i" = 20 ]; then
			git -C "$work/git" -c user.email=nb@invalid -c user.name=nb commit -q --allow-empty -m x1
			git -C "$work/git" -c user.email=nb@invalid -c user.name=nb commit -q --allow-empty -m x2
		fi
	done
	x1=$(git -C "$work/git" rev-list --reverse c20..c21 | head -1)
	"$NB_BIN" history analyze --db "$work/step.db" --git "$work/git" --boot ./hook.sh >"$work/git.txt"
	grep -q "c20..c21 holds 3 commits" "$work/git.txt" || fail "--git: the range is not counted: $(grep -A1 c20..c21 "$work/git.txt" | head -2)"
	grep -q "nicbench bisect --boot ./hook.sh --work bisect-c21 c20 $x1 [0-9a-f]* c21" "$work/git.txt" ||
		fail "--git: the bisect command does not list the commits between"
	git -C "$work/git" tag -f c20 "$(git -C "$work/git" rev-parse c21~1)" >/dev/null
	"$NB_BIN" history analyze --db "$work/step.db" --git "$work/git" >"$work/git1.txt"
	grep -q "c20..c21 is one commit: c21 is the culprit" "$work/git1.txt" || fail "--git: one commit is not named the culprit"
fi
# a gate that leaves throughput out does not fail
"$NB_BIN" history analyze --db "$work/step.db" --gate cpu_busy_pct >/dev/null
expect "analyze exit with the step ungated" "$?" 0

# --- no step, and one spike: no change point at all, exit 0 ---
for kind in flat spike; do
	"$NB_BIN" history analyze --db "$work/$kind.db" --format json >"$work/$kind.json"
	expect "analyze exit ($kind)" "$?" 0
	expect "change points ($kind)" "$(jq '[.series[].changes[]] | length' "$work/$kind.json")" 0
done
"$NB_BIN" history analyze --db "$work/flat.db" | grep -q '^PASS: 0 gated regressions' || fail "flat: no PASS line"

# --- six commits of two boots each, 20% lower from the fourth (the lab's planted stack's shape): over
# commits no split can reach alpha (20 ways to split six); over reports (--unit report) the change is named ---
mkdir -p "$work/boots"
python3 "$GEN" "$FIXTURE" "$work/boots" 12 --step-at 7 --step-pct 20 --noise-pct 2 --seed 5 || fail "generate boots"
for i in $(seq 1 12); do
	"$NB_BIN" history add --db "$work/boots.db" --commit "0$(((i - 1) / 2))" "$work/boots/r$(printf %02d "$i").json" >/dev/null ||
		fail "history add boots r$i"
done
"$NB_BIN" history analyze --db "$work/boots.db" --metrics throughput_bps >"$work/boots-commit.txt"
expect "six commits, --unit commit: exit" "$?" 0
"$NB_BIN" history analyze --db "$work/boots.db" --metrics throughput_bps --unit report >"$work/boots-report.txt"
expect "six commits of two boots, --unit report: exit" "$?" 1
grep -q 'last good 02, first bad 03' "$work/boots-report.txt" ||
	fail "--unit report does not name 02..03: $(grep -m1 'last good' "$work/boots-report.txt")"

# --- list, and the same report twice ---
"$NB_BIN" history list --db "$work/step.db" >"$work/list.txt" || fail "history list"
expect "listed reports" "$(grep -c 'step/r' "$work/list.txt")" 30
out=$("$NB_BIN" history add --db "$work/step.db" --commit c31 "$work/step/r01.json")
expect "re-add exit" "$?" 0
case $out in *"already stored as report 1"*) ;; *) fail "re-add said: $out" ;; esac

# --- bad input: exit 2, a message, and the database as it was ---
before=$("$NB_BIN" history list --db "$work/step.db" | md5sum)
sum_before=$(md5sum <"$work/step.db")
check_kept() {
	expect "$1: the list after" "$("$NB_BIN" history list --db "$work/step.db" | md5sum)" "$before"
}
head -c 5000 "$work/flat/r01.json" >"$work/truncated.json"
msg=$("$NB_BIN" history add --db "$work/step.db" --commit c31 "$work/flat/r02.json" "$work/truncated.json" 2>&1)
expect "add with a truncated report: exit" "$?" 2
case $msg in *"truncated.json: not valid JSON"*) ;; *) fail "truncated report: message '$msg'" ;; esac
check_kept "truncated report"
expect "truncated report: the file untouched" "$(md5sum <"$work/step.db")" "$sum_before"
jq -c '.schema = "nicbench-report/2"' "$work/flat/r03.json" >"$work/other-schema.json"
msg=$("$NB_BIN" history add --db "$work/step.db" "$work/other-schema.json" 2>&1)
expect "add of another schema: exit" "$?" 2
case $msg in *'schema "nicbench-report/2" is not supported'*) ;; *) fail "other schema: message '$msg'" ;; esac
check_kept "another schema"
# a locked database: another writer holds it for longer than add waits
python3 - "$work/step.db" "$work/locked" <<'EOF' &
import sqlite3, sys, time, os
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(5)
con.execute("ROLLBACK")
EOF
locker=$!
for _ in $(seq 50); do [ -e "$work/locked" ] && break; sleep 0.1; done
msg=$("$NB_BIN" history add --db "$work/step.db" --commit c31 "$work/flat/r02.json" 2>&1)
expect "add into a locked database: exit" "$?" 2
case $msg in *"locked by another writer"*) ;; *) fail "locked database: message '$msg'" ;; esac
wait "$locker"
check_kept "locked database"
# a file that is not SQLite, and an SQLite database of another program: refused, left as they were
head -c 4096 /dev/urandom >"$work/garbage.db"
sum_garbage=$(md5sum <"$work/garbage.db")
msg=$("$NB_BIN" history add --db "$work/garbage.db" "$work/flat/r02.json" 2>&1)
expect "add into a corrupt database: exit" "$?" 2
case $msg in *"not an SQLite database"*) ;; *) fail "corrupt database: message '$msg'" ;; esac
expect "corrupt database: the file untouched" "$(md5sum <"$work/garbage.db")" "$sum_garbage"
"$NB_BIN" history analyze --db "$work/garbage.db" >/dev/null 2>&1
expect "analyze of a corrupt database: exit" "$?" 2
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)"); c.commit()' "$work/other.db"
msg=$("$NB_BIN" history add --db "$work/other.db" "$work/flat/r02.json" 2>&1)
expect "add into another program's database: exit" "$?" 2
case $msg in *"not a nicbench history"*) ;; *) fail "other database: message '$msg'" ;; esac
# a damaged history: its first page overwritten past the header
cp "$work/step.db" "$work/damaged.db"
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' | dd of="$work/damaged.db" bs=1 seek=100 conv=notrunc status=none
sum_damaged=$(md5sum <"$work/damaged.db")
msg=$("$NB_BIN" history add --db "$work/damaged.db" --commit c31 "$work/flat/r02.json" 2>&1)
expect "add into a damaged database: exit" "$?" 2
case $msg in *"corrupt"* | *"not an SQLite"*) ;; *) fail "damaged database: message '$msg'" ;; esac
expect "damaged database: the file untouched" "$(md5sum <"$work/damaged.db")" "$sum_damaged"

# --- usage ---
"$NB_BIN" history analyze >/dev/null 2>&1
expect "analyze without --db: exit" "$?" 2
"$NB_BIN" history add --db "$work/x.db" >/dev/null 2>&1
expect "add without a report: exit" "$?" 2
"$NB_BIN" history analyze --db "$work/step.db" --gate no_such_metric >/dev/null 2>&1
expect "analyze with a gate on an unknown metric: exit" "$?" 2
"$NB_BIN" history analyze --db "$work/nonexistent.db" >/dev/null 2>&1
expect "analyze of a missing database: exit" "$?" 2
[ ! -e "$work/nonexistent.db" ] || fail "analyze created the database it was asked to read"
"$NB_BIN" history --help | grep -q 'history analyze' || fail "history --help"
echo "PASS: test_history"
