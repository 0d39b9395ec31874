// SPDX-License-Identifier: MIT
/* bench/history-sim's engine: series made of recorded A/A noise with planted steps, spikes, drifts
 * and missing points, judged by nicbench history's rule (E-Divisive + permutation test + minimum
 * effect, src/history/changepoint.c) and by Perfherder's t-test rule on the same series.
 *
 * usage: history_sim POOL_FILE SERIES_PER_CELL SEED
 * POOL_FILE: one relative residual a line (0.031 = 3.1% above its set's median). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/changepoint.h"

#define MAX_POOL 4096
#define MAX_N 128

static double pool[MAX_POOL];
static int n_pool;

/* One commit's value: the level times one recorded residual, drawn with replacement. */
static double draw(uint64_t *rng, double level)
{
	return level * (1 + pool[nb_cp_rand_below(rng, (uint32_t)n_pool)]);
}

enum kind { FLAT, STEP, SPIKE, DRIFT, MISSING };

struct cell_result {
	int hits_edivisive, hits_perfherder;   /* a change found within 1 of the planted step */
	int alarms_edivisive, alarms_perfherder; /* any change in a series where none should be */
};

/* Build one series of n commits; the planted step (if any) starts at n/2, a regression. */
static int make(enum kind k, int n, double step_pct, uint64_t *rng, double *x, int *step_at)
{
	int len = 0;

	*step_at = -1;
	for (int i = 0; i < n; i++) {
		double level = 1;

		if ((k == STEP || k == MISSING) && i >= n / 2)
			level = 1 - step_pct / 100;
		if (k == SPIKE && i == n / 2)
			level = 0.7; /* one commit 30% lower alone */
		if (k == DRIFT)
			level = 1 - 0.10 * i / (n - 1); /* 10% lost over the series, a little each commit */
		/* missing points: a board down for a fifth of the commits, at random */
		if (k == MISSING && nb_cp_rand_below(rng, 5) == 0)
			continue;
		if ((k == STEP || k == MISSING) && i >= n / 2 && *step_at < 0)
			*step_at = len;
		x[len++] = draw(rng, level);
	}
	return len;
}

static bool near_step(const struct nb_cp *cps, int n, int step_at)
{
	for (int i = 0; i < n; i++) {
		if (abs(cps[i].index - step_at) <= 1)
			return true;
	}
	return false;
}

static void run_cell(enum kind k, int n, double step_pct, int series, uint64_t seed, struct cell_result *res)
{
	struct nb_cp_options o;
	uint64_t rng = seed;
	double x[MAX_N];

	nb_cp_options_init(&o);
	if (getenv("NB_SIM_PERMUTATIONS"))
		o.permutations = atoi(getenv("NB_SIM_PERMUTATIONS"));
	if (getenv("NB_SIM_TEST"))
		o.test = strcmp(getenv("NB_SIM_TEST"), "energy") ? NB_CP_TEST_T : NB_CP_TEST_ENERGY;
	if (getenv("NB_SIM_ALPHA"))
		o.alpha = atof(getenv("NB_SIM_ALPHA"));
	if (getenv("NB_SIM_MIN_SEGMENT"))
		o.min_segment = atoi(getenv("NB_SIM_MIN_SEGMENT"));
	memset(res, 0, sizeof(*res));
	for (int s = 0; s < series; s++) {
		struct nb_cp cps[16];
		int step_at, len = make(k, n, step_pct, &rng, x, &step_at), ne, np;

		o.seed = nb_cp_rand(&rng);
		ne = nb_cp_find(x, len, &o, cps, 16);
		ne = ne > 0 ? nb_cp_keep_effective(x, len, cps, ne, 2.0, 0) : 0;
		if (getenv("NB_SIM_DEBUG") && step_at >= 0 && !near_step(cps, ne, step_at))
			fprintf(stderr, "missed n %d step %g: %d found%s%d\n", n, step_pct, ne, ne ? " first at " : " ", ne ? cps[0].index : -1);
		if (step_at >= 0)
			res->hits_edivisive += near_step(cps, ne, step_at);
		else
			res->alarms_edivisive += ne > 0;
		np = nb_cp_perfherder(x, len, 12, 7, 2, cps, 16);
		if (step_at >= 0)
			res->hits_perfherder += near_step(cps, np, step_at);
		else
			res->alarms_perfherder += np > 0;
	}
}

