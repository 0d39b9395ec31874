// SPDX-License-Identifier: MIT
/* compare --sequential: a confidence sequence over the paired rounds' log ratios, decided or not
 * after every pair, with the pairs still needed (sequential.h; docs/compare.md). */
#include "sequential.h"

#include <math.h>
#include <stdio.h>

#include "compare.h"

/* Lai's mixture: M_n(m) = sqrt(c/(n+c)) (1 - Q/(n+c))^(-n/2), Q = (sum (x-m))^2 / sum (x-m)^2,
 * a test martingale under x ~ N(m, sigma^2) whatever sigma (the scale drops out through the Haar
 * prior), so by Ville's inequality M_n reaches 1/alpha at any n with probability <= alpha.
 * The m with M_n(m) < 1/alpha are an interval around the mean: Q < q* solved for m. */
double nb_seq_halfwidth(int n, double ss, double alpha)
{
	const double c = NB_SEQ_PRIOR_C;
	double r, q;

	if (n < 2 || !(alpha > 0 && alpha < 1) || !(ss >= 0))
		return INFINITY;
	r = pow(alpha * alpha * c / (n + c), 1.0 / n);
	q = (n + c) * (1 - r);
	if (q >= n)
		return INFINITY;
	return sqrt(q * ss / (n * (n - q)));
}

static void mean_ss(const double *x, int n, double *mean, double *ss)
{
	double sum = 0, dev = 0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	*mean = n > 0 ? sum / n : 0;
	for (int i = 0; i < n; i++)
		dev += (x[i] - *mean) * (x[i] - *mean);
	*ss = dev;
}

bool nb_seq_interval(const double *x, int n, double alpha, double *lo, double *hi)
{
	double mean, ss, h;

	mean_ss(x, n, &mean, &ss);
	h = nb_seq_halfwidth(n, ss, alpha);
	*lo = isfinite(h) ? mean - h : -INFINITY;
	*hi = isfinite(h) ? mean + h : INFINITY;
	return isfinite(h);
}

/* A shift of the primary scale in percent of A: a log ratio, or a difference over A's median. */
static double to_pct(double v, bool ratio, double base_median)
{
	if (ratio)
		return (exp(v) - 1) * 100;
	if (base_median != 0)
		return v / fabs(base_median) * 100;
	return v > 0 ? INFINITY : v < 0 ? -INFINITY : 0;
}

/* Decided on the primary scale alone (the projection of the pairs still needed). */
static bool decides(double mean, double h, bool ratio, double base_median, double effect, double equiv)
{
	double lo = to_pct(mean - h, ratio, base_median), hi = to_pct(mean + h, ratio, base_median);

	return lo > effect || hi < -effect || (lo >= -equiv && hi <= equiv);
}

/* At the present mean and spread, the pairs more after which the sequence would decide. */
static int pairs_needed(double mean, double ss, int n, double alpha, bool ratio, double base_median, double effect,
			double equiv)
{
	double var = ss / (n - 1);

	for (int more = 1; more <= NB_SEQ_LOOKAHEAD; more++) {
		int k = n + more;

		if (decides(mean, nb_seq_halfwidth(k, var * (k - 1), alpha), ratio, base_median, effect, equiv))
			return more;
	}
	return -1;
}

