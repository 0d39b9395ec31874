// SPDX-License-Identifier: MIT
/* The counters that explain a run: page_pool parsers and delta, ethtool -S deltas on real
 * drivers' string sets, and the kernel log's record parser and filter on real records. */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic/page_pool.h"
#include "result/bottleneck.h"
#include "nb_test.h"
#include "sampling/ethtool_stats.h"
#include "sampling/kmsg.h"
#include "sampling/run_counters.h"

/* ---- page_pool ---- */

static const void *payload(struct nl_msg *msg, int *len)
{
	*len = nlmsg_datalen(nlmsg_hdr(msg));
	return nlmsg_data(nlmsg_hdr(msg));
}

/* A page-pool-get answer as the 6.8+ kernel builds it (page_pool_nl_fill): id and inflight are
 * `uint` (4 bytes when they fit), ifindex u32, napi-id only when the pool has one. */
static struct nl_msg *pool_msg(uint64_t id, uint32_t ifindex, uint64_t napi, uint64_t inflight, bool detached)
{
	struct nl_msg *msg = nlmsg_alloc();

	CHECK(msg && nlmsg_put(msg, 0, 0, 0, 0, 0));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_ID, (uint32_t)id));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_IFINDEX, ifindex));
	if (napi)
		CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_NAPI_ID, (uint32_t)napi));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_INFLIGHT, (uint32_t)inflight));
	CHECK(!nla_put_u64(msg, NB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM, inflight * 4096));
	if (detached)
		CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_DETACH_TIME, 1234));
	CHECK(!nla_put_u32(msg, 7, 3));  /* dmabuf (6.12): not ours */
	return msg;
}

/* A page-pool-stats-get answer: the info nest, then counters 8.. (here all 11). */
static struct nl_msg *stats_msg(uint64_t id, uint32_t ifindex, const uint64_t v[NB_PP_COUNTERS])
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *info;

	CHECK(msg && nlmsg_put(msg, 0, 0, 0, 0, 0));
	info = nla_nest_start(msg, NB_NETDEV_A_PAGE_POOL_STATS_INFO);
	CHECK(info && !nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_ID, (uint32_t)id) &&
	      !nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_IFINDEX, ifindex));
	nla_nest_end(msg, info);
	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		if (v[c] > UINT32_MAX)
			CHECK(!nla_put_u64(msg, NB_NETDEV_A_PAGE_POOL_STATS_FIRST + c, v[c]));
		else
			CHECK(!nla_put_u32(msg, NB_NETDEV_A_PAGE_POOL_STATS_FIRST + c, (uint32_t)v[c]));
	}
	return msg;
}

static void test_pp_parse(void)
{
	struct nl_msg *m = pool_msg(17, 3, 8193, 1024, true);
	uint64_t v[NB_PP_COUNTERS] = { 1000, 20, 0, 5, 300, 0, 900, 2, 250, 1, 7 };
	struct nb_page_pool p;
	const void *attrs;
	int len;

	attrs = payload(m, &len);
	CHECK(nb_pp_parse_pool(attrs, len, &p) == 0);
	CHECK(p.id == 17 && p.has_ifindex && p.ifindex == 3 && p.has_napi && p.napi_id == 8193);
	CHECK(p.has_inflight && p.inflight == 1024 && p.has_inflight_mem && p.inflight_mem == 1024 * 4096);
	CHECK(p.detached && p.present == 0);
	CHECK(nb_pp_parse_pool(attrs, 3, &p) == -EINVAL);  /* no id */
	nlmsg_free(m);

	v[NB_PP_ALLOC_FAST] = 5000000000ull;  /* a `uint` in 8 bytes */
	m = stats_msg(17, 3, v);
	attrs = payload(m, &len);
	CHECK(nb_pp_parse_stats(attrs, len, &p) == 0);
	CHECK(p.id == 17 && p.ifindex == 3 && p.present == (1u << NB_PP_COUNTERS) - 1);
	CHECK(p.v[NB_PP_ALLOC_FAST] == 5000000000ull && p.v[NB_PP_RECYCLE_RELEASED_REFCNT] == 7);
	nlmsg_free(m);
}

