// SPDX-License-Identifier: MIT
/* The report's NAPI parts: per-point knob paths and NAPI table, per-run qstats deltas. */
#ifndef NB_REPORT_NAPI_H
#define NB_REPORT_NAPI_H

#include <jansson.h>

#include "napi_knobs.h"
#include "nic/qstats.h"
#include "result/result.h"

/* {"queues": [{"type", "id", counters...}], "total": {counters...}} or {"unavailable": why}. */
json_t *nb_report_qstats_json(const struct nb_qstats_delta *d);

/* Add "knob_paths" and "napi" to a point object. */
void nb_report_napi_json(json_t *point, const struct nb_point_result *pr);

#endif
