# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Helpers the benches on the veth test bed share (sourced by bench/aa-noise, bench/time-to-verdict,
# bench/ab-rounds, bench/ab-veth and the ab hook bench/lib/ab-hook-veth.sh): pooling reports, the
# peer-side rate limit, the gated flags of a compare.

# bed_merge OUT IN...: one report with the runs and metric values of all inputs, per point; the
# medians are dropped, compare takes them from the merged values. The result is no round of a
# set any more, so a "round" record of the first input is dropped too.
bed_merge() {
	local out=$1
	shift
	jq -s '.[0] + {results: ([.[].results[]] | group_by(.id) | map(.[0] + {
		status: (if all(.[]; .status == "ok") then "ok" else (map(select(.status != "ok")) | .[0].status) end),
		runs: [.[].runs[]?],
		metrics: ([.[].metrics | to_entries[]] | group_by(.key)
			| map({key: .[0].key, value: {values: [.[].value.values[]?]}}) | from_entries)}))} | del(.round)' \
		"$@" >"$out"
}

# bed_tbf_on NAME RATE_KBIT: a tbf at RATE_KBIT on the peer's egress of the test bed NAME
# (scripts/testbed --name NAME: namespace NAME-peer, veth NAME-p), which limits the tests where
# the peer sends (the rx tests). Burst: 10 ms at that rate, at least 64 KiB.
bed_tbf_on() {
	local name=$1 kbit=$2 burst
	burst=$((kbit * 1000 / 8 / 100))
	[ "$burst" -ge 65536 ] || burst=65536
	ip netns exec "$name-peer" tc qdisc replace dev "$name-p" root tbf rate "${kbit}kbit" burst "$burst" latency 50ms
}

bed_tbf_off() {
	ip netns exec "$1-peer" tc qdisc del dev "$1-p" root 2>/dev/null || true
}

# bed_median REPORT TEST: the median throughput (bit/s, whole) of REPORT's first point of TEST
bed_median() {
	jq -r --arg t "$2" '[.results[] | select(.test.name == $t) | .metrics.throughput_bps
		| .median // (.values | sort | if length == 0 then empty else .[length / 2 | floor] end)] | first // empty | floor' "$1"
}

# bed_flags COMPARE_JSON: the gated metrics that `nicbench compare -f json` called regressed or
# improved, as "POINT:METRIC:VERDICT" words on one line ("" when none)
bed_flags() {
	jq -r '[.points[]? | .id as $id | .metrics // {} | to_entries[]
		| select(.value.gated and (.value.verdict == "regressed" or .value.verdict == "improved"))
		| "\($id):\(.key):\(.value.verdict)"] | join(" ")' "$1"
}
