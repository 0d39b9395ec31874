#!/bin/bash
# SPDX-License-Identifier: MIT
# Prove that `build` fails on a warning the unpatched tree does not have: the series plus
# tests/new-warning.patch (an unused function with an unused variable) must be refused for that reason.
# Usage: tests/new-warning.sh [work dir]   (default: $NB_KERNEL_WORK or /var/tmp/nicbench-ravb)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${1:-${NB_KERNEL_WORK:-/var/tmp/nicbench-ravb}}
tmp=$(mktemp -d /tmp/nb-ravb-warn.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

cp -r "$here/patches" "$tmp/series"
cp "$here/tests/new-warning.patch" "$tmp/series/9999-new-warning.patch"
echo "9999-new-warning.patch" >>"$tmp/series/series"

rc=0
"$here/build" --series "$tmp/series" --work "$work" --arch arm64 --no-bisect --no-sparse --no-checkpatch \
	--no-kconfig-check --result "$tmp/result.json" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?

fail() { echo "new-warning: FAIL: $*" >&2; tail -n 20 "$tmp/stderr" | sed 's/^/  build: /' >&2; exit 1; }
[ "$rc" -ne 0 ] || fail "build passed although the last patch adds warnings"
new=$(jq -r '.arch.arm64.w1_new_warnings[]?' "$tmp/result.json")
grep -q 'ravb_main.c: warning: unused variable' <<<"$new" || fail "the unused variable is not among the new W=1 warnings"
grep -q 'ravb_main.c: warning: .*defined but not used' <<<"$new" || fail "the unused function is not among the new W=1 warnings"
echo "new-warning: ok: build exited $rc; new W=1 warnings reported:"
while IFS= read -r line; do echo "  $line"; done <<<"$new"
