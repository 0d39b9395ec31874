#!/bin/bash
# SPDX-License-Identifier: MIT
# Keeps the house of src/ (README, "Layout"): include arrows run down the pipeline, headers form no
# cycle, and no source file grows past 900 lines. Fails with one line per offence,
# "file -> header: why it's wrong", so a new back-arrow is caught by the unit tests.
#
# Which way is "down":
#   kit/                      the bottom: includes nothing but kit/.
#   sampling/ knobs/ traffic/ the measurement stages' helpers: kit/, their own folder and each other
#                             (sampling/ finds an interface's IRQs through knobs/), never a spine
#                             header at src/ (*.h there: config.h, cpu_sampler.h, ...) and never a
#                             later stage's folder. A type they share lives in the folder that owns it.
#   result/                   the result step's helpers (the bottleneck rules): like the measurement
#                             folders, kit/ and itself only below it, no spine header, no later stage.
#   report/ compare/          after the run: they read what the earlier stages left (config.h, plan.h,
#                             result.h, run_record.h, the knob table, ...), but not report.h, the
#                             spine of report/ itself, nor runner.h, which drives the run and
#                             includes report.h; never cli/.
#   history/                  as report/ and compare/: it reads reports through compare/'s loader
#                             and keeps them over commits; never render/ or cli/.
#   render/                   the same rules, one step later: it shows what report/, compare/ and
#                             history/ make, so they never include it.
#   the spine at src/         any measurement folder and kit/; report/ and compare/ only from
#                             report.* and runner.* (result.h once took its bottleneck type from
#                             report/: a point's result comes before its report); never cli/.
#   cli/                      free to include anything; only the cycle and size rules apply.
# usage: tests/docs/check_includes.sh [SOURCE_DIR]
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
src=$root/src
[ -d "$src" ] || { echo "FAIL: no $src"; exit 1; }

# Arrows that break the rule today, each with who removes it. Drop a line when its arrow is gone
# (the check then says so).
allowed_arrows() {
	cat <<'EOF'
EOF
}

# Files over the line limit today, each being split. Drop a line when its file is under the limit.
max_lines=900
allowed_big() {
	cat <<'EOF'
EOF
}

declare -A allowed_arrow allowed_big_file seen_arrow
while IFS= read -r entry; do allowed_arrow[$entry]=1; done < <(allowed_arrows | grep -v '^#')
while IFS= read -r entry; do allowed_big_file[$entry]=1; done < <(allowed_big | grep -v '^#')

# What `#include "name"` in file means: the file's own directory first, then src/ (the include
# path of nicbench_core). Sets target, empty when neither holds it (a test's or a generated header).
resolve() {
	local dir=${1%/*} name=$2
	target=
	if [ -f "$root/$dir/$name" ]; then
		target=$dir/$name
	elif [ -f "$src/$name" ]; then
		target=src/$name
	fi
}

# The stage folder of a path under src/ (kit, sampling, ...), or "spine" for a file directly in src/.
folder_of() {
	local rel=${1#src/}
	case $rel in
	*/*) folder=${rel%%/*} ;;
	*) folder=spine ;;
	esac
}

# Why FILE (a path under src/) must not include TARGET; sets why, empty when it may.
why_wrong() {
	local from to base=${2##*/}
	folder_of "$1"
	from=$folder
	folder_of "$2"
	to=$folder
	why=
	case $from in
	kit)
		[ "$to" = kit ] || why="kit/ is the bottom of the tree: it includes nothing above kit/"
		;;
	sampling | knobs | traffic | result)
		case $to in
		spine) why="$base is the spine above the stage folders: the type $from/ needs belongs in the folder that owns it (here, or kit/), and $base includes that" ;;
		report | compare | history | render | cli) why="$to/ comes after $from/ in the pipeline: a measurement helper knows nothing of what reads its results" ;;
		esac
		;;
	report | compare | history | render)
		case $to in
		cli) why="cli/ is the top: the commands include the stages, not the other way" ;;
		render) [ "$from" = render ] || why="render/ shows what $from/ makes: $from/ knows nothing of how it is shown" ;;
		history) [ "$from" = history ] || [ "$from" = render ] || why="history/ reads what $from/ makes, later in the pipeline: $from/ knows nothing of it" ;;
		spine)
			case $base in
			report.h) why="report.h is the spine of report/: what its helpers share belongs in report/, and report.h includes it" ;;
			runner.h) why="runner.h drives the run and includes report.h: report/ and compare/ read the run's record (result.h, run_record.h), not its driver" ;;
			esac
			;;
		esac
		;;
	spine)
		local stem=${1##*/}
		stem=${stem%.*}
		case $to in
		cli) why="cli/ is the top: the commands include the stages, not the other way" ;;
		report | compare | render)
			case $stem in
			report | runner) ;;
			*) why="$to/ reads what $stem.${1##*.} makes, later in the pipeline: what both need belongs on $stem's side" ;;
			esac
			;;
		esac
		;;
	esac
}