/* The real thing: a 6.12 kernel's answers (CONFIG_PAGE_POOL_STATS, netdevsim's one pool), as
 * nlmon saw them while `nicbench knobs counters` ran three times in a lab guest: first as made,
 * then with netdevsim's pp_hold holding a page, then with it given back. Each capture is a
 * cooked header (16 bytes) and the skb's netlink messages; the answers to page-pool-get (cmd 5)
 * and page-pool-stats-get (cmd 9) are the ones without NLM_F_REQUEST. */
#define SLL_LEN 16
#define ARPHRD_NETLINK_TYPE 824

static int load_capture(const char *rel, struct nb_pp_snap *snaps, int max)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(nb_test_fixture(rel), errbuf);
	struct pcap_pkthdr *h;
	const u_char *data;
	int n = -1;

	if (!pc)
		return -1;
	while (pcap_next_ex(pc, &h, &data) == 1) {
		if (h->caplen < SLL_LEN || ((data[2] << 8) | data[3]) != ARPHRD_NETLINK_TYPE ||
		    ((data[14] << 8) | data[15]) != NETLINK_GENERIC)
			continue;
		for (uint32_t off = SLL_LEN; off + NLMSG_HDRLEN <= h->caplen;) {
			struct nlmsghdr nh;
			struct genlmsghdr gh;
			const u_char *attrs;
			int alen;

			memcpy(&nh, data + off, sizeof(nh));
			if (nh.nlmsg_len < NLMSG_HDRLEN || off + nh.nlmsg_len > h->caplen)
				break;
			off += NLMSG_ALIGN(nh.nlmsg_len);
			/* the netdev family's answers: not the controller's, not errors or DONE */
			if (nh.nlmsg_type == GENL_ID_CTRL || nh.nlmsg_type < NLMSG_MIN_TYPE ||
			    (nh.nlmsg_flags & NLM_F_REQUEST) || nh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				continue;
			memcpy(&gh, data + off - NLMSG_ALIGN(nh.nlmsg_len) + NLMSG_HDRLEN, sizeof(gh));
			attrs = data + off - NLMSG_ALIGN(nh.nlmsg_len) + NLMSG_HDRLEN + GENL_HDRLEN;
			alen = (int)nh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			if (gh.cmd == NB_NETDEV_CMD_PAGE_POOL_GET && n + 1 < max) {
				/* a listing starts the next snapshot */
				n++;
				memset(&snaps[n], 0, sizeof(snaps[n]));
				snaps[n].present = true;
				CHECK(nb_pp_parse_pool(attrs, alen, &snaps[n].pool[snaps[n].n++]) == 0);
			} else if (gh.cmd == NB_NETDEV_CMD_PAGE_POOL_STATS_GET && n >= 0) {
				struct nb_page_pool st;

				CHECK(nb_pp_parse_stats(attrs, alen, &st) == 0);
				for (int i = 0; i < snaps[n].n; i++) {
					if (snaps[n].pool[i].id == st.id) {
						snaps[n].pool[i].present = st.present;
						memcpy(snaps[n].pool[i].v, st.v, sizeof(st.v));
						snaps[n].stats = true;
					}
				}
			}
		}
	}
	pcap_close(pc);
	return n + 1;
}

