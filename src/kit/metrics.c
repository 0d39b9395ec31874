// SPDX-License-Identifier: MIT
/* The flat named-metric set shared by the sampler, the iperf driver and the report. */
#include "kit/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* FNV-1a: the sampler adds ~60 names every interval; comparing hashes first keeps
 * put and get from costing a strcmp per existing name. */
static unsigned int name_hash(const char *name)
{
	unsigned int h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

int nb_metrics_put(struct nb_metric_set *set, const char *name, double value)
{
	unsigned int h = name_hash(name);

	if (!isfinite(value))
		return -EDOM;
	for (int i = 0; i < set->n; i++) {
		if (set->m[i].hash == h && !strcmp(set->m[i].name, name)) {
			set->m[i].value = value;
			return 0;
		}
	}
	if (set->n >= NB_MAX_METRICS)
		return -ENOSPC;
	snprintf(set->m[set->n].name, sizeof(set->m[set->n].name), "%s", name);
	set->m[set->n].value = value;
	set->m[set->n].hash = name_hash(set->m[set->n].name);
	set->n++;
	return 0;
}

bool nb_metrics_get(const struct nb_metric_set *set, const char *name, double *value)
{
	unsigned int h = name_hash(name);

	for (int i = 0; i < set->n; i++) {
		if (set->m[i].hash == h && !strcmp(set->m[i].name, name)) {
			if (value)
				*value = set->m[i].value;
			return true;
		}
	}
	return false;
}

void nb_metrics_merge(struct nb_metric_set *dst, const struct nb_metric_set *src)
{
	for (int i = 0; i < src->n; i++)
		nb_metrics_put(dst, src->m[i].name, src->m[i].value);
}
