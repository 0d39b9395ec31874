#!/bin/bash
# SPDX-License-Identifier: MIT
# nicbench report / compare --format html in headless Chromium: the page of a real veth sweep
# (tests/fixtures/report/veth-sweep.json), a compare, and the seed replays. Per page: no console
# line, no request but the page itself, every point id and median throughput in the text, each
# chart with the number of bars, dots, rows, cells and lines the report implies, and for the
# sweep and the compare a screenshot that is not blank. Two self-checks first prove that a
# script error and a remote request are caught. Needs no root and passes no traffic.
set -euo pipefail

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

: "${NB_BIN:?NB_BIN must point at the nicbench binary}"
: "${NB_SRC:?NB_SRC must point at the source tree}"
FIX=${NB_FIXTURES:-$NB_SRC/tests/fixtures}
CHECK=$NB_SRC/tests/html/check_page.py
command -v chromium >/dev/null || skip "chromium not installed (scripts/install-deps installs it)"
command -v python3 >/dev/null || skip "python3 not installed"

TMP=$(mktemp -d /tmp/nb-report-html.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# chromium PAGE DOM LOG NETLOG [PNG]: load a file:// page headless. Names resolve nowhere
# (MAP * ~NOTFOUND), so nothing leaves the machine even if a page asked; background services
# are off so the net log holds what the page asked for.
chromium_load() {
	local page=$1 dom=$2 log=$3 netlog=$4 png=${5:-}
	local common=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/profile"
		--host-resolver-rules="MAP * ~NOTFOUND" --disable-background-networking --disable-component-update
		--disable-sync --no-first-run --disable-default-apps --disable-domain-reliability
		--enable-logging=stderr --v=0)

	timeout 120 chromium "${common[@]}" --log-net-log="$netlog" --dump-dom "file://$page" >"$dom" 2>"$log" ||
		fail "chromium could not load $page (see $log)"
	if [ -n "$png" ]; then
		timeout 120 chromium "${common[@]}" --window-size=1280,2400 --screenshot="$png" "file://$page" \
			>/dev/null 2>>"$log" || fail "chromium could not screenshot $page"
		[ -s "$png" ] || fail "no screenshot of $page"
	fi
}

# check NAME PAGE [check_page.py options]; WANT_PNG=1 also takes and checks a screenshot.
check() {
	local name=$1 page=$2 png=()
	shift 2
	[ "${WANT_PNG:-0}" = 1 ] && png=(--png "$TMP/$name.png")
	chromium_load "$page" "$TMP/$name.dom" "$TMP/$name.log" "$TMP/$name.net" ${png[1]:+"${png[1]}"}
	python3 "$CHECK" --dom "$TMP/$name.dom" --log "$TMP/$name.log" --netlog "$TMP/$name.net" "${png[@]}" "$@" ||
		fail "$name: the page check failed ($page)"
	echo "ok: $name"
}

# The harness must be able to fail: a script error and a remote image are caught.
printf '<!DOCTYPE html><html><body><p>x</p><script>nicbench_no_such_function();</script></body></html>' >"$TMP/bad-js.html"
printf '<!DOCTYPE html><html><body><img src="http://nicbench-probe.invalid/x.png"></body></html>' >"$TMP/bad-net.html"
check self-check-console "$TMP/bad-js.html" --expect-console-error
check self-check-network "$TMP/bad-net.html" --expect-request

# Latency points (the demo's tcp-rr) move transactions, not bits: their row gives the transaction rate,
# its range and the runs taken, not "absent" and 0 runs.
RR=$FIX/report/veth-rr.json
"$NB_BIN" report "$RR" --format html -o "$TMP/rr.html" || fail "nicbench report --format html of $RR failed"
for id in $(jq -r '.results[].id' "$RR"); do
	want=$(jq -r --arg id "$id" '.results[] | select(.id == $id) |
		"\(.metrics.rr_transactions_per_s.median | round) trans/s</td><td class=\"nw\">\([.runs[].metrics.rr_transactions_per_s] | min | round) .. \([.runs[].metrics.rr_transactions_per_s] | max | round) trans/s</td><td>\(.runs | length)</td>"' "$RR")
	grep -qF -- "$want" "$TMP/rr.html" || fail "rr point $id: the points table lacks '$want'"
done
echo "ok: rr points show their transaction rate, range and runs ($(jq '.results | length' "$RR") points)"

# The real sweep and a compare: charts, text, and a screenshot that is not blank.
SWEEP=$FIX/report/veth-sweep.json
"$NB_BIN" report "$SWEEP" --format html -o "$TMP/sweep.html" || fail "nicbench report --format html failed"
WANT_PNG=1 check sweep "$TMP/sweep.html" --report "$SWEEP"
rc=0
"$NB_BIN" compare "$FIX/compare/g2ul-base.json" "$FIX/compare/g2ul-new-peer-bound.json" --format html \
	-o "$TMP/compare.html" || rc=$?
[ "$rc" -eq 1 ] || fail "nicbench compare --format html of the G2UL replay: exit $rc, want 1 (UDP TX regressed)"
WANT_PNG=1 check compare "$TMP/compare.html" --report "$FIX/compare/g2ul-new-peer-bound.json" \
	--base "$FIX/compare/g2ul-base.json"
grep -q 'tcp-rx</code>: base: CPU0 saturated' "$TMP/compare.html" || fail "the G2UL compare page names no bottleneck move"

# The seed replays render too, alone and against their base.
# hostile.json carries markup in its strings: the page must show it as text (ids and all) and run nothing.
for f in "$FIX"/compare/g2ul-*.json "$FIX"/compare/g2l-*.json "$FIX"/compare/five-*.json "$FIX"/report/hostile.json; do
	name=replay-$(basename "$f" .json)
	"$NB_BIN" report "$f" --format html -o "$TMP/$name.html" || fail "nicbench report $f failed"
	check "$name" "$TMP/$name.html" --report "$f"
done
"$NB_BIN" report "$FIX/compare/g2l-new.json" --base "$FIX/compare/g2l-base.json" --format html \
	-o "$TMP/g2l-vs.html" || fail "nicbench report --base failed"
check replay-g2l-vs-base "$TMP/g2l-vs.html" --report "$FIX/compare/g2l-new.json" --base "$FIX/compare/g2l-base.json"
echo "PASS"
