#!/bin/bash
# SPDX-License-Identifier: MIT
# `nicbench knobs show/restore` against a real veth pair (GRO on, so it has NAPI) in two
# throwaway network namespaces: real sysfs, real EOPNOTSUPP, real restore.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
NS_A=nbk-a-$$
NS_B=nbk-b-$$
IF_A=nbk$$a
IF_B=nbk$$b
TMP=$(mktemp -d /tmp/nbk-cli-XXXXXX)
DEFAULT_JOURNAL=/run/nicbench/$IF_A.journal
failures=0

cleanup() {
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	rm -f "$DEFAULT_JOURNAL"
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
in_a() { ip netns exec "$NS_A" "$@"; }
sysfs_a() { in_a cat "/sys/class/net/$IF_A/$1"; }

# expect_rc WANT DESCRIPTION CMD...: run, keep stdout/stderr in $TMP/out and $TMP/err.
expect_rc() {
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$what (exit $rc)"; else
		fail "$what: exit $rc, want $want"; sed 's/^/    /' "$TMP/out" "$TMP/err"; fi
}

expect_sysfs() {
	local attr=$1 want=$2 got
	got=$(sysfs_a "$attr")
	if [ "$got" = "$want" ]; then ok "$attr = $want"; else fail "$attr = '$got', want '$want'"; fi
}

expect_grep() {
	local file=$1 pattern=$2
	if grep -Eq -- "$pattern" "$file"; then ok "output matches '$pattern'"; else
		fail "no line matches '$pattern' in:"; sed 's/^/    /' "$file"; fi
}

[ "$(id -u)" -eq 0 ] || skip "needs root"
command -v ethtool >/dev/null || skip "needs ethtool to turn GRO on"
[ -x "$NB_BIN" ] || skip "no nicbench binary at $NB_BIN"
ip netns add "$NS_A" 2>/dev/null || skip "cannot create network namespaces"
ip netns add "$NS_B" || skip "cannot create a second network namespace"
ip link add "$IF_A" netns "$NS_A" type veth peer name "$IF_B" netns "$NS_B" || skip "no veth support"
ip -n "$NS_A" addr add 10.200.10.1/24 dev "$IF_A"
ip -n "$NS_B" addr add 10.200.10.2/24 dev "$IF_B"
ip -n "$NS_A" link set "$IF_A" up
ip -n "$NS_B" link set "$IF_B" up
ip -n "$NS_A" link set lo up
# veth has NAPI (and so a writable `threaded`) only while up with GRO on.
in_a ethtool -K "$IF_A" gro on >/dev/null || skip "cannot turn GRO on for veth"
in_a test -e "/sys/class/net/$IF_A/threaded" || skip "kernel has no threaded NAPI"

echo "== show: every knob, hardware coalescing unsupported on veth"
expect_rc 0 "knobs show -i $IF_A" in_a "$NB_BIN" knobs show -i "$IF_A"
expect_grep "$TMP/out" "^  threaded +$(sysfs_a threaded)\$"
expect_grep "$TMP/out" "^  gro_flush_timeout +$(sysfs_a gro_flush_timeout)\$"
expect_grep "$TMP/out" "^  napi_defer_hard_irqs +$(sysfs_a napi_defer_hard_irqs)\$"
expect_grep "$TMP/out" "^  mtu +$(sysfs_a mtu)\$"
for k in rx-usecs rx-frames tx-usecs tx-frames adaptive-rx adaptive-tx; do
	expect_grep "$TMP/out" "^  $k +unsupported: .*Operation not supported"
done
expect_grep "$TMP/out" "^  irq_affinity +unsupported: $IF_A has no IRQs in /proc/interrupts"

echo "== show --config: the config's interface and its board's IRQ patterns"
printf '{"interface": "%s", "board": {"irq_names": {"rx": ["nbk_no_such_rx*"]}}}\n' "$IF_A" >"$TMP/board.json"
expect_rc 0 "knobs show --config (interface from the file)" in_a "$NB_BIN" knobs show --config "$TMP/board.json"
expect_grep "$TMP/out" "^knobs of $IF_A:"
expect_grep "$TMP/out" "^  irq_affinity +unsupported: $IF_A has no IRQs in /proc/interrupts .none matches the board.s"
echo '{"interface": ' >"$TMP/broken.json"
expect_rc 2 "knobs show --config with a broken file" in_a "$NB_BIN" knobs show --config "$TMP/broken.json"
expect_grep "$TMP/err" "^nicbench knobs: show: .*broken.json"

echo "== set unusual values by hand; show reads them"
in_a sh -c "echo 1 > /sys/class/net/$IF_A/threaded && echo 12345 > /sys/class/net/$IF_A/gro_flush_timeout &&
	    echo 3 > /sys/class/net/$IF_A/napi_defer_hard_irqs && echo 1400 > /sys/class/net/$IF_A/mtu" ||
	fail "could not set the unusual values"
expect_rc 0 "knobs show --json" in_a "$NB_BIN" knobs show -i "$IF_A" --json
if jq -e --arg ifa "$IF_A" '.iface == $ifa and .knobs.threaded.value == 1 and
	.knobs.gro_flush_timeout.value == 12345 and .knobs.napi_defer_hard_irqs.value == 3 and
	.knobs.mtu.value == 1400 and .knobs["rx-usecs"].value == null and
	(.knobs["rx-usecs"].unsupported | test("Operation not supported"))' "$TMP/out" >/dev/null; then
	ok "JSON carries the values and null + reason for unsupported"
else
	fail "JSON does not match:"; sed 's/^/    /' "$TMP/out"
fi
if /usr/bin/python3 - "$TMP/out" "${NB_SRC:-$(dirname "$0")/../..}/schema/nicbench-knobs.schema.json" <<'PY'
import json, sys
import jsonschema
doc, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(doc)
assert doc["napi"]["instances"], "veth with GRO on lists no NAPI"
PY
then
	ok "JSON matches schema/nicbench-knobs.schema.json, with the veth's NAPIs"
else
	fail "JSON does not match schema/nicbench-knobs.schema.json:"; sed 's/^/    /' "$TMP/out"
fi
# One printer behind both: the table and the JSON give the same values and the same NAPI ids.
jq -r '(.knobs | to_entries[] | select(.value.value != null) | "\(.key) \(.value.value)"),
	(.napi.instances[] | "napi \(.id)")' "$TMP/out" >"$TMP/from-json"
expect_rc 0 "knobs show (table) after the changes" in_a "$NB_BIN" knobs show -i "$IF_A"
awk '/^NAPIs/ { napi = 1; next } napi && $1 ~ /^[0-9]+$/ { print "napi " $1; next }
	!napi && /^  / && $2 != "unsupported:" && $2 != "error:" { print $1 " " $2 }' "$TMP/out" >"$TMP/from-text"
if [ -s "$TMP/from-json" ] && diff "$TMP/from-json" "$TMP/from-text" >/dev/null; then
	ok "table and JSON agree ($(wc -l <"$TMP/from-json") values and NAPIs)"
else
	fail "table and JSON differ:"; diff "$TMP/from-json" "$TMP/from-text" | sed 's/^/    /'
fi

echo "== restore --journal: a journal left by a killed run"
printf 'nicbench-journal/1 iface=%s\nthreaded\t0\ngro_flush_timeout\t20000\nnapi_defer_hard_irqs\t1\nmtu\t1500\n' \
	"$IF_A" >"$TMP/killed.journal"
expect_rc 0 "knobs restore --journal" in_a "$NB_BIN" knobs restore --journal "$TMP/killed.journal"
expect_sysfs threaded 0
expect_sysfs gro_flush_timeout 20000
expect_sysfs napi_defer_hard_irqs 1
expect_sysfs mtu 1500
if [ -e "$TMP/killed.journal" ]; then fail "journal still there after restore"; else ok "journal removed"; fi
expect_rc 2 "restore again: no journal" in_a "$NB_BIN" knobs restore --journal "$TMP/killed.journal"
expect_grep "$TMP/err" "^nicbench knobs: restore: no journal at"

echo "== restore -i: the default journal under /run/nicbench"
mkdir -p /run/nicbench
printf 'nicbench-journal/1 iface=%s\nmtu\t1280\n' "$IF_A" >"$DEFAULT_JOURNAL"
expect_rc 0 "knobs restore -i $IF_A" in_a "$NB_BIN" knobs restore -i "$IF_A"
expect_sysfs mtu 1280
if [ -e "$DEFAULT_JOURNAL" ]; then fail "default journal still there"; else ok "default journal removed"; fi

echo "== a knob that cannot be restored: exit 1, journal kept, message names it"
ip -n "$NS_A" link set "$IF_A" down
printf 'nicbench-journal/1 iface=%s\nthreaded\t1\nmtu\t1500\n' "$IF_A" >"$TMP/nonapi.journal"
expect_rc 1 "restore threaded=1 while the veth is down (no NAPI)" \
	in_a "$NB_BIN" knobs restore --journal "$TMP/nonapi.journal"
expect_grep "$TMP/err" "^nicbench knobs: restore $IF_A: .*threaded.*Operation not supported.*no NAPI"
expect_grep "$TMP/err" "kept"
expect_sysfs mtu 1500
if [ -e "$TMP/nonapi.journal" ]; then ok "journal kept for a retry"; else fail "journal removed after a failure"; fi
ip -n "$NS_A" link set "$IF_A" up

echo "== usage errors exit 2"
expect_rc 2 "show -i 'bad/name'" in_a "$NB_BIN" knobs show -i 'bad/name'
expect_grep "$TMP/err" "^nicbench knobs: show: invalid interface name 'bad/name'"
expect_rc 2 "show -i nbkmissing0" in_a "$NB_BIN" knobs show -i nbkmissing0
expect_grep "$TMP/err" "^nicbench knobs: show: .*nbkmissing0.*no such interface"
expect_rc 2 "restore with another interface's journal" \
	in_a "$NB_BIN" knobs restore -i lo --journal "$TMP/nonapi.journal"
expect_rc 2 "show without -i" "$NB_BIN" knobs show
expect_rc 2 "unknown action" "$NB_BIN" knobs frobnicate -i lo
expect_rc 2 "unknown option" "$NB_BIN" knobs show --bogus
expect_rc 0 "--help" "$NB_BIN" knobs --help
expect_grep "$TMP/out" "/run/nicbench/IFACE.journal"
expect_grep "$TMP/out" "^  gro_flush_timeout "

if [ "$failures" -ne 0 ]; then
	echo "$failures check(s) failed"
	exit 1
fi
echo "all checks passed"
