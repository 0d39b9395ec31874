// SPDX-License-Identifier: MIT
/* page-pool-get / page-pool-stats-get snapshots of one interface's pools and their deltas. */
#include "nic/page_pool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kit/metric_table.h"
#include "nic/nb_genl.h"

#define NETDEV_GENL_VERSION 1

/* ---- pure parsers ---- */

int nb_pp_parse_pool(const void *attrs, int len, struct nb_page_pool *out)
{
	const struct nlattr *a;
	int rem;
	bool has_id = false;

	memset(out, 0, sizeof(*out));
	nb_genl_for_each_attr(a, attrs, len, rem) {
		int t = nla_type(a);

		if (t == NB_NETDEV_A_PAGE_POOL_IFINDEX) {
			if (!nb_genl_attr_u32_ok(a))
				return -EINVAL;
			out->ifindex = nla_get_u32(a);
			out->has_ifindex = true;
			continue;
		}
		if (t < NB_NETDEV_A_PAGE_POOL_ID || t > NB_NETDEV_A_PAGE_POOL_DETACH_TIME)
			continue;  /* newer kernels add attributes (dmabuf, io-uring): not an error */
		if (!nb_genl_attr_uint_ok(a))
			return -EINVAL;
		switch (t) {
		case NB_NETDEV_A_PAGE_POOL_ID:
			out->id = nb_genl_attr_uint(a);
			has_id = true;
			break;
		case NB_NETDEV_A_PAGE_POOL_NAPI_ID:
			out->napi_id = nb_genl_attr_uint(a);
			out->has_napi = true;
			break;
		case NB_NETDEV_A_PAGE_POOL_INFLIGHT:
			out->inflight = nb_genl_attr_uint(a);
			out->has_inflight = true;
			break;
		case NB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM:
			out->inflight_mem = nb_genl_attr_uint(a);
			out->has_inflight_mem = true;
			break;
		case NB_NETDEV_A_PAGE_POOL_DETACH_TIME:
			out->detached = true;
			break;
		default:
			break;
		}
	}
	return has_id ? 0 : -EINVAL;
}

int nb_pp_parse_stats(const void *attrs, int len, struct nb_page_pool *out)
{
	const struct nlattr *a, *in;
	int rem, irem;
	bool has_id = false;

	memset(out, 0, sizeof(*out));
	nb_genl_for_each_attr(a, attrs, len, rem) {
		int t = nla_type(a);

		if (t == NB_NETDEV_A_PAGE_POOL_STATS_INFO) {
			nb_genl_for_each_attr(in, nla_data(a), nla_len(a), irem) {
				if (nla_type(in) == NB_NETDEV_A_PAGE_POOL_ID && nb_genl_attr_uint_ok(in)) {
					out->id = nb_genl_attr_uint(in);
					has_id = true;
				} else if (nla_type(in) == NB_NETDEV_A_PAGE_POOL_IFINDEX && nb_genl_attr_u32_ok(in)) {
					out->ifindex = nla_get_u32(in);
					out->has_ifindex = true;
				}
			}
		} else if (t >= NB_NETDEV_A_PAGE_POOL_STATS_FIRST && t < NB_NETDEV_A_PAGE_POOL_STATS_FIRST + NB_PP_COUNTERS) {
			if (!nb_genl_attr_uint_ok(a))
				return -EINVAL;
			out->v[t - NB_NETDEV_A_PAGE_POOL_STATS_FIRST] = nb_genl_attr_uint(a);
			out->present |= 1u << (t - NB_NETDEV_A_PAGE_POOL_STATS_FIRST);
		}
	}
	return has_id ? 0 : -EINVAL;
}

/* ---- the kernel side ---- */

struct dump_ctx {
	struct nb_pp_snap *s;
	uint32_t ifindex;
	int listed;   /* the interface's pools the kernel listed (may exceed NB_PP_POOLS) */
	int bad;
};

static struct nb_page_pool *find_pool(struct nb_page_pool *pools, int n, uint64_t id)
{
	for (int i = 0; i < n; i++) {
		if (pools[i].id == id)
			return &pools[i];
	}
	return NULL;
}

