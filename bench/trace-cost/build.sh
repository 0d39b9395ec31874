#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the trace-window helper straight from the module sources (no CMake build dir needed).
# usage: [NB_CFLAGS=-fsanitize=address,undefined] build.sh OUTPUT
set -e
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build.sh OUTPUT}
cc ${NB_CFLAGS:-} -std=c11 -D_GNU_SOURCE -DNB_HAVE_TRACEEVENT=1 -O2 -g -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -I"$SRC/src" \
	"$SRC/bench/trace-cost/trace-window.c" "$SRC/src/sampling/napi_trace.c" "$SRC/src/sampling/trace_irq_filter.c" "$SRC/src/sampling/trace_decode.c" "$SRC/src/sampling/kprofile.c" \
	"$SRC/src/nic/iface_irqs.c" "$SRC/src/kit/metrics.c" "$SRC/src/kit/nb_error.c" "$SRC/src/kit/nb_paths.c" \
	"$SRC/src/kit/metric_table.c" "$SRC/src/kit/nic_names.c" \
	$(pkg-config --cflags --libs libtraceevent) -lm -lpthread -o "$OUT"
