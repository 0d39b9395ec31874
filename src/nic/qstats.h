// SPDX-License-Identifier: MIT
/* Per-queue statistics (netdev qstats-get, scope queue) at the edges of the measured window,
 * and the pure delta between two snapshots: per queue and in total, absent where the driver
 * gives a counter for no queue. */
#ifndef NB_QSTATS_H
#define NB_QSTATS_H

#include <stdbool.h>

#include "kit/metrics.h"
#include "nic/knob_types.h"
#include "nic/netdev_nl.h"

#define NB_QSTATS_QUEUES 128

struct nb_qstats_snap {
	bool present;        /* false: why says why (no family, driver gives none, ...) */
	bool never;          /* absent for good: the kernel or the driver has no qstats */
	char why[192];
	int n;
	struct nb_qstats q[NB_QSTATS_QUEUES];
};

struct nb_qstats_delta {
	bool present;
	char why[192];
	int n;
	struct nb_qstats q[NB_QSTATS_QUEUES];  /* queues in both snapshots; present bits per counter */
	struct nb_qstats total;                /* sum over the queues that have the counter */
};

/* Take a snapshot of t->iface's queues. Never fails: a kernel or driver without qstats
 * leaves present false and the reason in why, and sets never: asking again is a netlink
 * round trip (~150 us here) that cannot change the answer. */
void nb_qstats_snapshot(const struct nb_knob_target *t, struct nb_qstats_snap *s);

/* Pure: b - a per queue (matched by type and id) and in total. A counter that went backwards
 * (the driver reset the queue) is absent for that queue, not negative and not 0. */
void nb_qstats_delta(const struct nb_qstats_snap *a, const struct nb_qstats_snap *b, struct nb_qstats_delta *d);

/* Totals as metrics "qstats_<counter>" (only those present). */
void nb_qstats_metrics(const struct nb_qstats_delta *d, struct nb_metric_set *m);

#endif