/* The dump lists every pool of the namespace: keep the interface's. */
static int pool_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nb_page_pool p;
	int len;
	const struct nlattr *attrs = nb_genl_attrs(nlh, &len);

	if (nb_pp_parse_pool(attrs, len, &p)) {
		d->bad++;
		return 0;
	}
	if (!p.has_ifindex || p.ifindex != d->ifindex)
		return 0;
	if (d->s->n < NB_PP_POOLS)
		d->s->pool[d->s->n++] = p;
	d->listed++;
	return 0;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	struct nb_page_pool st, *p;
	int len;
	const struct nlattr *attrs = nb_genl_attrs(nlh, &len);

	if (nb_pp_parse_stats(attrs, len, &st)) {
		d->bad++;
		return 0;
	}
	p = find_pool(d->s->pool, d->s->n, st.id);
	if (!p)
		return 0;  /* another interface's pool, or one created after the pool list */
	p->present = st.present;
	memcpy(p->v, st.v, sizeof(p->v));
	d->listed++;
	return 0;
}

static int dump(struct nb_genl *g, uint8_t cmd, nb_genl_cb cb, struct dump_ctx *d, const char *what,
		struct nb_err *err)
{
	struct nl_msg *msg = nb_genl_msg(g, cmd, NETDEV_GENL_VERSION, NLM_F_DUMP);
	int ret = nb_genl_run(g, msg, msg != NULL, cb, d, what, err);

	if (ret == 0 && d->bad)
		ret = nb_err_set(err, -EBADMSG, "%s: %d malformed answer%s from the kernel", what, d->bad,
				 d->bad == 1 ? "" : "s");
	return ret;
}

static void read_stats(struct nb_genl *g, const char *iface, const struct nb_pp_snap *prev, struct nb_pp_snap *s)
{
	struct dump_ctx d = { .s = s };
	struct nb_err err = { 0 };
	int ret;

	if (prev && prev->stats_never) {
		s->stats_never = true;
		snprintf(s->stats_why, sizeof(s->stats_why), "%s", prev->stats_why);
		return;
	}
	if (!nb_genl_has_op(g, NB_NETDEV_CMD_PAGE_POOL_STATS_GET)) {
		s->stats_never = true;
		/* 6.8+ lists the op only when built with CONFIG_PAGE_POOL_STATS (6.18 here: not listed) */
		snprintf(s->stats_why, sizeof(s->stats_why),
			 "the kernel has no page_pool statistics (CONFIG_PAGE_POOL_STATS off: the netdev family "
			 "lists no page-pool-stats-get)");
		return;
	}
	ret = dump(g, NB_NETDEV_CMD_PAGE_POOL_STATS_GET, stats_cb, &d, "page-pool-stats-get dump", &err);
	if (ret == -EOPNOTSUPP) {
		s->stats_never = true;
		snprintf(s->stats_why, sizeof(s->stats_why),
			 "the kernel has no page_pool statistics (CONFIG_PAGE_POOL_STATS off: page-pool-stats-get: %s)",
			 strerror(EOPNOTSUPP));
		return;
	}
	if (ret < 0) {
		snprintf(s->stats_why, sizeof(s->stats_why), "%.190s", err.msg);
		return;
	}
	if (d.listed < s->n) {
		snprintf(s->stats_why, sizeof(s->stats_why), "page-pool-stats-get gave %d of the %d pools of %s", d.listed,
			 s->n, iface);
		return;
	}
	s->stats = true;
}

void nb_pp_snapshot(const char *iface, uint32_t ifindex, const struct nb_pp_snap *prev, struct nb_pp_snap *s)
{
	struct dump_ctx d = { .s = s, .ifindex = ifindex };
	struct nb_err err = { 0 };
	struct nb_genl g;
	int ret;

	memset(s, 0, sizeof(*s));
	if (prev && prev->never) {
		s->never = true;
		snprintf(s->why, sizeof(s->why), "%s", prev->why);
		return;
	}
	ret = nb_genl_open(&g, "netdev", &err);
	if (ret == -ENOENT) {
		s->never = true;
		snprintf(s->why, sizeof(s->why), "no netdev generic-netlink family (page-pool-get needs Linux 6.8+)");
		return;
	}
	if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "page-pool-get: %.170s", err.msg);
		return;
	}
	if (!nb_genl_has_op(&g, NB_NETDEV_CMD_PAGE_POOL_GET)) {
		s->never = true;
		snprintf(s->why, sizeof(s->why), "the netdev family has no page-pool-get (Linux 6.8+)");
		nb_genl_close(&g);
		return;
	}
	ret = dump(&g, NB_NETDEV_CMD_PAGE_POOL_GET, pool_cb, &d, "page-pool-get dump", &err);
	if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "%.190s", err.msg);
	} else if (s->n == 0) {
		/* not `never`: a driver may make its pools when its NAPI starts, a knob away */
		snprintf(s->why, sizeof(s->why),
			 "page-pool-get lists no pool of %s (ifindex %u): its driver has none or, like veth, does "
			 "not tie them to the device", iface, ifindex);
	} else {
		s->present = true;
		read_stats(&g, iface, prev, s);
	}
	nb_genl_close(&g);
}