static void test_pp_real_answers(void)
{
	static struct nb_pp_snap s[4];
	static struct nb_pp_delta d;
	const struct nb_page_pool *p;

	CHECK(load_capture("netlink/page-pool-netdevsim-6.12.pcap", s, 4) == 3);
	for (int i = 0; i < 3; i++) {
		p = &s[i].pool[0];
		CHECK(s[i].n == 1 && s[i].stats);
		/* netdevsim port eth1 (ifindex 3), its rx queue's NAPI; every counter answered */
		CHECK(p->id == 3 && p->has_ifindex && p->ifindex == 3 && p->has_napi && p->napi_id == 66);
		CHECK(p->present == (1u << NB_PP_COUNTERS) - 1 && !p->detached);
		CHECK(p->has_inflight && p->has_inflight_mem && p->inflight_mem == p->inflight * 4096);
	}
	/* as made: nothing handed out */
	CHECK(s[0].pool[0].inflight == 0 && s[0].pool[0].v[NB_PP_ALLOC_SLOW] == 0);
	/* pp_hold took a page: the empty cache went to the slow path, which filled it (64 pages out) */
	nb_pp_delta(&s[0], &s[1], &d);
	CHECK(d.present && d.stats && d.n == 1 && !d.created[0] && d.gone == 0);
	CHECK(d.total.v[NB_PP_ALLOC_SLOW] == 1 && d.total.v[NB_PP_ALLOC_EMPTY] == 1 && d.total.v[NB_PP_ALLOC_FAST] == 0);
	CHECK(d.total.has_inflight && d.total.inflight == 64);
	/* given back: into the ring */
	nb_pp_delta(&s[1], &s[2], &d);
	CHECK(d.total.v[NB_PP_RECYCLE_RING] == 1 && d.total.v[NB_PP_ALLOC_SLOW] == 0);
}

static void snap_add(struct nb_pp_snap *s, uint64_t id, uint64_t inflight, const uint64_t *v)
{
	struct nb_page_pool *p = &s->pool[s->n++];

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->ifindex = 3;
	p->has_ifindex = p->has_inflight = true;
	p->inflight = inflight;
	if (v) {
		p->present = (1u << NB_PP_COUNTERS) - 1;
		memcpy(p->v, v, sizeof(p->v));
	}
}

static void test_pp_delta(void)
{
	static struct nb_pp_snap a, b;
	static struct nb_pp_delta d;
	struct nb_metric_set m = { 0 };
	/* fast slow high empty refill waive cached cache_full ring ring_full released */
	const uint64_t a1[NB_PP_COUNTERS] = { 1000, 100, 0, 10, 50, 0, 800, 0, 200, 0, 3 };
	uint64_t b1[NB_PP_COUNTERS] = { 1900, 150, 0, 12, 150, 0, 1500, 4, 400, 1, 3 };
	const uint64_t b2[NB_PP_COUNTERS] = { 100, 0, 0, 0, 0, 0, 50, 0, 30, 0, 0 };  /* new in the window */
	double x;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.present = b.present = a.stats = b.stats = true;
	snap_add(&a, 5, 512, a1);
	snap_add(&a, 6, 64, a1);  /* gone at the end */
	snap_add(&b, 5, 700, b1);
	snap_add(&b, 9, 100, b2);
	nb_pp_delta(&a, &b, &d);
	CHECK(d.present && d.stats && d.n == 2 && d.gone == 1);
	CHECK(!d.created[0] && d.created[1]);
	CHECK(d.pool[0].v[NB_PP_ALLOC_FAST] == 900 && d.pool[1].v[NB_PP_ALLOC_FAST] == 100);
	CHECK(d.total.v[NB_PP_ALLOC_FAST] == 1000 && d.total.v[NB_PP_RECYCLE_CACHED] == 750);
	CHECK(d.total.present & (1u << NB_PP_RECYCLE_RELEASED_REFCNT) && d.total.v[NB_PP_RECYCLE_RELEASED_REFCNT] == 0);
	CHECK(d.total.has_inflight && d.total.inflight == 800);  /* a level: the end's pools */
	/* (ring 230 + cached 750) / (fast 1000 + refill 100 + slow 50) */
	CHECK(d.has_recycle_pct);
	CHECK_NEAR(d.recycle_pct, 100.0 * 980 / 1150, 1e-9);
	nb_pp_metrics(&d, &m);
	CHECK(nb_metrics_get(&m, "pp_alloc_fast", &x) && x == 1000);
	CHECK(nb_metrics_get(&m, "pp_recycle_released_refcnt", &x) && x == 0);  /* counted, not moved */
	CHECK(nb_metrics_get(&m, "pp_inflight_pages", &x) && x == 800);
	CHECK(nb_metrics_get(&m, "pp_recycle_pct", &x));

	/* a counter that went backwards (pool reset) is absent for that pool, not negative */
	b1[NB_PP_ALLOC_SLOW] = 10;
	memcpy(b.pool[0].v, b1, sizeof(b1));
	nb_pp_delta(&a, &b, &d);
	CHECK(!(d.pool[0].present & (1u << NB_PP_ALLOC_SLOW)) && d.total.v[NB_PP_ALLOC_SLOW] == 0);
	CHECK(d.total.present & (1u << NB_PP_ALLOC_SLOW));  /* the new pool still has it */
	CHECK(!d.has_recycle_pct || d.recycle_pct > 0);

	/* pools listed but no statistics (6.18 without CONFIG_PAGE_POOL_STATS): inflight only */
	a.stats = b.stats = false;
	snprintf(b.stats_why, sizeof(b.stats_why), "CONFIG_PAGE_POOL_STATS off");
	snprintf(a.stats_why, sizeof(a.stats_why), "CONFIG_PAGE_POOL_STATS off");
	nb_pp_delta(&a, &b, &d);
	memset(&m, 0, sizeof(m));
	nb_pp_metrics(&d, &m);
	CHECK(d.present && !d.stats && strstr(d.stats_why, "PAGE_POOL_STATS"));
	CHECK(!nb_metrics_get(&m, "pp_alloc_fast", &x) && !nb_metrics_get(&m, "pp_recycle_pct", &x));
	CHECK(nb_metrics_get(&m, "pp_inflight_pages", &x) && x == 800);

	/* no pool at all: absent with the reason, no metric */
	b.present = false;
	snprintf(b.why, sizeof(b.why), "page-pool-get lists no pool of veth0");
	nb_pp_delta(&a, &b, &d);
	memset(&m, 0, sizeof(m));
	nb_pp_metrics(&d, &m);
	CHECK(!d.present && strstr(d.why, "no pool") && m.n == 0);
}

