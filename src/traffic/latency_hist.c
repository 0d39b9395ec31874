// SPDX-License-Identifier: MIT
/* Log-bucketed latency histogram: record, merge and nearest-rank percentiles with <= 0.4% error. */
#include "traffic/latency_hist.h"

#include <math.h>
#include <string.h>

int nb_hist_bucket_of(uint64_t ns)
{
	int e, shift, idx;

	if (ns < NB_HIST_SUB)
		return (int)ns;
	e = 63 - __builtin_clzll(ns);
	if (e >= NB_HIST_MAX_EXP)
		return NB_HIST_BUCKETS - 1;
	shift = e - NB_HIST_SUB_BITS;
	idx = (int)NB_HIST_SUB + shift * (int)NB_HIST_SUB + (int)((ns >> shift) - NB_HIST_SUB);
	return idx;
}

void nb_hist_bucket_range(int idx, uint64_t *lo, uint64_t *hi)
{
	int shift, sub;

	if (idx < (int)NB_HIST_SUB) {
		*lo = (uint64_t)idx;
		*hi = (uint64_t)idx + 1;
		return;
	}
	shift = (idx - (int)NB_HIST_SUB) / (int)NB_HIST_SUB;
	sub = (idx - (int)NB_HIST_SUB) % (int)NB_HIST_SUB;
	*lo = ((uint64_t)NB_HIST_SUB + (uint64_t)sub) << shift;
	*hi = *lo + (1ull << shift);
}

void nb_hist_record(struct nb_hist *h, uint64_t ns)
{
	if (h->count == 0 || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
	h->buckets[nb_hist_bucket_of(ns)]++;
}

void nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (int i = 0; i < NB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

double nb_hist_percentile_ns(const struct nb_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0 || !(p > 0 && p <= 100))
		return -1;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return (double)h->max_ns;  /* the top rank is the maximum, known exactly */
	for (int i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo, hi;
		double mid;

		seen += h->buckets[i];
		if (seen < rank)
			continue;
		nb_hist_bucket_range(i, &lo, &hi);
		mid = (double)lo + (double)(hi - lo - 1) / 2.0;
		/* the true value is in the bucket and within [min, max] */
		if (mid < (double)h->min_ns)
			mid = (double)h->min_ns;
		if (mid > (double)h->max_ns)
			mid = (double)h->max_ns;
		return mid;
	}
	return (double)h->max_ns;
}

double nb_hist_mean_ns(const struct nb_hist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : -1;
}
