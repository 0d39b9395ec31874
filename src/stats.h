/* Summary statistics of a metric over repetitions (pure). */
#ifndef NB_STATS_H
#define NB_STATS_H

struct nb_stats {
	int n;
	double median, mean, min, max, stddev; /* stddev: sample (n-1); 0 when n < 2 */
};

/* values is not modified; n may be 0 (all fields 0, n 0). */
void nb_stats_compute(const double *values, int n, struct nb_stats *out);

#endif
