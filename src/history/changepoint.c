// SPDX-License-Identifier: MIT
/* Change points of one series: E-Divisive means with a permutation test, and Perfherder's t-test rule. */
#include "changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kit/stats.h"

void nb_cp_options_init(struct nb_cp_options *o)
{
	o->min_segment = 3;
	o->edge_buffer = 3;
	o->permutations = 999;
	o->alpha = 0.01;
	o->seed = 1;
	o->test = NB_CP_TEST_T;
}

uint64_t nb_cp_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint32_t nb_cp_rand_below(uint64_t *state, uint32_t bound)
{
	/* Lemire's multiply-shift; the bias is below 2^-32 for the bounds a series has */
	return (uint32_t)(((nb_cp_rand(state) >> 32) * (uint64_t)bound) >> 32);
}

/* The segment being searched: n values, their pairwise distances |x_i - x_j|, which splits are
 * allowed (first..last: the left side's size) and the shortest right side. */
struct segment {
	int n;
	const double *dist; /* n x n */
	double *pre;        /* n x (n + 1): pre[i][j] = sum of dist[perm i][perm t] over t < j */
	int first, last, min_right;
};

/* The largest E-Divisive statistic over the allowed splits, with the values in the order perm
 * gives (perm[i] is the value at position i). As Matteson and James define it, a split tau is
 * scored against the best end kappa of the segment after it: left = [0, tau), right = [tau, kappa),
 *   m r / (m + r) * (2 mean|L - R| - mean|L - L'| - mean|R - R'|),
 * so a dip that comes back (down at 15, up at 28) scores as the step it is, not as a blend. Each
 * row's prefix sums make a (tau, kappa) step O(1): O(n^2) per scan. */
static double best_split(const struct segment *s, const int *perm, int *where)
{
	int n = s->n;
	double within_left = 0, best = -INFINITY;

	for (int i = 0; i < n; i++) {
		const double *row = s->dist + (size_t)perm[i] * n;
		double *pre = s->pre + (size_t)i * (n + 1);

		pre[0] = 0;
		for (int j = 0; j < n; j++)
			pre[j + 1] = pre[j] + row[perm[j]];
	}
	*where = -1;
	for (int m = 1; m < n; m++) {
		/* value m - 1 joins the left side */
		within_left += s->pre[(size_t)(m - 1) * (n + 1) + m - 1];
		if (m < s->first || m > s->last)
			continue;
		double between = 0, within_right = 0;

		for (int k = m + 1; k <= n; k++) {
			const double *pre = s->pre + (size_t)(k - 1) * (n + 1);
			int r = k - m;

			/* value k - 1 joins the right side */
			between += pre[m];
			within_right += pre[k - 1] - pre[m];
			if (r < s->min_right)
				continue;
			double e = 2 * between / ((double)m * r);

			if (m > 1)
				e -= within_left / ((double)m * (m - 1) / 2);
			if (r > 1)
				e -= within_right / ((double)r * (r - 1) / 2);
			e *= (double)m * r / (m + r);
			if (e > best) {
				best = e;
				*where = m;
			}
		}
	}
	return best;
}

/* The t test judges the largest two-sample t over the allowed splits: left [0, tau) against right
 * [tau, n), with the pooled standard deviation of the whole segment, so a short side's small variance
 * does not make a large t by itself. (Scored against every end kappa as E-Divisive is, the many short
 * pairs' chance t would swamp the test: a 10% step at 20 commits was found 18 times in 100, not 80.)
 * What it judges is a shift of the mean; prefix sums make a scan O(n).
 * split_t: the two-sample t of left [0, m) against right [m, n) from prefix sums. */
