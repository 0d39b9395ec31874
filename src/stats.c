/* Median, mean, min, max and sample standard deviation over a few repetitions. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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
	qsort(sorted, (size_t)n, sizeof(double), cmp_double);
	out->n = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	for (int i = 0; i < n; i++)
		sum += sorted[i];
	out->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (sorted[i] - out->mean) * (sorted[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
}
