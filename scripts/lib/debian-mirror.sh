# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# The Debian mirror this machine's apt already uses, for scripts/lab and scripts/cross-build (sourced, not run).
#
# debian_mirror_find: sets debian_mirror (the archive: bookworm, trixie, ...) and debian_security_mirror (the one
# serving *-security; "" when the sources name none) from, in order:
#   NB_LAB_MIRROR (and NB_LAB_SECURITY_MIRROR), when set;
#   the apt sources under ${NB_APT_ETC:-/etc/apt}: sources.list, sources.list.d/*.list (one-line "deb URI SUITE
#   COMPONENT..."), sources.list.d/*.sources (deb822 stanzas; "Enabled: no" skipped).
# A source counts when it is a "deb" (not deb-src) source over http, https, ftp or file whose suite is a Debian
# release (a codename or stable/testing/unstable, with -updates, -backports or -security): a third-party
# repository (suite "nodistro", "cloud-sdk-bookworm") is not a Debian mirror. The first such source wins.
# Returns 0, or 1 with debian_mirror_error saying what was looked at.

# _debian_suite_kind SUITE: prints "archive" or "security" for a Debian suite, nothing for anything else.
_debian_suite_kind() {
	local base=${1%%[-/]*} rest=""
	[ "$base" != "$1" ] && rest=${1:${#base}}
	case "$base" in
	buster | bullseye | bookworm | trixie | forky | duke | sid | stable | testing | unstable | oldstable | oldoldstable) ;;
	*) return 0 ;;
	esac
	case "$rest" in
	-security | /updates) echo security ;; # /updates: the layout before bullseye
	"" | -updates | -backports | -proposed-updates | -backports-sloppy) echo archive ;;
	esac
}

# _debian_source_seen TYPES URI SUITES: records URI as the archive or the security mirror when it qualifies.
_debian_source_seen() {
	local types=$1 uri=${2%/} suite kind
	[[ " $types " == *" deb "* ]] || return 0
	case "$uri" in http://* | https://* | ftp://* | file:/*) ;; *) return 0 ;; esac
	for suite in $3; do
		kind=$(_debian_suite_kind "$suite")
		if [ "$kind" = archive ] && [ -z "$debian_mirror" ]; then
			debian_mirror=$uri
		elif [ "$kind" = security ] && [ -z "$debian_security_mirror" ]; then
			debian_security_mirror=$uri
		fi
	done
}

# _debian_parse_list FILE: one-line sources ("deb [opts] URI SUITE COMPONENTS...").
_debian_parse_list() {
	local line type uri suite
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		# the [ options ] block may hold spaces: drop it whole
		[[ "$line" =~ ^([^[]*)\[[^]]*\](.*)$ ]] && line="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
		read -r type uri suite _ <<<"$line"
		[ -n "${suite:-}" ] || continue
		_debian_source_seen "$type" "$uri" "$suite"
	done <"$1"
}

# _debian_parse_sources FILE: deb822 stanzas (blank-line separated; field names are case-insensitive).
_debian_parse_sources() {
	local line key val types="" uris="" suites="" enabled=yes uri
	_stanza_end() {
		if [ "${enabled,,}" != no ] && [ -n "$uris" ] && [ -n "$suites" ]; then
			for uri in $uris; do
				_debian_source_seen "$types" "$uri" "$suites"
			done
		fi
		types="" uris="" suites="" enabled=yes
	}
	while IFS= read -r line || [ -n "$line" ]; do
		[[ "$line" == "#"* ]] && continue
		if [ -z "${line//[[:space:]]/}" ]; then
			_stanza_end
			continue
		fi
		# a continuation line (starts with a space) adds to the field before it: only Suites/URIs matter here
		if [[ "$line" == [[:space:]]* ]]; then
			case "${key:-}" in
			uris) uris="$uris $line" ;;
			suites) suites="$suites $line" ;;
			esac
			continue
		fi
		key=${line%%:*} val=${line#*:}
		key=${key,,}
		case "$key" in
		types) types=$val ;;
		uris) uris=$val ;;
		suites) suites=$val ;;
		enabled) enabled=${val//[[:space:]]/} ;;
		esac
	done <"$1"
	_stanza_end
}

debian_mirror_find() {
	debian_mirror="" debian_security_mirror="" debian_mirror_error="" debian_mirror_source=""
	if [ -n "${NB_LAB_MIRROR:-}" ]; then
		debian_mirror=${NB_LAB_MIRROR%/}
		debian_security_mirror=${NB_LAB_SECURITY_MIRROR:-}
		debian_mirror_source=NB_LAB_MIRROR
		return 0
	fi
	local etc=${NB_APT_ETC:-/etc/apt} f files=()
	[ -f "$etc/sources.list" ] && files+=("$etc/sources.list")
	for f in "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do
		[ -f "$f" ] && files+=("$f")
	done
	for f in "${files[@]}"; do
		case "$f" in
		*.sources) _debian_parse_sources "$f" ;;
		*) _debian_parse_list "$f" ;;
		esac
		if [ -n "$debian_mirror" ] && [ -z "$debian_mirror_source" ]; then
			debian_mirror_source=$f
		fi
	done
	[ -n "${NB_LAB_SECURITY_MIRROR:-}" ] && debian_security_mirror=$NB_LAB_SECURITY_MIRROR
	if [ -z "$debian_mirror" ]; then
		debian_mirror_error="no Debian mirror in this machine's apt sources ($etc/sources.list, $etc/sources.list.d/*.list, *.sources: ${#files[@]} file(s), no enabled 'deb' source of a Debian release over http, https, ftp or file); set NB_LAB_MIRROR=URL"
		return 1
	fi
	return 0
}
