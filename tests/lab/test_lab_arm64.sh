#!/bin/bash
# SPDX-License-Identifier: MIT
# An arm64 guest (QEMU virt under TCG, virtio-net) on Debian's 6.1 and 6.12 arm64 kernels running the static
# aarch64 nicbench of scripts/cross-build, the binary a board gets: a two-point sweep (threaded 0/1) finishes with
# both points ok, the NAPI knobs take the sysfs path (no napi-set before 6.13) and the report says why, and a
# gro_flush_timeout set by hand before the run (7777 ns, --setup) is there after it.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require_arch arm64 qemu-system-aarch64 6.1 6.12

echo 'echo 7777 >/sys/class/net/eth0/gro_flush_timeout && cat /sys/class/net/eth0/gro_flush_timeout' >"$tmp/setup.sh"
for k in 6.1 6.12; do
	echo "== arm64 kernel $k, virtio-net"
	report=$tmp/$k.json art=$tmp/art-$k
	start=$(date +%s)
	lab_run_retrying "$tmp/lab-$k.log" "$art" --arch arm64 --kernel "$k" --cpus 2 --setup "$tmp/setup.sh" -- \
		--tests tcp-rx --no-trace --duration 2 --omit 1 --settle 1 --repetitions 1 --knob threaded=0,1 -o "$report"
	echo "$k: $(($(date +%s) - start)) s wall"
	[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --arch arm64 --kernel $k exited $lab_rc"; continue; }
	j() { jq -r "$@" "$report"; }
	check "$k: report matches the schema" validate_report "$report"
	check "$k: lab record says arm64, tcg ($(j '.lab.arch + ", " + .lab.accel'))" test "$(j '.lab.arch + "," + .lab.accel')" = arm64,tcg
	check "$k: guest kernel is Debian's arm64 $k ($(j .host.kernel.release))" \
		test "$(j ".host.kernel.release | startswith(\"$k.\") and endswith(\"-arm64\")")" = true
	# an arm64 guest runs no x86 binary: the report came from the aarch64 build; the CPU is QEMU's Cortex-A72 (0xd08)
	check "$k: the guest's CPU is the Cortex-A72 ($(j .host.cpu_model))" test "$(j .host.cpu_model)" = 0xd08
	check "$k: interface driver is virtio_net ($(j .interface.driver))" test "$(j .interface.driver)" = virtio_net
	check "$k: 2 points, both ok with throughput ($(j '[.results[].status] | join(",")'))" \
		test "$(j '[.results[] | select(.status == "ok" and .metrics.throughput_bps.median > 0)] | length')" = 2
	check "$k: threaded read back as set (0 and 1)" test "$(j '[.results[].knobs.threaded | tostring] | join(",")')" = 0,1
	check "$k: threaded went through sysfs ($(j '[.results[].knob_paths.threaded] | unique | join(",")'))" \
		test "$(j '[.results[].knob_paths.threaded] | unique | join(",")')" = sysfs
	why=$(j '.results[0].napi.note // .results[0].napi.error // empty')
	check "$k: no per-NAPI set, and the report says why (${why:-napi listed: $(j .results[0].napi.listed)})" \
		test "$(j '[.results[].napi.per_napi_set] | unique | join(",")')" = false -a \( -n "$why" -o "$(j .results[0].napi.listed)" = true \)
	k_of() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
	check "$k: the hand-set gro_flush_timeout was there before the run ($(k_of before gro_flush_timeout))" \
		test "$(k_of before gro_flush_timeout)" = 7777
	for knob in threaded gro_flush_timeout napi_defer_hard_irqs; do
		check "$k: $knob left as found ($(k_of before "$knob") -> $(k_of after "$knob"))" \
			test "$(k_of before "$knob")" = "$(k_of after "$knob")" -a "$(k_of after "$knob")" != null
	done
	echo "$k: boot $(j .lab.boot_s) s wall; $(j '[.results[] | "\(.id) \((.metrics.throughput_bps.median / 1e6) | round) Mbit/s"] | join(", ")')"
done
finish
