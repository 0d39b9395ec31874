// SPDX-License-Identifier: MIT
/* Who else moves the NIC's IRQs: their affinities and whether irqbalance runs, read at both
 * edges of a measured window, so that a report says when a point's IRQ placement changed
 * under it without nicbench setting it. */
#ifndef NB_IRQ_WATCH_H
#define NB_IRQ_WATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/metrics.h"
#include "nic/knob_types.h"

#define NB_IRQ_WATCH_MAX 64

struct nb_irq_watch {
	bool irqs_read;        /* the NIC has IRQs and their affinities were read */
	int n;
	int irq[NB_IRQ_WATCH_MAX];
	char name[NB_IRQ_WATCH_MAX][48];
	char cpus[NB_IRQ_WATCH_MAX][NB_KNOB_VALUE_MAX];  /* smp_affinity_list; "" unreadable */
	bool procs_read;       /* <proc> could be walked */
	int irqbalance_pid;    /* a process whose comm is "irqbalance"; 0: none */
};

/* Read now: the NIC's IRQs (by the target's patterns or by name) with their affinities, and
 * an irqbalance process found by its comm. What cannot be read is left unread, not an error. */
void nb_irq_watch_take(const struct nb_knob_target *t, struct nb_irq_watch *w);

/* Pure: irqbalance_running (1 when found at either edge, 0 when looked for and not found) and
 * irq_affinity_moved (the NIC's IRQs whose affinity differs between a and b); each absent
 * when its reads failed. */
void nb_irq_watch_metrics(const struct nb_irq_watch *a, const struct nb_irq_watch *b, struct nb_metric_set *out);

/* Pure: the moves as text ("24 eth0-rx-0: 0 -> 1, ..."); returns how many. */
int nb_irq_watch_moves(const struct nb_irq_watch *a, const struct nb_irq_watch *b, char *buf, size_t len);

#endif
