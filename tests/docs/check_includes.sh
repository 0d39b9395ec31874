#!/bin/bash
# SPDX-License-Identifier: MIT
# Keeps the house of src/ (README, "Layout"): every file sits in a room, the rooms stand in one
# order, and both its #includes and its calls run down that order. Headers form no cycle and no
# source file grows past 900 lines. Fails with one line per offence, "file -> target: why".
#
# The rooms, bottom first (a room may include and call its own files and any lower room's, never
# a higher room's, and never another room of the same rank):
#   0 kit/        errors, paths, printing, time, statistics, the metric table
#   1 nic/        the NIC's own interfaces: generic netlink, IRQ discovery, MTU, qstats, page_pool
#   2 knobs/ sampling/ traffic/     each stage's helpers
#   3 napi_knobs.c cpu_sampler.c iperf_driver.c   each stage's front door, above its folder
#   4 config/     settings, config files, the plan of points
#   5 result/     a point's result and its pure summary, the bottleneck rules, adaptive precision
#   6 report/     the report, its record and its JSON
#   7 run/        the sweep's parts: repetitions, rounds, MTU points, the stop flag
#   8 runner.c    the run's front door
#   9 compare/ submit/     verdicts over reports; sending a report out
#  10 history/    reports kept over commits, their series and change points (read through compare/)
#  11 render/     every output format (of reports, verdicts and histories)
#  12 experiment/ experiments that boot, run and judge (ab, bisect)
#  13 cli/        the commands
# Calls are read from the objects (nm): with OBJECT_DIR, every symbol an object leaves undefined
# and another object of nicbench_core defines is an arrow like an include, so a call up that no
# header shows (a prototype copied into a lower file) fails too.
# usage: tests/docs/check_includes.sh [SOURCE_DIR [OBJECT_DIR]]
#   OBJECT_DIR: nicbench_core's objects (BUILD/CMakeFiles/nicbench_core.dir); without it, includes only
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
objdir=${2:-}
src=$root/src
[ -d "$src" ] || { echo "FAIL: no $src"; exit 1; }

# Arrows that break the rule today, each with who removes it: "file -> target". Empty.
allowed_arrows() {
	cat <<'EOF'
EOF
}

# Files over the line limit today, each being split. Empty.
max_lines=900
allowed_big() {
	cat <<'EOF'
EOF
}

declare -A allowed_arrow allowed_big_file seen_arrow
while IFS= read -r entry; do [ -n "$entry" ] && allowed_arrow[$entry]=1; done < <(allowed_arrows | grep -v '^#')
while IFS= read -r entry; do [ -n "$entry" ] && allowed_big_file[$entry]=1; done < <(allowed_big | grep -v '^#')

# room_of PATH (src/...): sets room and rank; room empty for a file in no known room.
room_of() {
	local rel=${1#src/}
	room= rank=
	case $rel in
	napi_knobs.[ch]) room=knobs-door rank=3 ;;
	cpu_sampler.[ch]) room=sampling-door rank=3 ;;
	iperf_driver.[ch]) room=traffic-door rank=3 ;;
	runner.[ch]) room=run-door rank=8 ;;
	*/*)
		room=${rel%%/*}
		case $room in
		kit) rank=0 ;;
		nic) rank=1 ;;
		knobs | sampling | traffic) rank=2 ;;
		config) rank=4 ;;
		result) rank=5 ;;
		report) rank=6 ;;
		run) rank=7 ;;
		compare | submit) rank=9 ;;
		history) rank=10 ;;
		render) rank=11 ;;
		experiment) rank=12 ;;
		cli) rank=13 ;;
		*) room= ;;
		esac
		;;
	esac
}

# why_wrong FROM TO KIND: sets why, empty when FROM may include or call TO.
why_wrong() {
	local from_room from_rank
	room_of "$1"
	from_room=$room from_rank=$rank
	room_of "$2"
	why=
	[ "$from_room" = "$room" ] && return
	if [ "$rank" -gt "$from_rank" ]; then
		case $from_room in
		*-door) why="$3 up: ${room} (rank $rank) is above the front door ${1#src/} (rank $from_rank), which only calls down into its folder" ;;
		*) why="$3 up: $room/ (rank $rank) is above $from_room/ (rank $from_rank); what both need belongs in the lower room" ;;
		esac
		case $room in
		*-door) why="$3 up into the front door ${2#src/} from $from_room/: a front door calls down into its folder, nothing calls back up to it" ;;
		esac
	elif [ "$rank" -eq "$from_rank" ]; then
		why="$3 across: $from_room and $room stand side by side (rank $rank); move what both need into a lower room"
	fi
}

failures=0 notes=0 arrows=0 calls=0
fail() {
	echo "$1"
	failures=$((failures + 1))
}
# judge FROM TO KIND DETAIL
judge() {
	why_wrong "$1" "$2" "$3"
	[ -n "$why" ] || return 0
	if [ -n "${allowed_arrow["$1 -> $2"]:-}" ]; then
		seen_arrow["$1 -> $2"]=1
		return 0
	fi
	fail "$1 -> ${2#src/}${4:+ ($4)}: $why"
}

mapfile -t files < <(cd "$root" && find src -name '*.[ch]' | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAIL: no sources under $src"; exit 1; }
for f in "${files[@]}"; do
	room_of "$f"
	[ -n "$room" ] || fail "$f: in no room of the house: put it in a stage's folder, or add its folder to the room table of $0"
done

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

declare -A edges
while IFS= read -r hit; do
	f=${hit%%:*}
	name=${hit#*\"}
	name=${name%%\"*}
	resolve "$f" "$name"
	[ -n "$target" ] || continue
	arrows=$((arrows + 1))
	case $f in *.h) edges[$f]+="$target " ;; esac
	judge "$f" "$target" include ""
done < <(cd "$root" && grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}")

# Calls: OBJECT_DIR/src/x/y.c.o for src/x/y.c. One nm over all objects: "file: symbol type".
if [ -n "$objdir" ]; then
	[ -d "$objdir/src" ] || { echo "FAIL: no objects under $objdir/src (build nicbench_core first)"; exit 1; }
	declare -A defined_in
	declare -A undef_of
	# nm -A: "OBJ.o:ADDR T sym" for a definition, "OBJ.o:    U sym" for what OBJ needs
	while read -r obj type sym; do
		obj=${obj#"$objdir"/}
		obj=${obj%.o}
		[ -f "$root/$obj" ] || continue # an object left from a file since moved or removed
		case $type in
		U) undef_of[$obj]+="$sym " ;;
		[TDBRC]) defined_in[$sym]=$obj ;;
		esac
	done < <(find "$objdir/src" -name '*.o' -print0 | LC_ALL=C sort -z | xargs -0 nm -A 2>/dev/null |
		awk '{ split($1, f, ":"); print f[1], $(NF - 1), $NF }')
	declare -A seen_call
	for obj in "${!undef_of[@]}"; do
		for sym in ${undef_of[$obj]}; do
			def=${defined_in[$sym]:-}
			[ -n "$def" ] && [ "$def" != "$obj" ] || continue
			calls=$((calls + 1))
			[ -n "${seen_call["$obj -> $def"]:-}" ] && continue
			why_wrong "$obj" "$def" call
			[ -n "$why" ] || continue
			seen_call["$obj -> $def"]=1
			judge "$obj" "$def" call "$sym"
		done
	done
fi

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

echo "${#files[@]} files, $arrows include arrows, $calls calls, $failures wrong, $notes notes"
[ "$failures" -eq 0 ]
