/* The flat named-metric set shared by the sampler, the iperf driver and the report. */
#include "metrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int nb_metrics_put(struct nb_metric_set *set, const char *name, double value)
{
	if (!isfinite(value))
		return -EDOM;
	for (int i = 0; i < set->n; i++) {
		if (!strcmp(set->m[i].name, name)) {
			set->m[i].value = value;
			return 0;
		}
	}
	if (set->n >= NB_MAX_METRICS)
		return -ENOSPC;
	snprintf(set->m[set->n].name, sizeof(set->m[set->n].name), "%s", name);
	set->m[set->n].value = value;
	set->n++;
	return 0;
}

bool nb_metrics_get(const struct nb_metric_set *set, const char *name, double *value)
{
	for (int i = 0; i < set->n; i++) {
		if (!strcmp(set->m[i].name, name)) {
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
