// SPDX-License-Identifier: MIT
/* The bottleneck verdict of one test point: pure rules with named thresholds over its measured metrics. */
#ifndef NB_BOTTLENECK_H
#define NB_BOTTLENECK_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/metrics.h"
#include "result.h" /* the verdict's type: struct nb_bottleneck, part of a point's summary */

/* The thresholds, named so the README (docs/bottleneck.md) and the code say the same thing. */
#define NB_BN_CPU_SATURATED_PCT 90.0  /* one CPU this busy is saturated (tick-sampled busy is a lower bound) */
#define NB_BN_OWNER_PCT 50.0          /* a consumer holding this much of a saturated CPU owns it */
#define NB_BN_SHARE_PCT 25.0          /* below an owner, consumers of this much of one CPU share it */
#define NB_BN_DROP_SHARE_PCT 0.1      /* drops above this share of the packets received are a bottleneck */
#define NB_BN_DROP_MIN 100.0          /* ... or, where the packet count is unknown, this many in the window */
#define NB_BN_BUDGET_PCT 50.0         /* NAPI polls that used the whole budget: "in most polls" */
#define NB_BN_SQUEEZE_PER_S 10.0      /* time_squeeze events per second of the window */
#define NB_BN_LINK_PCT 90.0           /* throughput this close to the link speed: link-bound? */

/* What the rules read: a metric lookup (the point's medians) and a few facts about the run. */
struct nb_bn_input {
	bool (*get)(const void *ctx, const char *name, double *value); /* false: the metric is absent */
	const void *ctx;
	int cpus;              /* 0 when unknown */
	double link_mbps;      /* 0 when unknown */
	double window_s;       /* measured window per run (duration - omit); 0 when unknown */
	bool ok;               /* the point's status is ok */
};

/* Judge one point. Never fails: without data the code is NB_BN_NO_DATA with a sentence saying so. */
void nb_bottleneck_judge(const struct nb_bn_input *in, struct nb_bottleneck *out);

/* "cpu", "peer", "nic-drops", ...: the stable code written to reports and KCIDB. */
const char *nb_bn_code_name(enum nb_bn_code c);

/* Did the bottleneck move between base and new? Different codes, or a saturated CPU that
 * changed owner. With a sentence "base: ...; new: ..." in buf when it moved. */
bool nb_bn_moved(const struct nb_bottleneck *base, const struct nb_bottleneck *new, char *buf, size_t len);

/* A lookup over an nb_metric_set, for nb_bn_input.get with ctx = the set. */
bool nb_bn_get_metric_set(const void *ctx, const char *name, double *value);

#endif
