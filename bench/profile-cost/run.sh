#!/bin/bash
# SPDX-License-Identifier: MIT
# What the profile's call chains cost, on the veth test bed: nicbench runs tcp-rx (one measured
# repetition, then the diagnostic one that carries tracepoints and the profile) in three modes,
#   flat:    the profile without call chains (--no-profile-stacks)
#   chains:  the profile with kernel call chains folded into stacks (the default)
#   none:    tracepoints only (--no-profile)
# in rounds whose order rotates (flat chains none, chains none flat, none flat chains, ...: a
# drift weighs on every mode alike). From each diagnostic repetition it takes the throughput and
# nicbench's own CPU (nicbench_cpu_ms_per_s, which includes draining and folding the samples),
# and prints the median over rounds of the ratios chains/flat and chains/none, beside the
# measured repetition's chains/flat ratio as the noise of one run against another here.
# usage: sudo bench/profile-cost/run.sh [ROUNDS (default 6)] [SECONDS per run (default 4)]
# env: NB_BENCH_TEST (default tcp-rx)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${NB_BIN:-$here/build/nicbench}
if [ -z "${NB_IFACE:-}" ]; then
	[ -x "$bin" ] || { echo "profile-cost: build nicbench first (cmake -S . -B build && cmake --build build)" >&2; exit 2; }
	exec "$here/scripts/testbed" --name nbpcost --subnet 10.200.63 -- env NB_BIN="$bin" bash "$0" "$@"
fi
rounds=${1:-6}
secs=${2:-4}
test=${NB_BENCH_TEST:-tcp-rx}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { print $* }"; }

modes=(flat chains none)
declare -A args=([flat]=--no-profile-stacks [chains]= [none]=--no-profile)
echo "== profile cost on $NB_IFACE: $test, $rounds rounds of 3 runs of ${secs} s (order rotating)"
for i in $(seq "$rounds"); do
	for k in 0 1 2; do
		m=${modes[$(( (i + k) % 3 ))]}
		# shellcheck disable=SC2086 # an empty mode adds no argument
		"$bin" run -i "$NB_IFACE" --peer "$NB_PEER" --tests "$test" --duration "$secs" --omit 1 --repetitions 1 \
			--settle 0.3 --idle-check 0 ${args[$m]} -o "$work/$m$i.json" --journal "$work/journal" >/dev/null 2>&1
		sleep 0.3
	done
	for m in "${modes[@]}"; do
		jq -r --arg m "$m" '.results[0] | "\($m) \(.diagnostics.metrics.throughput_bps // "nan")" +
			" \(.diagnostics.metrics.nicbench_cpu_ms_per_s // "nan") \(.metrics.throughput_bps.median // "nan")" +
			" \(.profile_stacks.samples // 0) \(.profile_stacks.stacks // 0)"' "$work/$m$i.json"
	done >"$work/round$i"
	printf '  round %d:' "$i"
	while read -r m bps cpu meas samples stacks; do
		printf '  %s %.2f Gbit/s %.2f ms/s' "$m" "$(calc "$bps / 1e9")" "$cpu"
		[ "$m" = chains ] && printf ' (%s samples, %s stacks)' "$samples" "$stacks"
	done <"$work/round$i"
	echo
	get() { awk -v m="$1" -v c="$2" '$1 == m { print $c }' "$work/round$i"; }
	calc "$(get chains 2) / $(get flat 2)" >>"$work/tput_flat"
	calc "$(get chains 2) / $(get none 2)" >>"$work/tput_none"
	calc "$(get chains 3) / $(get flat 3)" >>"$work/cpu_flat"
	calc "$(get chains 3) / $(get none 3)" >>"$work/cpu_none"
	calc "$(get chains 4) / $(get flat 4)" >>"$work/meas"
done
range() { sort -g "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f..%.3f", lo, hi }'; }
printf 'throughput, diagnostic repetition: chains/flat %.3f (%s)  chains/no profile %.3f (%s)\n' \
	"$(median <"$work/tput_flat")" "$(range "$work/tput_flat")" "$(median <"$work/tput_none")" "$(range "$work/tput_none")"
printf "nicbench's own CPU, diagnostic repetition: chains/flat %.2f (%s)  chains/no profile %.2f (%s)\n" \
	"$(median <"$work/cpu_flat")" "$(range "$work/cpu_flat")" "$(median <"$work/cpu_none")" "$(range "$work/cpu_none")"
printf 'noise: measured repetitions (no tracing in any mode), chains-run/flat-run %.3f (%s)\n' \
	"$(median <"$work/meas")" "$(range "$work/meas")"
