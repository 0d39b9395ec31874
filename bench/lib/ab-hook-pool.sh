#!/bin/sh
# SPDX-License-Identifier: MIT
# A boot hook for `nicbench ab` that boots nothing: it hands over a report drawn before the set, from a pool
# laid out as ab lays out its work directory (NB_AB_POOL/A/I.json, NB_AB_POOL/B/I.json), with its round set to
# the ROUND ab asked for. bench/seq-sim draws the pool from recorded rounds, so that ab's own schedule, looks and
# stop run on simulated sets. KERNEL is not read: the side in ROUND picks the report.
# usage: ab-hook-pool.sh KERNEL ROUND OUT   (as nicbench ab calls it)   Environment: NB_AB_POOL (required)
set -eu
round=$2 out=$3
: "${NB_AB_POOL:?NB_AB_POOL: the directory of drawn reports}"
side=${round%%:*} rest=${round#*:}
index=${rest%%/*} rest=${rest#*/}
of=${rest%%:*} set=${rest#*:}
from=$NB_AB_POOL/$side/$index.json
[ -r "$from" ] || { echo "ab-hook-pool: no report $from for round $round" >&2; exit 1; }
jq -c --arg side "$side" --argjson index "$index" --argjson of "$of" --arg set "$set" \
	'.round = {side: $side, index: $index, of: $of, set: $set}' "$from" >"$out.tmp"
mv "$out.tmp" "$out"
