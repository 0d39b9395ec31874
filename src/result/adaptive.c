// SPDX-License-Identifier: MIT
/* The stopping rule of --repetitions auto: repeat a point until the 90% interval of each watched
 * median lies within +-precision of it, or the maximum is reached. */
#include "adaptive.h"

#include <math.h>

#include "kit/stats.h"
#include "kit/metric_table.h"

void nb_adaptive_rule_from_config(const struct nb_config *cfg, struct nb_adaptive_rule *rule)
{
	rule->min_runs = cfg->reps_auto ? cfg->reps_min : cfg->repetitions;
	rule->max_runs = cfg->repetitions;
	rule->precision_pct = cfg->precision_pct;
}

void nb_adaptive_interval(const char *metric, const double *values, int n, double precision_pct,
			  struct nb_adaptive_interval *out)
{
	out->metric = metric;
	out->n = n;
	out->median = n > 0 ? nb_stats_median(values, n) : NAN;
	out->lo = out->hi = NAN;
	out->half_width_pct = INFINITY;
	if (nb_stats_median_ci(values, n, NB_ADAPTIVE_ALPHA, &out->lo, &out->hi) && out->median != 0)
		out->half_width_pct = (out->hi - out->lo) / 2 / fabs(out->median) * 100;
	out->met = out->half_width_pct <= precision_pct;
}

enum nb_adaptive_state nb_adaptive_decide(const struct nb_adaptive_rule *rule, int taken,
					  const struct nb_adaptive_interval *iv, int niv)
{
	bool precise = false;

	for (int i = 0; i < niv; i++) {
		if (iv[i].n == 0)
			continue;
		if (iv[i].n < rule->min_runs || !iv[i].met) {
			precise = false;
			break;
		}
		precise = true;
	}
	if (precise)
		return NB_ADAPTIVE_PRECISE;
	return taken >= rule->max_runs ? NB_ADAPTIVE_EXHAUSTED : NB_ADAPTIVE_MORE;
}

int nb_adaptive_watched(enum nb_direction dir, const char *names[NB_ADAPTIVE_MAX_WATCHED])
{
	if (dir == NB_DIR_RR) {
		names[0] = NB_M_RR_TRANSACTIONS_PER_S;
		return 1;
	}
	names[0] = NB_M_THROUGHPUT_BPS;
	if (dir != NB_DIR_RX)
		return 1;
	names[1] = NB_M_CPU_BUSY_PCT;
	return 2;
}

const char *nb_adaptive_state_name(enum nb_adaptive_state s)
{
	static const char *const names[] = { "more", "precise", "exhausted" };

	return names[s];
}
