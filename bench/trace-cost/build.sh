#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the trace-window helper straight from the module sources (no CMake build dir needed).
# usage: [NB_CFLAGS=-fsanitize=address,undefined] build.sh OUTPUT
set -e
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: build.sh OUTPUT}
cc ${NB_CFLAGS:-} -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -I"$SRC/src" \
	"$SRC/bench/trace-cost/trace-window.c" "$SRC/src/napi_trace.c" "$SRC/src/trace_decode.c" "$SRC/src/kprofile.c" \
	"$SRC/src/iface_irqs.c" "$SRC/src/metrics.c" "$SRC/src/nb_error.c" "$SRC/src/nb_paths.c" \
	$(pkg-config --cflags --libs libtraceevent) -lm -lpthread -o "$OUT"
