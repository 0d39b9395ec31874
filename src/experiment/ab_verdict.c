// SPDX-License-Identifier: MIT
/* One look at an A/B set (ab_verdict.h): load its rounds, compare, and write the verdict. */
#include "ab_verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_schedule.h"
#include "compare/compare_rounds.h"
#include "render/render.h"

/* The paths of a side's reports of pairs 1..pairs, in dir. */
static char **side_paths(const char *dir, int side, int pairs)
{
	char **paths = calloc((size_t)pairs, sizeof(*paths));

	for (int i = 0; paths && i < pairs; i++) {
		char name[32];
		size_t len;

		nb_ab_report_name(name, sizeof(name), side, i + 1);
		len = strlen(dir) + strlen(name) + 2;
		paths[i] = malloc(len);
		if (!paths[i]) {
			for (int j = 0; j < i; j++)
				free(paths[j]);
			free(paths);
			return NULL;
		}
		snprintf(paths[i], len, "%s/%s", dir, name);
	}
	return paths;
}

static void free_paths(char **paths, int n)
{
	for (int i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

static int write_verdict(const char *dir, const char *name, const struct nb_cmp_result *r, bool json,
			 struct nb_err *err)
{
	struct nb_cmp_render_opts ro = { 0 };
	char path[4096];
	FILE *out;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "w");
	if (!out)
		return nb_err_set(err, -errno, "write the verdict %s: %s", path, strerror(errno));
	ret = json ? nb_cmp_render_json(out, r) : nb_cmp_render_text(out, r, &ro);
	if (fclose(out) && !ret)
		ret = -errno;
	return ret ? nb_err_set(err, ret, "write the verdict %s: %s", path, strerror(-ret)) : 0;
}

int nb_ab_look(const char *dir, int pairs, const struct nb_cmp_options *opt, bool write_files, int *exit_code,
	       struct nb_err *err)
{
	struct nb_cmp_rounds rounds = { 0 };
	struct nb_cmp_result result = { 0 };
	struct nb_cmp_options o = *opt;
	char **paths[2] = { side_paths(dir, 0, pairs), side_paths(dir, 1, pairs) };
	int ret = 0;

	if (!paths[0] || !paths[1]) {
		ret = nb_err_set(err, -ENOMEM, "compare the set in %s: %s", dir, strerror(ENOMEM));
		goto out;
	}
	for (int side = 0; side < 2 && !ret; side++)
		ret = nb_cmp_rounds_load(&rounds, side, paths[side], pairs, err);
	if (!ret)
		ret = nb_cmp_rounds_merge(&rounds, err);
	if (ret)
		goto out;
	o.rounds_paired = rounds.paired && rounds.n_paired > 0;
	if (!o.rounds_paired) {
		ret = nb_err_set(err, -EINVAL, "compare the set in %s: its reports do not pair as rounds (%s)", dir,
				 rounds.n_notes ? rounds.notes[0] : "no round in them");
		goto out;
	}
	ret = nb_cmp_run(&rounds.merged[0], &rounds.merged[1], &o, &result, err);
	if (ret)
		goto out;
	result.rounds = &rounds;
	nb_cmp_rounds_movers(&result, &rounds);
	/* the sequential verdict says undecided itself; the plain one's inconclusive is the fixed set's undecided */
	*exit_code = (int)nb_cmp_exit_status(&result, !o.sequential);
	if (write_files) {
		for (int i = 0; i < rounds.n_notes; i++)
			fprintf(stderr, "nicbench: note: %s\n", rounds.notes[i]);
		ret = write_verdict(dir, NB_AB_VERDICT_TEXT, &result, false, err);
		if (!ret)
			ret = write_verdict(dir, NB_AB_VERDICT_JSON, &result, true, err);
	}
out:
	nb_cmp_result_free(&result);
	nb_cmp_rounds_free(&rounds);
	free_paths(paths[0], pairs);
	free_paths(paths[1], pairs);
	return ret;
}
