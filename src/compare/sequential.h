// SPDX-License-Identifier: MIT
/* compare --sequential: an always-valid verdict over paired rounds, so that a loop may add pairs
 * until every gated metric is decided (docs/compare.md, "Rounds until decided"). Pure functions. */
#ifndef NB_SEQUENTIAL_H
#define NB_SEQUENTIAL_H

#include <stdbool.h>


/* The prior of the mixture: the standardised shift mu/sigma ~ N(0, 1/c). 0.1 lets three pairs
 * of a 30% change with a few percent of pair noise decide, and keeps the sequence narrow later. */
#define NB_SEQ_PRIOR_C 0.1
/* "unchanged" needs the sequence inside +-(this many times the minimum effect). */
#define NB_SEQ_EQUIVALENCE_FACTOR 2.0
/* How far the estimate of the pairs still needed looks ahead. */
#define NB_SEQ_LOOKAHEAD 200

enum nb_seq_state {
	NB_SEQ_NONE,       /* not judged sequentially (no --sequential, unpaired, not gated) */
	NB_SEQ_UNDECIDED,
	NB_SEQ_UP,         /* decided: a change upwards beyond the minimum effect and the floor */
	NB_SEQ_DOWN,
	NB_SEQ_UNCHANGED,  /* decided: the sequence rules out changes beyond rules_out_pct */
};

/* What the sequential test says of one metric, beside its verdict. */
struct nb_seq_metric {
	enum nb_seq_state state;
	int n_pairs;
	bool bounded;          /* the sequence is finite (3 pairs at least, and their spread known) */
	double lo_pct, hi_pct; /* the (1 - alpha) confidence sequence of the change, % */
	double diff_lo, diff_hi; /* the same for B - A in the metric's unit (on the ratio scale: the
				  * sequence's bounds at A's median) */
	double rules_out_pct;  /* unchanged: no change beyond +- this */
	double equivalence_pct;
	int more_pairs;        /* undecided: pairs more that would decide it at the present mean and
			        * spread; -1 when not within NB_SEQ_LOOKAHEAD */
};

/* The rules a metric is decided by: the metric's minimum effect and floor, as the fixed verdict. */
struct nb_seq_rule {
	double alpha;
	double min_effect_pct;
	bool has_floor;
	double floor;
};

/* Half-width of the (1 - alpha) confidence sequence for the mean of n values whose squared
 * deviations from their mean sum to ss: INFINITY while the sequence is unbounded (n < 3 at
 * alpha 0.10). Lai's mixture over the normal mean with the scale unknown (Haar prior on sigma). */
double nb_seq_halfwidth(int n, double ss, double alpha);

/* The sequence for the mean of x[0..n): false (lo, hi infinite) while unbounded. */
bool nb_seq_interval(const double *x, int n, double alpha, double *lo, double *hi);

/* Decide one metric from its pairs: logratio[i] = log(B_i / A_i) (NULL when some value is not
 * above zero: the differences alone, in % of base_median), diff[i] = B_i - A_i. */
struct nb_seq_metric nb_seq_decide(const double *logratio, const double *diff, int n, double base_median,
				   const struct nb_seq_rule *rule);

struct nb_cmp_metric_result;
struct nb_cmp_result;

/* compare's hook (judge_paired): fill m->seq and m's verdict, interval and reason from the pairs.
 * Returns true when a change is decided; the caller then applies the checks for disturbed data
 * (judge_supported) with m->seq.diff_lo / diff_hi. */
bool nb_seq_judge(struct nb_cmp_metric_result *m, const double *logratio, const double *diff, int n,
		  double base_median, double alpha);

/* How many gated metrics the sequence has not decided yet (compare --sequential exits 3 then: undecided). */
int nb_seq_undecided(const struct nb_cmp_result *r);

#endif
