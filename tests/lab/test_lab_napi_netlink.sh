#!/bin/bash
# SPDX-License-Identifier: MIT
# Per-NAPI knobs and qstats on the newest Debian kernel (trixie-backports, one with napi-set) under QEMU with
# virtio-net, whose driver gives per-queue statistics: a sweep over gro_flush_timeout, napi_defer_hard_irqs,
# irq_suspend_timeout and threaded (1 and 2, busy-poll) sets and reads back per NAPI over netlink, a per-NAPI value
# set by hand on one of the two NAPIs before the run (napi-set, invisible to sysfs) is there unchanged after it,
# and every run reports qstats deltas, present where virtio-net gives them and absent, never 0, where it does not.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
NB_BIN=${NB_BIN:-$NB_SRC/build/nicbench}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
tool=$(dirname "$NB_BIN")/tests/nb_napi_tool
[ -x "$tool" ] || { echo "SKIP: no nb_napi_tool at $tool (build the tests)"; exit 77; }
lab_require backports

# In the guest, before the run: the first NAPI (of one per queue pair, one per vCPU) gets 7777 ns / 2 by napi-set,
# as a user would have set it; the other keeps the kernel's 0 / 0.
cat >"$tmp/setup.sh" <<'EOF'
id=$(nb_napi_tool list eth0 | head -n 1 | cut -d' ' -f1)
[ -n "$id" ] || { echo "no NAPI listed for eth0"; exit 1; }
nb_napi_tool set "$id" 7777 2 0 && nb_napi_tool list eth0
EOF
report=$tmp/bpo.json art=$tmp/art
# --no-trace: every check reads the measured runs and the knob readback, none the diagnostic repetition.
lab_run_retrying "$tmp/lab.log" "$art" --kernel backports --nic virtio-net --cpus 2 --guest-bin "$tool" \
	--setup "$tmp/setup.sh" -- --tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 \
	--knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 --knob irq_suspend_timeout=0,2000000 \
	--knob threaded=1,2 -o "$report"
[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --kernel backports exited $lab_rc"; finish; }
j() { jq -r "$@" "$report"; }
echo "guest kernel $(j .host.kernel.release); NAPIs before the run (id gro defer suspend threaded):"
cat "$art/setup.log"
check "report matches the schema" validate_report "$report"
# The lab's TCG runs the vCPUs in one thread (docs/lab.md, "What the hang is"); the record says so.
want=single
[ "$(j .lab.accel)" = kvm ] && want=null
check "lab record: accel $(j .lab.accel), tcg_thread $(j .lab.tcg_thread) (want $want)" test "$(j .lab.tcg_thread)" = "$want"
check "interface driver is virtio_net ($(j .interface.driver))" test "$(j .interface.driver)" = virtio_net
check "8 points, all ok ($(j '[.results[].status] | join(",")'))" \
	test "$(j '[.results[] | select(.status == "ok")] | length')" = 8

# 1. The path: per NAPI over netlink for all four, as the report records it.
for knob in gro_flush_timeout napi_defer_hard_irqs irq_suspend_timeout threaded; do
	paths=$(j "[.results[].knob_paths.$knob] | unique | join(\",\")")
	check "$knob went per NAPI over netlink on every point ($paths)" test "$paths" = napi-netlink
done
check "per_napi_set on every point" test "$(j '[.results[].napi.per_napi_set] | unique | join(",")')" = true

# 2. Every NAPI of every point held the point's values, read back per NAPI (a knob in the report is a
# number where numeric: compared as text, either form matches).
bad=$(j '[.results[] | .knobs as $k | .napi.instances[] |
	select((.gro_flush_timeout | tostring) != ($k.gro_flush_timeout | tostring) or
	       (.napi_defer_hard_irqs | tostring) != ($k.napi_defer_hard_irqs | tostring) or
	       (.irq_suspend_timeout | tostring) != ($k.irq_suspend_timeout | tostring) or
	       (.threaded | tostring) != ($k.threaded | tostring)) | .id] | join(",")')
check "every NAPI of every point holds the point's values${bad:+ (not: NAPIs $bad)}" test -z "$bad"
check "2 NAPIs on every point (2 vCPUs, 2 queue pairs)" test "$(j '[.results[] | .napi.instances | length] | unique | join(",")')" = 2
check "every NAPI of every point (threaded 1 and 2, busy-poll) has its thread's pid" \
	test "$(j '[.results[].napi.instances[] | select(.pid == null)] | length')" = 0

# 3. Restored exactly: each NAPI's values after the run are those before it, the hand-set 7777/2 included.
napis() { jq -c '[.napi.instances[] | {id, gro_flush_timeout, napi_defer_hard_irqs, irq_suspend_timeout, threaded}]' "$1"; }
before=$(napis "$art/knobs-before.json") after=$(napis "$art/knobs-after.json")
echo "per-NAPI values before: $before"
echo "per-NAPI values after:  $after"
check "before the run: the hand-set 7777/2 on the first NAPI, 0/0 on the other" \
	test "$(jq -r 'map("\(.gro_flush_timeout)/\(.napi_defer_hard_irqs)") | join(" ")' <<<"$before")" = "7777/2 0/0"
check "every NAPI's values after the run are those before it" test "$before" = "$after"

# 4. qstats deltas: present where virtio-net gives them, absent, never 0, where it does not.
check_virtio_qstats backports "$report"
finish
