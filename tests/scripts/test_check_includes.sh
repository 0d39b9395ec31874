#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/docs/check_includes.sh on small fake trees: a clean one passes, and each rule fails with its own
# "file -> target: why" line: an include up (kit/ on a stage, a stage's helper on its front door),
# an include across two rooms of one rank, an include cycle, the line limit, a file in no room, and a
# call up that no include shows (a prototype copied into a lower file), read from the compiled objects.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
check_includes=$NB_SRC/tests/docs/check_includes.sh
tmp=$(mktemp -d /tmp/nb-includes-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failures=0
cc=${CC:-cc}

# tree NAME: a tiny clean tree under $tmp/NAME: kit/, sampling/ and its front door, report/, cli/
tree() {
	t=$tmp/$1
	mkdir -p "$t/src/kit" "$t/src/sampling" "$t/src/report" "$t/src/cli" "$t/obj"
	printf '#include "kit/nb_error.h"\n' >"$t/src/kit/nb_paths.h"
	printf 'int nb_err(void);\n' >"$t/src/kit/nb_error.h"
	printf '#include "kit/nb_error.h"\nint nb_err(void) { return 0; }\n' >"$t/src/kit/nb_error.c"
	printf '#include "kit/nb_paths.h"\nint snap_take(void);\n' >"$t/src/sampling/snap.h"
	printf '#include "sampling/snap.h"\nint snap_take(void) { return nb_err(); }\n' >"$t/src/sampling/snap.c"
	printf '#include "sampling/snap.h"\nint sampler_run(void);\n' >"$t/src/cpu_sampler.h"
	printf '#include "cpu_sampler.h"\nint sampler_run(void) { return snap_take(); }\n' >"$t/src/cpu_sampler.c"
	printf '#include "cpu_sampler.h"\nint report_write(void);\n' >"$t/src/report/report.h"
	printf '#include "report/report.h"\nint report_write(void) { return sampler_run(); }\n' >"$t/src/report/report.c"
	printf '#include "report/report.h"\nint main(void) { return report_write(); }\n' >"$t/src/cli/main.c"
}

# build: compile every .c of the tree into obj/ as CMake lays out nicbench_core's objects
build() {
	local c o
	for c in $(cd "$t" && find src -name '*.c'); do
		o=$t/obj/$c.o
		mkdir -p "${o%/*}"
		"$cc" -c -I"$t/src" "$t/$c" -o "$o" || return 1
	done
}

# expect NAME WANT [objects]: the check on tree NAME exits 0 (WANT "pass") or prints a line holding
# WANT and exits 1. With "objects", the tree is compiled and its calls are checked too (the include
# cases plant cycles and arrows a compiler need not survive, so they are read as text only).
expect() {
	local out rc=0 objs=
	if [ "${3:-}" = objects ]; then
		build || { echo "FAIL: $1: the fake tree does not compile"; failures=$((failures + 1)); return; }
		objs=$tmp/$1/obj
	fi
	out=$(bash "$check_includes" "$tmp/$1" $objs 2>&1) || rc=$?
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
expect clean pass objects

tree kit_up
printf '#include "sampling/snap.h"\n' >>"$t/src/kit/nb_error.h"
expect kit_up "src/kit/nb_error.h -> sampling/snap.h: include up: sampling/ (rank 2) is above kit/"

tree door_up
printf '#include "cpu_sampler.h"\n' >>"$t/src/sampling/snap.h"
expect door_up "src/sampling/snap.h -> cpu_sampler.h: include up into the front door"

tree across
mkdir -p "$t/src/knobs"
printf '#include "sampling/snap.h"\n' >"$t/src/knobs/row.h"
expect across "src/knobs/row.h -> sampling/snap.h: include across"

tree cycle
printf '#include "kit/nb_paths.h"\n' >>"$t/src/kit/nb_error.h"
expect cycle "closes an include cycle (kit/nb_paths.h -> kit/nb_error.h -> kit/nb_paths.h)"

tree big
seq 901 | sed 's/^/\/\/ /' >"$t/src/sampling/long.c"
expect big "src/sampling/long.c: 901 lines, over 900"

tree homeless
mkdir -p "$t/src/misc"
printf 'int misc(void);\n' >"$t/src/misc/misc.h"
expect homeless "src/misc/misc.h: in no room of the house"

# The planted call up: snap.c calls report_write() through a prototype of its own, so no include
# shows the arrow; only the object's undefined symbol does.
tree call_up
printf 'int report_write(void);\nint snap_peek(void) { return report_write(); }\n' >>"$t/src/sampling/snap.c"
expect call_up "src/sampling/snap.c -> report/report.c (report_write): call up: report/ (rank 6) is above sampling/" objects

tree call_door
printf 'int sampler_run(void);\nint snap_again(void) { return sampler_run(); }\n' >>"$t/src/sampling/snap.c"
expect call_door "src/sampling/snap.c -> cpu_sampler.c (sampler_run): call up into the front door" objects

[ "$failures" -eq 0 ] && echo "all cases ok"
[ "$failures" -eq 0 ]