/* ---- ethtool -S ---- */

/* A fixture: "name value" lines, as ethtool -S prints them without the indent. */
static int load_eth(const char *rel, struct nb_eth_stats_snap *s)
{
	char names[256][NB_ETH_NAME_LEN], line[256], name[64];
	uint64_t v[256];
	unsigned long long x;
	int n = 0;
	FILE *f = fopen(nb_test_fixture(rel), "r");

	if (!f)
		return -1;
	memset(names, 0, sizeof(names));
	while (n < 256 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %llu", name, &x) != 2)
			continue;
		/* the ioctl's names fill 32 bytes, maybe without a NUL */
		memcpy(names[n], name, strlen(name) < NB_ETH_NAME_LEN ? strlen(name) : NB_ETH_NAME_LEN);
		v[n++] = x;
	}
	fclose(f);
	return nb_eth_stats_from_raw(s, (const char *)names, v, n);
}

static void test_eth_virtio(void)
{
	struct nb_eth_stats_snap a = { 0 }, b = { 0 };
	static struct nb_eth_stats_delta d;
	struct nb_metric_set m = { 0 };

	CHECK(load_eth("counters/ethtool-S-virtio_net-6.18-a.txt", &a) == 0 && a.n == 20);
	CHECK(load_eth("counters/ethtool-S-virtio_net-6.18-b.txt", &b) == 0 && b.n == 20);
	nb_eth_stats_delta(&a, &b, &d);
	CHECK(d.present && d.listed == 20 && d.backwards == 0);
	/* only what moved is kept: both tx_kicks rows */
	CHECK(d.nchanged == 2 && d.nkept == 2);
	CHECK_STR(d.changed[0].name, "tx_kicks");
	CHECK(d.changed[0].delta == 4);
	CHECK_STR(d.changed[1].name, "tx0_kicks");
	/* virtio_net counts no missed/fifo drops: the metrics are absent, not 0 */
	nb_eth_stats_metrics(&d, &m);
	CHECK(m.n == 0);
	/* the same names in another order are still matched by name */
	b.v[5] = a.v[5];
	{
		char tmp[NB_ETH_NAME_LEN];
		uint64_t tv = b.v[0];

		memcpy(tmp, b.names[0], NB_ETH_NAME_LEN);
		memcpy(b.names[0], b.names[8], NB_ETH_NAME_LEN);
		b.v[0] = b.v[8];
		memcpy(b.names[8], tmp, NB_ETH_NAME_LEN);
		b.v[8] = tv;
	}
	nb_eth_stats_delta(&a, &b, &d);
	CHECK(d.nchanged == 2 && d.changed[0].delta == 4);
	nb_eth_stats_snap_release(&a);
	nb_eth_stats_snap_release(&b);
}

