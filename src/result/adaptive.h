// SPDX-License-Identifier: MIT
/* The stopping rule of --repetitions auto (pure): is a point's median known well enough yet? */
#ifndef NB_ADAPTIVE_H
#define NB_ADAPTIVE_H

#include <stdbool.h>

#include "config/config.h"

/* The level of the interval the rule asks for: 90%, as compare's alpha. */
#define NB_ADAPTIVE_ALPHA 0.10

struct nb_adaptive_rule {
	int min_runs, max_runs;    /* clean runs before the rule may stop; runs taken at most */
	double precision_pct;      /* the interval must lie within +- this of the median */
};

/* The interval reached on one metric of one point. */
struct nb_adaptive_interval {
	const char *metric;
	int n;                     /* clean runs it is computed from */
	double median, lo, hi;     /* lo, hi NAN below 2 values */
	double half_width_pct;     /* of the median; INFINITY below 2 values or at a zero median */
	bool met;                  /* half_width_pct <= precision_pct */
};

enum nb_adaptive_state {
	NB_ADAPTIVE_MORE,          /* another run */
	NB_ADAPTIVE_PRECISE,       /* every watched metric met the precision with >= min_runs clean runs */
	NB_ADAPTIVE_EXHAUSTED,     /* max_runs taken without it */
};

/* The rule as a config asks for it (fixed repetitions: min = max = repetitions). */
void nb_adaptive_rule_from_config(const struct nb_config *cfg, struct nb_adaptive_rule *rule);

/* The interval of the median of values[0..n) (the clean runs' values of one metric). */
void nb_adaptive_interval(const char *metric, const double *values, int n, double precision_pct,
			  struct nb_adaptive_interval *out);

/* What next, after taken runs (failed and disturbed ones count: they use up max_runs), given
 * the intervals of the watched metrics; a metric no clean run had (n == 0) is not watched. */
enum nb_adaptive_state nb_adaptive_decide(const struct nb_adaptive_rule *rule, int taken,
					  const struct nb_adaptive_interval *iv, int niv);

#define NB_ADAPTIVE_MAX_WATCHED 2
/* The metrics the rule watches for a test: its throughput (transactions for tcp-rr/udp-rr)
 * and, for RX tests, cpu_busy_pct. Returns how many (names are static strings). */
int nb_adaptive_watched(enum nb_direction dir, const char *names[NB_ADAPTIVE_MAX_WATCHED]);

const char *nb_adaptive_state_name(enum nb_adaptive_state s);

#endif
