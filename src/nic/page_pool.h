// SPDX-License-Identifier: MIT
/* page_pool statistics of an interface (netdev page-pool-get and page-pool-stats-get, Linux
 * 6.8+) at the edges of a run, and the pure delta between two snapshots: per pool and in total,
 * with the pages in flight at the end and ynl's recycling share. */
#ifndef NB_PAGE_POOL_H
#define NB_PAGE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/metrics.h"
#include "kit/nic_names.h"

/* From Documentation/netlink/specs/netdev.yaml (not in Debian 12's headers). */
enum { NB_NETDEV_CMD_PAGE_POOL_GET = 5, NB_NETDEV_CMD_PAGE_POOL_STATS_GET = 9 };
enum {
	NB_NETDEV_A_PAGE_POOL_ID = 1,
	NB_NETDEV_A_PAGE_POOL_IFINDEX = 2,
	NB_NETDEV_A_PAGE_POOL_NAPI_ID = 3,
	NB_NETDEV_A_PAGE_POOL_INFLIGHT = 4,
	NB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM = 5,
	NB_NETDEV_A_PAGE_POOL_DETACH_TIME = 6,
};
enum {
	NB_NETDEV_A_PAGE_POOL_STATS_INFO = 1,  /* nest: page-pool id and ifindex */
	NB_NETDEV_A_PAGE_POOL_STATS_FIRST = 8, /* alloc-fast; the counters run on from here */
};

/* The page-pool-stats counters (enum nb_pp_counter, nb_pp_counter_names): kit/nic_names.h. */

#define NB_PP_POOLS 64

/* One pool as page-pool-get and (when stats_present) page-pool-stats-get give it. */
struct nb_page_pool {
	uint64_t id;
	uint32_t ifindex;
	bool has_ifindex, has_napi, has_inflight, has_inflight_mem, detached;
	uint64_t napi_id, inflight, inflight_mem;
	uint32_t present;            /* bit i: counter i was in the stats answer */
	uint64_t v[NB_PP_COUNTERS];
};

struct nb_pp_snap {
	bool present;        /* the interface's pools were listed (maybe none: then why says so) */
	bool never;          /* absent for good: no netdev family or no page-pool-get */
	char why[192];
	bool stats;          /* the counters were read */
	bool stats_never;    /* no page-pool-stats-get or no CONFIG_PAGE_POOL_STATS */
	char stats_why[192];
	int n;
	struct nb_page_pool pool[NB_PP_POOLS];
};

struct nb_pp_delta {
	bool present;        /* false: why */
	char why[192];
	bool stats;          /* false: stats_why; inflight may still be there */
	char stats_why[192];
	int n;
	struct nb_page_pool pool[NB_PP_POOLS];  /* the end's pools; v is the delta */
	bool created[NB_PP_POOLS];              /* not there at the start: counted from 0 */
	int gone;            /* pools at the start that were gone at the end: their counts are lost */
	struct nb_page_pool total;              /* counters: sum over pools; inflight: at the end */
	bool has_recycle_pct;
	double recycle_pct;
	/* The totals came from the driver's ethtool -S (rx_pp_*: its own sum over its pools), as
	 * netlink listed none: netlink_why says why. No pools, no pages in flight then. */
	bool from_ethtool;
	char netlink_why[192];
};

/* Pure parsers of one answer's attributes (after the genl header). Return 0 or -EINVAL. */
int nb_pp_parse_pool(const void *attrs, int len, struct nb_page_pool *out);
/* Fills id, ifindex (from the info nest) and the counters; other fields are left zero. */
int nb_pp_parse_stats(const void *attrs, int len, struct nb_page_pool *out);

/* Snapshot of the pools of ifindex (in this network namespace). Never fails: absence is said
 * in why/stats_why. prev: the snapshot before (NULL: none), whose `never` answers are kept. */
void nb_pp_snapshot(const char *iface, uint32_t ifindex, const struct nb_pp_snap *prev, struct nb_pp_snap *s);

/* Pure: b - a per pool (matched by id). A pool created between the edges counts from 0 (its
 * counters started there); a counter that went backwards is absent for that pool. */
void nb_pp_delta(const struct nb_pp_snap *a, const struct nb_pp_snap *b, struct nb_pp_delta *d);

/* Pure: a delta whose counters are already totals over the driver's pools (present: bit i for
 * counter i), as a driver lists them with its ethtool -S counters; netlink_why says why netdev
 * netlink did not give them. */
void nb_pp_delta_from_totals(struct nb_pp_delta *d, uint32_t present, const uint64_t v[NB_PP_COUNTERS],
			     const char *netlink_why);

/* pp_<counter> totals, pp_inflight_pages and pp_recycle_pct, only those present. */
void nb_pp_metrics(const struct nb_pp_delta *d, struct nb_metric_set *m);

#endif
