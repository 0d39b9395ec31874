// SPDX-License-Identifier: MIT
/* A point's "precision" from its runs' JSON, so a live run and a report assembled from a run
 * record after a kill agree. */
#include "report/report_precision.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"

void nb_report_rule_from_config(const json_t *config, struct nb_adaptive_rule *rule, bool *is_auto)
{
	json_t *reps = json_object_get(config, "repetitions");
	json_t *precision = json_object_get(config, "precision");
	int min, max;

	*is_auto = false;
	rule->min_runs = rule->max_runs = json_is_integer(reps) ? (int)json_integer_value(reps) : 3;
	if (json_is_string(reps) && sscanf(json_string_value(reps), "auto:%d-%d", &min, &max) == 2) {
		*is_auto = true;
		rule->min_runs = min;
		rule->max_runs = max;
	}
	rule->precision_pct = json_is_number(precision) ? json_number_value(precision) : NB_DEFAULT_PRECISION_PCT;
}

bool nb_report_skips_disturbed(const json_t *config)
{
	struct nb_adaptive_rule rule;
	bool is_auto;

	nb_report_rule_from_config(config, &rule, &is_auto);
	return is_auto;
}

bool nb_report_run_is_clean(const json_t *run)
{
	const char *status = json_string_value(json_object_get(run, "status"));

	return status && !strcmp(status, "ok") && !json_is_true(json_object_get(run, "disturbed"));
}

static enum nb_direction direction_of(const char *direction)
{
	if (direction && !strcmp(direction, "rx"))
		return NB_DIR_RX;
	if (direction && !strcmp(direction, "rr"))
		return NB_DIR_RR;
	return NB_DIR_TX;
}

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *nb_report_precision_json(const json_t *runs, const char *direction, const json_t *config,
				 struct nb_precision_summary *sum)
{
	struct nb_adaptive_rule rule;
	const char *names[NB_ADAPTIVE_MAX_WATCHED];
	int nw = nb_adaptive_watched(direction_of(direction), names);
	json_t *intervals = json_object();
	double values[NB_MAX_REPETITIONS];
	bool is_auto, any = false;
	size_t i;
	json_t *run;

	nb_report_rule_from_config(config, &rule, &is_auto);
	memset(sum, 0, sizeof(*sum));
	sum->runs = (int)json_array_size(runs);
	sum->worst_pct = NAN;
	json_array_foreach(runs, i, run)
		sum->clean += nb_report_run_is_clean(run);
	sum->met = true;
	for (int w = 0; w < nw; w++) {
		struct nb_adaptive_interval iv;
		int n = 0;

		json_array_foreach(runs, i, run) {
			json_t *v = json_object_get(json_object_get(run, "metrics"), names[w]);

			if (n < NB_MAX_REPETITIONS && nb_report_run_is_clean(run) && json_is_number(v))
				values[n++] = json_number_value(v);
		}
		if (n == 0)
			continue;  /* the test does not measure it: not watched */
		nb_adaptive_interval(names[w], values, n, rule.precision_pct, &iv);
		any = true;
		sum->met &= iv.met && n >= rule.min_runs;
		if (!(iv.half_width_pct <= sum->worst_pct)) {
			sum->worst_pct = iv.half_width_pct;
			sum->worst_metric = names[w];
		}
		json_object_set_new(intervals, names[w],
				    json_pack("{s:i, s:o, s:o, s:o, s:o, s:b}", "n", n, "median", number_or_null(iv.median),
					      "lo", number_or_null(iv.lo), "hi", number_or_null(iv.hi),
					      "half_width_pct", number_or_null(iv.half_width_pct), "met", iv.met));
	}
	sum->met &= any;
	return json_pack("{s:b, s:i, s:i, s:i, s:i, s:f, s:b, s:o}", "auto", is_auto, "runs", sum->runs, "clean_runs",
			 sum->clean, "min_runs", rule.min_runs, "max_runs", rule.max_runs, "precision_pct",
			 rule.precision_pct, "met", sum->met, "intervals", intervals);
}
