// SPDX-License-Identifier: MIT
/* Unit tests for compare_stats: medians, exact and approximate Mann-Whitney p-values, bounded changes. */
#include <stdbool.h>

#include "compare/compare_stats.h"
#include "nb_test.h"

struct mw_case {
	const char *what;
	double a[8];
	int na;
	double b[8];
	int nb;
	double p; /* from a brute-force enumeration of all rank assignments */
};

static const struct mw_case mw_cases[] = {
	{ "3v3 separated", { 1, 2, 3 }, 3, { 4, 5, 6 }, 3, 0.1 },
	{ "3v3 separated, reversed", { 4, 5, 6 }, 3, { 1, 2, 3 }, 3, 0.1 },
	{ "4v4 separated", { 1, 2, 3, 4 }, 4, { 5, 6, 7, 8 }, 4, 2.0 / 70 },
	{ "5v5 separated", { 1, 2, 3, 4, 5 }, 5, { 6, 7, 8, 9, 10 }, 5, 2.0 / 252 },
	{ "5v5 overlapping with ties", { 1, 2, 3, 4, 5 }, 5, { 3, 4, 5, 6, 7 }, 5, 0.12698412698412698 },
	{ "3v3 ties", { 1, 1, 2 }, 3, { 2, 3, 3 }, 3, 0.2 },
	{ "4v4 heavy ties", { 10, 10, 10, 11 }, 4, { 10, 12, 12, 13 }, 4, 0.14285714285714285 },
	{ "interleaved", { 5, 6, 7 }, 3, { 5.5, 6.5, 7.5 }, 3, 0.7 },
	{ "all equal", { 1, 1, 1 }, 3, { 1, 1, 1 }, 3, 1.0 },
	{ "one differs", { 0, 0, 0 }, 3, { 0, 0, 1 }, 3, 1.0 },
	{ "empty side", { 1, 2, 3 }, 3, { 0 }, 0, 1.0 },
	{ "3v5 separated", { 1, 2, 3 }, 3, { 4, 5, 6, 7, 8 }, 5, 2.0 / 56 },
};

static void test_mann_whitney_exact(void)
{
	for (size_t i = 0; i < sizeof(mw_cases) / sizeof(mw_cases[0]); i++) {
		const struct mw_case *c = &mw_cases[i];
		double p = nb_stats_mann_whitney_p(c->a, c->na, c->b, c->nb);

		CHECK_MSG(fabs(p - c->p) < 1e-9, "%s: p=%.12g, expected %.12g", c->what, p, c->p);

		/* The cached no-tie path must agree wherever it applies. */
		bool ties;
		long u2 = nb_stats_mann_whitney_u2(c->a, c->na, c->b, c->nb, &ties);
		double counts[65];

		if (!ties && c->na && c->nb && nb_stats_u_distribution(c->na, c->nb, counts) == 0) {
			double pc = nb_stats_u_p_value(counts, c->na, c->nb, u2);

			CHECK_MSG(fabs(pc - c->p) < 1e-9, "%s: cached p=%.12g, expected %.12g", c->what, pc, c->p);
		}
	}
	/* The number of placements sums to C(na + nb, na): 252 for 5 v 5. */
	double counts[26], total = 0;

	CHECK(nb_stats_u_distribution(5, 5, counts) == 0);
	for (int u = 0; u <= 25; u++)
		total += counts[u];
	CHECK_NEAR(total, 252, 1e-9);
	CHECK_NEAR(counts[0], 1, 1e-12);
	CHECK_NEAR(counts[4], 5, 1e-12);
}

static void test_mann_whitney_normal(void)
{
	double a[40], b[40];
	double p;

	/* 80 values: beyond the exact limit, so the normal approximation answers. */
	for (int i = 0; i < 40; i++) {
		a[i] = i;
		b[i] = 100 + i;
	}
	p = nb_stats_mann_whitney_p(a, 40, b, 40);
	CHECK_MSG(p < 1e-9 && p >= 0, "separated p=%g", p);
	for (int i = 0; i < 40; i++)
		b[i] = i + 0.5;
	p = nb_stats_mann_whitney_p(a, 40, b, 40);
	CHECK_MSG(p > 0.5 && p <= 1, "interleaved p=%g", p);
	/* Near the limit both methods should roughly agree (30 v 30 exact vs 31 v 31 approx). */
	for (int i = 0; i < 31; i++) {
		a[i] = i;
		b[i] = i + 4;
	}
	double exact = nb_stats_mann_whitney_p(a, 30, b, 30);
	double approx = nb_stats_mann_whitney_p(a, 31, b, 31);

	CHECK_MSG(fabs(exact - approx) < 0.1, "exact %g vs approx %g", exact, approx);
}

