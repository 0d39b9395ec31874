/* SPDX-License-Identifier: MIT */
/* The libFuzzer entry points of one target binary; FUZZ_TARGET (set by CMake) names the target. */
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct nb_fuzz_target *target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/nb-fuzz-XXXXXX";

	(void)argc;
	(void)argv;
	target = nb_fuzz_find(FUZZ_TARGET);
	if (!target)
		abort();
	/* An empty directory that no longer exists as cwd: a relative path in an input (the
	 * command line's --config FILE) meets no file, and nothing can be created there. */
	if (!mkdtemp(dir) || chdir(dir) || rmdir(dir))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return target->run(data, size);
}
