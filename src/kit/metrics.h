// SPDX-License-Identifier: MIT
/* A run's measurements: a flat set of named numbers. A metric that could not
 * be measured is simply not in the set (missing is never 0). */
#ifndef NB_METRICS_H
#define NB_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#define NB_METRIC_NAME_MAX 48
#define NB_MAX_METRICS 160

/* iperf_remote_cpu_pct (the iperf3 server's own CPU, % of one core) at or above this marks a
 * peer-bound result: libiperf 3.12 moves data in one thread. */
#define NB_PEER_BOUND_PCT 90.0

/* At or above this share of the machine (cpu_other_pct, or the idle check's busy %), other
 * programs took enough CPU to move the figures: the run is marked disturbed. */
#define NB_FOREIGN_LOAD_PCT 10.0

struct nb_metric {
	char name[NB_METRIC_NAME_MAX];
	double value;
	unsigned int hash;  /* of name: lookups compare this before the string */
};

struct nb_metric_set {
	int n;
	struct nb_metric m[NB_MAX_METRICS];
};

/* Add or replace a metric. Non-finite values are refused (-EDOM) so no NaN or
 * inf reaches a report; a full set returns -ENOSPC. */
int nb_metrics_put(struct nb_metric_set *set, const char *name, double value);

/* Look a metric up; returns false when absent. */
bool nb_metrics_get(const struct nb_metric_set *set, const char *name, double *value);

/* Copy every metric of src into dst (src wins on a name clash). */
void nb_metrics_merge(struct nb_metric_set *dst, const struct nb_metric_set *src);

#endif
