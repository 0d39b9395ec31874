// SPDX-License-Identifier: MIT
/* Glue between the runner and the page_pool, ethtool -S and kernel log collectors. */
#include "sampling/run_counters.h"

#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nb_counters {
	char iface[IF_NAMESIZE];
	bool live;
	char why[160];        /* when not live */
	struct nb_pp_snap pp_a, pp_b;
	struct nb_eth_stats_snap eth_a, eth_b;
	bool began;
	struct nb_kmsg *kmsg;
};

struct nb_counters *nb_counters_new(const struct nb_paths *paths, const char *iface)
{
	struct nb_counters *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	snprintf(c->iface, sizeof(c->iface), "%s", iface);
	c->live = !strcmp(paths->sys, "/sys") && !strcmp(paths->proc, "/proc");
	if (!c->live)
		snprintf(c->why, sizeof(c->why), "no live view of %s (fixture tree)", iface);
	c->kmsg = nb_kmsg_open(c->live ? "/dev/kmsg" : "/nonexistent/kmsg", iface);
	return c;
}

void nb_counters_free(struct nb_counters *c)
{
	if (!c)
		return;
	nb_eth_stats_snap_release(&c->eth_a);
	nb_eth_stats_snap_release(&c->eth_b);
	nb_kmsg_close(c->kmsg);
	free(c);
}

static void snap(struct nb_counters *c, struct nb_pp_snap *pp, const struct nb_pp_snap *pp_prev,
		 struct nb_eth_stats_snap *eth, const struct nb_eth_stats_snap *eth_prev)
{
	unsigned int ifindex;

	/* at the window's end: an edge absent at its start makes the delta absent with that
	 * reason, so it is not asked again (a netlink round trip, ~100 us here) */
	if (pp_prev == &c->pp_a && !c->pp_a.present) {
		memset(pp, 0, sizeof(*pp));
		pp->never = c->pp_a.never;
		pp->stats_never = c->pp_a.stats_never;
		snprintf(pp->why, sizeof(pp->why), "%s", c->pp_a.why);
		pp = NULL;
	}
	if (eth_prev == &c->eth_a && !c->eth_a.present) {
		nb_eth_stats_snap_release(eth);
		eth->never = c->eth_a.never;
		snprintf(eth->why, sizeof(eth->why), "%s", c->eth_a.why);
		eth = NULL;
	}
	if (!c->live) {
		if (pp) {
			memset(pp, 0, sizeof(*pp));
			snprintf(pp->why, sizeof(pp->why), "%s", c->why);
		}
		if (eth) {
			nb_eth_stats_snap_release(eth);
			snprintf(eth->why, sizeof(eth->why), "%s", c->why);
		}
		return;
	}
	if (pp) {
		ifindex = if_nametoindex(c->iface);
		if (ifindex == 0) {
			memset(pp, 0, sizeof(*pp));
			snprintf(pp->why, sizeof(pp->why), "no interface %s in this network namespace", c->iface);
		} else {
			nb_pp_snapshot(c->iface, ifindex, pp_prev, pp);
		}
	}
	if (eth)
		nb_eth_stats_snapshot(c->iface, eth_prev, eth);
}

void nb_counters_begin(struct nb_counters *c)
{
	if (!c)
		return;
	/* the last run's end snapshot carries the `never` answers */
	snap(c, &c->pp_a, c->began ? &c->pp_b : NULL, &c->eth_a, c->began ? &c->eth_b : NULL);
	c->began = true;
}

void nb_counters_end(struct nb_counters *c, struct nb_run_counters **out, struct nb_metric_set *m)
{
	struct nb_run_counters *rc;

	if (!c || !c->began)
		return;
	/* nothing to ask twice when the first edge was absent for good */
	snap(c, &c->pp_b, &c->pp_a, &c->eth_b, &c->eth_a);
	nb_run_counters_free(*out);
	*out = rc = malloc(sizeof(*rc));
	if (!rc)
		return;
	nb_pp_delta(&c->pp_a, &c->pp_b, &rc->pp);
	if (!rc->pp.present || !rc->pp.stats || rc->pp.n == 0) {
		const char *why = !rc->pp.present ? rc->pp.why : rc->pp.n == 0 ? "no pool listed" : rc->pp.stats_why;
		char netlink_why[192];

		snprintf(netlink_why, sizeof(netlink_why), "%s", why);
		nb_pp_delta_from_ethtool(&c->eth_a, &c->eth_b, netlink_why, &rc->pp);
	}
	nb_eth_stats_delta(&c->eth_a, &c->eth_b, &rc->eth);
	nb_pp_metrics(&rc->pp, m);
	nb_eth_stats_metrics(&rc->eth, m);
}

static int eth_find(const struct nb_eth_stats_snap *s, const char *name)
{
	for (int i = 0; i < s->n; i++) {
		if (!strncmp(s->names[i], name, NB_ETH_NAME_LEN))
			return i;
	}
	return -1;
}

bool nb_eth_lists_page_pool(const struct nb_eth_stats_snap *s)
{
	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		if (eth_find(s, nb_pp_ethtool_names[c]) >= 0)
			return true;
	}
	return false;
}

bool nb_pp_delta_from_ethtool(const struct nb_eth_stats_snap *a, const struct nb_eth_stats_snap *b,
			      const char *netlink_why, struct nb_pp_delta *d)
{
	uint64_t v[NB_PP_COUNTERS] = { 0 };
	uint32_t present = 0;

	if (!a->present || !b->present)
		return false;
	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		int ia = eth_find(a, nb_pp_ethtool_names[c]), ib = eth_find(b, nb_pp_ethtool_names[c]);

		/* went backwards (the driver remade its pools and their counts): absent, as over netlink */
		if (ia < 0 || ib < 0 || b->v[ib] < a->v[ia])
			continue;
		present |= 1u << c;
		v[c] = b->v[ib] - a->v[ia];
	}
	if (!present)
		return false;
	nb_pp_delta_from_totals(d, present, v, netlink_why);
	return true;
}

void nb_run_counters_free(struct nb_run_counters *rc)
{
	free(rc);
}

void nb_counters_log_skip(struct nb_counters *c)
{
	if (c)
		nb_kmsg_skip(c->kmsg);
}

void nb_counters_log_collect(struct nb_counters *c, struct nb_kmsg_log **log)
{
	if (!c || !c->kmsg)
		return;
	if (!*log && !(*log = calloc(1, sizeof(**log))))
		return;
	nb_kmsg_collect(c->kmsg, *log);
}
