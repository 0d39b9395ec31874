#!/bin/bash
# SPDX-License-Identifier: MIT
# The NAPI knob paths on real Debian kernels under QEMU with virtio-net: 6.1 has no netdev family, so the NAPI
# knobs go through sysfs and there are no NAPIs to list and no qstats; 6.12 has napi-get and qstats-get but no
# napi-set, so the knobs still go through sysfs, the NAPIs are listed (a threaded one with its thread's pid) and
# the run reports qstats deltas (present where virtio-net gives them, absent, never 0, where it does not). On both,
# irq_suspend_timeout is unsupported with the reason, and every knob is put back. The report records the path.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1 6.12

napi_knobs=(threaded gro_flush_timeout napi_defer_hard_irqs)
# --no-trace: nothing here reads the diagnostic repetition (test_lab_ab and test_lab_e1000e check tracing on
# these kernels), and it would add a run per point under TCG.
for k in 6.1 6.12; do
	echo "== kernel $k, virtio-net"
	report=$tmp/$k.json art=$tmp/art-$k
	lab_run_retrying "$tmp/lab-$k.log" "$art" --kernel "$k" --nic virtio-net --cpus 2 -- --tests tcp-rx --no-trace \
		--duration 2 --omit 1 --settle 1 --repetitions 1 --knob threaded=0,1 \
		--knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 -o "$report"
	[ "$lab_rc" -eq 0 ] && [ -f "$report" ] || { fail "scripts/lab run --kernel $k exited $lab_rc"; continue; }
	check "$k: report matches the schema" validate_report "$report"
	j() { jq -r "$@" "$report"; }
	check "$k: lab record says virtio-net ($(j .lab.nic))" test "$(j .lab.nic)" = virtio-net
	check "$k: interface driver is virtio_net ($(j .interface.driver))" test "$(j .interface.driver)" = virtio_net
	check "$k: guest kernel is Debian's $k ($(j .host.kernel.release))" test "$(j ".host.kernel.release | startswith(\"$k.\")")" = true
	check "$k: 4 points, all ok ($(j '[.results[].status] | join(",")'))" \
		test "$(j '[.results[] | select(.status == "ok")] | length')" = 4
	# The path each NAPI knob took, as the report records it: sysfs on both (napi-set came in 6.13).
	for knob in "${napi_knobs[@]}"; do
		paths=$(j "[.results[].knob_paths.$knob] | unique | join(\",\")")
		check "$k: $knob went through sysfs on every point ($paths)" test "$paths" = sysfs
	done
	check "$k: per_napi_set false on every point" test "$(j '[.results[].napi.per_napi_set] | unique | join(",")')" = false
	check "$k: gro_flush_timeout read back as set (0 and 20000)" \
		test "$(j '[.results[].knobs.gro_flush_timeout] | unique | join(",")')" = "0,20000"
	k_before() { jq -r ".knobs[\"$1\"].value" "$art/knobs-before.json"; }
	k_after() { jq -r ".knobs[\"$1\"].value" "$art/knobs-after.json"; }
	for knob in "${napi_knobs[@]}"; do
		check "$k: $knob restored ($(k_before "$knob") -> $(k_after "$knob"))" \
			test "$(k_before "$knob")" = "$(k_after "$knob")" -a "$(k_after "$knob")" != null
	done
	why=$(jq -r '.knobs.irq_suspend_timeout.unsupported // empty' "$art/knobs-before.json")
	check "$k: irq_suspend_timeout unsupported, with the reason ($why)" test -n "$why"
	qwhy=$(j '.results[0].runs[0].qstats.unavailable // empty')
	case "$k" in
	6.1)
		nwhy=$(j '.results[0].napi.note // empty')
		check "$k: no NAPIs listed, with the reason ($nwhy)" \
			test "$(j '.results[0].napi.listed')" = false -a -n "$nwhy"
		check "$k: qstats absent, with the reason ($qwhy)" test -n "$qwhy"
		check "$k: no qstats metric invented" \
			test "$(j '[.results[].runs[].metrics // {} | keys[] | select(startswith("qstats_"))] | length')" = 0
		;;
	6.12)
		check "$k: the NAPIs are listed on every point (napi-get)" \
			test "$(j '[.results[] | select(.napi.listed != true or (.napi.instances | length) == 0)] | length')" = 0
		# napi-get's readback: a threaded point's NAPIs have a thread pid, a softirq point's have none.
		check "$k: every NAPI of a threaded=1 point has a thread pid" \
			test "$(j '[.results[] | select(.knobs.threaded == "1") | .napi.instances[] | select(.pid == null)] | length')" = 0
		check "$k: no NAPI of a threaded=0 point has a thread pid" \
			test "$(j '[.results[] | select(.knobs.threaded == "0") | .napi.instances[] | select(.pid != null)] | length')" = 0
		check "$k: no per-NAPI gro_flush_timeout invented (6.12's napi-get has none)" \
			test "$(j '[.results[].napi.instances[] | select(.gro_flush_timeout != null)] | length')" = 0
		check_virtio_qstats "$k" "$report"
		;;
	esac
done
finish
