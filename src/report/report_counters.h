// SPDX-License-Identifier: MIT
/* The report's parts for the counters that explain a run: per run "page_pool" and
 * "driver_counters", per point "kernel_log". Absent counters are left out, with why. */
#ifndef NB_REPORT_COUNTERS_H
#define NB_REPORT_COUNTERS_H

#include <jansson.h>

#include "sampling/run_counters.h"

/* Add "page_pool" and "driver_counters" to a run object. */
void nb_report_counters_json(json_t *run, const struct nb_run_counters *c);

/* {"lines": [{"level", "seq", "ts_us", "text"}], "over_cap"?, "lost"?} or {"unavailable": why}. */
json_t *nb_report_kernel_log_json(const struct nb_kmsg_log *log);

#endif
