/* Small-sample statistics for nicbench compare: medians and an exact, tie-aware Mann-Whitney U test. */
#include "compare_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
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
	qsort(tmp, (size_t)n, sizeof(*tmp), cmp_double);
	med = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
	if (tmp != small)
		free(tmp);
	return med;
}

struct ranked {
	double value;
	int from_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->value > b->value) - (a->value < b->value);
}

/* Doubled mid-ranks keep tied ranks integral (ties at ranks 3 and 4 both get 7).
 * Returns the sum of (t^3 - t) over tie groups, for the normal approximation. */
static double assign_doubled_ranks(struct ranked *r, int n, int *rank2)
{
	double tie_term = 0;
	int i = 0;

	while (i < n) {
		int j = i;

		while (j + 1 < n && r[j + 1].value == r[i].value)
			j++;
		/* Ranks are 1-based: the group i..j shares (i+1 + j+1) / 2. */
		for (int k = i; k <= j; k++)
			rank2[k] = i + j + 2;
		double t = j - i + 1;

		tie_term += t * t * t - t;
		i = j + 1;
	}
	return tie_term;
}

/* Exact permutation distribution of sample a's doubled rank sum: ways[k][s] counts
 * the subsets of size k with doubled rank sum s. */
static double exact_two_sided_p(const int *rank2, const int *from_a, int n, int na)
{
	int max_sum = n * (n + 1);
	size_t width = (size_t)max_sum + 1;
	double *ways = calloc((size_t)(na + 1) * width, sizeof(*ways));
	long observed = 0;
	double expected2 = (double)na * (n + 1);
	double total = 0, extreme = 0, dist_obs;

	if (!ways)
		return 1.0;
	ways[0] = 1;
	for (int i = 0; i < n; i++) {
		int top = i + 1 < na ? i + 1 : na;

		for (int k = top; k >= 1; k--) {
			double *row = ways + (size_t)k * width, *prev = ways + (size_t)(k - 1) * width;

			for (int s = max_sum - rank2[i]; s >= 0; s--)
				row[s + rank2[i]] += prev[s];
		}
		if (from_a[i])
			observed += rank2[i];
	}
	dist_obs = fabs((double)observed - expected2);
	for (int s = 0; s <= max_sum; s++) {
		double w = ways[(size_t)na * width + (size_t)s];

		total += w;
		/* The half-step tolerance absorbs float rounding; doubled sums are integers. */
		if (w > 0 && fabs(s - expected2) >= dist_obs - 0.25)
			extreme += w;
	}
	free(ways);
	return total > 0 ? fmin(1.0, extreme / total) : 1.0;
}

static double normal_two_sided_p(long observed2, int n, int na, int nb, double tie_term)
{
	double mean2 = (double)na * (n + 1);
	double var = (double)na * nb / 12.0 * ((n + 1) - tie_term / ((double)n * (n - 1)));
	double z;

	if (var <= 0)
		return 1.0;
	/* Doubled sums: halve the distance, continuity correction of 0.5. */
	z = (fabs((double)observed2 - mean2) / 2 - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return fmin(1.0, erfc(z / sqrt(2.0)));
}

double nb_stats_mann_whitney_p(const double *a, int na, const double *b, int nb)
{
	int n = na + nb;
	struct ranked *r;
	int *rank2, *from_a;
	double tie_term, p;
	long observed = 0;

	if (na <= 0 || nb <= 0)
		return 1.0;
	r = malloc(sizeof(*r) * (size_t)n);
	rank2 = malloc(sizeof(*rank2) * (size_t)n);
	from_a = malloc(sizeof(*from_a) * (size_t)n);
	if (!r || !rank2 || !from_a) {
		p = 1.0;
		goto out;
	}
	for (int i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (int i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, (size_t)n, sizeof(*r), cmp_ranked);
	if (r[0].value == r[n - 1].value) {
		p = 1.0;
		goto out;
	}
	tie_term = assign_doubled_ranks(r, n, rank2);
	for (int i = 0; i < n; i++) {
		from_a[i] = r[i].from_a;
		if (from_a[i])
			observed += rank2[i];
	}
	if (n <= NB_STATS_EXACT_MAX)
		p = exact_two_sided_p(rank2, from_a, n, na);
	else
		p = normal_two_sided_p(observed, n, na, nb, tie_term);
out:
	free(r);
	free(rank2);
	free(from_a);
	return p;
}

double nb_stats_change_pct(double base, double new, double cap, bool *capped)
{
	double pct;

	*capped = false;
	if (new == base)
		return 0;
	if (base == 0 || fabs(new - base) >= fabs(base) * cap / 100) {
		if (new > base) {
			*capped = true;
			return cap;
		}
	}
	if (base == 0)
		return -100; /* unreachable for non-negative metrics; keeps the result finite */
	pct = (new - base) / fabs(base) * 100;
	if (pct < -100) {
		*capped = true;
		return -100;
	}
	return isfinite(pct) ? pct : 0;
}