/* fec (i.MX6, the lab's SABRE Lite, Debian's 6.12 armmp) lists its page_pool's counters among its
 * ethtool -S ones; netlink does not list its pool (no .netdev). Two real snapshots around 300
 * pings of 1400 bytes. */
static void test_pp_from_ethtool_fec(void)
{
	struct nb_eth_stats_snap a = { 0 }, b = { 0 }, v = { 0 };
	static struct nb_pp_delta d;
	struct nb_metric_set m = { 0 };
	double x;

	CHECK(load_eth("counters/ethtool-S-fec-6.12-a.txt", &a) == 0 && a.n == 71);
	CHECK(load_eth("counters/ethtool-S-fec-6.12-b.txt", &b) == 0 && b.n == 71);
	CHECK(nb_pp_delta_from_ethtool(&a, &b, "page-pool-get lists no pool of eth0", &d));
	CHECK(d.present && d.stats && d.from_ethtool && d.n == 0 && !d.total.has_inflight);
	CHECK(strstr(d.netlink_why, "no pool of eth0") != NULL);
	/* all eleven are listed, the ones that did not move as 0: present, not absent */
	CHECK(d.total.present == (1u << NB_PP_COUNTERS) - 1);
	CHECK(d.total.v[NB_PP_ALLOC_FAST] == 297 && d.total.v[NB_PP_ALLOC_REFILL] == 4);
	CHECK(d.total.v[NB_PP_RECYCLE_RING] == 301 && d.total.v[NB_PP_ALLOC_SLOW] == 0);
	/* every page handed out came back through the ring */
	CHECK(d.has_recycle_pct && d.recycle_pct > 99.99 && d.recycle_pct < 100.01);
	nb_pp_metrics(&d, &m);
	CHECK(nb_metrics_get(&m, "pp_alloc_fast", &x) && x == 297);
	CHECK(nb_metrics_get(&m, "pp_recycle_pct", &x) && !nb_metrics_get(&m, "pp_inflight_pages", &x));

	/* a counter that went down (the driver remade its pool) is absent, the rest stay */
	for (int i = 0; i < b.n; i++) {
		if (!strncmp(b.names[i], "rx_pp_recycle_ring", NB_ETH_NAME_LEN))
			b.v[i] = 1;
	}
	CHECK(nb_pp_delta_from_ethtool(&a, &b, "none", &d));
	CHECK(!(d.total.present & (1u << NB_PP_RECYCLE_RING)) && !d.has_recycle_pct);
	CHECK(d.total.v[NB_PP_ALLOC_FAST] == 297);

	/* virtio_net has no page_pool: nothing, d untouched */
	CHECK(load_eth("counters/ethtool-S-virtio_net-6.18-a.txt", &v) == 0);
	memset(&d, 0, sizeof(d));
	CHECK(!nb_pp_delta_from_ethtool(&v, &v, "none", &d) && !d.present);
	/* an absent snapshot: nothing */
	a.present = false;
	CHECK(!nb_pp_delta_from_ethtool(&a, &b, "none", &d));
	nb_eth_stats_snap_release(&a);
	nb_eth_stats_snap_release(&b);
	nb_eth_stats_snap_release(&v);
}