struct median_case {
	double v[6];
	int n;
	double median;
};

static const struct median_case median_cases[] = {
	{ { 3, 1, 2 }, 3, 2 },
	{ { 4, 1, 3, 2 }, 4, 2.5 },
	{ { 7 }, 1, 7 },
	{ { 0 }, 0, 0 },
	{ { 5, 5, 1, 9, 5, 0 }, 6, 5 },
};

static void test_median(void)
{
	for (size_t i = 0; i < sizeof(median_cases) / sizeof(median_cases[0]); i++)
		CHECK_NEAR(nb_stats_median(median_cases[i].v, median_cases[i].n), median_cases[i].median, 1e-12);
}

struct change_case {
	double base, new;
	double pct;
	bool capped;
};

static const struct change_case change_cases[] = {
	{ 500e6, 530e6, 6, false },
	{ 400e6, 536e6, 34, false },
	{ 100e6, 600e6, 500, false },
	{ 500e6, 380e6, -24, false },
	{ 0, 0, 0, false },
	{ 0, 420e6, 10000, true },      /* zero base: bounded, never inf */
	{ 61e3, 420e6, 10000, true },   /* near-zero base: bounded */
	{ 100, 0, -100, false },
	{ 1e-300, 1e300, 10000, true }, /* would overflow to inf */
	{ 100, 10100, 10000, true },    /* exactly at the cap */
};

static void test_change_pct(void)
{
	for (size_t i = 0; i < sizeof(change_cases) / sizeof(change_cases[0]); i++) {
		const struct change_case *c = &change_cases[i];
		bool capped;
		double pct = nb_stats_change_pct(c->base, c->new, 10000, &capped);

		CHECK_MSG(isfinite(pct) && fabs(pct - c->pct) < 1e-9, "case %zu: %g%%, expected %g%%", i, pct, c->pct);
		CHECK_MSG(capped == c->capped, "case %zu: capped %d", i, capped);
	}
}

struct ci_case {
	const char *what;
	double a[8];
	int na;
	double b[8];
	int nb;
	double alpha;
	bool ok;
	double lo, hi;
};

static const struct ci_case ci_cases[] = {
	/* 3 v 3 at 90%: P(U = 0) = 1/20 = alpha / 2, so k = 1: the extreme differences. */
	{ "3v3 at 90%", { 1, 2, 3 }, 3, { 4, 5, 6 }, 3, 0.10, true, 1, 5 },
	{ "3v3 at 95% is out of reach", { 1, 2, 3 }, 3, { 4, 5, 6 }, 3, 0.05, false, 0, 0 },
	/* 5 v 5: P(U <= 4) = 12/252 <= 0.05 < P(U <= 5) = 19/252, so k = 5. */
	{ "5v5 at 90%", { 1, 2, 3, 4, 5 }, 5, { 6, 7, 8, 9, 10 }, 5, 0.10, true, 3, 7 },
	{ "2v2 at 90% is out of reach", { 1, 2 }, 2, { 3, 4 }, 2, 0.10, false, 0, 0 },
	{ "downward shift", { 100, 101, 99 }, 3, { 70, 71, 69 }, 3, 0.10, true, -32, -28 },
};

static void test_shift_ci(void)
{
	for (size_t i = 0; i < sizeof(ci_cases) / sizeof(ci_cases[0]); i++) {
		const struct ci_case *c = &ci_cases[i];
		double lo = 0, hi = 0;
		bool ok = nb_stats_shift_ci(c->a, c->na, c->b, c->nb, c->alpha, &lo, &hi);

		CHECK_MSG(ok == c->ok, "%s: reachable %d", c->what, ok);
		if (ok && c->ok)
			CHECK_MSG(lo == c->lo && hi == c->hi, "%s: [%g, %g], expected [%g, %g]", c->what, lo, hi, c->lo, c->hi);
	}
	/* The normal approximation's k for large samples stays inside the differences. */
	double a[40], b[40], lo, hi;

	for (int i = 0; i < 40; i++) {
		a[i] = i;
		b[i] = i + 10;
	}
	CHECK(nb_stats_shift_ci(a, 40, b, 40, 0.10, &lo, &hi) && lo < 10 && hi > 10 && lo > 0 && hi < 20);
}

int main(void)
{
	test_shift_ci();
	test_mann_whitney_exact();
	test_mann_whitney_normal();
	test_median();
	test_change_pct();
	return nb_test_done("test_compare_stats");
}
