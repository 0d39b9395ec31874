#!/bin/bash
# SPDX-License-Identifier: MIT
# Hardware coalescing read over ethtool netlink agrees with ethtool(8) on every interface of
# this namespace that has coalescing (read only: nothing is written, no traffic), and a
# parameter ethtool shows as "n/a" (left out of the driver's netlink answer) is unsupported.
set -u

NB_BIN=${NB_BIN:?NB_BIN must point at the nicbench binary}
failures=0 checked=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v ethtool >/dev/null || { echo "SKIP: needs ethtool"; exit 77; }
for dev in /sys/class/net/*; do
	ifc=${dev##*/}
	ethtool -c "$ifc" >/tmp/nl-ec.$$ 2>/dev/null || continue
	"$NB_BIN" knobs show -i "$ifc" >/tmp/nl-nb.$$ 2>&1
	# ethtool name -> nicbench knob
	for pair in "rx-usecs:rx-usecs" "rx-frames:rx-frames" "tx-usecs:tx-usecs" "tx-frames:tx-frames"; do
		e=${pair%%:*} k=${pair##*:}
		want=$(sed -n "s/^$e: //p" /tmp/nl-ec.$$)
		got=$(sed -n "s/^  $k  *//p" /tmp/nl-nb.$$)
		[ -n "$want" ] || continue
		checked=$((checked + 1))
		if [ "$want" = n/a ]; then
			case $got in unsupported:*ETHTOOL_MSG_COALESCE_GET*) ok "$ifc $k unsupported before any write" ;;
			*) fail "$ifc $k: ethtool says n/a, nicbench '$got'" ;; esac
		elif [ "$got" = "$want" ]; then ok "$ifc $k = $want"; else fail "$ifc $k: nicbench '$got', ethtool '$want'"; fi
	done
	want=$(sed -n 's/^Adaptive RX: [a-z/]*  TX: //p' /tmp/nl-ec.$$)
	got=$(sed -n 's/^  adaptive-tx  *//p' /tmp/nl-nb.$$)
	if [ "$want" = n/a ]; then
		checked=$((checked + 1))
		case $got in unsupported:*) ok "$ifc adaptive-tx unsupported" ;; *) fail "$ifc adaptive-tx: '$got', ethtool n/a" ;; esac
	fi
done
rm -f /tmp/nl-ec.$$ /tmp/nl-nb.$$
[ "$checked" -gt 0 ] || { echo "SKIP: no interface here has hardware coalescing"; exit 77; }
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo PASS