struct nb_seq_metric nb_seq_decide(const double *logratio, const double *diff, int n, double base_median,
				   const struct nb_seq_rule *rule)
{
	struct nb_seq_metric s = { .state = NB_SEQ_UNDECIDED, .n_pairs = n, .more_pairs = -1 };
	bool ratio = logratio != NULL;
	const double *x = ratio ? logratio : diff;
	double effect = rule->min_effect_pct, mean, ss, h;
	double floor = rule->has_floor ? rule->floor : 0;

	s.equivalence_pct = NB_SEQ_EQUIVALENCE_FACTOR * effect;
	mean_ss(x, n, &mean, &ss);
	h = nb_seq_halfwidth(n, ss, rule->alpha);
	s.bounded = nb_seq_interval(diff, n, rule->alpha, &s.diff_lo, &s.diff_hi) && isfinite(h);
	s.lo_pct = s.bounded ? to_pct(mean - h, ratio, base_median) : -INFINITY;
	s.hi_pct = s.bounded ? to_pct(mean + h, ratio, base_median) : INFINITY;
	/* On the ratio scale the floor is held against the sequence's own bounds taken to A's level (one
	 * sequence, one alpha): the pairs' B - A differences spread with A's level when the host's speed
	 * swings (a TCG guest's throughput halves and doubles), and would keep a change many times the
	 * floor, a rate limit's -80% say, from ever being called. */
	if (s.bounded && ratio) {
		s.diff_lo = s.lo_pct / 100 * fabs(base_median);
		s.diff_hi = s.hi_pct / 100 * fabs(base_median);
	}
	if (s.bounded) {
		bool up = s.lo_pct > effect && s.diff_lo > floor;
		bool down = s.hi_pct < -effect && s.diff_hi < -floor;
		bool within_effect = s.lo_pct >= -s.equivalence_pct && s.hi_pct <= s.equivalence_pct;
		bool within_floor = rule->has_floor && s.diff_lo >= -floor && s.diff_hi <= floor;

		if (up || down) {
			s.state = up ? NB_SEQ_UP : NB_SEQ_DOWN;
			return s;
		}
		if (within_effect || within_floor) {
			s.state = NB_SEQ_UNCHANGED;
			s.rules_out_pct = fmax(fabs(s.lo_pct), fabs(s.hi_pct));
			return s;
		}
	}
	if (n >= 2)
		s.more_pairs = pairs_needed(mean, ss, n, rule->alpha, ratio, base_median, effect, s.equivalence_pct);
	else
		s.more_pairs = 3 - n; /* the spread is not known yet: the least that could decide */
	return s;
}

bool nb_seq_judge(struct nb_cmp_metric_result *m, const double *logratio, const double *diff, int n,
		  double base_median, double alpha)
{
	struct nb_seq_rule rule = { alpha, m->min_effect_pct, m->has_floor, m->has_floor ? m->floor : 0 };

	m->seq = nb_seq_decide(logratio, diff, n, base_median, &rule);
	m->has_ci = m->seq.bounded;
	if (m->has_ci) {
		m->ci_lo_pct = m->seq.lo_pct;
		m->ci_hi_pct = m->seq.hi_pct;
	}
	switch (m->seq.state) {
	case NB_SEQ_UP:
	case NB_SEQ_DOWN:
		return true;
	case NB_SEQ_UNCHANGED:
		m->verdict = NB_CMP_UNCHANGED;
		m->reason = m->seq.rules_out_pct > m->seq.equivalence_pct ? NB_CMP_REASON_WITHIN_FLOOR : NB_CMP_REASON_NONE;
		return false;
	default:
		m->verdict = NB_CMP_INCONCLUSIVE;
		if (!m->has_ci)
			m->reason = NB_CMP_REASON_NONE; /* the summary line says what is missing */
		else if (m->ci_lo_pct > m->min_effect_pct || m->ci_hi_pct < -m->min_effect_pct)
			m->reason = NB_CMP_REASON_NOISY_FLOOR;
		else
			m->reason = NB_CMP_REASON_NOISY;
		return false;
	}
}

int nb_seq_undecided(const struct nb_cmp_result *r)
{
	int undecided = 0;

	for (int i = 0; i < r->n_points; i++) {
		for (int k = 0; k < r->points[i].n_metrics; k++) {
			const struct nb_cmp_metric_result *m = &r->points[i].metrics[k];

			undecided += m->gated && m->seq.state == NB_SEQ_UNDECIDED;
		}
	}
	return undecided;
}
