#!/bin/bash
# SPDX-License-Identifier: MIT
# The bad inputs a new user hits (issue 14), through the real binary: each gets its exit code and
# a message that names the file, key or flag and says why, once. No traffic, no namespace: every
# case stops before the first point.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nb_require_root

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"

# check WHAT WANT_RC PATTERN -- COMMAND...: exit code, and PATTERN in stderr
check() {
	local what=$1 want=$2 pattern=$3 rc=0
	shift 4
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	expect "$what: exit code" "$rc" "$want"
	[ -z "$pattern" ] || grep -qF -- "$pattern" "$work/err" || fail "$what: stderr lacks '$pattern': $(cat "$work/err")"
	echo "   $(head -c 300 "$work/err" | tr '\n' ' ')"
}

once() {
	local n
	n=$(grep -o -F -- "$1" "$work/err" | wc -l)
	expect "'$1' named once" "$n" 1
}

echo '{"knobs": {"threadd": [0, 1]}}' >"$work/typo.json"
check "knob name typo in a config" 2 "key \"knobs.threadd\": unknown knob 'threadd'" -- \
	"$NB_BIN" plan --config "$work/typo.json" -i eth0 --peer 192.0.2.1
once "config $work/typo.json"

echo '{"knobs": {"threaded": [0, 3]}}' >"$work/value.json"
check "bad knob value in a config" 2 "key \"knobs.threaded\": knob threaded: 3 is outside 0..2" -- \
	"$NB_BIN" plan --config "$work/value.json" -i eth0 --peer 192.0.2.1
once "config $work/value.json"

echo '{"tests": ["tcp-tx", "tcp-sideways"]}' >"$work/tests.json"
check "unknown test name in a config" 2 "unknown test name 'tcp-sideways'" -- \
	"$NB_BIN" plan --config "$work/tests.json" -i eth0 --peer 192.0.2.1
check "unknown test name on the command line" 2 "unknown test 'tcp-sideways'" -- \
	"$NB_BIN" plan --tests tcp-sideways -i eth0 --peer 192.0.2.1

check "--config DIR" 2 "is a directory, not a JSON config file" -- \
	"$NB_BIN" run --config "$NB_SRC/configs" --peer 192.0.2.1

check "plan for an interface this machine lacks" 0 "no interface nbpcnone0 here; the plan did not check it" -- \
	"$NB_BIN" plan -i nbpcnone0 --peer 192.0.2.1 --tests tcp-rx
grep -q "estimated time" "$work/out" || fail "plan printed no plan"
check "plan for an interface that is here says nothing of it" 0 "" -- \
	"$NB_BIN" plan -i lo --peer 192.0.2.1 --tests tcp-rx
[ ! -s "$work/err" ] || fail "plan -i lo wrote to stderr: $(cat "$work/err")"

# not root: the journal under /run/nicbench cannot be created; nothing is sent or changed
if command -v setpriv >/dev/null; then
	mkdir -m 1777 "$work/user"
	check "run as a user" 2 "run it as root (sudo)" -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$NB_BIN" run -i lo --peer 127.0.0.1 \
		--tests tcp-tx --duration 1 --repetitions 1 --idle-check 0 -o "$work/user/r.json"
	grep -qF -- "--journal FILE" "$work/err" || fail "the non-root message does not name --journal"
	[ ! -e "$work/user/r.json" ] || fail "a report was written by a run that could not start"
else
	echo "skip: no setpriv for the non-root case"
fi

check "a flag value out of range" 2 "--idle-check '61': expected seconds 0..60" -- \
	"$NB_BIN" run -i lo --peer 127.0.0.1 --idle-check 61
# read from a file: grep -q leaving a pipe early would kill a help longer than the pipe's buffers (pipefail)
"$NB_BIN" run --help >"$work/help"
grep -q -- "--redact" "$work/help" || fail "run --help does not list --redact"
# "the seed" (the ravb series the tool grew from) means nothing to a new user
grep -qiE "the seed|seed's|seed series" "$work/help" && fail "run --help still speaks of the seed series"
echo "PASS"
