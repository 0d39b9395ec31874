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

failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
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