static double split_t(const double *sum, const double *sq, int m, int n)
{
	int r = n - m;
	double ml = sum[m] / m, ssl = sq[m] - sum[m] * ml;
	double sr = sum[n] - sum[m], mr = sr / r, ssr = (sq[n] - sq[m]) - sr * mr;
	double var = (fmax(ssl, 0) + fmax(ssr, 0)) / (n - 2), d = fabs(ml - mr);

	if (var <= 1e-300)
		return d > 1e-12 * (fabs(ml) + fabs(mr)) ? INFINITY : 0;
	return d / sqrt(var * (1.0 / m + 1.0 / r));
}

static void prefix_sums(const double *x, const int *perm, int n, double *sum, double *sq)
{
	sum[0] = sq[0] = 0;
	for (int i = 0; i < n; i++) {
		double v = x[perm[i]];

		sum[i + 1] = sum[i] + v;
		sq[i + 1] = sq[i] + v * v;
	}
}

/* The largest t over the splits at cuts[0..n_cuts) (each the left side's size), and its index in
 * cuts. Over commits the cuts are first..last; over reports, the places where a commit begins. */
static double best_t_at(const double *x, const int *perm, int n, const int *cuts, int n_cuts, double *sum,
			double *sq, int *where)
{
	double best = 0;

	prefix_sums(x, perm, n, sum, sq);
	*where = -1;
	for (int c = 0; c < n_cuts; c++) {
		double t = split_t(sum, sq, cuts[c], n);

		if (t > best || *where < 0) {
			best = t;
			*where = c;
		}
	}
	return best;
}

/* The statistic the permutation test judges: the split's energy, or the largest t. */
static double segment_stat(const struct nb_cp_options *o, const struct segment *s, const double *x, const int *perm,
			   const int *cuts, double *sum, double *sq, int *where)
{
	double t;

	if (o->test == NB_CP_TEST_ENERGY)
		return best_split(s, perm, where);
	t = best_t_at(x, perm, s->n, cuts, s->last - s->first + 1, sum, sq, where);
	if (*where >= 0)
		*where = cuts[*where];
	return t;
}

/* One segment's best split and its permutation p-value; false when no split is allowed. x holds
 * the segment's n units (commits, or reports when the commits hold several), cuts[0..n_cuts) the
 * allowed splits as left sizes in units, ascending (contiguous for the energy test). The permutations
 * shuffle units and stop early once the split can no longer reach alpha. */
