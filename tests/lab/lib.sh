# Shared by the lab tests (sourced, not run): the skips that say why qemu cannot run here, and checks.
# The sourcing test sets tmp (its scratch directory) first.
# shellcheck shell=bash

lab_require() {
	skip() { echo "SKIP: $*"; exit 77; }
	[ "$(id -u)" -eq 0 ] || skip "needs root (network namespace, tap device for the guest)"
	local tool
	for tool in qemu-system-x86_64 busybox jq ip xz; do
		command -v "$tool" >/dev/null || skip "$tool not installed (scripts/install-deps installs the lab's packages)"
	done
	[ -c /dev/net/tun ] || skip "no /dev/net/tun: the guest's tap device cannot be made"
	: "${NB_SRC:?NB_SRC must point at the source tree}"
	# A machine that cannot download the kernel once is missing a tool, not broken: skip, as cross-build's tests do.
	local k rc
	for k in "$@"; do
		"$NB_SRC/scripts/lab" fetch "$k" >/dev/null 2>"$tmp/fetch-$k.log"
		rc=$?
		if [ $rc -eq 4 ]; then
			cat "$tmp/fetch-$k.log"
			skip "kernel $k could not be fetched (no Debian mirror reachable?)"
		fi
		[ $rc -eq 0 ] || { cat "$tmp/fetch-$k.log"; echo "FAIL: scripts/lab fetch $k exited $rc"; exit 1; }
	done
}

# lab_require_arch ARCH QEMU K...: lab_require, then the guest architecture's qemu and its kernels K (skips as
# lab_require does: no qemu or no kernel to be had is a missing tool, a fetch that fails otherwise is a failure).
lab_require_arch() {
	local arch=$1 qemu=$2 k rc
	shift 2
	lab_require
	command -v "$qemu" >/dev/null || skip "$qemu not installed (scripts/install-deps --boards)"
	for k in "$@"; do
		"$NB_SRC/scripts/lab" fetch --arch "$arch" "$k" >/dev/null 2>"$tmp/fetch.log"
		rc=$?
		[ $rc -eq 4 ] && { cat "$tmp/fetch.log"; skip "$arch kernel $k could not be fetched"; }
		[ $rc -eq 0 ] || { cat "$tmp/fetch.log"; echo "FAIL: scripts/lab fetch --arch $arch $k exited $rc"; exit 1; }
	done
}

failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect WHAT GOT WANT: one value checked, printed either way
expect() { if [ "$2" = "$3" ]; then pass "$1 = $3"; else fail "$1: got '$2', want '$3'"; fi; }
# stop WHY: a failure after which the test cannot go on
stop() { fail "$*"; finish; }
# The planted stacks build from Debian's linux-source-6.1.
lab_require_kernel_source() {
	[ -f /usr/src/linux-source-6.1.tar.xz ] || skip "no /usr/src/linux-source-6.1.tar.xz (scripts/install-deps --kernel)"
}
# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}

validate_report() {
	python3 - "$1" "$NB_SRC/schema/nicbench-report.schema.json" <<'PY'
import json, sys
import jsonschema
report, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(report)
PY
}

# The retry rule of the lab tests, held here once. A guest kernel's crash or hang is the guest's fault, not
# nicbench's: a TCG guest of 6.12 panicked in interrupt context about once in five boots here; a 6.1 guest once
# stalled on both vCPUs ("watchdog: BUG: soft lockup"), and one 6.1 guest hung silently until the lab's deadline
# (exit 5: the guest did not finish). Such a run is tried once more; a second failure counts.
lab_crash_re='BUG:|Oops|Kernel panic'

# lab_guest_failed RC CONSOLE...: true when a lab run that exited RC is to be retried: the guest did not finish
# (RC 5) or one of the CONSOLE logs shows a crash. Prints what happened (the crash's own lines) either way.
lab_guest_failed() {
	local rc=$1 console failed=1
	shift
	for console in "$@"; do
		grep -Eq "$lab_crash_re" "$console" 2>/dev/null || continue
		echo "the guest kernel crashed ($console):"
		grep -E -A40 -m1 "$lab_crash_re|general protection|WARNING:" "$console" | head -n 50
		failed=0
	done
	if [ "$rc" -eq 5 ]; then
		echo "the guest did not finish (lab exit 5)"
		failed=0
	fi
	return $failed
}

# lab_run_retrying LOG ART ARGS...: `scripts/lab run --artifacts ART ARGS`, its output in LOG, once more when
# lab_guest_failed says so. Prints the lab's own lines; sets lab_rc.
lab_run_retrying() {
	local log=$1 art=$2 attempt
	shift 2
	for attempt in 1 2; do
		rm -rf "$art"
		"$NB_SRC/scripts/lab" run --artifacts "$art" "$@" >"$log" 2>&1
		lab_rc=$?
		echo "attempt $attempt: scripts/lab run exited $lab_rc"
		lab_guest_failed "$lab_rc" "$art/console.log" || break
		[ "$attempt" = 1 ] && grep '^lab: ' "$log"
	done
	grep '^lab: ' "$log"
	[ "$lab_rc" -eq 0 ] || tail -n 30 "$log"
}

# check_virtio_qstats LABEL REPORT: the qstats deltas of a tcp-rx sweep on virtio-net. Every run has them, with
# rx_packets > 0 (also as the point's metric); QEMU's virtio-net offers no device statistics
# (VIRTIO_NET_F_DEVICE_STATS), so the hardware counters are not given: absent, never 0.
check_virtio_qstats() {
	local label=$1 report=$2 hw
	check "$label: qstats present on every run ($(jq -r '.results[0].runs[0].qstats.unavailable // "present"' "$report"))" \
		test "$(jq '[.results[].runs[] | select(.qstats.queues == null)] | length' "$report")" = 0
	check "$label: qstats rx_packets delta > 0 on every tcp-rx run" \
		test "$(jq '[.results[].runs[] | select((.qstats.total.rx_packets // 0) <= 0)] | length' "$report")" = 0
	check "$label: qstats_rx_packets metric > 0 on every point" \
		test "$(jq '[.results[] | select((.metrics.qstats_rx_packets.median // 0) <= 0)] | length' "$report")" = 0
	hw=$(jq -r '[.results[].runs[].qstats | (.total, .queues[]) | keys[] | select(startswith("rx_hw_") or
		startswith("tx_hw_"))] | unique | join(",")' "$report")
	check "$label: hardware counters absent, not 0 (${hw:-none})" test -z "$hw"
	echo "$label: qstats total of the first run: $(jq -c '.results[0].runs[0].qstats.total' "$report")"
}

# round_report DIR SIDE I: the report under DIR (nicbench ab's --work: it names the files) of round I of SIDE, by
# the round each report carries; nothing when there is none.
round_report() {
	local f
	while IFS= read -r f; do
		[ "$(jq -r '.round? | "\(.side):\(.index)"' "$f" 2>/dev/null)" = "$2:$3" ] && { echo "$f"; return 0; }
	done < <(find "$1" -name '*.json' 2>/dev/null | sort)
	return 1
}

# round_count DIR SIDE: how many reports under DIR are rounds of SIDE.
round_count() {
	find "$1" -name '*.json' -print0 2>/dev/null | xargs -0 -r jq -r '.round?.side // empty' 2>/dev/null | grep -cx "$2"
}
