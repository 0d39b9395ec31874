#!/bin/bash
# SPDX-License-Identifier: MIT
# The outputs of `report` and `compare` on the fixtures, byte for byte: a change to how a
# report or a verdict reads shows here as a diff against tests/golden/expected/, reviewed
# in the commit that makes it. Refactors (moving renderers, the metric table) leave it empty.
# usage: check_outputs.sh NICBENCH [--update]   (exit 0: all alike; 1: a difference, shown)
set -u
bin=$1
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../fixtures
want=$here/expected
got=$(mktemp -d)
trap 'rm -rf "$got"' EXIT

r=$fx/compare/rounds
# name  args...   (one case a line; the output is stdout, then the exit code)
cases() {
	for f in veth-sweep veth-rr seed-udptx-base hostile; do
		for fmt in text markdown html kcidb; do
			echo "report-$f-$fmt report $fx/report/$f.json --format $fmt"
		done
	done
	# lab reports of seed recipes: the counters under each row (IRQs by role and CPU, MTU, ethtool -S, kernel log;
	# the fec's page_pool)
	for f in lab-lantiq-irq-split lab-lan743x-mtu lab-fec-cpsw-flood; do
		for fmt in text markdown html; do
			echo "report-$f-$fmt report $fx/report/$f.json --format $fmt"
		done
	done
	echo "report-seed-base-text report --base $fx/report/seed-udptx-base.json $fx/report/seed-udptx-new.json"
	echo "report-g2ul-base-html report -b $fx/compare/g2ul-base.json $fx/compare/g2ul-new.json --format html"
	for fmt in text json junit markdown html kcidb; do
		echo "compare-g2ul-$fmt compare $fx/compare/g2ul-base.json $fx/compare/g2ul-new.json --format $fmt"
		echo "compare-seed-$fmt compare $fx/report/seed-udptx-base.json $fx/report/seed-udptx-new.json --format $fmt"
		echo "compare-rounds-slow-$fmt compare --format $fmt $r/slow-A1.json $r/slow-A2.json $r/slow-A3.json $r/slow-A4.json $r/slow-A5.json -- $r/slow-B1.json $r/slow-B2.json $r/slow-B3.json $r/slow-B4.json $r/slow-B5.json"
	done
	for fmt in text json; do
		echo "compare-rounds-slow-sequential-$fmt compare --sequential --format $fmt $r/slow-A1.json $r/slow-A2.json $r/slow-A3.json $r/slow-A4.json $r/slow-A5.json -- $r/slow-B1.json $r/slow-B2.json $r/slow-B3.json $r/slow-B4.json $r/slow-B5.json"
	done
	# --alpha-split (nicbench ab's): the gate's two metrics at alpha / 2 each, said in the header and the settings
	for fmt in text json; do
		echo "compare-rounds-slow-split-$fmt compare --sequential --alpha-split --format $fmt $r/slow-A1.json $r/slow-A2.json $r/slow-A3.json $r/slow-A4.json $r/slow-A5.json -- $r/slow-B1.json $r/slow-B2.json $r/slow-B3.json $r/slow-B4.json $r/slow-B5.json"
	done
	echo "compare-rounds-aa-text compare $r/aa-A1.json $r/aa-A2.json $r/aa-A3.json $r/aa-A4.json $r/aa-A5.json -- $r/aa-B1.json $r/aa-B2.json $r/aa-B3.json $r/aa-B4.json $r/aa-B5.json"
	echo "compare-g2ul-verbose compare -v $fx/compare/g2ul-base.json $fx/compare/g2ul-new.json"
	echo "compare-g2ul-gate compare --gate throughput_bps $fx/compare/g2ul-base.json $fx/compare/g2ul-new.json"
	echo "compare-g2l-text compare $fx/compare/g2l-base.json $fx/compare/g2l-new.json"
	echo "compare-five-text compare $fx/compare/five-base-zero.json $fx/compare/five-new.json"
	echo "compare-peer-bound compare $fx/compare/g2ul-base.json $fx/compare/g2ul-new-peer-bound.json"
	echo "compare-loaded compare $fx/compare/g2ul-base.json $fx/compare/g2ul-new-loaded.json"
	echo "compare-other-env compare $fx/compare/g2ul-base.json $fx/compare/g2ul-new-other-env.json"
	echo "compare-lost-counter compare $fx/compare/g2ul-base.json $fx/compare/g2ul-new-lost-counter.json"
	echo "compare-veth-aa compare $fx/compare/veth-aa-a.json $fx/compare/veth-aa-b.json --format json"
	# one pair of reports whose gated metrics are too noisy to tell: the text says how rounds give a verdict
	echo "compare-veth-aa-text compare $fx/compare/veth-aa-a.json $fx/compare/veth-aa-b.json"
}

fail=0
while read -r name args; do
	# shellcheck disable=SC2086
	(cd "$fx" && "$bin" $args >"$got/$name.out" 2>"$got/$name.err"; echo "exit $?" >>"$got/$name.out")
	# the paths of this checkout are not part of the output's meaning
	sed -i "s#$fx#FIXTURES#g" "$got/$name.out" "$got/$name.err"
	cat "$got/$name.err" >>"$got/$name.out"
	if [ "$update" = --update ]; then
		mkdir -p "$want"
		cp "$got/$name.out" "$want/$name.out"
	elif ! cmp -s "$want/$name.out" "$got/$name.out"; then
		echo "differs: $name ($bin $args)"
		diff -u "$want/$name.out" "$got/$name.out" | head -40
		fail=1
	fi
done < <(cases)
n=$(cases | wc -l)
[ "$update" = --update ] && { echo "updated $n cases in $want"; exit 0; }
[ "$fail" -eq 0 ] && echo "$n outputs byte-identical to tests/golden/expected"
exit "$fail"
