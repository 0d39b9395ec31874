#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completion offers every long option each subcommand's --help lists, and the test names.
set -u
: "${NB_BIN:?NB_BIN must point at the nicbench binary}" "${NB_SRC:?NB_SRC must point at the source tree}"
# shellcheck source=contrib/bash-completion/nicbench
. "$NB_SRC/contrib/bash-completion/nicbench"
failures=0
complete_words() { # WORDS...: what _nicbench offers for the last word
	COMP_WORDS=("$NB_BIN" "$@"); COMP_CWORD=$(($# )); COMPREPLY=()
	_nicbench
	printf '%s\n' "${COMPREPLY[@]}"
}
for cmd in run plan compare report submit serve "knobs show" "knobs restore" "history add" "history list" "history analyze"; do
	# shellcheck disable=SC2086
	want=$("$NB_BIN" $cmd --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	# shellcheck disable=SC2086
	got=$(complete_words $cmd -- | sort -u)
	[ -n "$want" ] || { echo "FAIL: '$cmd --help' lists no options"; failures=$((failures + 1)); continue; }
	if [ "$want" != "$got" ]; then
		echo "FAIL: completion of '$cmd --' differs from its --help:"; diff <(echo "$want") <(echo "$got")
		failures=$((failures + 1))
	else
		echo "ok: $cmd: $(echo "$want" | wc -l) options"
	fi
done
# ab and bisect: the option lines of --help (its text quotes nicbench run's options for the hook)
for cmd in ab bisect; do
	want=$("$NB_BIN" $cmd --help 2>&1 | grep -E -- '^ +(-[a-z], )?--[a-z]' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
	got=$(complete_words $cmd -- | sort -u)
	case $want in *--gate*--work* | *--work*--gate*) ;; *) echo "FAIL: '$cmd --help' lacks --gate or --work"; failures=$((failures + 1)) ;; esac
	if [ "$want" != "$got" ]; then
		echo "FAIL: completion of '$cmd --' differs from its --help:"; diff <(echo "$want") <(echo "$got")
		failures=$((failures + 1))
	else
		echo "ok: $cmd: $(echo "$want" | wc -l) options"
	fi
done
tests=$(complete_words run --tests "" | tr '\n' ' ')
for t in tcp-tx tcp-rx udp-tx udp-rx tcp-rr udp-rr; do
	case " $tests " in *" $t "*) ;; *) echo "FAIL: --tests does not offer $t (got: $tests)"; failures=$((failures + 1)) ;; esac
done
[ "$failures" -eq 0 ] && echo "PASS: test_completion" || { echo "FAIL: $failures"; exit 1; }
