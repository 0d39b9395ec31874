// SPDX-License-Identifier: MIT
/* Small-sample statistics for nicbench compare: an exact, tie-aware Mann-Whitney U test (medians are in stats.c). */
#include "compare_stats.h"

#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* Largest k >= 1 with P(U <= k - 1) <= alpha / 2 for sample sizes m and n without
 * ties; 0 when even U = 0 is too likely. */
long nb_stats_shift_ci_rank(int m, int n, double alpha)
{
	int total_n = m + n;
	long max_u = (long)m * n;
	double *ways, all = 0, below = 0;
	long k = 0;

	if (total_n > NB_STATS_EXACT_MAX) {
		double z = nb_stats_two_sided_z(alpha);

		k = (long)floor(max_u / 2.0 - z * sqrt((double)m * n * (total_n + 1) / 12.0));
		return k > 0 ? k : 0;
	}
	ways = malloc(sizeof(*ways) * (size_t)(max_u + 1));
	if (!ways || nb_stats_u_distribution(m, n, ways)) {
		free(ways);
		return 0;
	}
	for (long u = 0; u <= max_u; u++)
		all += ways[u];
	for (long u = 0; u <= max_u; u++) {
		below += ways[u];
		if (below / all > alpha / 2)
			break;
		k = u + 1;
	}
	free(ways);
	return k;
}

/* c(u; i, j) = c(u - j; i - 1, j) + c(u; i, j - 1): the largest of i + j values is either
 * in the first sample (beating all j of the second) or in the second. One row per i,
 * rolled over j, keeps this O(na * nb * na * nb) in time and O(na * nb) in memory. */
int nb_stats_u_distribution(int na, int nb, double *counts)
{
	long max_u = (long)na * nb;
	double *prev = calloc((size_t)(max_u + 1) * (size_t)(nb + 1), sizeof(*prev));
	double *cur = calloc((size_t)(max_u + 1) * (size_t)(nb + 1), sizeof(*cur));
	size_t width = (size_t)max_u + 1;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	/* prev holds c(.; i - 1, j) for every j, starting with i = 0: one placement, U = 0. */
	for (int j = 0; j <= nb; j++)
		prev[(size_t)j * width] = 1;
	for (int i = 1; i <= na; i++) {
		memset(cur, 0, sizeof(*cur) * width * (size_t)(nb + 1));
		cur[0] = 1; /* j = 0 */
		for (int j = 1; j <= nb; j++) {
			double *row = cur + (size_t)j * width, *left = cur + (size_t)(j - 1) * width;
			const double *up = prev + (size_t)j * width;

			for (long u = 0; u <= (long)i * j; u++)
				row[u] = (u >= j ? up[u - j] : 0) + left[u];
		}
		double *t = prev;

		prev = cur;
		cur = t;
	}
	memcpy(counts, prev + (size_t)nb * width, sizeof(*counts) * width);
	free(prev);
	free(cur);
	return 0;
}

double nb_stats_u_p_value(const double *counts, int na, int nb, long u2)
{
	long max_u = (long)na * nb;
	double mean2 = (double)max_u, dist = fabs((double)u2 - mean2), all = 0, extreme = 0;

	for (long u = 0; u <= max_u; u++) {
		all += counts[u];
		if (fabs(2.0 * (double)u - mean2) >= dist - 0.25)
			extreme += counts[u];
	}
	return all > 0 ? fmin(1.0, extreme / all) : 1.0;
}

long nb_stats_mann_whitney_u2(const double *a, int na, const double *b, int nb, bool *ties)
{
	long u2 = 0;

	*ties = false;
	for (int i = 0; i < na; i++) {
		for (int j = 0; j < nb; j++) {
			if (a[i] < b[j])
				u2 += 2;
			else if (a[i] == b[j]) {
				u2 += 1;
				*ties = true;
			}
		}
	}
	/* Ties inside a sample change the null distribution as well. */
	for (int i = 0; i < na && !*ties; i++) {
		for (int j = i + 1; j < na; j++)
			*ties |= a[i] == a[j];
	}
	for (int i = 0; i < nb && !*ties; i++) {
		for (int j = i + 1; j < nb; j++)
			*ties |= b[i] == b[j];
	}
	return u2;
}

bool nb_stats_shift_ci_at(const double *base, int nb, const double *new, int nn, long k, double *lo, double *hi)
{
	long count = (long)nb * nn;
	double small[64];
	double *diff;

	if (nb <= 0 || nn <= 0 || k < 1 || k > count)
		return false;
	diff = count <= 64 ? small : malloc(sizeof(*diff) * (size_t)count);
	if (!diff)
		return false;
	for (int i = 0; i < nb; i++) {
		for (int j = 0; j < nn; j++)
			diff[(long)i * nn + j] = new[j] - base[i];
	}
	nb_stats_sort(diff, (int)count);
	*lo = diff[k - 1];
	*hi = diff[count - k];
	if (diff != small)
		free(diff);
	return true;
}

bool nb_stats_shift_ci(const double *base, int nb, const double *new, int nn, double alpha, double *lo, double *hi)
{
	if (nb <= 0 || nn <= 0)
		return false;
	return nb_stats_shift_ci_at(base, nb, new, nn, nb_stats_shift_ci_rank(nb, nn, alpha), lo, hi);
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

/* P(Bin(n, 1/2) <= j), summed in doubles: n stays below a few thousand pairs. */
static double binom_half_cdf(int n, int j)
{
	double term = pow(0.5, n), sum = 0;

	for (int i = 0; i <= j && i <= n; i++) {
		sum += term;
		term = term * (n - i) / (i + 1);
	}
	return sum;
}

long nb_stats_sign_ci_rank(int n, double alpha)
{
	long k = 0;

	/* the 1e-12 lets alpha 0.0625 reach the 5-pair range exactly */
	while (k + 1 <= n / 2 && 2 * binom_half_cdf(n, (int)k) <= alpha + 1e-12)
		k++;
	return k;
}

int nb_stats_sign_min_pairs(double alpha)
{
	int n = 1;

	while (n < 64 && !nb_stats_sign_ci_rank(n, alpha))
		n++;
	return n;
}

double nb_stats_sign_flip_p(const double *d, int n)
{
	double obs = 0, sq = 0, tol;
	unsigned long total, hits = 0;

	if (n <= 0)
		return 1.0;
	for (int i = 0; i < n; i++) {
		obs += d[i];
		sq += d[i] * d[i];
	}
	obs = fabs(obs);
	if (n > 20) {
		/* the sum of n signs times |d|: mean 0, variance sum d^2 */
		if (sq == 0)
			return 1.0;
		return erfc(obs / sqrt(2 * sq));
	}
	tol = 1e-9 * (obs + sqrt(sq));  /* a labelling as extreme as the observed one, up to rounding */
	total = 1UL << n;
	for (unsigned long mask = 0; mask < total; mask++) {
		double s = 0;

		for (int i = 0; i < n; i++)
			s += (mask >> i & 1) ? -d[i] : d[i];
		hits += fabs(s) >= obs - tol;
	}
	return (double)hits / (double)total;
}
