/* SPDX-License-Identifier: MIT */
/* The fuzz targets as plain functions: libFuzzer binaries and the regression unit test call the same ones. */
#ifndef NB_FUZZ_TARGETS_H
#define NB_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

struct nb_fuzz_target {
	const char *name; /* "config": binary fuzz_config, seeds and regressions under that name */
	/* 0, or -1 for an input not worth keeping in the corpus; a bug aborts (or ASan/UBSan stop it). */
	int (*run)(const uint8_t *data, size_t size);
};

extern const struct nb_fuzz_target nb_fuzz_targets[];
extern const int nb_fuzz_n_targets;

const struct nb_fuzz_target *nb_fuzz_find(const char *name);

#endif