static bool test_segment(const double *x, int n, const int *cuts, int n_cuts, const struct nb_cp_options *o,
			 uint64_t *rng, double *dist, double *pre, double *sums, int *perm, struct nb_cp *out)
{
	struct segment s = { n, dist, pre, n_cuts ? cuts[0] : 1, n_cuts ? cuts[n_cuts - 1] : 0, o->min_segment };
	int at = -1, reached = 0, ignored;
	/* permutations that may reach it: p = (reached + 1) / (permutations + 1) <= alpha */
	int allowed = (int)floor(o->alpha * (o->permutations + 1) + 1e-9) - 1;
	double *sum = sums, *sq = sums + n + 1; /* the t test's prefix sums */
	double observed;

	if (!n_cuts)
		return false;
	for (int i = 0; i < n; i++)
		perm[i] = i;
	if (o->test == NB_CP_TEST_ENERGY) {
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				dist[i * n + j] = fabs(x[i] - x[j]);
		observed = out->stat = best_split(&s, perm, &at);
	} else {
		/* the change is where the t is largest: the split the test judges (E-Divisive's best end
		 * sits a commit or two off a step in noise more often; bench/history-sim counts it) */
		observed = out->stat = segment_stat(o, &s, x, perm, cuts, sum, sq, &at);
	}
	if (at < 0)
		return false;
	for (int p = 0; p < o->permutations && observed > 0; p++) {
		for (int i = n - 1; i > 0; i--) {
			int j = (int)nb_cp_rand_below(rng, (uint32_t)i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		/* ties count against the split: a flat series is never a change */
		if (segment_stat(o, &s, x, perm, cuts, sum, sq, &ignored) >= observed - 1e-12 * fabs(observed))
			reached++;
		if (reached > allowed)
			break;
	}
	out->index = at;
	out->p_value = reached > allowed || !(observed > 0) ? 1.0 : (reached + 1.0) / (o->permutations + 1.0);
	return true;
}

struct search {
	const double *x;
	const int *starts; /* commit c's units: [starts[c], starts[c + 1]); NULL: one unit a commit */
	const struct nb_cp_options *o;
	uint64_t rng;
	double *dist, *pre; /* the energy test's distances and their prefix rows */
	double *sums;       /* the t test's prefix sums and sums of squares */
	int *perm, *cuts;
	struct nb_cp *cps;
	int n_cps, max;
};

static int unit_of(const struct search *s, int commit)
{
	return s->starts ? s->starts[commit] : commit;
}

/* Split the commits [lo, hi) at their best point when significant, then search both sides. */
static void search(struct search *s, int lo, int hi)
{
	int n = hi - lo, first = s->o->min_segment, last = n - s->o->min_segment, n_cuts = 0, u0 = unit_of(s, lo);
	struct nb_cp cp;

	if (lo == 0 && first < s->o->edge_buffer)
		first = s->o->edge_buffer;
	if (s->n_cps >= s->max || n < 2 * s->o->min_segment)
		return;
	for (int c = first; c <= last; c++)
		s->cuts[n_cuts++] = unit_of(s, lo + c) - u0;
	if (!test_segment(s->x + u0, unit_of(s, hi) - u0, s->cuts, n_cuts, s->o, &s->rng, s->dist, s->pre, s->sums,
			  s->perm, &cp) ||
	    cp.p_value > s->o->alpha)
		return;
	/* the unit where the new segment starts -> its commit */
	for (int c = first; c <= last; c++) {
		if (unit_of(s, lo + c) - u0 == cp.index) {
			cp.index = lo + c;
			break;
		}
	}
	s->cps[s->n_cps++] = cp;
	search(s, lo, cp.index);
	search(s, cp.index, hi);
}

static int cmp_index(const void *a, const void *b)
{
	const struct nb_cp *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int find(const double *x, const int *starts, int n, const struct nb_cp_options *o, struct nb_cp *cps, int max)
{
	struct search s = { .x = x, .starts = starts, .o = o, .rng = o->seed, .cps = cps, .max = max };
	int units, ret;

	if (n < 0 || max < 0 || o->min_segment < 2 || (o->test != NB_CP_TEST_T && o->test != NB_CP_TEST_ENERGY) ||
	    (starts && o->test != NB_CP_TEST_T) || o->edge_buffer < 0 || o->permutations < 1 || !(o->alpha > 0) ||
	    o->alpha >= 1)
		return -EINVAL;
	if (n < 2 * o->min_segment)
		return 0;
	units = starts ? starts[n] : n;
	for (int c = 0; starts && c < n; c++) {
		if (starts[c + 1] <= starts[c])
			return -EINVAL; /* a commit without a unit, or out of order */
	}
	if (starts && starts[0] != 0)
		return -EINVAL;
	/* the distances and their prefix rows only for the energy test (one unit a commit) */
	if (o->test == NB_CP_TEST_ENERGY) {
		s.dist = malloc(sizeof(*s.dist) * (size_t)units * (size_t)units);
		s.pre = malloc(sizeof(*s.pre) * (size_t)units * (size_t)(units + 1));
	}
	s.sums = malloc(sizeof(*s.sums) * 2 * (size_t)(units + 1));
	s.perm = malloc(sizeof(*s.perm) * (size_t)units);
	s.cuts = malloc(sizeof(*s.cuts) * (size_t)n);
	if ((o->test == NB_CP_TEST_ENERGY && (!s.dist || !s.pre)) || !s.sums || !s.perm || !s.cuts) {
		ret = -ENOMEM;
		goto out;
	}
	search(&s, 0, n);
	qsort(cps, (size_t)s.n_cps, sizeof(*cps), cmp_index);
	ret = s.n_cps;
out:
	free(s.dist);
	free(s.pre);
	free(s.sums);
	free(s.perm);
	free(s.cuts);
	return ret;
}

int nb_cp_find(const double *x, int n, const struct nb_cp_options *o, struct nb_cp *cps, int max)
{
	return find(x, NULL, n, o, cps, max);
}

int nb_cp_find_units(const double *x, const int *starts, int n, const struct nb_cp_options *o, struct nb_cp *cps,
		     int max)
{
	if (!starts)
		return -EINVAL;
	return find(x, starts, n, o, cps, max);
}

struct ranked {
	double v;
	int i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

int nb_cp_midranks(const double *v, int n, double *ranks)
{
	struct ranked *r;

	if (n <= 0)
		return 0;
	r = malloc(sizeof(*r) * (size_t)n);
	if (!r)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, (size_t)n, sizeof(*r), cmp_ranked);
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && r[j].v == r[i].v)
			j++;
		/* positions i..j-1 hold equal values: each gets their mean rank (1-based) */
		for (int k = i; k < j; k++)
			ranks[r[k].i] = (i + 1 + j) / 2.0;
		i = j;
	}
	free(r);
	return 0;
}

static bool clears(double before, double after, double min_pct, double floor)
{
	double pct = before != 0 ? (after - before) / fabs(before) * 100 : (after != before ? INFINITY : 0);

	return fabs(pct) >= min_pct && fabs(after - before) > floor;
}

int nb_cp_keep_effective(const double *x, int len, struct nb_cp *cps, int n, double min_pct, double floor)
{
	bool dropped = true;

	while (dropped && n) {
		dropped = false;
		for (int j = 0; j < n; j++) {
			int lo = j ? cps[j - 1].index : 0, hi = j + 1 < n ? cps[j + 1].index : len;
			double before = nb_stats_median(x + lo, cps[j].index - lo);
			double after = nb_stats_median(x + cps[j].index, hi - cps[j].index);

			if (clears(before, after, min_pct, floor))
				continue;
			memmove(&cps[j], &cps[j + 1], sizeof(*cps) * (size_t)(n - j - 1));
			n--;
			dropped = true;
			break;
		}
	}
	return n;
}

static void mean_var(const double *x, int n, double *mean, double *var)
{
	double sum = 0, ss = 0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
}

int nb_cp_perfherder(const double *x, int n, int window, double t_min, double min_pct, struct nb_cp *cps, int max)
{
	double *t = calloc((size_t)(n > 0 ? n : 1), sizeof(*t));
	double *change = calloc((size_t)(n > 0 ? n : 1), sizeof(*change));
	int count = 0;

	if (!t || !change) {
		free(t);
		free(change);
		return -ENOMEM;
	}
	for (int i = 2; i + 2 <= n; i++) {
		int nb = i < window ? i : window, nf = n - i < window ? n - i : window;
		double mb, vb, mf, vf, se;

		mean_var(x + i - nb, nb, &mb, &vb);
		mean_var(x + i, nf, &mf, &vf);
		se = sqrt(vb / nb + vf / nf);
		t[i] = se > 0 ? fabs(mf - mb) / se : (mf != mb ? INFINITY : 0);
		change[i] = mb != 0 ? fabs(mf - mb) / fabs(mb) * 100 : 0;
	}
	/* each run of points above t_min gives one change: its largest t */
	for (int i = 0; i < n;) {
		int best = -1, j = i;

		while (j < n && t[j] > t_min) {
			if (best < 0 || t[j] > t[best])
				best = j;
			j++;
		}
		if (best >= 0 && change[best] >= min_pct && count < max)
			cps[count++] = (struct nb_cp){ .index = best, .p_value = 0, .stat = t[best] };
		i = j > i ? j : i + 1;
	}
	free(t);
	free(change);
	return count;
}
