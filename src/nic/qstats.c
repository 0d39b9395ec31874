// SPDX-License-Identifier: MIT
/* qstats-get snapshots around the measured window and their per-queue and total deltas. */
#include "nic/qstats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int iface_ifindex(const struct nb_knob_target *t, uint32_t *ifindex)
{
	char rel[64], path[PATH_MAX], buf[32];
	char *end;
	unsigned long v;

	snprintf(rel, sizeof(rel), "class/net/%s/ifindex", t->iface);
	if (nb_path_join(path, sizeof(path), t->paths->sys, rel) || nb_read_file(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	v = strtoul(buf, &end, 10);
	if (*end || v == 0 || v > UINT32_MAX)
		return -EINVAL;
	*ifindex = (uint32_t)v;
	return 0;
}

void nb_qstats_snapshot(const struct nb_knob_target *t, struct nb_qstats_snap *s)
{
	struct nb_netdev_caps caps;
	struct nb_err err = { 0 };
	uint32_t ifindex;
	int n;

	s->present = false;
	s->never = true;
	s->n = 0;
	s->why[0] = '\0';
	/* The kernel's queues belong to the live system, never to a fixture tree. */
	if ((!nb_netdev_scripted() && strcmp(t->paths->sys, "/sys")) || iface_ifindex(t, &ifindex)) {
		snprintf(s->why, sizeof(s->why), "no netdev netlink view of %s", t->iface);
		return;
	}
	if (nb_netdev_probe(&caps, &err)) {
		snprintf(s->why, sizeof(s->why), "%.190s", err.msg);
		s->never = false;
		return;
	}
	if (!caps.family || !caps.qstats_get) {
		snprintf(s->why, sizeof(s->why), "%s", caps.family ? "the netdev family has no qstats-get (Linux 6.9+)" :
			 caps.why);
		return;
	}
	n = nb_netdev_qstats_dump(ifindex, s->q, NB_QSTATS_QUEUES, &err);
	if (n == -EOPNOTSUPP) {
		snprintf(s->why, sizeof(s->why), "the driver of %s gives no per-queue statistics (qstats-get: %s)",
			 t->iface, strerror(EOPNOTSUPP));
		return;
	}
	s->never = false;
	if (n < 0) {
		snprintf(s->why, sizeof(s->why), "%.190s", err.msg);
		return;
	}
	if (n == 0) {
		snprintf(s->why, sizeof(s->why), "qstats-get listed no queue of %s", t->iface);
		return;
	}
	s->n = n > NB_QSTATS_QUEUES ? NB_QSTATS_QUEUES : n;
	s->present = true;
}

static const struct nb_qstats *find_queue(const struct nb_qstats_snap *s, uint32_t type, uint32_t id)
{
	for (int i = 0; i < s->n; i++) {
		if (s->q[i].type == type && s->q[i].id == id)
			return &s->q[i];
	}
	return NULL;
}

void nb_qstats_delta(const struct nb_qstats_snap *a, const struct nb_qstats_snap *b, struct nb_qstats_delta *d)
{
	memset(d, 0, sizeof(*d));
	if (!a->present || !b->present) {
		snprintf(d->why, sizeof(d->why), "%s", !a->present ? a->why : b->why);
		return;
	}
	for (int i = 0; i < b->n; i++) {
		const struct nb_qstats *qb = &b->q[i], *qa = find_queue(a, qb->type, qb->id);
		struct nb_qstats *q;

		if (!qa)
			continue;  /* a queue that appeared inside the window has no start value */
		q = &d->q[d->n++];
		q->type = qb->type;
		q->id = qb->id;
		for (int c = 0; c < NB_QSTAT_COUNT; c++) {
			uint32_t bit = 1u << c;

			if (!(qa->present & bit) || !(qb->present & bit) || qb->v[c] < qa->v[c])
				continue;
			q->present |= bit;
			q->v[c] = qb->v[c] - qa->v[c];
			d->total.present |= bit;
			d->total.v[c] += q->v[c];
		}
	}
	if (d->n == 0) {
		snprintf(d->why, sizeof(d->why), "no queue was there at both edges of the window");
		return;
	}
	d->present = true;
}

void nb_qstats_metrics(const struct nb_qstats_delta *d, struct nb_metric_set *m)
{
	if (!d->present)
		return;
	for (int c = 0; c < NB_QSTAT_COUNT; c++) {
		char name[NB_METRIC_NAME_MAX];

		if (!(d->total.present & (1u << c)))
			continue;
		snprintf(name, sizeof(name), "qstats_%s", nb_qstat_names[c]);
		nb_metrics_put(m, name, (double)d->total.v[c]);
	}
}
