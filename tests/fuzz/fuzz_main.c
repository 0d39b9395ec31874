/* SPDX-License-Identifier: MIT */
/* The libFuzzer entry points of one target binary; FUZZ_TARGET (set by CMake) names the target. */
#include <stdlib.h>

#include "fuzz_targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct nb_fuzz_target *target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	target = nb_fuzz_find(FUZZ_TARGET);
	if (!target)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return target->run(data, size);
}
