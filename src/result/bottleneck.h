// SPDX-License-Identifier: MIT
/* The bottleneck verdict of one test point: pure rules with named thresholds over its measured metrics. */
#ifndef NB_BOTTLENECK_H
#define NB_BOTTLENECK_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/metrics.h"

/* The verdict of a point, which its summary (result.h) carries. */
enum nb_bn_code {
	NB_BN_NONE,          /* nothing found */
	NB_BN_LINK,          /* none found, throughput near the link speed */
	NB_BN_PEER,          /* the peer's iperf3 used a whole core */
	NB_BN_CPU,           /* one CPU (or every CPU) saturated */
	NB_BN_NIC_DROPS,     /* the NIC dropped (rx_missed_errors, rx_fifo_errors, rx_overrun_errors, rx_dropped) */
	NB_BN_BACKLOG_DROPS, /* softnet backlog full */
	NB_BN_SOCKET_DROPS,  /* UDP receive buffer errors */
	NB_BN_NAPI_BUDGET,   /* NAPI polls used their whole budget */
	NB_BN_TIME_SQUEEZE,  /* net_rx_action ran out of time or budget */
	NB_BN_NO_DATA,       /* the point has no metrics to judge (failed, unsupported) */
};

#define NB_BN_MAX_FIGURES 12
#define NB_BN_SENTENCE_MAX 320

struct nb_bn_figure {
	char name[NB_METRIC_NAME_MAX];
	double value;
};

struct nb_bottleneck {
	enum nb_bn_code code;
	char sentence[NB_BN_SENTENCE_MAX];   /* "CPU0 saturated (96% busy) by softirq 92%" */
	char owner[64];                      /* who holds the saturated CPU: "softirq", "NAPI thread + traffic process"; "" */
	int n_figures;
	struct nb_bn_figure figures[NB_BN_MAX_FIGURES]; /* the measured numbers the verdict rests on */
};

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