/* Names from real drivers' string tables (e1000e and ravb, Linux 6.1 sources), values made
 * up: the drop counters reach rx_missed_errors / rx_fifo_errors whatever the driver calls them. */
static void test_eth_drop_names(void)
{
	static const char e1000e[][NB_ETH_NAME_LEN] = { "rx_packets", "rx_no_buffer_count", "rx_missed_errors",
							 "tx_fifo_errors", "rx_over_errors" };
	static const char ravb[][NB_ETH_NAME_LEN] = { "rx_queue_0_packets", "rx_queue_0_missed_errors",
						       "rx_queue_0_over_errors", "rx_queue_1_missed_errors",
						       "rx_queue_x_missed_errors" };
	const uint64_t e_a[] = { 100, 0, 7, 0, 0 }, e_b[] = { 900, 40, 19, 3, 0 };
	const uint64_t r_a[] = { 10, 1, 0, 2, 0 }, r_b[] = { 20, 4, 5, 6, 100 };
	struct nb_eth_stats_snap a = { 0 }, b = { 0 };
	static struct nb_eth_stats_delta d;
	struct nb_metric_set m = { 0 };
	double x;

	CHECK(nb_eth_stats_from_raw(&a, (const char *)e1000e, e_a, 5) == 0);
	CHECK(nb_eth_stats_from_raw(&b, (const char *)e1000e, e_b, 5) == 0);
	nb_eth_stats_delta(&a, &b, &d);
	nb_eth_stats_metrics(&d, &m);
	CHECK(nb_metrics_get(&m, "rx_missed_errors", &x) && x == 12);
	CHECK(!nb_metrics_get(&m, "rx_fifo_errors", &x));  /* e1000e has only tx_fifo_errors */

	CHECK(nb_eth_stats_from_raw(&a, (const char *)ravb, r_a, 5) == 0);
	CHECK(nb_eth_stats_from_raw(&b, (const char *)ravb, r_b, 5) == 0);
	nb_eth_stats_delta(&a, &b, &d);
	memset(&m, 0, sizeof(m));
	nb_eth_stats_metrics(&d, &m);
	CHECK(nb_metrics_get(&m, "rx_missed_errors", &x) && x == 3 + 4);  /* queues 0 and 1, not "x" */

	/* what the driver counts reaches the rule "drops at the NIC": 7 of ~1000 packets */
	{
		struct nb_bn_input in = { .get = nb_bn_get_metric_set, .ctx = &m, .cpus = 2, .window_s = 1, .ok = true };
		struct nb_bottleneck bn;

		nb_metrics_put(&m, "throughput_bps", 1e6);
		nb_metrics_put(&m, "cpu_busy_pct", 20);
		nb_metrics_put(&m, "rx_packets_per_s", 1000);
		nb_bottleneck_judge(&in, &bn);
		CHECK_MSG(bn.code == NB_BN_NIC_DROPS && strstr(bn.sentence, "at the NIC"), "%s", bn.sentence);
		CHECK(bn.n_figures > 0 && !strcmp(bn.figures[0].name, "rx_missed_errors") && bn.figures[0].value == 7);
	}
	/* cpsw names its counters in words (cpsw_ethtool.c's cpsw_gstrings_stats): its overruns feed the
	 * rule too, the largest of them (one overrun may count under two names) */
	{
		static const char cpsw[][NB_ETH_NAME_LEN] = { "Good Rx Frames", "Rx CRC Errors", "Tx Underrun",
							       "Rx Start of Frame Overruns", "Rx Middle of Frame Overruns",
							       "Rx DMA Overruns" };
		const uint64_t c_a[] = { 1000, 0, 0, 10, 0, 10 }, c_b[] = { 61000, 2, 5, 910, 3, 910 };
		struct nb_eth_stats_snap ca = { 0 }, cb = { 0 };
		struct nb_metric_set cm = { 0 };
		struct nb_bn_input in = { .get = nb_bn_get_metric_set, .ctx = &cm, .cpus = 1, .window_s = 1, .ok = true };
		struct nb_bottleneck bn;

		CHECK(nb_eth_stats_from_raw(&ca, (const char *)cpsw, c_a, 6) == 0);
		CHECK(nb_eth_stats_from_raw(&cb, (const char *)cpsw, c_b, 6) == 0);
		nb_eth_stats_delta(&ca, &cb, &d);
		nb_eth_stats_metrics(&d, &cm);
		CHECK(nb_metrics_get(&cm, "rx_overrun_errors", &x) && x == 900);
		CHECK(!nb_metrics_get(&cm, "rx_missed_errors", &x) && !nb_metrics_get(&cm, "rx_fifo_errors", &x));
		CHECK(nb_eth_overrun_name("rx_overflow_cntr") && !nb_eth_overrun_name("rx_overflow_irq"));
		CHECK(!nb_eth_overrun_name("Tx Underrun") && !nb_eth_overrun_name("tx_fifo_overrun"));
		nb_metrics_put(&cm, "cpu_busy_pct", 40);
		nb_metrics_put(&cm, "rx_packets_per_s", 60000);
		nb_bottleneck_judge(&in, &bn);
		CHECK_MSG(bn.code == NB_BN_NIC_DROPS && strstr(bn.sentence, "900 per run"), "%s", bn.sentence);
		nb_eth_stats_snap_release(&ca);
		nb_eth_stats_snap_release(&cb);
	}
	/* a counter that went backwards is left out and counted */
	b.v[1] = 0;
	nb_eth_stats_delta(&a, &b, &d);
	CHECK(d.backwards == 1 && d.missed == 4);
	/* an absent edge: absent with its reason */
	nb_eth_stats_snap_release(&b);
	snprintf(b.why, sizeof(b.why), "the driver of lo has no ethtool -S counters");
	nb_eth_stats_delta(&a, &b, &d);
	CHECK(!d.present && strstr(d.why, "no ethtool -S"));
	nb_eth_stats_snap_release(&a);
}

