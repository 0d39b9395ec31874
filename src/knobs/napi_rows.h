// SPDX-License-Identifier: MIT
/* The interface's NAPIs as `knobs show` and the report list them: napi-get's answer with
 * the queues each serves, its IRQ's CPUs and its thread's CPU. */
#ifndef NB_NAPI_ROWS_H
#define NB_NAPI_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"
#include "nic/knob_types.h"
#include "nic/netdev_nl.h"

#define NB_NAPI_MAX 64
#define NB_NAPI_QUEUES 8

/* One NAPI with what it serves and where it runs. */
struct nb_napi_info {
	struct nb_napi n;            /* napi-get's answer */
	char irq_cpus[64];           /* /proc/irq/N/smp_affinity_list; "" when no IRQ or unreadable */
	int thread_cpu;              /* CPU the napi/ thread last ran on (from napi-get's pid); -1: none */
	int nrx, ntx;
	uint32_t rx_queues[NB_NAPI_QUEUES], tx_queues[NB_NAPI_QUEUES];
};

struct nb_napi_table {
	bool listed;                 /* napi-get answered; false: why says why not */
	bool per_napi_set;           /* napi-set exists: the NAPI knobs go per NAPI */
	char why[192];
	char queues_why[192];        /* queue-get failed: the queue map is absent */
	int n;
	struct nb_napi_info napi[NB_NAPI_MAX];
};

/* List the interface's NAPIs (napi-get), their queues (queue-get), IRQ affinity and thread
 * CPU. 0 with listed false and why when the kernel has no such view; -errno on failure. */
int nb_napi_table_read(const struct nb_knob_target *t, struct nb_napi_table *tab, struct nb_err *err);

#endif
