// SPDX-License-Identifier: MIT
/* The counters that explain a run: page_pool statistics and the driver's ethtool -S counters
 * snapshotted at the edges of each run's window, and the kernel log of each point. The runner
 * calls begin/end around a window and collect after a point's work; the deltas go to the run
 * record, the log lines to the point. */
#ifndef NB_RUN_COUNTERS_H
#define NB_RUN_COUNTERS_H

#include "kit/metrics.h"
#include "kit/nb_paths.h"
#include "nic/page_pool.h"
#include "sampling/ethtool_stats.h"
#include "sampling/kmsg.h"

/* A run's deltas (owned by its run record). */
struct nb_run_counters {
	struct nb_pp_delta pp;
	struct nb_eth_stats_delta eth;
};

struct nb_counters;

/* NULL only when out of memory. On a fixture tree (paths not the live /sys) every counter is
 * absent with that reason: the kernel's answers belong to the live system. */
struct nb_counters *nb_counters_new(const struct nb_paths *paths, const char *iface);
void nb_counters_free(struct nb_counters *c);

/* The window opens: first snapshots. */
void nb_counters_begin(struct nb_counters *c);
/* The window closes: second snapshots; *out (freed first when set) gets the deltas and m the
 * metrics pp_* and rx_missed_errors/rx_fifo_errors. */
void nb_counters_end(struct nb_counters *c, struct nb_run_counters **out, struct nb_metric_set *m);
void nb_run_counters_free(struct nb_run_counters *rc);

/* Pure: the page_pool counters a driver lists among its ethtool -S ones (rx_pp_alloc_fast ..., the
 * kernel's page_pool_ethtool_stats_get names: its sum over its pools) as the delta b - a, for the
 * drivers whose pools netdev netlink does not list (fec, mvneta, stmmac, veth: no .netdev in their
 * page_pool_params). netlink_why: what netlink said. false (d untouched) when a or b lists none. */
bool nb_pp_delta_from_ethtool(const struct nb_eth_stats_snap *a, const struct nb_eth_stats_snap *b,
			      const char *netlink_why, struct nb_pp_delta *d);

/* Whether the driver lists its page_pool's counters among its ethtool -S ones. */
bool nb_eth_lists_page_pool(const struct nb_eth_stats_snap *s);

/* Kernel log: skip what came before a point, collect into the point's log (allocated on the
 * first call) after each piece of its work. */
void nb_counters_log_skip(struct nb_counters *c);
void nb_counters_log_collect(struct nb_counters *c, struct nb_kmsg_log **log);

#endif