/* ---- kernel log ---- */

/* The fixture holds records as /dev/kmsg gives them, one a read: a record starts at a line
 * that starts with a digit; " KEY=VALUE" lines belong to the record before. */
static int load_kmsg(char recs[][1024], int max)
{
	char line[1024];
	int n = -1;
	FILE *f = fopen(nb_test_fixture("counters/kmsg-6.18.txt"), "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] >= '0' && line[0] <= '9') {
			if (n + 1 >= max)
				break;
			recs[++n][0] = '\0';
		}
		if (n >= 0)
			strncat(recs[n], line, 1023 - strlen(recs[n]));
	}
	fclose(f);
	return n + 1;
}

static void test_kmsg(void)
{
	static char recs[16][1024];
	static struct nb_kmsg_log log;
	struct nb_kmsg_line l;
	int n = load_kmsg(recs, 16), kept = 0;

	CHECK(n == 10);
	CHECK(nb_kmsg_parse(recs[0], strlen(recs[0]), &l) == 0);
	CHECK(l.level == 4 && l.seq == 2 && l.ts_us == 0);
	CHECK_STR(l.text, "[Firmware Bug]: TSC doesn't count with P0 frequency!");
	/* the dictionary lines after the text are not part of it */
	CHECK(nb_kmsg_parse(recs[6], strlen(recs[6]), &l) == 0);
	CHECK(l.level == 5 && l.seq == 280 && l.ts_us == 316105);
	CHECK(!strchr(l.text, '\n') && !strstr(l.text, "SUBSYSTEM"));
	/* the interface as a word: "[vda]" names vda, "vd" is not a word of it */
	CHECK(nb_kmsg_wanted(&l, "vda", NB_KMSG_WARNING));
	CHECK(!nb_kmsg_wanted(&l, "vd", NB_KMSG_WARNING));
	CHECK(!nb_kmsg_wanted(&l, "virtio", NB_KMSG_WARNING));  /* "virtio1" is another word */
	for (int i = 0; i < n; i++) {
		CHECK(nb_kmsg_parse(recs[i], strlen(recs[i]), &l) == 0);
		if (nb_kmsg_wanted(&l, "veth0", NB_KMSG_WARNING)) {
			nb_kmsg_log_add(&log, &l);
			kept++;
		}
	}
	/* levels 0 and 4: the firmware bug, RDSEED, two SRSO lines, the IO TLB and amd_pstate */
	CHECK(kept == 6 && log.n == 6 && log.line[1].level == 0);
	/* a transmit timeout is kept whatever its level */
	CHECK(nb_kmsg_parse("6,900,5000,-;NETDEV WATCHDOG: eth0 (e1000e): transmit queue 0 timed out 5000 ms\n", 77,
			    &l) == 0);
	CHECK(nb_kmsg_wanted(&l, "veth0", NB_KMSG_WARNING) && nb_kmsg_wanted(&l, "eth0", 3));
	/* the cap: counted past it */
	for (int i = 0; i < NB_KMSG_MAX_LINES; i++)
		nb_kmsg_log_add(&log, &l);
	CHECK(log.n == NB_KMSG_MAX_LINES && log.over_cap == 6);
	/* long text is cut; bad records are refused */
	{
		char big[600];

		memset(big, 'x', sizeof(big));
		memcpy(big, "3,1,2,-;", 8);
		CHECK(nb_kmsg_parse(big, sizeof(big), &l) == 0 && strlen(l.text) == NB_KMSG_LINE_MAX - 1);
	}
	CHECK(nb_kmsg_parse("3,1;text", 8, &l) == -EINVAL);
	CHECK(nb_kmsg_parse("x,1,2,-;text", 12, &l) == -EINVAL);
	CHECK(nb_kmsg_parse("3,1,2,-text", 11, &l) == -EINVAL);
	/* an unreadable log says why */
	{
		struct nb_kmsg *k = nb_kmsg_open("/nonexistent/kmsg", "eth0");
		static struct nb_kmsg_log none;

		nb_kmsg_collect(k, &none);
		CHECK(!none.present && strstr(none.why, "No such file"));
		nb_kmsg_close(k);
	}
}