/* ---- pure delta ---- */

/* ynl's page-pool view: recycled pages over the pages handed out */
static void recycle_share(struct nb_pp_delta *d)
{
	const uint32_t need = 1u << NB_PP_ALLOC_FAST | 1u << NB_PP_ALLOC_SLOW | 1u << NB_PP_ALLOC_REFILL |
			      1u << NB_PP_RECYCLE_RING | 1u << NB_PP_RECYCLE_CACHED;
	uint64_t allocs, recycled;

	if ((d->total.present & need) != need)
		return;
	allocs = d->total.v[NB_PP_ALLOC_FAST] + d->total.v[NB_PP_ALLOC_SLOW] + d->total.v[NB_PP_ALLOC_REFILL];
	recycled = d->total.v[NB_PP_RECYCLE_RING] + d->total.v[NB_PP_RECYCLE_CACHED];
	if (allocs > 0) {
		d->has_recycle_pct = true;
		d->recycle_pct = 100.0 * (double)recycled / (double)allocs;
	}
}

void nb_pp_delta(const struct nb_pp_snap *a, const struct nb_pp_snap *b, struct nb_pp_delta *d)
{
	memset(d, 0, sizeof(*d));
	if (!a->present || !b->present) {
		snprintf(d->why, sizeof(d->why), "%s", !a->present ? a->why : b->why);
		return;
	}
	d->present = true;
	d->stats = a->stats && b->stats;
	if (!d->stats)
		snprintf(d->stats_why, sizeof(d->stats_why), "%s", !a->stats ? a->stats_why : b->stats_why);
	for (int i = 0; i < a->n; i++) {
		if (!find_pool((struct nb_page_pool *)b->pool, b->n, a->pool[i].id))
			d->gone++;
	}
	for (int i = 0; i < b->n; i++) {
		const struct nb_page_pool *pb = &b->pool[i];
		const struct nb_page_pool *pa = find_pool((struct nb_page_pool *)a->pool, a->n, pb->id);
		struct nb_page_pool *p = &d->pool[d->n];

		*p = *pb;
		p->present = 0;
		memset(p->v, 0, sizeof(p->v));
		d->created[d->n] = pa == NULL;
		d->n++;
		if (pb->has_inflight) {
			d->total.has_inflight = true;
			d->total.inflight += pb->inflight;
		}
		if (pb->has_inflight_mem) {
			d->total.has_inflight_mem = true;
			d->total.inflight_mem += pb->inflight_mem;
		}
		if (!d->stats)
			continue;
		for (int c = 0; c < NB_PP_COUNTERS; c++) {
			uint32_t bit = 1u << c;
			uint64_t start = 0;

			if (!(pb->present & bit))
				continue;
			if (pa) {
				if (!(pa->present & bit) || pb->v[c] < pa->v[c])
					continue;
				start = pa->v[c];
			}
			p->present |= bit;
			p->v[c] = pb->v[c] - start;
			d->total.present |= bit;
			d->total.v[c] += p->v[c];
		}
	}
	recycle_share(d);
}

void nb_pp_delta_from_totals(struct nb_pp_delta *d, uint32_t present, const uint64_t v[NB_PP_COUNTERS],
			     const char *netlink_why)
{
	memset(d, 0, sizeof(*d));
	d->present = d->stats = d->from_ethtool = true;
	snprintf(d->netlink_why, sizeof(d->netlink_why), "%s", netlink_why);
	d->total.present = present;
	for (int c = 0; c < NB_PP_COUNTERS; c++)
		d->total.v[c] = present & (1u << c) ? v[c] : 0;
	recycle_share(d);
}

void nb_pp_metrics(const struct nb_pp_delta *d, struct nb_metric_set *m)
{
	if (!d->present)
		return;
	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		char name[NB_METRIC_NAME_MAX];

		if (!(d->total.present & (1u << c)))
			continue;
		snprintf(name, sizeof(name), NB_M_PP_PREFIX "%s", nb_pp_counter_names[c]);
		nb_metrics_put(m, name, (double)d->total.v[c]);
	}
	if (d->total.has_inflight)
		nb_metrics_put(m, NB_M_PP_INFLIGHT_PAGES, (double)d->total.inflight);
	if (d->has_recycle_pct)
		nb_metrics_put(m, NB_M_PP_RECYCLE_PCT, d->recycle_pct);
}
