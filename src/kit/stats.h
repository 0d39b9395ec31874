// SPDX-License-Identifier: MIT
/* Summary statistics of a metric over repetitions (pure): the one median, sort and summary of
 * nicbench, and the median's interval that --repetitions auto stops on. */
#ifndef NB_STATS_H
#define NB_STATS_H

#include <stdbool.h>

struct nb_stats {
	int n;
	double median, mean, min, max, stddev; /* stddev: sample (n-1); 0 when n < 2 */
};

/* values is not modified; n may be 0 (all fields 0, n 0). */
void nb_stats_compute(const double *values, int n, struct nb_stats *out);

/* Median of n values (n >= 1); the input is not modified. Returns 0 for n == 0. */
double nb_stats_median(const double *v, int n);

/* Sort a few doubles ascending (insertion sort below 32, qsort above). */
void nb_stats_sort(double *v, int n);

/* z with P(|Z| >= z) = alpha for a standard normal Z (compare's intervals use it too). */
double nb_stats_two_sided_z(double alpha);

/* Approximate (1 - alpha) confidence interval of the median of one sample: median +-
 * t(n-1) * c(n) * s / sqrt(n), c(n) the median's standard error in units of sigma / sqrt(n)
 * for n normal values (exact up to 20, sqrt(pi/2) above), Student t for the few runs. Not
 * distribution-free like compare's shift interval: the order-statistic interval of a median cannot
 * reach 90% below 5 values, and a stopping rule must be able to stop at 3. Returns false
 * for n < 2. */
bool nb_stats_median_ci(const double *v, int n, double alpha, double *lo, double *hi);
/* c(n) above; NAN below 2 values. */
double nb_stats_median_se_factor(int n);

#endif
