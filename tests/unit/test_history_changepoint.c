// SPDX-License-Identifier: MIT
/* history/changepoint.c: E-Divisive means with the permutation test, and Perfherder's rule, on
 * series with a known answer: a step, none, one spike, two steps, a change at the window's edge;
 * the midranks `history analyze` judges runs by. */
#include "history/changepoint.h"
#include "nb_test.h"

#include <errno.h>
#include <stdint.h>

/* A series of n values around level with a noise of sd (relative), from a seeded generator. */
static void make_series(double *x, int n, double level, double sd, uint64_t seed)
{
	uint64_t st = seed;

	for (int i = 0; i < n; i++) {
		/* the sum of 4 uniforms, centred and scaled to a standard deviation of 1 */
		double u = 0;

		for (int k = 0; k < 4; k++)
			u += (double)(nb_cp_rand(&st) >> 11) / 9007199254740992.0;
		x[i] = level * (1 + sd * (u - 2) * 1.7320508);
	}
}

static void test_step(void)
{
	struct nb_cp_options o;
	struct nb_cp cps[8];
	double x[30];
	int n;

	nb_cp_options_init(&o);
	make_series(x, 30, 1000, 0.03, 7);
	for (int i = 20; i < 30; i++)
		x[i] *= 0.85;
	n = nb_cp_find(x, 30, &o, cps, 8);
	CHECK_MSG(n == 1, "%d change points", n);
	if (n >= 1) {
		CHECK_MSG(cps[0].index == 20, "at %d", cps[0].index);
		CHECK(cps[0].p_value <= o.alpha);
	}
	/* the same seed, the same answer */
	struct nb_cp again[8];
	int n2 = nb_cp_find(x, 30, &o, again, 8);

	CHECK(n2 == n && (n < 1 || (again[0].index == cps[0].index && again[0].p_value == cps[0].p_value)));
	/* E-Divisive's own statistic finds it too */
	o.test = NB_CP_TEST_ENERGY;
	n = nb_cp_find(x, 30, &o, cps, 8);
	CHECK_MSG(n == 1 && cps[0].index == 20, "energy: %d change points, first at %d", n, n > 0 ? cps[0].index : -1);
}

static void test_flat_and_spike(void)
{
	struct nb_cp_options o;
	struct nb_cp cps[8];
	double x[30];
	int flat_alarms = 0;

	nb_cp_options_init(&o);
	/* 50 flat series: alpha 0.01 allows a false alarm now and then, not many */
	for (uint64_t seed = 1; seed <= 50; seed++) {
		make_series(x, 30, 1000, 0.03, seed);
		flat_alarms += nb_cp_find(x, 30, &o, cps, 8) > 0;
	}
	CHECK_MSG(flat_alarms <= 2, "%d of 50 flat series had a change point", flat_alarms);
	/* a constant series: every permutation ties, never a change */
	for (int i = 0; i < 30; i++)
		x[i] = 5;
	CHECK(nb_cp_find(x, 30, &o, cps, 8) == 0);
	/* one spike of -30% in the middle, and at the window's end (min segment: no segment of one) */
	make_series(x, 30, 1000, 0.03, 3);
	x[14] *= 0.7;
	int n = nb_cp_find(x, 30, &o, cps, 8);

	CHECK_MSG(n == 0, "a spike gave %d change points (first at %d)", n, n > 0 ? cps[0].index : -1);
	make_series(x, 30, 1000, 0.03, 3);
	x[29] *= 0.7;
	n = nb_cp_find(x, 30, &o, cps, 8);
	CHECK_MSG(n == 0 || cps[n - 1].index <= 30 - o.min_segment, "a change point at %d", cps[n - 1].index);
}

static void test_edges_and_two_steps(void)
{
	struct nb_cp_options o;
	struct nb_cp cps[8];
	double x[40];
	int n;

	nb_cp_options_init(&o);
	/* a change after the second point: inside the edge buffer, so it cannot be where a split lands */
	make_series(x, 30, 1000, 0.02, 11);
	for (int i = 2; i < 30; i++)
		x[i] *= 0.8;
	n = nb_cp_find(x, 30, &o, cps, 8);
	for (int i = 0; i < n; i++)
		CHECK_MSG(cps[i].index >= o.edge_buffer, "a change point at %d, inside the buffer", cps[i].index);
	/* two steps: down at 15, back up at 28 */
	make_series(x, 40, 1000, 0.02, 12);
	for (int i = 15; i < 28; i++)
		x[i] *= 0.8;
	n = nb_cp_find(x, 40, &o, cps, 8);
	CHECK_MSG(n == 2, "%d change points", n);
	if (n == 2) {
		CHECK_MSG(cps[0].index == 15, "first at %d", cps[0].index);
		CHECK_MSG(cps[1].index == 28, "second at %d", cps[1].index);
	}
	/* too short for two segments: nothing, and bad options are refused */
	CHECK(nb_cp_find(x, 5, &o, cps, 8) == 0);
	o.min_segment = 1;
	CHECK(nb_cp_find(x, 40, &o, cps, 8) == -EINVAL);
}

