#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's layout table ("Layout: the data path, step by step") names the file of each step:
# every path in it must exist, a glob (src/cli/cmd_*.c) must match at least one file, so the map
# cannot drift from the tree after a move.
# usage: tests/docs/check_readme_map.sh [SOURCE_DIR]
set -eu
src=${1:-$(dirname "$0")/../..}
readme=$src/README.md
[ -r "$readme" ] || { echo "FAIL: cannot read $readme"; exit 1; }
# the table: the lines that start with '|' after the section's heading, up to the first other line
table=$(awk '/^## Layout: the data path/ { on = 1; next } on && /^\|/ { print; seen = 1; next } on && seen { exit }' "$readme")
[ -n "$table" ] || { echo "FAIL: no layout table under '## Layout: the data path' in $readme"; exit 1; }
# shellcheck disable=SC2016 # backquotes as text: the table marks paths with them
paths=$(printf '%s\n' "$table" | grep -o '`[^`]*`' | tr -d '`' | grep '/' || true)
[ -n "$paths" ] || { echo "FAIL: the layout table names no paths"; exit 1; }
failures=0 n=0
for p in $paths; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the glob is meant to expand
	set -- $src/$p
	if [ -e "$1" ]; then
		echo "ok: $p"
	else
		echo "FAIL: the README's layout table names $p, which is not in the tree"
		failures=$((failures + 1))
	fi
done
echo "$n paths, $failures missing"
[ "$failures" -eq 0 ]
