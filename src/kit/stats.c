// SPDX-License-Identifier: MIT
/* Median, mean, min, max and sample standard deviation over a few repetitions; the sort and median compare uses too. */
#include "kit/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void nb_stats_sort(double *v, int n)
{
	if (n >= 32) {
		qsort(v, (size_t)n, sizeof(*v), cmp_double);
		return;
	}
	for (int i = 1; i < n; i++) {
		double x = v[i];
		int j = i - 1;

		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

static double median_of_sorted(const double *s, int n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double nb_stats_median(const double *v, int n)
{
	double small[16];
	double *tmp;
	double med;

	if (n <= 0)
		return 0;
	/* Benchmarks have a handful of runs: avoid the heap in the common case. */
	tmp = n <= 16 ? small : malloc(sizeof(*tmp) * (size_t)n);
	if (!tmp)
		return v[0];
	memcpy(tmp, v, sizeof(*tmp) * (size_t)n);
	nb_stats_sort(tmp, n);
	med = median_of_sorted(tmp, n);
	if (tmp != small)
		free(tmp);
	return med;
}

void nb_stats_compute(const double *values, int n, struct nb_stats *out)
{
	double sorted[256];
	double sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return;
	if (n > (int)(sizeof(sorted) / sizeof(sorted[0])))
		n = (int)(sizeof(sorted) / sizeof(sorted[0]));
	memcpy(sorted, values, (size_t)n * sizeof(double));
	nb_stats_sort(sorted, n);
	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = median_of_sorted(sorted, n);
	for (int i = 0; i < n; i++)
		sum += sorted[i];
	out->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (sorted[i] - out->mean) * (sorted[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
}