int main(int argc, char **argv)
{
	static const int lengths[] = { 20, 30, 60 };
	static const double steps[] = { 5, 10, 15, 20, 30 };
	FILE *f;
	int series;
	uint64_t seed;
	char line[128];

	if (argc != 4) {
		fprintf(stderr, "usage: history_sim POOL_FILE SERIES_PER_CELL SEED\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	series = atoi(argv[2]);
	seed = strtoull(argv[3], NULL, 10);
	if (!f || series < 1) {
		fprintf(stderr, "history_sim: cannot read %s, or no series\n", argv[1]);
		return 2;
	}
	while (n_pool < MAX_POOL && fgets(line, sizeof(line), f))
		pool[n_pool++] = strtod(line, NULL);
	fclose(f);
	if (n_pool < 2) {
		fprintf(stderr, "history_sim: %s holds fewer than 2 residuals\n", argv[1]);
		return 2;
	}
	printf("%-26s %6s %8s   %-22s %-22s\n", "series", "points", "series", "nicbench (E-Divisive)",
	       "Perfherder (t > 7, 2%)");
	for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++) {
		int n = lengths[li];
		struct cell_result r;

		run_cell(FLAT, n, 0, series, seed + n, &r);
		printf("%-26s %6d %8d   false alarms %4d (%4.1f%%)  false alarms %4d (%4.1f%%)\n", "A/A, no change", n, series,
		       r.alarms_edivisive, 100.0 * r.alarms_edivisive / series, r.alarms_perfherder,
		       100.0 * r.alarms_perfherder / series);
		/* NB_SIM_AA_ONLY: the false-alarm rate alone, on many series */
		for (size_t si = 0; !getenv("NB_SIM_AA_ONLY") && si < sizeof(steps) / sizeof(steps[0]); si++) {
			char name[64];

			snprintf(name, sizeof(name), "step -%g%% at the middle", steps[si]);
			run_cell(STEP, n, steps[si], series, seed + n * 100 + (uint64_t)steps[si], &r);
			printf("%-26s %6d %8d   detected %4d (%5.1f%%)   detected %4d (%5.1f%%)\n", name, n, series,
			       r.hits_edivisive, 100.0 * r.hits_edivisive / series, r.hits_perfherder,
			       100.0 * r.hits_perfherder / series);
		}
		if (getenv("NB_SIM_AA_ONLY"))
			continue;
		run_cell(MISSING, n, 10, series, seed + n * 1000, &r);
		printf("%-26s %6d %8d   detected %4d (%5.1f%%)   detected %4d (%5.1f%%)\n", "step -10%, 1/5 missing", n,
		       series, r.hits_edivisive, 100.0 * r.hits_edivisive / series, r.hits_perfherder,
		       100.0 * r.hits_perfherder / series);
		run_cell(SPIKE, n, 0, series, seed + n * 10000, &r);
		printf("%-26s %6d %8d   false alarms %4d (%4.1f%%)  false alarms %4d (%4.1f%%)\n", "one commit -30% alone", n,
		       series, r.alarms_edivisive, 100.0 * r.alarms_edivisive / series, r.alarms_perfherder,
		       100.0 * r.alarms_perfherder / series);
		run_cell(DRIFT, n, 0, series, seed + n * 100000, &r);
		printf("%-26s %6d %8d   flagged %4d (%5.1f%%)    flagged %4d (%5.1f%%)\n", "drift -10% over the series", n,
		       series, r.alarms_edivisive, 100.0 * r.alarms_edivisive / series, r.alarms_perfherder,
		       100.0 * r.alarms_perfherder / series);
	}
	return 0;
}
