// SPDX-License-Identifier: MIT
/* The report's "precision" of a point: how many runs it took, the 90% interval its watched
 * medians reached (src/result/adaptive.h) and whether the precision asked for was met. */
#ifndef NB_REPORT_PRECISION_H
#define NB_REPORT_PRECISION_H

#include <jansson.h>
#include <stdbool.h>

#include "result/adaptive.h"

/* The repetition rule of a report's "config": "repetitions" N or "auto:MIN-MAX", "precision". */
void nb_report_rule_from_config(const json_t *config, struct nb_adaptive_rule *rule, bool *is_auto);

/* Under auto repetitions a disturbed run was repeated: it is not data in the metrics. */
bool nb_report_skips_disturbed(const json_t *config);

/* A run that counts as data for the rule: ok, and not disturbed by foreign load. */
bool nb_report_run_is_clean(const json_t *run);

struct nb_precision_summary {
	int runs;              /* runs taken (every run, disturbed and failed ones too) */
	int clean;             /* of those, the ones the interval is computed from */
	bool met;              /* every watched metric within the precision */
	double worst_pct;      /* largest half width of the watched metrics, % of the median */
	const char *worst_metric;
};

/* {"runs", "clean_runs", "min_runs", "max_runs", "precision_pct", "met", "auto", "intervals":
 * {metric: {n, median, lo, hi, half_width_pct, met}}} over the point's runs. */
json_t *nb_report_precision_json(const json_t *runs, const char *direction, const json_t *config,
				 struct nb_precision_summary *sum);

#endif
