// SPDX-License-Identifier: MIT
/* A log-bucketed latency histogram (nanoseconds) with a bounded relative error, for the rr tests. */
#ifndef NB_LATENCY_HIST_H
#define NB_LATENCY_HIST_H

#include <stdint.h>

/* Values below 2^SUB_BITS ns get a bucket each; above, every power of two is split into
 * 2^SUB_BITS equal buckets, so a bucket is at most 1/128 of its lower edge wide and its
 * midpoint is within 0.4% of any value in it (the issue asks for <= 1%). */
#define NB_HIST_SUB_BITS 7
#define NB_HIST_SUB (1u << NB_HIST_SUB_BITS)
/* 2^36 ns is 68.7 s: longer values land in the last bucket (max stays exact). */
#define NB_HIST_MAX_EXP 36
#define NB_HIST_BUCKETS ((int)NB_HIST_SUB * (NB_HIST_MAX_EXP - NB_HIST_SUB_BITS + 1))
/* The largest relative distance of a bucket's midpoint from a value in it. */
#define NB_HIST_REL_ERROR (0.5 / NB_HIST_SUB)

struct nb_hist {
	uint64_t count;
	uint64_t sum_ns;       /* exact: the mean is not a bucket estimate */
	uint64_t min_ns, max_ns;
	uint64_t buckets[NB_HIST_BUCKETS];
};

void nb_hist_record(struct nb_hist *h, uint64_t ns);
/* Add every count of src into dst (flows into one, repetitions into one). */
void nb_hist_merge(struct nb_hist *dst, const struct nb_hist *src);
/* The bucket a value falls in, and a bucket's range [lo, hi). */
int nb_hist_bucket_of(uint64_t ns);
void nb_hist_bucket_range(int idx, uint64_t *lo, uint64_t *hi);
/* The p-th percentile (0 < p <= 100) by nearest rank: the value at rank ceil(p/100 * n) of
 * the sorted values, as its bucket's midpoint clamped to [min, max]. -1 when empty. */
double nb_hist_percentile_ns(const struct nb_hist *h, double p);
double nb_hist_mean_ns(const struct nb_hist *h);

#endif