/* On a fixture tree the kernel's answers are not the tree's: every counter absent, with why. */
static void test_glue_fixture_tree(void)
{
	const struct nb_paths tree = { .proc = "/tmp/no-proc", .sys = "/tmp/no-sys" };
	struct nb_counters *c = nb_counters_new(&tree, "eth0");
	struct nb_run_counters *rc = NULL;
	struct nb_kmsg_log *log = NULL;
	struct nb_metric_set m = { 0 };

	CHECK(c != NULL);
	nb_counters_end(c, &rc, &m);
	CHECK(rc == NULL);  /* no window opened */
	for (int run = 0; run < 2; run++) {
		nb_counters_begin(c);
		nb_counters_end(c, &rc, &m);
		CHECK(rc && !rc->pp.present && strstr(rc->pp.why, "fixture tree"));
		CHECK(rc && !rc->eth.present && strstr(rc->eth.why, "fixture tree"));
	}
	CHECK(m.n == 0);
	nb_counters_log_skip(c);
	nb_counters_log_collect(c, &log);
	CHECK(log && !log->present && strstr(log->why, "kernel log not read"));
	free(log);
	nb_run_counters_free(rc);
	nb_counters_free(c);
}

int main(void)
{
	test_glue_fixture_tree();
	test_pp_parse();
	test_pp_real_answers();
	test_pp_delta();
	test_eth_virtio();
	test_pp_from_ethtool_fec();
	test_eth_drop_names();
	test_kmsg();
	return nb_test_done("run_counters");
}
