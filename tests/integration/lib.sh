# Shared by the integration tests (sourced, not run): skips, checks and a re-exec of the
# test inside its own veth test bed (scripts/testbed), which removes itself on exit.

nb_require_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: needs root for network namespaces"
		exit 77
	fi
	for tool in ip iperf3 jq; do
		command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
	done
	: "${NB_BIN:?NB_BIN must point at the nicbench binary}"
	: "${NB_SRC:?NB_SRC must point at the source tree}"
}

# nb_in_testbed NAME SUBNET [testbed options] -- re-runs this script inside a test bed.
nb_in_testbed() {
	local name=$1 subnet=$2
	shift 2
	if [ -z "${NB_IFACE:-}" ]; then
		exec "$NB_SRC/scripts/testbed" --name "$name" --subnet "$subnet" "$@" -- bash "$0"
	fi
}

# nb_work_dir: $work, a temporary directory, and $run_pid, a nicbench run the test may start in
# the background; on exit the run is killed if it is still there and the directory removed.
nb_work_dir() {
	work=$(mktemp -d)
	run_pid=
	trap 'if [ -n "$run_pid" ]; then kill -9 "$run_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect WHAT ACTUAL WANTED
expect() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1 = $3"
}

# The value in effect. Since 6.13 the NAPI knobs live per NAPI and sysfs shows only the
# device-wide field, so they are read from the first NAPI with the independent napi-get
# client (tests/nb_napi_tool) where the kernel reports them, from sysfs otherwise.
knob() {
	local tool col value
	tool=$(dirname "$NB_BIN")/tests/nb_napi_tool
	case $1 in
	gro_flush_timeout) col=2 ;;
	napi_defer_hard_irqs) col=3 ;;
	threaded) col=5 ;;
	*) col= ;;
	esac
	if [ -n "$col" ] && [ -x "$tool" ]; then
		value=$("$tool" list "$NB_IFACE" 2>/dev/null | head -1 | cut -d' ' -f"$col")
		if [ -n "$value" ] && [ "$value" != - ]; then
			echo "$value"
			return
		fi
	fi
	cat "/sys/class/net/$NB_IFACE/$1"
}

validate_report() {
	/usr/bin/python3 - "$1" "$NB_SRC/schema/nicbench-report.schema.json" <<'PY' || fail "report $1 does not match the schema"
import json, sys
import jsonschema
report, schema = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(report)
PY
	echo "ok: $1 matches schema/nicbench-report.schema.json"
}

# nb_merge_reports OUT IN...: one report with the runs and metric values of all inputs, per
# point; the medians are dropped, compare takes the median of the merged values. Reports made
# one repetition at a time, alternating between two sides, share the machine's drift.
nb_merge_reports() {
	local out=$1
	shift
	jq -s '.[0] + {results: ([.[].results[]] | group_by(.id) | map(.[0] + {
		status: (if all(.[]; .status == "ok") then "ok" else (map(select(.status != "ok")) | .[0].status) end),
		runs: [.[].runs[]?],
		metrics: ([.[].metrics | to_entries[]] | group_by(.key)
			| map({key: .[0].key, value: {values: [.[].value.values[]?]}}) | from_entries)}))}' \
		"$@" >"$out"
}
