#!/bin/bash
# SPDX-License-Identifier: MIT
# Prove that `build` refuses a series with a corrupted patch and names that patch in its error.
# Usage: tests/broken-patch.sh [work dir]   (default: $NB_KERNEL_WORK or /var/tmp/nicbench-ravb)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${NB_KERNEL_WORK:-/var/tmp/nicbench-ravb}}
tmp=$(mktemp -d /tmp/nb-ravb-broken.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

cp -r "$here/patches" "$tmp/series"
mapfile -t patches < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$tmp/series/series")
[ ${#patches[@]} -ge 2 ] || { echo "broken-patch: need at least two patches in the series" >&2; exit 1; }

# Corrupt the second patch, so that the failure is not simply "the first patch": change the first context
# line of its first hunk, which git apply must then refuse (no fuzz).
victim=${patches[1]}
awk 'BEGIN {done = 0}
     /^@@ / {in_hunk = 1; print; next}
     in_hunk && !done && /^ ./ {print " nicbench-deliberately-broken" substr($0, 2); done = 1; next}
     {print}' "$here/patches/$victim" >"$tmp/series/$victim"
if cmp -s "$here/patches/$victim" "$tmp/series/$victim"; then
	echo "broken-patch: could not corrupt $victim" >&2
	exit 1
fi

rc=0
"$here/build" --series "$tmp/series" --work "$work" --apply-only --no-checkpatch --result "$tmp/result.json" \
	>"$tmp/stdout" 2>"$tmp/stderr" || rc=$?

fail() { echo "broken-patch: FAIL: $*" >&2; sed 's/^/  build: /' "$tmp/stderr" >&2; exit 1; }
[ "$rc" -ne 0 ] || fail "build accepted a series with a corrupted $victim"
grep -q "$victim does not apply" "$tmp/stderr" || fail "error message does not name $victim"
[ "$(jq -r .failed_patch "$tmp/result.json")" = "$victim" ] || fail "result JSON does not record $victim as failed"
[ "$(jq -r '.applied | length' "$tmp/result.json")" = 1 ] || fail "result JSON does not show exactly one patch applied"
echo "broken-patch: ok: build exited $rc and named $victim:"
grep "does not apply" "$tmp/stderr"