static void test_perfherder(void)
{
	struct nb_cp cps[8];
	double x[40];
	int n;

	make_series(x, 40, 1000, 0.02, 21);
	for (int i = 24; i < 40; i++)
		x[i] *= 0.85;
	n = nb_cp_perfherder(x, 40, 12, 7, 2, cps, 8);
	CHECK_MSG(n == 1 && cps[0].index == 24, "%d changes, first at %d", n, n ? cps[0].index : -1);
	make_series(x, 40, 1000, 0.02, 22);
	CHECK(nb_cp_perfherder(x, 40, 12, 7, 2, cps, 8) == 0);
}

/* Midranks: the order of the values, ties sharing their mean rank; and a step judged on the mean
 * rank of each commit's runs is found where it is. */
static void test_midranks(void)
{
	const double v[] = { 3.0, 1.0, 2.0, 2.0, 5.0, 2.0 };
	const double want[] = { 5, 1, 3, 3, 6, 3 };
	double r[6], runs[90], score[30];
	struct nb_cp_options o;
	struct nb_cp cps[8];
	int n;

	CHECK(nb_cp_midranks(v, 6, r) == 0);
	for (int i = 0; i < 6; i++)
		CHECK_MSG(r[i] == want[i], "value %d: rank %g, want %g", i, r[i], want[i]);
	CHECK(nb_cp_midranks(v, 0, r) == 0);
	/* 30 commits of 3 runs each, 5% noise a run, 15% lower from commit 18 */
	make_series(runs, 90, 1000, 0.05, 31);
	for (int i = 18 * 3; i < 90; i++)
		runs[i] *= 0.85;
	CHECK(nb_cp_midranks(runs, 90, runs) == 0); /* in place is fine: each rank lands on its own slot */
	for (int i = 0; i < 30; i++)
		score[i] = (runs[3 * i] + runs[3 * i + 1] + runs[3 * i + 2]) / 3;
	nb_cp_options_init(&o);
	n = nb_cp_find(score, 30, &o, cps, 8);
	CHECK_MSG(n == 1 && cps[0].index == 18, "%d change points, first at %d", n, n ? cps[0].index : -1);
}

/* Reports as the units: six commits of two boots each, 20% lower from the fourth. Over the six
 * commits' values no split can reach alpha (20 ways to split them); over the twelve boots it can. */
static void test_units(void)
{
	int starts[7] = { 0, 2, 4, 6, 8, 10, 12 }, bad[7] = { 0, 2, 2, 6, 8, 10, 12 }, one[31];
	double boots[12], commits[6], x[30];
	struct nb_cp_options o;
	struct nb_cp cps[8], again[8];
	int n, n2;

	nb_cp_options_init(&o);
	make_series(boots, 12, 600, 0.02, 41);
	for (int i = 6; i < 12; i++)
		boots[i] *= 0.80;
	for (int c = 0; c < 6; c++)
		commits[c] = (boots[2 * c] + boots[2 * c + 1]) / 2;
	CHECK(nb_cp_find(commits, 6, &o, cps, 8) == 0);
	n = nb_cp_find_units(boots, starts, 6, &o, cps, 8);
	CHECK_MSG(n == 1 && cps[0].index == 3 && cps[0].p_value <= o.alpha, "%d change points, first at %d, p %g", n,
		  n ? cps[0].index : -1, n ? cps[0].p_value : 1.0);
	make_series(boots, 12, 600, 0.02, 42);
	CHECK(nb_cp_find_units(boots, starts, 6, &o, cps, 8) == 0);
	CHECK(nb_cp_find_units(boots, bad, 6, &o, cps, 8) == -EINVAL);
	CHECK(nb_cp_find_units(boots, NULL, 6, &o, cps, 8) == -EINVAL);
	o.test = NB_CP_TEST_ENERGY;
	CHECK(nb_cp_find_units(boots, starts, 6, &o, cps, 8) == -EINVAL);
	/* one unit a commit: the same answer as nb_cp_find, p-values included */
	nb_cp_options_init(&o);
	make_series(x, 30, 1000, 0.03, 43);
	for (int i = 12; i < 30; i++)
		x[i] *= 0.9;
	for (int i = 0; i <= 30; i++)
		one[i] = i;
	n = nb_cp_find(x, 30, &o, cps, 8);
	n2 = nb_cp_find_units(x, one, 30, &o, again, 8);
	CHECK_MSG(n >= 1 && n == n2, "%d and %d change points", n, n2);
	for (int i = 0; i < n && i < n2; i++)
		CHECK(cps[i].index == again[i].index && cps[i].p_value == again[i].p_value);
}

int main(void)
{
	test_midranks();
	test_units();
	test_step();
	test_flat_and_spike();
	test_edges_and_two_steps();
	test_perfherder();
	return nb_test_done("test_history_changepoint");
}
