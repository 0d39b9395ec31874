/* SPDX-License-Identifier: MIT */
/* Every input a fuzzer once found a bug with (tests/fixtures/fuzz/regressions/TARGET/) through its target again. */
#include <dirent.h>
#include <errno.h>

#include "../fuzz/fuzz_targets.h"
#include "nb_test.h"

static int run_file(const struct nb_fuzz_target *t, const char *path)
{
	static uint8_t buf[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* A bug aborts (or trips a sanitizer in the ASan build): say which file first. */
	fprintf(stderr, "fuzz regression %s: %s\n", t->name, path);
	t->run(buf, n);
	return 0;
}

int main(void)
{
	int files = 0;

	for (int i = 0; i < nb_fuzz_n_targets; i++) {
		const struct nb_fuzz_target *t = &nb_fuzz_targets[i];
		char dir[2048], path[4096];
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", nb_test_fixture("fuzz/regressions"), t->name);
		d = opendir(dir);
		if (!d)
			continue; /* no finding for this target yet */
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			CHECK_MSG(run_file(t, path) == 0, "read %s", path);
			files++;
		}
		closedir(d);
	}
	/* The directory holds at least the first finding: an empty run would test nothing. */
	CHECK_MSG(files > 0, "no regression inputs under %s", nb_test_fixture("fuzz/regressions"));
	return nb_test_done("fuzz_regressions");
}