failures=0 notes=0 arrows=0
fail() {
	echo "$1"
	failures=$((failures + 1))
}

mapfile -t files < <(cd "$root" && find src -name '*.[ch]' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAIL: no sources under $src"; exit 1; }

# every quoted include of every file, one grep: "file:#include \"name\""
declare -A edges
while IFS= read -r hit; do
	f=${hit%%:*}
	name=${hit#*\"}
	name=${name%%\"*}
	resolve "$f" "$name"
	[ -n "$target" ] || continue
	arrows=$((arrows + 1))
	case $f in *.h) edges[$f]+="$target " ;; esac
	why_wrong "$f" "$target"
	[ -n "$why" ] || continue
	if [ -n "${allowed_arrow["$f -> $target"]:-}" ]; then
		seen_arrow["$f -> $target"]=1
		continue
	fi
	fail "$f -> ${target#src/}: $why"
done < <(cd "$root" && grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}")

# An include cycle among headers: the guard hides it until one of them needs the other's type
# and the order of includes decides whether it compiles. Reported at the include that closes it.
declare -A state
cycle_path=()
visit() {
	local h=$1 next
	state[$h]=open
	cycle_path+=("$h")
	for next in ${edges[$h]:-}; do
		case ${state[$next]:-} in
		open)
			local ring="" i start=0
			for i in "${!cycle_path[@]}"; do
				[ "${cycle_path[$i]}" = "$next" ] && start=$i
			done
			for i in "${cycle_path[@]:$start}"; do ring+="${i#src/} -> "; done
			fail "$h -> ${next#src/}: closes an include cycle (${ring}${next#src/}): one of them must stop needing the other"
			;;
		closed) ;;
		*) visit "$next" ;;
		esac
	done
	unset 'cycle_path[${#cycle_path[@]}-1]'
	state[$h]=closed
}
for f in "${files[@]}"; do
	case $f in *.h) [ -n "${state[$f]:-}" ] || visit "$f" ;; esac
done

while read -r n f; do
	[ "$f" = total ] && continue
	if [ "$n" -gt "$max_lines" ]; then
		[ -n "${allowed_big_file[$f]:-}" ] || fail "$f: $n lines, over $max_lines: split it by concern (one file a concern, README's layout map)"
	elif [ -n "${allowed_big_file[$f]:-}" ]; then
		echo "note: $f has $n lines now: drop it from the allowed big files"
		notes=$((notes + 1))
	fi
done < <(cd "$root" && wc -l "${files[@]}")
for entry in "${!allowed_arrow[@]}"; do
	[ -n "${seen_arrow[$entry]:-}" ] && continue
	echo "note: the allowed arrow '$entry' is gone: drop it from the list"
	notes=$((notes + 1))
done

echo "${#files[@]} files, $arrows include arrows, $failures wrong, $notes notes"
[ "$failures" -eq 0 ]
