// SPDX-License-Identifier: MIT
/* Small-sample statistics for nicbench compare: an exact, tie-aware Mann-Whitney U test and its interval. */
#ifndef NB_COMPARE_STATS_H
#define NB_COMPARE_STATS_H

#include <stdbool.h>

#include "kit/stats.h" /* nb_stats_median, nb_stats_sort, nb_stats_two_sided_z */

/* Two-sided p-value of the Mann-Whitney U (Wilcoxon rank-sum) test that samples a
 * and b come from the same distribution. Exact permutation distribution (ties get
 * mid-ranks) up to NB_STATS_EXACT_MAX values in total, normal approximation with
 * tie correction above that. Returns 1.0 when either sample is empty or all values
 * are equal. */
double nb_stats_mann_whitney_p(const double *a, int na, const double *b, int nb);

#define NB_STATS_EXACT_MAX 60

/* Confidence interval, at level >= 1 - alpha, for the shift new - base: the k-th
 * smallest and k-th largest of the pairwise differences new[j] - base[i], with k from
 * the Mann-Whitney U distribution (the interval that goes with the Hodges-Lehmann
 * estimate). Returns false when the samples are too small to reach that level
 * (2 v 2 at alpha 0.10, 3 v 3 at alpha 0.05). */
bool nb_stats_shift_ci(const double *base, int nb, const double *new, int nn, double alpha, double *lo, double *hi);

/* The k behind nb_stats_shift_ci (0: level not reachable), for callers that cache it
 * per sample-size pair, and the interval for a known k. */
long nb_stats_shift_ci_rank(int nb, int nn, double alpha);
bool nb_stats_shift_ci_at(const double *base, int nb, const double *new, int nn, long k, double *lo, double *hi);

/* The pieces of the test for callers that cache the null distribution per pair of
 * sample sizes: U counts the pairs with a[i] < b[j] (ties count one half, doubled to
 * stay integral: returns 2U), *ties tells whether any value repeats across or within
 * the samples (the cached no-tie distribution is then not exact). */
long nb_stats_mann_whitney_u2(const double *a, int na, const double *b, int nb, bool *ties);

/* Number of rank placements giving each U = 0 .. na * nb without ties (na * nb + 1
 * doubles in counts), and the two-sided p-value of an observed 2U under it. */
int nb_stats_u_distribution(int na, int nb, double *counts);
double nb_stats_u_p_value(const double *counts, int na, int nb, long u2);

/* Paired rounds (compare over rounds): n differences d[i] = B_i - A_i, one a pair of rounds. */

/* The rank k of the sign test's interval for the median difference: the k-th smallest to the
 * k-th largest of the n differences covers it with confidence 1 - 2 P(Bin(n, 1/2) < k), and k
 * is the largest that keeps that >= 1 - alpha. 0 when even the whole range falls short: below
 * nb_stats_sign_min_pairs(alpha) pairs. Distribution-free, and a pair is one unit of evidence
 * however many runs its rounds hold. */
long nb_stats_sign_ci_rank(int n, double alpha);
/* The fewest pairs whose interval reaches 1 - alpha (5 at 0.10, 6 at 0.05). */
int nb_stats_sign_min_pairs(double alpha);

/* Two-sided p of the paired permutation test: the side labels swapped inside each pair (the
 * sign of each d[i] flipped) in all 2^n ways, and the share of those whose |sum| reaches the
 * observed |sum|. Exact up to 20 pairs, the normal approximation above. 1 for n == 0. */
double nb_stats_sign_flip_p(const double *d, int n);

/* Relative change of new against base in percent, bounded to [-100, cap] so a zero
 * or near-zero base never yields inf or NaN. *capped is set when the bound applied. */
double nb_stats_change_pct(double base, double new, double cap, bool *capped);

#endif
