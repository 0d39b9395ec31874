# SPDX-License-Identifier: MIT
# What the scripts share (sourced, not run): their messages and exits (say, die), an apt of their own for
# another Debian release (private_apt), and the lab's nicbench build (nicbench_lab_build). The sourcing script
# sets top (the source tree) first.
# shellcheck shell=bash

# say_as NAME: the prefix of the script's messages ("lab: ...", "bisect: ...").
say_prefix=${say_prefix:-nicbench}
say_as() { say_prefix=$1; }
say() { echo "$say_prefix: $*" >&2; }
# die CODE MESSAGE...: the message on stderr, then exit CODE.
die() {
	local code=$1
	shift
	say "$*"
	exit "$code"
}

# private_apt DIR ARCH COMMAND ARGS...: COMMAND (apt-get, apt-cache) with an apt of its own for one Debian release
# and architecture: sources, lists, cache and status under DIR; the host's sources, status and preferences are
# never read or written (only its apt.conf: a proxy, say). $apt_default_release, when set, is APT::Default-Release.
private_apt() {
	local dir=$1 arch_=$2 tool=$3
	shift 3
	"$tool" -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Dir::State::status="$dir/status" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o APT::Architecture="$arch_" -o APT::Architectures="$arch_" -o APT::Sandbox::User=root \
		${apt_default_release:+-o APT::Default-Release="$apt_default_release"} "$@"
}

# nicbench_lab_build: sets nicbench_bin to the lab's nicbench: $NB_LAB_NICBENCH, else a Release build of this
# tree in build-lab (the host's shared libraries), rebuilt when a source is newer than the binary, so that neither
# the guest nor the host side of the lab runs a stale nicbench. Dies with 4 when it cannot be had.
nicbench_lab_build() {
	if [ -n "${NB_LAB_NICBENCH:-}" ]; then
		nicbench_bin=$NB_LAB_NICBENCH
	else
		nicbench_bin=${top:?scripts/lib/common.sh: the sourcing script sets top}/build-lab/nicbench
		if [ ! -x "$nicbench_bin" ] || [ -n "$(find "$top/src" "$top/CMakeLists.txt" -newer "$nicbench_bin" -print -quit)" ]; then
			say "building the lab's nicbench in $top/build-lab"
			local log
			log=$(mktemp /tmp/nb-lab-build.XXXXXX)
			{ cmake -S "$top" -B "$top/build-lab" -DCMAKE_BUILD_TYPE=Release &&
				cmake --build "$top/build-lab" -j"$(nproc)" --target nicbench; } >"$log" 2>&1 ||
				{ tail -n 20 "$log" >&2; rm -f "$log"; die 4 "building nicbench in $top/build-lab failed"; }
			rm -f "$log"
		fi
	fi
	[ -x "$nicbench_bin" ] || die 4 "no nicbench binary at $nicbench_bin"
}
