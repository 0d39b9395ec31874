/* Small-sample statistics for nicbench compare: medians and an exact, tie-aware Mann-Whitney U test. */
#ifndef NB_COMPARE_STATS_H
#define NB_COMPARE_STATS_H

#include <stdbool.h>

/* Median of n values (n >= 1); the input is not modified. Returns 0 for n == 0. */
double nb_stats_median(const double *v, int n);

/* Two-sided p-value of the Mann-Whitney U (Wilcoxon rank-sum) test that samples a
 * and b come from the same distribution. Exact permutation distribution (ties get
 * mid-ranks) up to NB_STATS_EXACT_MAX values in total, normal approximation with
 * tie correction above that. Returns 1.0 when either sample is empty or all values
 * are equal. */
double nb_stats_mann_whitney_p(const double *a, int na, const double *b, int nb);

#define NB_STATS_EXACT_MAX 60

/* Relative change of new against base in percent, bounded to [-100, cap] so a zero
 * or near-zero base never yields inf or NaN. *capped is set when the bound applied. */
double nb_stats_change_pct(double base, double new, double cap, bool *capped);

#endif
