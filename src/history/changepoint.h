// SPDX-License-Identifier: MIT
/* Change points of one series (pure, no I/O): E-Divisive means (Matteson and James, 2014), each
 * split tested by a seeded permutation test, with a minimum segment length and a buffer at the
 * window's start; and Perfherder's t-test rule, for bench/history-sim to run beside it. */
#ifndef NB_CHANGEPOINT_H
#define NB_CHANGEPOINT_H

#include <stdint.h>

/* What the permutation test judges: E-Divisive places the split either way. */
enum nb_cp_test {
	NB_CP_TEST_T,      /* the largest two-sample t over the splits: a shift of the mean (default) */
	NB_CP_TEST_ENERGY, /* E-Divisive's own statistic: any change of the distribution, less power */
};

struct nb_cp_options {
	enum nb_cp_test test;
	int min_segment;  /* a segment has at least this many points: one spike is never a segment */
	int edge_buffer;  /* no change point among the first this many points of the window */
	int permutations; /* of the permutation test */
	double alpha;     /* a split is kept when its permutation p-value is at most this */
	uint64_t seed;    /* the permutations' seed: the same series gives the same answer */
};

/* the t test, min_segment 3, edge_buffer 3, 999 permutations, alpha 0.01, seed 1 (docs/history.md
 * says why). */
void nb_cp_options_init(struct nb_cp_options *o);

struct nb_cp {
	int index;      /* the first point of the new segment */
	double p_value; /* the permutation test's (Perfherder: 0) */
	double stat;    /* the judged statistic: the largest t, or the split's E-Divisive energy (Perfherder: its t) */
};

/* The change points of x[0..n) in ascending order, at most max of them: the count, or -EINVAL
 * (bad options), -ENOMEM. Each split is the one the judged statistic picks over the segment (the
 * largest t; E-Divisive's best split for the energy test); it is kept when the permutation test
 * finds it significant, then both sides are searched again. Deterministic for a given seed. */
int nb_cp_find(const double *x, int n, const struct nb_cp_options *o, struct nb_cp *cps, int max);

/* The same over commits that hold several units each (reports: boots or rounds), for the t test
 * (-EINVAL for the energy test): x the units' values in commit order, starts[0..n] where each
 * commit's units begin (starts[0] = 0, starts[n] the unit count, each commit at least one). Splits
 * fall between commits, the minimum segment and the edge buffer count commits, the indices returned
 * are commits; the permutations shuffle units. That is exact when the units are exchangeable without
 * a change: independent boots measured interleaved with other commits' (scripts/lab rounds), not
 * reports of one commit that share a session. With one unit a commit it is nb_cp_find. */
int nb_cp_find_units(const double *x, const int *starts, int n, const struct nb_cp_options *o, struct nb_cp *cps,
		     int max);

/* Each of v[0..n)'s midrank among them (1..n; equal values share their mean rank), into ranks:
 * 0 or -ENOMEM. `history analyze` judges a series on each commit's mean rank of its runs among all
 * the series' runs (Wilcoxon's scores): every run counts, and neither a bimodal run-to-run noise
 * (where a median of 3 runs is worse than a mean) nor one wild run (where a mean is worse than a
 * median) costs it much; bench/history-sim measures the three. */
int nb_cp_midranks(const double *v, int n, double *ranks);

/* Of n change points of x[0..len), those whose segments' medians differ by at least min_pct percent
 * and by more than floor (in x's unit); a dropped one merges its two segments and the rest are
 * judged again on the wider ones. Returns how many are kept (moved to the front of cps). */
int nb_cp_keep_effective(const double *x, int len, struct nb_cp *cps, int n, double min_pct, double floor);

/* Perfherder's rule (Mozilla's detect_changes): at each point, Welch's t between up to `window`
 * points before and after it (at least 2 on each side); a change where t exceeds t_min, is the
 * largest t of its run above t_min, and the means differ by at least min_pct percent. */
int nb_cp_perfherder(const double *x, int n, int window, double t_min, double min_pct, struct nb_cp *cps, int max);

/* A small seeded generator (splitmix64), shared with the bootstrap and the bench. */
uint64_t nb_cp_rand(uint64_t *state);
/* Uniform in [0, bound). */
uint32_t nb_cp_rand_below(uint64_t *state, uint32_t bound);

#endif
