#!/bin/bash
# SPDX-License-Identifier: MIT
# `scripts/lab ab 6.1 6.12` on a tiny matrix: both Debian kernels boot with e1000e, each writes its report, every
# point of one is matched in the other, compare prints a verdict per point and exits 0 or 1 (never 2: input error).
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-lab-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lab/lib.sh
. "$NB_SRC/tests/lab/lib.sh"
lab_require 6.1 6.12

# A guest that crashed or did not finish: once more (lib.sh's rule, lab_guest_failed).
for attempt in 1 2; do
	rm -rf "$tmp/art" "$tmp/reports"
	NB_LAB_REPORTS=$tmp/reports "$NB_SRC/scripts/lab" ab 6.1 6.12 --cpus 2 --artifacts "$tmp/art" -- \
		--tests tcp-rx,udp-tx --rate 100M --knob threaded=0,1 --duration 2 --omit 1 --settle 0 --repetitions 3 \
		>"$tmp/ab.out" 2>"$tmp/ab.err"
	rc=$?
	grep '^lab: ' "$tmp/ab.err"
	echo "== attempt $attempt: scripts/lab ab exited $rc"
	lab_guest_failed "$rc" "$tmp/art/6.1/console.log" "$tmp/art/6.12/console.log" || break
	[ "$attempt" = 1 ] && echo "== running the ab matrix once more"
done
cat "$tmp/ab.out"
check "scripts/lab ab exited 0 or 1 (compare's verdict), not $rc" test "$rc" -eq 0 -o "$rc" -eq 1
a=$tmp/reports/lab-6.1.json b=$tmp/reports/lab-6.12.json
for r in "$a" "$b"; do
	[ -f "$r" ] || { fail "no report $r"; continue; }
	check "$(basename "$r") matches the schema" validate_report "$r"
	check "$(basename "$r"): driver e1000e, lab record present" \
		test "$(jq -r '[.interface.driver, .lab.nic] | join(",")' "$r")" = "e1000e,e1000e"
	check "$(basename "$r"): every point ok" test "$(jq '[.results[] | select(.status != "ok")] | length' "$r")" = 0
done
if [ ! -f "$a" ] || [ ! -f "$b" ]; then
	finish
fi
ra=$(jq -r .host.kernel.release "$a") rb=$(jq -r .host.kernel.release "$b")
check "two different kernels ($ra, $rb)" test "${ra%%.*}.${ra#*.}" != "$rb" -a "${ra#6.1.}" != "$ra" -a "${rb#6.12.}" != "$rb"
ids_a=$(jq -r '[.results[].id] | sort | join(" ")' "$a")
ids_b=$(jq -r '[.results[].id] | sort | join(" ")' "$b")
check "the same 4 point ids on both kernels" test "$ids_a" = "$ids_b" -a "$(wc -w <<<"$ids_a")" -eq 4
# The same metrics on both kernels, or the point says why one is absent (trace_unavailable / trace_notes).
for pair in "$a|$b" "$b|$a"; do
	set -- "${pair%|*}" "${pair#*|}"
	missing=$(jq -rn --slurpfile x "$1" --slurpfile y "$2" '
		[ $x[0].results[] | select(.status == "ok") | . as $xp | ($y[0].results[] | select(.id == $xp.id)) as $yp
		  | ($xp.metrics | keys[]) as $m
		  | select($yp.metrics[$m] == null and (($yp.trace_unavailable // "") + ($yp.trace_notes // "") | contains($m) | not))
		  | "\($yp.id): \($m)" ] | unique | join("; ")')
	check "every metric of $(basename "$1") is in $(basename "$2") or explained${missing:+ (missing: $missing)}" test -z "$missing"
done
# The JSON rendering of the same compare: every point matched (no new/missing) and each has a verdict.
"${NB_BIN:-$NB_SRC/build/nicbench}" compare "$a" "$b" --format json >"$tmp/compare.json"
crc=$?
check "compare --format json exited $crc (0 or 1)" test "$crc" -le 1
if jq -e .points "$tmp/compare.json" >/dev/null 2>&1; then
	unmatched=$(jq -r '[.points[] | select(.verdict | IN("new", "missing")) | .id] | join(" ")' "$tmp/compare.json")
	check "every point matched${unmatched:+ (unmatched: $unmatched)}" test -z "$unmatched"
	check "compare gave the 4 points a verdict each ($(jq -r '[.points[] | "\(.id)=\(.verdict)"] | join(" ")' "$tmp/compare.json"))" \
		test "$(jq '[.points[] | select((.verdict // "") != "")] | length' "$tmp/compare.json")" = 4
else
	fail "compare --format json gave no points: $(head -c 300 "$tmp/compare.json")"
fi
# The text that scripts/lab printed names every point.
for id in $ids_a; do
	check "scripts/lab ab printed point $id" grep -qF "$id" "$tmp/ab.out"
done
finish
