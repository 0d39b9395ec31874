#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/lib/debian-mirror.sh on fake apt sources (NB_APT_ETC): deb822 and one-line files, disabled stanzas,
# deb-src, third-party repositories and option blocks; NB_LAB_MIRROR first; none found -> scripts/lab exit 4.
set -u
NB_SRC=${NB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d /tmp/nb-mirror-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/lib/debian-mirror.sh
. "$NB_SRC/scripts/lib/debian-mirror.sh"
failures=0
check() {
	local what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
# case NAME: a fresh fake /etc/apt under $tmp/NAME (files written by the caller), NB_APT_ETC pointing at it.
fake() {
	etc=$tmp/$1
	mkdir -p "$etc/sources.list.d"
	export NB_APT_ETC=$etc
	unset NB_LAB_MIRROR NB_LAB_SECURITY_MIRROR
}
# found CASE ARCHIVE SECURITY: debian_mirror_find succeeds with these two mirrors.
found() {
	local rc=0
	debian_mirror_find || rc=$?
	check "$1: found (rc $rc) archive '$debian_mirror' security '$debian_security_mirror' (from $debian_mirror_source)" \
		test "$rc" = 0 -a "$debian_mirror" = "$2" -a "$debian_security_mirror" = "$3"
}

# 1. deb822: a disabled stanza and a third-party one come first; two URIs in one stanza (the first counts).
fake deb822
cat >"$etc/sources.list.d/vendor.sources" <<'S'
Types: deb
URIs: https://apt.vendor.example/node_20.x
Suites: nodistro
Components: main
S
cat >"$etc/sources.list.d/debian.sources" <<'S'
# old mirror, switched off
Types: deb
URIs: http://old.example/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb deb-src
URIs: http://mirror-a.example/debian/ http://mirror-b.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

types: deb
uris: http://security-mirror.example/debian-security
suites: bookworm-security
components: main
S
found deb822 http://mirror-a.example/debian http://security-mirror.example/debian-security

# 2. One-line .list: deb-src and a cdrom source first, an option block with spaces, a comment at the end.
fake list
cat >"$etc/sources.list.d/local.list" <<'S'
deb-src http://src-only.example/debian trixie main
deb cdrom:[Debian GNU/Linux 12]/ bookworm main
deb https://packages.vendor.example/apt cloud-sdk-bookworm main
deb [ arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg ] http://local-mirror.lan:3142/debian trixie main # apt-cacher
deb http://local-mirror.lan:3142/debian-security trixie-security main
S
found list http://local-mirror.lan:3142/debian http://local-mirror.lan:3142/debian-security

# 3. /etc/apt/sources.list alone, the pre-bullseye security layout, a file: mirror.
fake legacy
cat >"$etc/sources.list" <<'S'
deb file:/srv/mirror/debian buster main
deb http://sec.example/debian-security buster/updates main
S
found legacy file:/srv/mirror/debian http://sec.example/debian-security

# 4. No security source: the archive is found, the security mirror is empty.
fake nosec
echo 'deb http://only-archive.example/debian bookworm main' >"$etc/sources.list"
found nosec http://only-archive.example/debian ""

# 5. NB_LAB_MIRROR wins over the sources.
fake override
echo 'deb http://ignored.example/debian bookworm main' >"$etc/sources.list"
NB_LAB_MIRROR=http://given.example/debian/ NB_LAB_SECURITY_MIRROR=http://given.example/sec found override \
	http://given.example/debian http://given.example/sec

# 6. Nothing usable: only third-party and disabled sources.
fake none
printf 'Types: deb\nURIs: https://apt.vendor.example/x\nSuites: nodistro\nComponents: main\n' \
	>"$etc/sources.list.d/vendor.sources"
printf 'Types: deb\nURIs: http://off.example/debian\nSuites: trixie\nComponents: main\nEnabled: no\n' \
	>"$etc/sources.list.d/debian.sources"
rc=0
debian_mirror_find || rc=$?
check "none: not found (rc $rc): $debian_mirror_error" test "$rc" = 1 -a -z "$debian_mirror" -a -n "$debian_mirror_error"

# 7. scripts/lab: exit 4 with the reason when no mirror is found; with a fake mirror, the fetch goes there.
if command -v apt-get >/dev/null && [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
	out=$(NB_LAB_CACHE=$tmp/cache "$NB_SRC/scripts/lab" fetch 6.1 2>&1)
	rc=$?
	check "lab fetch, no mirror: exit 4 ($rc) naming the sources ($out)" \
		test "$rc" = 4 -a -n "$(grep -F "no Debian mirror in this machine's apt sources ($etc" <<<"$out")"
	fake elsewhere
	echo 'deb http://mirror.nb-test.invalid/debian bookworm main' >"$etc/sources.list"
	out=$(NB_LAB_CACHE=$tmp/cache timeout 120 "$NB_SRC/scripts/lab" fetch 6.1 -- 2>&1)
	rc=$?
	check "lab fetch, a fake mirror: exit 4 ($rc), fetched from it ($(tail -n 1 <<<"$out"))" \
		test "$rc" = 4 -a -n "$(grep -F 'from http://mirror.nb-test.invalid/debian' <<<"$out")"
else
	echo "skip: scripts/lab checks (no apt-get or debian-archive-keyring)"
fi
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
