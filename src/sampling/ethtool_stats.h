// SPDX-License-Identifier: MIT
/* A driver's own counters (what `ethtool -S` shows: the SIOCETHTOOL ioctl's stats string set;
 * no netlink path has them) at the edges of a run, and the pure delta of two snapshots. */
#ifndef NB_ETHTOOL_STATS_H
#define NB_ETHTOOL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/metrics.h"

#define NB_ETH_NAME_LEN 32  /* ETH_GSTRING_LEN */
/* The report keeps at most this many changed counters a run; the rest are counted. */
#define NB_ETH_CHANGED_MAX 256

struct nb_eth_stats_snap {
	bool present;        /* false: why */
	bool never;          /* the driver lists none or has no ethtool ioctl: not asked again */
	char why[192];
	int n;
	char (*names)[NB_ETH_NAME_LEN];  /* owned */
	uint64_t *v;                     /* owned */
};

struct nb_eth_counter {
	char name[NB_ETH_NAME_LEN];
	uint64_t delta;
};

struct nb_eth_stats_delta {
	bool present;
	char why[192];
	int listed;          /* counters in both snapshots */
	int backwards;       /* went down (driver reset): left out */
	int nchanged;        /* counters that moved (may exceed the kept ones) */
	int nkept;
	struct nb_eth_counter changed[NB_ETH_CHANGED_MAX];
	/* Drop counters the bottleneck rules read, summed over the driver's names for them
	 * (rx_missed_errors, or per queue rx_queue_N_missed_errors as ravb has them). */
	bool has_missed, has_fifo;
	uint64_t missed, fifo;
	/* receive overruns under the driver's own names (cpsw's "Rx DMA Overruns", macb's rx_overruns,
	 * stmmac's rx_overflow_cntr): also drops at the NIC; the largest such counter's delta */
	bool has_overruns;
	uint64_t overruns;
};

/* Does a driver's counter name count receive overruns (an rx counter naming an overrun or overflow,
 * without case, not an interrupt count)? Pure. */
bool nb_eth_overrun_name(const char *name);

/* Build a snapshot from the ioctl's buffers: n names of NB_ETH_NAME_LEN bytes (not always
 * NUL-terminated) and n values. Pure; tests feed a real driver's string set. 0 or -ENOMEM. */
int nb_eth_stats_from_raw(struct nb_eth_stats_snap *s, const char *strings, const uint64_t *values, int n);

/* Read iface's counters through SIOCETHTOOL in this network namespace. Never fails: absence
 * is said in why. prev: the snapshot before (NULL: none), whose `never` answer is kept. */
void nb_eth_stats_snapshot(const char *iface, const struct nb_eth_stats_snap *prev, struct nb_eth_stats_snap *s);
void nb_eth_stats_snap_release(struct nb_eth_stats_snap *s);

/* Pure: b - a by name. Counters that moved go to changed (up to NB_ETH_CHANGED_MAX). */
void nb_eth_stats_delta(const struct nb_eth_stats_snap *a, const struct nb_eth_stats_snap *b,
			struct nb_eth_stats_delta *d);

/* rx_missed_errors, rx_fifo_errors and rx_overrun_errors, when the driver counts them (read by the bottleneck
 * rule "drops at the NIC"). */
void nb_eth_stats_metrics(const struct nb_eth_stats_delta *d, struct nb_metric_set *m);

#endif
