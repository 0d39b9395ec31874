#!/bin/bash
# SPDX-License-Identifier: MIT
# A short matrix on Debian 12's 6.1 under QEMU with the real e1000e driver, checking what veth never exercised:
# the interface's driver, version and bus; interrupts_per_s and hardirqs_per_s from the NIC's own MSI-X vectors;
# rx-usecs applied, read back, restored, with the interrupt rate following it; irq_affinity on the real vectors,
# read back and restored (2 vCPUs); threaded=1 giving napi_thread_pct; and every metric that this host's kernel
# gives on the veth test bed present on the 6.1 guest too, or absent with the reason.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1

report=$tmp/e1000e.json art=$tmp/art
# The kernel is given in the BZIMAGE:MODDIR form (a user's own build), pointing at the cached Debian 6.1, so this
# test covers that form and test_lab_ab the named one.
img=$("$NB_SRC/scripts/lab" fetch 6.1)
moddir=$(ls -d "$(dirname "$(dirname "$img")")"/lib/modules/* | head -n 1)
# udp-rx at 40 Mbit/s leaves gaps between packets, so the NIC's interrupt moderation (not NAPI) sets the rate.
# Once more if the guest kernel crashed or locked up (lib.sh): a CI run saw this 6.1 TCG guest stall with both
# vCPUs stuck (soft lockup, RCU stall) where it passes in ~130 s otherwise.
lab_run_retrying "$tmp/lab.log" "$art" --kernel "$img:$moddir" --cpus 2 -- --tests tcp-rx,udp-rx --rate 40M \
	--duration 3 --omit 1 --settle 1 --repetitions 1 --knob threaded=0,1 --knob rx-usecs=0,10000 \
	--knob irq_affinity=0 -o "$report"
rc=$lab_rc
[ $rc -eq 0 ] || { fail "scripts/lab run exited $rc"; finish; }
[ -f "$report" ] || { fail "no report at $report"; finish; }
check "report matches the schema (with its lab record)" validate_report "$report"
j() { jq -r "$@" "$report"; }

# The lab record.
check "lab record: nic e1000e, 2 cpus, accel kvm or tcg, kernel $img:$moddir" \
	test "$(j '[.lab.nic, .lab.cpus, (.lab.accel | IN("kvm", "tcg")), .lab.kernel] | @tsv')" = "e1000e	2	true	$img:$moddir"
want=single # the lab's TCG: the vCPUs in one thread (docs/lab.md, "What the hang is")
[ "$(j .lab.accel)" = kvm ] && want=null
check "lab record: accel $(j .lab.accel), tcg_thread $(j .lab.tcg_thread) (want $want)" test "$(j .lab.tcg_thread)" = "$want"
check "guest kernel is Debian's 6.1 ($(j .host.kernel.release))" test "$(j '.host.kernel.release | startswith("6.1.0-")')" = true

# 1. driver, version, bus.
check "interface.driver = e1000e" test "$(j .interface.driver)" = e1000e
check "interface.driver_version is set ($(j .interface.driver_version))" test -n "$(j '.interface.driver_version // empty')"
check "interface.bus_info is a PCI address ($(j .interface.bus_info))" \
	grep -Eqx '[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]' <<<"$(j .interface.bus_info)"
check "every point ok ($(j '[.results[] | .status] | group_by(.) | map("\(.[0]) \(length)") | join(", ")'))" \
	test "$(j '[.results[] | select(.status != "ok")] | length')" = 0
check "8 points" test "$(j '.results | length')" = 8

# 1b. The counters that explain a run (docs/report.md): e1000e's ethtool -S, no page-pool netlink on 6.1.
check "every run has ethtool -S deltas with rx_packets" \
	test "$(j '[.results[].runs[].driver_counters.changed.rx_packets > 0] | all')" = true
check "rx_missed_errors (e1000e's ethtool -S, read by the NIC-drops rule) in every run" \
	test "$(j '[.results[].runs[].metrics | has("rx_missed_errors")] | all')" = true
check "page_pool absent with the reason: 6.1 has no netdev family" \
	test "$(j '[.results[].runs[].page_pool.unavailable | test("no netdev generic-netlink family")] | all')" = true
check "every point has its kernel log" test "$(j '[.results[].kernel_log | has("lines")] | all')" = true

# 2. The NIC's own vectors, counted by /proc/interrupts and by the irq_handler_entry tracepoint.
for v in eth0-rx-0 eth0-tx-0 eth0; do
	check "/proc/interrupts has vector $v" grep -Eq "[[:space:]]$v\$" "$art/interrupts-before.txt"
done
check "interrupts_per_s > 0 on every point" \
	test "$(j '[.results[] | select((.metrics.interrupts_per_s.median // 0) <= 0)] | length')" = 0
# hardirqs_per_s is a tracepoint metric: it exists only in the point's diagnostic repetition, so it is checked
# against that repetition's own interrupts_per_s (/proc/interrupts over the same window).
check "hardirqs_per_s > 0 on every point (diagnostic repetition)" \
	test "$(j '[.results[] | select((.diagnostics.metrics.hardirqs_per_s // 0) <= 0)] | length')" = 0
check "interrupts_per_s and hardirqs_per_s of the diagnostic repetition agree within 20% on every point" \
	test "$(j '[.results[] | .diagnostics.metrics as $d | select($d.hardirqs_per_s / ($d.interrupts_per_s // .metrics.interrupts_per_s.median) | (. < 0.8 or . > 1.25))] | length')" = 0

# 3. rx-usecs: read back as set, the rate follows it, restored.
check "rx-usecs read back as 0 and 10000" \
	test "$(j '[.results[].knobs["rx-usecs"]] | unique | join(",")')" = "0,10000"
for t in 0 1; do
	r0=$(j "[.results[] | select(.test.name == \"udp-rx\" and .knobs.threaded == $t and .knobs[\"rx-usecs\"] == 0)][0].metrics.interrupts_per_s.median")
	r10000=$(j "[.results[] | select(.test.name == \"udp-rx\" and .knobs.threaded == $t and .knobs[\"rx-usecs\"] == 10000)][0].metrics.interrupts_per_s.median")
	check "udp-rx threaded=$t: interrupts/s at rx-usecs 10000 ($r10000) below 0.5 x rx-usecs 0 ($r0)" \
		awk -v a="$r10000" -v b="$r0" 'BEGIN { exit !(b > 0 && a < 0.5 * b) }'
done
k() { jq -r ".knobs[\"$2\"].value" "$art/knobs-$1.json"; }
for knob in rx-usecs irq_affinity threaded gro_flush_timeout napi_defer_hard_irqs; do
	check "$knob restored after the sweep ($(k before "$knob") -> $(k after "$knob"))" \
		test "$(k before "$knob")" = "$(k after "$knob")" -a "$(k after "$knob")" != null
done

# 4. irq_affinity on the real vectors (2 vCPUs).
check "irq_affinity read back as 0 on every point" \
	test "$(j '[.results[].knobs.irq_affinity] | unique | join(",")')" = 0
# The sweep ran with every vector on CPU 0 (the kernel's own choice here is CPU 1): eth0-rx-0's count must have
# grown there.
irq_cpu() { awk -v v="$2" -v c="$3" '$NF == v { print $(2 + c) }' "$art/interrupts-$1.txt"; }
d0=$(( $(irq_cpu after eth0-rx-0 0) - $(irq_cpu before eth0-rx-0 0) ))
d1=$(( $(irq_cpu after eth0-rx-0 1) - $(irq_cpu before eth0-rx-0 1) ))
check "eth0-rx-0 interrupts during the sweep went to CPU 0 (CPU0 +$d0, CPU1 +$d1)" test "$d0" -gt $((4 * d1))

# 5. threaded=1 shows its NAPI thread.
check "napi_thread_pct present on every threaded=1 point" \
	test "$(j '[.results[] | select(.knobs.threaded == 1) | select(.metrics.napi_thread_pct == null)] | length')" = 0
check "napi_thread_pct absent on threaded=0 points" \
	test "$(j '[.results[] | select(.knobs.threaded == 0) | select(.metrics.napi_thread_pct != null)] | length')" = 0

# 6. Metric parity with this host's kernel: the same tests on the veth test bed.
host_report=$tmp/host.json
"$NB_SRC/scripts/testbed" --name lab-veth --subnet 10.212.0 --port 5299 -- sh -c \
	'exec "$0" run -i "$NB_IFACE" --peer "$NB_PEER" "$@"' "${NB_BIN:-$NB_SRC/build/nicbench}" --tests tcp-rx,udp-rx \
	--rate 40M --duration 2 --omit 1 --settle 0 --repetitions 1 --knob threaded=0,1 -o "$host_report" \
	>"$tmp/host.log" 2>&1 || { tail -n 20 "$tmp/host.log"; fail "veth reference run on $(uname -r) failed"; }
if [ -f "$host_report" ]; then
	# Per test and threaded value: metrics of the host's point that the guest's points lack, unless the guest
	# point says why (trace_unavailable / trace_notes name what tracing could not give) or the guest's report does:
	# peer_proc_pct is the CPU of a peer on the same machine, found by its socket (peer.local), and the lab's peer
	# (nicbench serve in a namespace of the host) is outside the guest, so the guest finds none (peer.local.found
	# not true) and cannot have the metric.
	explained=$(jq -c 'if .peer.local.found == true then {} else
		{peer_proc_pct: "the peer runs on the lab host, outside the guest (peer.local: \(.peer.local.how // "not recorded"))"}
		end' "$report")
	missing=$(jq -rn --slurpfile h "$host_report" --slurpfile g "$report" --argjson why "$explained" '
		[ $h[0].results[] | select(.status == "ok") | . as $hp
		  | ($g[0].results[] | select(.test.name == $hp.test.name and .knobs.threaded == $hp.knobs.threaded)) as $gp
		  | ($hp.metrics | keys[]) as $m
		  | select($gp.metrics[$m] == null and $why[$m] == null
		      and (($gp.trace_unavailable // "") + ($gp.trace_notes // "") | contains($m) | not))
		  | "\($gp.id): \($m)" ] | unique | join("; ")')
	jq -r 'to_entries[] | "explained, absent on the guest: \(.key): \(.value)"' <<<"$explained"
	check "every metric of $(uname -r)'s veth points is on the 6.1 guest's points or explained${missing:+ (missing: $missing)}" \
		test -z "$missing"
fi
finish
