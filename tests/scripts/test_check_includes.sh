#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/docs/check_includes.sh on small fake trees: a clean one passes, and each rule (kit/ at the
# bottom, stage folders below the spine, report/ not on report.h, the spine not on a later stage,
# include cycles, the line limit) fails with its own "file -> header: why" line.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
check_includes=$NB_SRC/tests/docs/check_includes.sh
tmp=$(mktemp -d /tmp/nb-includes-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0

# tree NAME: a tiny clean tree under $tmp/NAME (a spine, kit/, sampling/, report/, cli/)
tree() {
	t=$tmp/$1
	mkdir -p "$t/src/kit" "$t/src/sampling" "$t/src/report" "$t/src/cli"
	printf '#include "kit/nb_error.h"\n' >"$t/src/kit/nb_paths.h"
	printf '/* errors */\n' >"$t/src/kit/nb_error.h"
	printf '#include "kit/nb_paths.h"\n#include "sampling/snap_types.h"\n' >"$t/src/sampler.h"
	printf '#include "kit/nb_error.h"\n' >"$t/src/sampling/snap_types.h"
	printf '#include "sampler.h"\n' >"$t/src/result.h"
	printf '#include "result.h"\n#include "report/render.h"\n' >"$t/src/report.h"
	printf '#include "result.h"\n' >"$t/src/report/render.h"
	printf '#include "report.h"\n#include "sampler.h"\n' >"$t/src/cli/main.c"
}

# expect NAME WANT: the check on tree NAME exits 0 (WANT "pass") or prints a line holding WANT
# and exits 1.
expect() {
	local out rc=0
	out=$(bash "$check_includes" "$tmp/$1" 2>&1) || rc=$?
	if [ "$2" = pass ]; then
		[ "$rc" = 0 ] && echo "ok: $1 passes" && return
	elif [ "$rc" = 1 ] && grep -qF -- "$2" <<<"$out"; then
		echo "ok: $1 fails with '$2'"
		return
	fi
	echo "FAIL: $1: exit $rc, wanted $2; output:"
	echo "$out"
	failures=$((failures + 1))
}

tree clean
expect clean pass

tree kit_up
printf '#include "sampler.h"\n' >>"$t/src/kit/nb_error.h"
expect kit_up "src/kit/nb_error.h -> sampler.h: kit/ is the bottom"

tree stage_up
printf '#include "sampler.h"\n' >>"$t/src/sampling/snap_types.h"
expect stage_up "src/sampling/snap_types.h -> sampler.h: sampler.h is the spine above the stage folders"

tree stage_later
printf '#include "report/render.h"\n' >"$t/src/sampling/peek.c"
expect stage_later "src/sampling/peek.c -> report/render.h: report/ comes after sampling/"

tree own_spine
printf '#include "report.h"\n' >"$t/src/report/table.c"
expect own_spine "src/report/table.c -> report.h: report.h is the spine of report/"

tree spine_later
printf '#include "report/render.h"\n' >>"$t/src/result.h"
expect spine_later "src/result.h -> report/render.h: report/ reads what result.h makes"

tree cycle
printf '#include "kit/nb_paths.h"\n' >>"$t/src/kit/nb_error.h"
expect cycle "closes an include cycle (kit/nb_error.h -> kit/nb_paths.h -> kit/nb_error.h)"

tree big
seq 901 >"$t/src/sampling/long.c"
expect big "src/sampling/long.c: 901 lines, over 900"

[ "$failures" -eq 0 ] && echo "all cases ok"
[ "$failures" -eq 0 ]
