#!/bin/bash
# SPDX-License-Identifier: MIT
# The board's own binary on a kernel with napi-set: the static aarch64 nicbench of scripts/cross-build (netlink over
# libnl-3's archives) in an arm64 guest on Debian 13's backports kernel, virtio-net, 2 vCPUs. Before the run the
# first NAPI gets 7777 ns / 2 by napi-set (a static aarch64 nb_napi_tool, as a user would set it; sysfs cannot
# see it), the other keeps 0 / 0. A sweep of gro_flush_timeout:napi_defer_hard_irqs goes per NAPI over netlink,
# and after it every NAPI's values, read per NAPI, are those found before it, the hand-set 7777/2 included.
# NB_AARCH64_BIN / NB_AARCH64_NAPI_TOOL: use these static binaries instead of build-aarch64's.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require_arch arm64 qemu-system-aarch64 backports

bin=${NB_AARCH64_BIN:-$NB_SRC/build-aarch64/nicbench}
tool=${NB_AARCH64_NAPI_TOOL:-$NB_SRC/build-aarch64/tests/nb_napi_tool}
if [ -z "${NB_AARCH64_BIN:-}" ]; then
	"$NB_SRC/scripts/cross-build" aarch64 >"$tmp/cross.log" 2>&1 ||
		{ tail -n 20 "$tmp/cross.log"; echo "FAIL: scripts/cross-build aarch64"; exit 1; }
fi
if [ -z "${NB_AARCH64_NAPI_TOOL:-}" ]; then
	cmake --build "$NB_SRC/build-aarch64" --target nb_napi_tool >"$tmp/tool.log" 2>&1 ||
		{ tail -n 20 "$tmp/tool.log"; echo "FAIL: building the static aarch64 nb_napi_tool"; exit 1; }
fi
version=$(qemu-aarch64-static "$bin" --version 2>&1 || "$bin" --version 2>&1)
echo "guest binary: $(tr '\n' ';' <<<"$version")"
check "the static aarch64 nicbench names napi-set among its netlink paths" grep -q 'napi-set' <<<"$version"

cat >"$tmp/setup.sh" <<'EOF'
id=$(nb_napi_tool list eth0 | head -n 1 | cut -d' ' -f1)
[ -n "$id" ] || { echo "no NAPI listed for eth0"; exit 1; }
nb_napi_tool set "$id" 7777 2 0 && nb_napi_tool list eth0
EOF
report=$tmp/arm64-bpo.json art=$tmp/art
start=$(date +%s)
NB_LAB_GUEST_NICBENCH=$bin lab_run_retrying "$tmp/lab.log" "$art" --arch arm64 --kernel backports --cpus 2 \
	--guest-bin "$tool" --setup "$tmp/setup.sh" -- --tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 \
	--repetitions 1 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 -o "$report"
echo "arm64 backports: $(($(date +%s) - start)) s wall"
[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --arch arm64 --kernel backports exited $lab_rc"; finish; }
j() { jq -r "$@" "$report"; }
echo "guest kernel $(j .host.kernel.release), boot $(j .lab.boot_s) s; NAPIs after --setup (id gro defer suspend threaded):"
cat "$art/setup.log"
check "report matches the schema" validate_report "$report"
check "lab record says arm64, tcg ($(j '.lab.arch + ", " + .lab.accel'))" test "$(j '.lab.arch + "," + .lab.accel')" = arm64,tcg
check "2 points, both ok ($(j '[.results[].status] | join(",")'))" \
	test "$(j '[.results[] | select(.status == "ok")] | length')" = 2
for knob in gro_flush_timeout napi_defer_hard_irqs; do
	paths=$(j "[.results[].knob_paths.$knob] | unique | join(\",\")")
	check "$knob went per NAPI over netlink on both points ($paths)" test "$paths" = napi-netlink
done
check "per_napi_set on both points" test "$(j '[.results[].napi.per_napi_set] | unique | join(",")')" = true
bad=$(j '[.results[] | .knobs as $k | .napi.instances[] |
	select((.gro_flush_timeout | tostring) != ($k.gro_flush_timeout | tostring) or
	       (.napi_defer_hard_irqs | tostring) != ($k.napi_defer_hard_irqs | tostring)) | .id] | join(",")')
check "every NAPI of both points holds the point's values${bad:+ (not: NAPIs $bad)}" test -z "$bad"

napis() { jq -c '[.napi.instances[] | {id, gro_flush_timeout, napi_defer_hard_irqs, irq_suspend_timeout, threaded}]' "$1"; }
before=$(napis "$art/knobs-before.json") after=$(napis "$art/knobs-after.json")
echo "per-NAPI values before: $before"
echo "per-NAPI values after:  $after"
check "before the run: the hand-set 7777/2 on the first NAPI, 0/0 on the other" \
	test "$(jq -r 'map("\(.gro_flush_timeout)/\(.napi_defer_hard_irqs)") | join(" ")' <<<"$before")" = "7777/2 0/0"
check "every NAPI's values after the run are those before it" test "$before" = "$after"
echo "arm64 backports: $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
finish
