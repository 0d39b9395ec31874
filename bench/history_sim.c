// SPDX-License-Identifier: MIT
/* bench/history-sim's engine: series made of recorded A/A noise with planted steps, spikes, drifts
 * and missing points, judged by nicbench history's rule (a permutation test of the largest t + minimum
 * effect, src/history/changepoint.c) fed three per-commit values, and by Perfherder's t-test rule, on
 * the same series.
 *
 * usage: history_sim POOL_FILE SERIES_PER_CELL SEED RUNS_PER_REPORT SIGMA_REPORT
 * POOL_FILE: one relative run residual a line (0.031 = 3.1% above its set's median); each commit is
 * a report of RUNS_PER_REPORT runs drawn from it, around a report offset of sd SIGMA_REPORT. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/changepoint.h"
#include "kit/stats.h"

#define MAX_POOL 4096
#define MAX_N 128

static double pool[MAX_POOL];
static int n_pool;

/* Runs a commit's report holds, and the sd of a report-level offset shared by its runs (the
 * between-report part of the noise that the pool of runs against their set's median does not keep). */
static int runs_per_report = 1;
static double sigma_report;

/* A standard normal draw (Box-Muller), for the report-level offset. */
static double normal(uint64_t *rng)
{
	double u = ((double)(nb_cp_rand(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(nb_cp_rand(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* One commit: a report of runs_per_report runs, each the level times (1 + the report's offset + one
 * recorded residual drawn with replacement); what the rules see of it: its runs' median (the value
 * the history shows) and their mean (the value the test judges). */
/* the runs of the series being made, commit by commit */
static double last_runs[MAX_N][64];
static int n_last;
static void draw_commit(uint64_t *rng, double level, double *median, double *mean)
{
	double *runs = last_runs[n_last++], sum = 0, offset = sigma_report > 0 ? sigma_report * normal(rng) : 0;

	for (int i = 0; i < runs_per_report; i++) {
		runs[i] = level * (1 + offset + pool[nb_cp_rand_below(rng, (uint32_t)n_pool)]);
		sum += runs[i];
	}
	*median = nb_stats_median(runs, runs_per_report);
	*mean = sum / runs_per_report;
}

enum kind { FLAT, STEP, SPIKE, DRIFT, MISSING };

/* The rules compared: nicbench's test on each commit's median of runs (before), on each commit's
 * mean of runs, and on each commit's mean rank of its runs among the series' (`history analyze`'s);
 * Perfherder's on the means (it averages a push's replicates). */
enum rule { RULE_MEDIAN, RULE_MEAN, RULE_RANKS, RULE_PERFHERDER, N_RULES };

struct cell_result {
	int hits[N_RULES];   /* a change found within 1 of the planted step */
	int alarms[N_RULES]; /* any change in a series where none should be */
};

/* Build one series of n commits; the planted step (if any) starts at n/2, a regression. */
static int make(enum kind k, int n, double step_pct, uint64_t *rng, double *med, double *mean, int *step_at)
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
		draw_commit(rng, level, &med[len], &mean[len]);
		len++;
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

/* nicbench's rule on one series, as `history analyze` runs it: the change points the test finds on
 * `judged`, after the effect rule on `values` (the commits' medians or means, in the metric's unit). */
static int nicbench_rule(const double *judged, const double *values, int len, const struct nb_cp_options *o,
			 struct nb_cp *cps, int max)
{
	int n = nb_cp_find(judged, len, o, cps, max);

	return n > 0 ? nb_cp_keep_effective(values, len, cps, n, 2.0, 0) : 0;
}

static void tally(struct cell_result *res, enum rule r, const struct nb_cp *cps, int n, int step_at)
{
	if (step_at >= 0)
		res->hits[r] += near_step(cps, n, step_at);
	else
		res->alarms[r] += n > 0;
}

static void run_cell(enum kind k, int n, double step_pct, int series, uint64_t seed, struct cell_result *res)
{
	struct nb_cp_options o;
	uint64_t rng = seed;
	double med[MAX_N], mean[MAX_N], score[MAX_N], all[MAX_N * 64], ranks[MAX_N * 64];

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
		int step_at, len;

		n_last = 0;
		len = make(k, n, step_pct, &rng, med, mean, &step_at);

		/* both of nicbench's rules get the same permutations' seed: only the commit value differs */
		o.seed = nb_cp_rand(&rng);
		tally(res, RULE_MEDIAN, cps, nicbench_rule(med, med, len, &o, cps, 16), step_at);
		/* each commit's score: the mean rank of its runs among all the series' runs */
		for (int i = 0; i < len; i++)
			memcpy(all + (size_t)i * runs_per_report, last_runs[i], sizeof(double) * (size_t)runs_per_report);
		if (nb_cp_midranks(all, len * runs_per_report, ranks))
			abort();
		for (int i = 0; i < len; i++) {
			double sum = 0;

			for (int a = 0; a < runs_per_report; a++)
				sum += ranks[i * runs_per_report + a];
			score[i] = sum / runs_per_report;
		}
		tally(res, RULE_MEAN, cps, nicbench_rule(mean, mean, len, &o, cps, 16), step_at);
		tally(res, RULE_RANKS, cps, nicbench_rule(score, med, len, &o, cps, 16), step_at);
		tally(res, RULE_PERFHERDER, cps, nb_cp_perfherder(mean, len, 12, 7, 2, cps, 16), step_at);
	}
}

static void print_row(const char *name, int n, int series, const struct cell_result *r, bool alarms, const char *what)
{
	printf("%-26s %6d %7d", name, n, series);
	for (int i = 0; i < N_RULES; i++) {
		int c = alarms ? r->alarms[i] : r->hits[i];

		printf("   %4d (%5.1f%%)", c, 100.0 * c / series);
	}
	printf("   %s\n", what);
}

int main(int argc, char **argv)
{
	static const double steps[] = { 5, 10, 15, 20, 30 };
	int lengths[8], n_lengths = 0;
	const char *env_lengths = getenv("NB_SIM_LENGTHS");
	FILE *f;
	int series;
	uint64_t seed;
	char line[128];

	if (argc != 6) {
		fprintf(stderr, "usage: history_sim POOL_FILE SERIES_PER_CELL SEED RUNS_PER_REPORT SIGMA_REPORT\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	series = atoi(argv[2]);
	seed = strtoull(argv[3], NULL, 10);
	runs_per_report = atoi(argv[4]);
	sigma_report = atof(argv[5]);
	if (!f || series < 1 || runs_per_report < 1 || runs_per_report > 64 || sigma_report < 0) {
		fprintf(stderr, "history_sim: cannot read %s, or no series, or runs not 1..64, or a negative sigma\n",
			argv[1]);
		return 2;
	}
	while (n_pool < MAX_POOL && fgets(line, sizeof(line), f))
		pool[n_pool++] = strtod(line, NULL);
	fclose(f);
	if (n_pool < 2) {
		fprintf(stderr, "history_sim: %s holds fewer than 2 residuals\n", argv[1]);
		return 2;
	}
	/* NB_SIM_LENGTHS="20 30": the series lengths (default 20 30 60) */
	for (const char *p = env_lengths ? env_lengths : "20 30 60"; *p && n_lengths < 8;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (v >= 6 && v <= MAX_N)
			lengths[n_lengths++] = (int)v;
		p = end;
	}
	printf("%-26s %6s %7s   %-15s   %-15s   %-15s   %-15s\n", "series", "points", "series", "t: median",
	       "t: mean of runs", "t: rank of runs", "Perfherder");
	for (int li = 0; li < n_lengths; li++) {
		int n = lengths[li];
		struct cell_result r;

		run_cell(FLAT, n, 0, series, seed + n, &r);
		print_row("A/A, no change", n, series, &r, true, "false alarms");
		/* NB_SIM_AA_ONLY: the false-alarm rate alone, on many series */
		for (size_t si = 0; !getenv("NB_SIM_AA_ONLY") && si < sizeof(steps) / sizeof(steps[0]); si++) {
			char name[64];

			snprintf(name, sizeof(name), "step -%g%% at the middle", steps[si]);
			run_cell(STEP, n, steps[si], series, seed + n * 100 + (uint64_t)steps[si], &r);
			print_row(name, n, series, &r, false, "detected");
		}
		if (getenv("NB_SIM_AA_ONLY"))
			continue;
		run_cell(MISSING, n, 10, series, seed + n * 1000, &r);
		print_row("step -10%, 1/5 missing", n, series, &r, false, "detected");
		run_cell(SPIKE, n, 0, series, seed + n * 10000, &r);
		print_row("one commit -30% alone", n, series, &r, true, "false alarms");
		run_cell(DRIFT, n, 0, series, seed + n * 100000, &r);
		print_row("drift -10% over it", n, series, &r, true, "flagged");
	}
	return 0;
}
