// SPDX-License-Identifier: MIT
/* Tests for the latency histogram: percentiles against the exact sorted values, merging, bucket edges. */
#include "traffic/latency_hist.h"

#include <stdint.h>

#include "nb_test.h"

#define N 200000

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double uniform01(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

enum dist { D_SMALL, D_EXP, D_BIMODAL, D_CONST, D_HUGE, D_COUNT };
static const char *const dist_names[] = { "small integers", "exponential", "bimodal", "constant", "huge" };

static uint64_t draw(enum dist d)
{
	switch (d) {
	case D_SMALL: return rng() % 300;                                 /* the exact region and just above */
	case D_EXP: return (uint64_t)(10000 - 40000 * log(1 - uniform01()));  /* 10 us + exp(40 us), ns */
	case D_BIMODAL: return uniform01() < 0.97 ? 50000 + rng() % 5000 : 5000000 + rng() % 2000000;
	case D_CONST: return 123456;
	case D_HUGE: return (1ull << 36) + rng() % (1ull << 38);          /* past the last bucket */
	default: return 0;
	}
}

static void check_percentiles(enum dist d, uint64_t *vals, int n)
{
	static const double ps[] = { 0.001, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	struct nb_hist *h = calloc(1, sizeof(*h));
	double worst = 0;
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		vals[i] = draw(d);
		nb_hist_record(h, vals[i]);
		sum += vals[i];
	}
	qsort(vals, (size_t)n, sizeof(vals[0]), cmp_u64);
	CHECK(h->count == (uint64_t)n);
	CHECK(h->min_ns == vals[0]);
	CHECK(h->max_ns == vals[n - 1]);
	CHECK_NEAR(nb_hist_mean_ns(h), (double)sum / n, 1e-6 * (double)sum / n);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		/* nearest rank: the value at rank ceil(p/100 * n) */
		int rank = (int)ceil(ps[i] / 100.0 * n);
		double exact = (double)vals[(rank < 1 ? 1 : rank) - 1];
		double est = nb_hist_percentile_ns(h, ps[i]);
		double rel = exact > 0 ? fabs(est - exact) / exact : fabs(est - exact);

		if (d == D_HUGE && exact >= (double)(1ull << NB_HIST_MAX_EXP) && ps[i] < 100)
			continue;  /* beyond the histogram's range only min, max and mean are exact */
		worst = rel > worst ? rel : worst;
		CHECK_MSG(rel <= 0.01, "%s p%g: histogram %.1f, exact %.1f (%.3f%%)", dist_names[d], ps[i], est, exact,
			  rel * 100);
		CHECK_MSG(rel <= NB_HIST_REL_ERROR + 1e-12, "%s p%g: %.4f%% above the stated bound", dist_names[d], ps[i],
			  rel * 100);
	}
	printf("%-15s worst relative error %.4f%% (bound %.4f%%)\n", dist_names[d], worst * 100, NB_HIST_REL_ERROR * 100);
	free(h);
}

static void test_bucket_edges(void)
{
	uint64_t prev_hi = 0;

	for (int i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		nb_hist_bucket_range(i, &lo, &hi);
		if (lo != prev_hi || hi <= lo || nb_hist_bucket_of(lo) != i || nb_hist_bucket_of(hi - 1) != i) {
			CHECK_MSG(0, "bucket %d: [%llu, %llu) after %llu", i, (unsigned long long)lo, (unsigned long long)hi,
				  (unsigned long long)prev_hi);
			return;
		}
		/* width over lower edge: the relative resolution */
		if (lo >= NB_HIST_SUB && (double)(hi - lo) / (double)lo > 1.0 / NB_HIST_SUB + 1e-12) {
			CHECK_MSG(0, "bucket %d is %.3f%% wide", i, 100.0 * (double)(hi - lo) / (double)lo);
			return;
		}
		prev_hi = hi;
	}
	CHECK(prev_hi == 1ull << NB_HIST_MAX_EXP);
	CHECK(nb_hist_bucket_of(UINT64_MAX) == NB_HIST_BUCKETS - 1);
	CHECK(nb_hist_bucket_of(0) == 0);
}

/* Flows record separately and are merged: the result is the histogram of all values. */
static void test_merge(void)
{
	struct nb_hist *whole = calloc(1, sizeof(*whole)), *parts = calloc(3, sizeof(*parts)),
		       *merged = calloc(1, sizeof(*merged));

	for (int i = 0; i < 30000; i++) {
		uint64_t v = draw(i % 2 ? D_EXP : D_BIMODAL);

		nb_hist_record(whole, v);
		nb_hist_record(&parts[rng() % 3], v);
	}
	nb_hist_merge(merged, &parts[2]);  /* into an empty one first: min must come from src */
	nb_hist_merge(merged, &parts[0]);
	nb_hist_merge(merged, &parts[1]);
	CHECK(merged->count == whole->count);
	CHECK(merged->sum_ns == whole->sum_ns);
	CHECK(merged->min_ns == whole->min_ns);
	CHECK(merged->max_ns == whole->max_ns);
	CHECK(!memcmp(merged->buckets, whole->buckets, sizeof(whole->buckets)));
	CHECK(nb_hist_percentile_ns(merged, 99) == nb_hist_percentile_ns(whole, 99));
	free(whole);
	free(parts);
	free(merged);
}

static void test_edges(void)
{
	struct nb_hist *h = calloc(1, sizeof(*h));

	CHECK(nb_hist_percentile_ns(h, 50) < 0);  /* empty: no figure */
	CHECK(nb_hist_mean_ns(h) < 0);
	nb_hist_record(h, 777);
	CHECK(nb_hist_percentile_ns(h, 50) == 777); /* one value: every percentile is that value (clamped) */
	CHECK(nb_hist_percentile_ns(h, 100) == 777);
	CHECK(nb_hist_percentile_ns(h, 0) < 0);     /* p outside (0, 100] */
	CHECK(nb_hist_percentile_ns(h, 101) < 0);
	free(h);
}

int main(void)
{
	uint64_t *vals = malloc(N * sizeof(*vals));

	for (int d = 0; d < D_COUNT; d++)
		check_percentiles((enum dist)d, vals, N);
	free(vals);
	test_bucket_edges();
	test_merge();
	test_edges();
	return nb_test_done("rr histogram");
}
