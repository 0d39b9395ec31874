// SPDX-License-Identifier: MIT
/* Summary statistics of a metric over repetitions (pure): the one median, sort and summary of nicbench. */
#ifndef NB_STATS_H
#define NB_STATS_H

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

#endif
