// SPDX-License-Identifier: MIT
/* Median, mean, min, max and sample standard deviation over a few repetitions; the sort and median
 * compare uses too; the median's interval of the stopping rule (adaptive.c). */
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

/* z with P(|Z| >= z) = alpha, by bisection: libm has erfc but not its inverse. */
double nb_stats_two_sided_z(double alpha)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / sqrt(2.0)) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Two-sided Student t quantile from z (Abramowitz & Stegun 26.7.5, four terms): within
 * 0.3% of the table at 2 degrees of freedom, closer above. */
static double two_sided_t(double alpha, int df)
{
	double z = nb_stats_two_sided_z(alpha), z2 = z * z, d = df;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;

	return z + g1 / d + g2 / (d * d) + g3 / (d * d * d) + g4 / (d * d * d * d);
}

/* n Var(median) / sigma^2 of n normal values, n = 2..20 (numerical integration of the
 * order statistics' densities; a Monte Carlo check is in tests/unit/test_adaptive.c). The
 * textbook pi/2 is the limit: at 3 or 4 runs it overstates the median's standard error by
 * 8% and 15%, and an even n, whose median averages two values, sits lower still. */
static const double median_var_factor[] = {
	[2] = 1.0000, 1.3460, 1.1928, 1.4342, 1.2885, 1.4731, 1.3455, 1.4949, 1.3834, 1.5088,
	1.4104, 1.5184, 1.4307, 1.5254, 1.4464, 1.5308, 1.4591, 1.5350, 1.4694,
};

double nb_stats_median_se_factor(int n)
{
	int last = (int)(sizeof(median_var_factor) / sizeof(median_var_factor[0])) - 1;

	if (n < 2)
		return NAN;
	return sqrt(n <= last ? median_var_factor[n] : M_PI / 2);
}

bool nb_stats_median_ci(const double *v, int n, double alpha, double *lo, double *hi)
{
	struct nb_stats st;
	double half;

	if (n < 2)
		return false;
	nb_stats_compute(v, n, &st);
	half = two_sided_t(alpha, n - 1) * nb_stats_median_se_factor(n) * st.stddev / sqrt(n);
	*lo = st.median - half;
	*hi = st.median + half;
	return true;
}
