// SPDX-License-Identifier: MIT
/* The sampler's pure parts on hand-written inputs: the /proc parsers on odd but real layouts
 * and nb_snapshot_delta on counters that go backwards, vanish or change identity. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpu_sampler.h"
#include "nb_test.h"
#include "sampling/proc_parse.h"

static struct nb_snapshot snap_a, snap_b;

static void reset(struct nb_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

struct stat_case {
	const char *label, *text;
	int ret, ncpus;
	bool cpu1_present;
	uint64_t cpu0_user, cpu0_steal, cpu0_guest_nice;
};

static const struct stat_case stat_cases[] = {
	{ "6.x ten columns",
	  "cpu  30 1 20 900 5 0 3 2 1 0\ncpu0 10 1 10 450 2 0 1 1 1 7\ncpu1 20 0 10 450 3 0 2 1 0 0\n"
	  "intr 1 2 3\nctxt 9\n", 2, 2, true, 10, 1, 7 },
	{ "2.6.24: no guest_nice, 9 columns", "cpu  1 2 3 4 5 6 7 8 9\ncpu0 1 2 3 4 5 6 7 8 9\n",
	  1, 1, false, 1, 8, 0 },
	{ "CPU 1 offline: a hole", "cpu  2 0 0 8 0 0 0 0 0 0\ncpu0 1 0 0 4 0 0 0 0 0 0\ncpu2 1 0 0 4 0 0 0 0 0 0\n",
	  2, 3, false, 1, 0, 0 },
	{ "no aggregate line", "cpu0 1 0 0 4 0 0 0 0 0 0\n", -EINVAL, 1, false, 1, 0, 0 },
	{ "not /proc/stat", "MemTotal: 1000 kB\n", -EINVAL, 0, false, 0, 0, 0 },
	{ "too few columns skipped", "cpu  1 2 3 4\ncpu0 1 2\n", 0, 0, false, 0, 0, 0 },
};

static void test_proc_stat(void)
{
	for (size_t i = 0; i < sizeof(stat_cases) / sizeof(stat_cases[0]); i++) {
		const struct stat_case *c = &stat_cases[i];
		int ret;

		reset(&snap_a);
		ret = nb_parse_proc_stat(c->text, &snap_a);
		CHECK_MSG(ret == c->ret, "%s: ret %d, expected %d", c->label, ret, c->ret);
		CHECK_MSG(snap_a.ncpus == c->ncpus, "%s: ncpus %d", c->label, snap_a.ncpus);
		CHECK_MSG(snap_a.cpu_present[1] == c->cpu1_present, "%s: cpu1_present", c->label);
		CHECK_MSG(snap_a.cpu[0].user == c->cpu0_user && snap_a.cpu[0].steal == c->cpu0_steal &&
			  snap_a.cpu[0].guest_nice == c->cpu0_guest_nice, "%s: cpu0 columns", c->label);
	}
}

/* The raw series' parser reads the same lines: same count, same aggregate. */
static void test_proc_stat_total(void)
{
	for (size_t i = 0; i < sizeof(stat_cases) / sizeof(stat_cases[0]); i++) {
		const struct stat_case *c = &stat_cases[i];
		struct nb_cpu_ticks all = { 0 };
		int online = -1, ret;

		reset(&snap_a);
		nb_parse_proc_stat(c->text, &snap_a);
		ret = nb_parse_proc_stat_total(c->text, &all, &online);
		CHECK_MSG(ret == c->ret, "%s: total ret %d, expected %d", c->label, ret, c->ret);
		if (ret < 0)
			continue;
		CHECK_MSG(online == snap_a.ncpus_online, "%s: online %d, full parser %d", c->label, online,
			  snap_a.ncpus_online);
		CHECK_MSG(!memcmp(&all, &snap_a.cpu_all, sizeof(all)), "%s: aggregate differs", c->label);
	}
}

struct softirq_case {
	const char *label, *text;
	int ret;
	uint64_t rx0, rx1, tx1;
};

static const struct softirq_case softirq_cases[] = {
	{ "two CPUs",
	  "                    CPU0       CPU1       \n          HI:          0          0\n"
	  "      NET_TX:          4          9\n      NET_RX:        290        368\n", 0, 290, 368, 9 },
	{ "rows before header ignored, NET_RX missing",
	  "                    CPU0\n      NET_TX:          4\n", -ENOENT, 0, 0, 0 },
	{ "no header", "      NET_TX:          4\n", -EINVAL, 0, 0, 0 },
	{ "short row keeps zeros",
	  "                    CPU0       CPU1\n      NET_TX:          4\n      NET_RX:          5\n", 0, 5, 0, 0 },
};

static void test_softirqs(void)
{
	for (size_t i = 0; i < sizeof(softirq_cases) / sizeof(softirq_cases[0]); i++) {
		const struct softirq_case *c = &softirq_cases[i];
		int ret;

		reset(&snap_a);
		ret = nb_parse_softirqs(c->text, &snap_a);
		CHECK_MSG(ret == c->ret, "%s: ret %d", c->label, ret);
		CHECK_MSG(snap_a.net_rx[0] == c->rx0 && snap_a.net_rx[1] == c->rx1 && snap_a.net_tx[1] == c->tx1,
			  "%s: values", c->label);
	}
}

struct softnet_case {
	const char *label, *text;
	int ret;
	uint64_t processed, dropped, squeeze;
};

static const struct softnet_case softnet_cases[] = {
	{ "6.1: 13 columns",
	  "0000000a 00000001 00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	  "000001ec 00000000 0000000f 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n",
	  2, 0xa + 0x1ec, 1, 0x2 + 0xf },
	{ "6.4+: 15 columns",
	  "ffffffff 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n",
	  1, 0xffffffffu, 0, 0 },
	{ "2.6: 9 columns", "002a0c14 00000000 00000003 00000000 00000000 00000000 00000000 00000000 00000000\n",
	  1, 0x2a0c14, 0, 3 },
	{ "empty", "", -EINVAL, 0, 0, 0 },
	{ "not hex", "zzzz\n", -EINVAL, 0, 0, 0 },
};

static void test_softnet(void)
{
	for (size_t i = 0; i < sizeof(softnet_cases) / sizeof(softnet_cases[0]); i++) {
		const struct softnet_case *c = &softnet_cases[i];
		int ret;

		reset(&snap_a);
		ret = nb_parse_softnet(c->text, &snap_a);
		CHECK_MSG(ret == c->ret, "%s: ret %d", c->label, ret);
		if (ret > 0)
			CHECK_MSG(snap_a.softnet_processed == c->processed && snap_a.softnet_dropped == c->dropped &&
				  snap_a.softnet_time_squeeze == c->squeeze, "%s: values", c->label);
	}
}

struct snmp_case {
	const char *label, *text;
	int ret;
	uint64_t in, no_ports, rcvbuf, csum;
};

static const struct snmp_case snmp_cases[] = {
	{ "6.x layout, UdpLite after",
	  "Tcp: RtoAlgorithm RtoMin\nTcp: 1 200\n"
	  "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	  "Udp: 26 1 2 27 3 4 5 0 0\n"
	  "UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	  "UdpLite: 9 9 9 9 9 9 9 9 9\n", 0, 26, 1, 3, 5 },
	{ "columns in another order",
	  "Udp: InCsumErrors RcvbufErrors Future NoPorts SndbufErrors InErrors InDatagrams\n"
	  "Udp: 5 3 77 1 4 2 26\n", 0, 26, 1, 3, 5 },
	{ "pre-3.10: no InCsumErrors",
	  "Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\nUdp: 1 2 3 4 5 6\n",
	  -ENOENT, 1, 2, 5, 0 },
	{ "only UdpLite", "UdpLite: InDatagrams\nUdpLite: 1\n", -ENOENT, 0, 0, 0, 0 },
	{ "header without values", "Udp: InDatagrams NoPorts\n", -ENOENT, 0, 0, 0, 0 },
};

static void test_snmp(void)
{
	for (size_t i = 0; i < sizeof(snmp_cases) / sizeof(snmp_cases[0]); i++) {
		const struct snmp_case *c = &snmp_cases[i];
		int ret;

		reset(&snap_a);
		ret = nb_parse_snmp_udp(c->text, &snap_a);
		CHECK_MSG(ret == c->ret, "%s: ret %d", c->label, ret);
		CHECK_MSG(snap_a.udp_in_datagrams == c->in && snap_a.udp_no_ports == c->no_ports &&
			  snap_a.udp_rcvbuf_errors == c->rcvbuf && snap_a.udp_in_csum_errors == c->csum,
			  "%s: values", c->label);
	}
}

struct pid_stat_case {
	const char *label, *text;
	int ret;
	uint64_t ticks;
};

static const struct pid_stat_case pid_stat_cases[] = {
	{ "kthread", "17783 (napi/nbs1-258) S 2 0 0 0 -1 2129984 0 0 0 0 7 11 0 0 20 0 1 0 78193\n", 0, 18 },
	{ "comm with spaces and parens", "42 (a) b (c)) R 1 42 42 0 -1 0 0 0 0 0 100 23 0 0\n", 0, 123 },
	{ "cut before stime", "42 (x) R 1 42 42 0 -1 0 0 0 0 0 100\n", -EINVAL, 0 },
	{ "no comm", "42 x R 1\n", -EINVAL, 0 },
};

static void test_pid_stat(void)
{
	for (size_t i = 0; i < sizeof(pid_stat_cases) / sizeof(pid_stat_cases[0]); i++) {
		const struct pid_stat_case *c = &pid_stat_cases[i];
		uint64_t ticks = 0;
		int ret = nb_parse_pid_stat_ticks(c->text, &ticks);

		CHECK_MSG(ret == c->ret, "%s: ret %d", c->label, ret);
		CHECK_MSG(ticks == c->ticks, "%s: ticks %llu", c->label, (unsigned long long)ticks);
	}
}

static void test_small_values(void)
{
	uint64_t per_cpu[2] = { 1, 1 }, v = 0;

	CHECK(nb_parse_per_cpu_count("3,17,5\n", per_cpu, 2) == 3);
	CHECK(per_cpu[0] == 4 && per_cpu[1] == 18);
	CHECK(nb_parse_per_cpu_count("x", per_cpu, 2) == -EINVAL);
	CHECK(nb_parse_per_cpu_count("1,", per_cpu, 2) == -EINVAL);
	CHECK(nb_parse_u64("123\n", &v) == 0 && v == 123);
	CHECK(nb_parse_u64("", &v) == -EINVAL);
	CHECK(nb_parse_u64("12x\n", &v) == -EINVAL);
}

/* ---- nb_snapshot_delta on synthetic pairs ---- */

static void two_cpus(struct nb_snapshot *s, uint64_t user, uint64_t idle, uint64_t iowait)
{
	s->ncpus = s->ncpus_online = 2;
	s->clk_tck = 100;
	s->cpu_all_present = s->cpu_present[0] = s->cpu_present[1] = true;
	s->cpu[0] = (struct nb_cpu_ticks){ .user = user, .idle = idle, .iowait = iowait };
	s->cpu[1] = (struct nb_cpu_ticks){ .user = user, .idle = idle, .iowait = iowait };
	s->cpu_all = (struct nb_cpu_ticks){ .user = 2 * user, .idle = 2 * idle, .iowait = 2 * iowait };
}

static double metric(const struct nb_metric_set *m, const char *name)
{
	double v = -1;

	return nb_metrics_get(m, name, &v) ? v : -1;
}

struct delta_case {
	const char *label;
	void (*setup)(struct nb_snapshot *a, struct nb_snapshot *b);
	const char *present;      /* one metric that must be there ... */
	double value;             /* ... with this value */
	const char *absent;       /* one that must not */
};

static void iowait_moves_to_idle(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 100, 1000, 50);
	two_cpus(b, 150, 1060, 40);  /* iowait -10, idle +60: 50 idle-ish, 50 busy */
}

static void idle_goes_back(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 100, 1000, 50);
	two_cpus(b, 150, 990, 50);
}

static void guest_inside_user(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 100, 1000, 0);
	two_cpus(b, 150, 1050, 0);
	a->cpu_all.guest = 10;
	b->cpu_all.guest = 60;       /* all 100 user ticks were guest: still 50% busy, not 75% */
}

static void cpu1_unplugged(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 100, 1000, 0);
	two_cpus(b, 110, 1090, 0);
	b->cpu_present[1] = false;
	b->ncpus_online = 1;
}

static void steal_is_busy(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 100, 1000, 0);
	two_cpus(b, 100, 1050, 0);
	b->cpu_all.steal = 50;       /* 100 idle ticks and 50 stolen: a third busy */
}

static void dropped_wraps(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->netdev_present = b->netdev_present = true;
	a->rx_packets = 1000;
	b->rx_packets = 3000;
	a->rx_dropped = 4000000000u;
	b->rx_dropped = 5;
	a->t = 10;
	b->t = 12;
}

/* every column moves by a different amount, so a column read into the wrong share shows */
static void cpu_split(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->cpu_all_present = b->cpu_all_present = true;
	a->cpu_all = (struct nb_cpu_ticks){ .user = 100, .system = 100, .irq = 100, .softirq = 100, .idle = 100 };
	b->cpu_all = (struct nb_cpu_ticks){ .user = 110, .nice = 2, .system = 120, .irq = 105, .softirq = 115,
					    .idle = 148 };   /* 100 ticks: 12 user, 20 system, 5 irq, 15 softirq */
	a->t = 0;
	b->t = 0.5;
}

/* the kernel's CPU per packet: cpu_split's 20 system + 5 irq + 15 softirq ticks (0.4 s at 100/s, user
 * and idle left out) over 3000 packets received and 1000 sent: 100 us a packet */
static void cost_per_packet(struct nb_snapshot *a, struct nb_snapshot *b)
{
	cpu_split(a, b);
	a->clk_tck = b->clk_tck = 100;
	a->netdev_present = b->netdev_present = true;
	a->rx_packets = 5000;
	b->rx_packets = 8000;
	a->tx_packets = 100;
	b->tx_packets = 1100;
}

/* 999 packets: the idle kernel's time over stray packets is no cost of the work */
static void cost_few_packets(struct nb_snapshot *a, struct nb_snapshot *b)
{
	cost_per_packet(a, b);
	b->rx_packets = a->rx_packets + 999;
	b->tx_packets = a->tx_packets;
}

/* a counter that went back (a driver reset its statistics): no figure rather than a wrong one */
static void cost_counter_back(struct nb_snapshot *a, struct nb_snapshot *b)
{
	cost_per_packet(a, b);
	b->tx_packets = 50;
}

/* 1 s of two CPUs at 100 ticks/s is 200 ticks; the columns hold 180: 10% went unaccounted */
static void ticks_missing(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->cpu_all_present = b->cpu_all_present = true;
	a->clk_tck = b->clk_tck = 100;
	a->ncpus_online = b->ncpus_online = 2;
	b->cpu_all = (struct nb_cpu_ticks){ .softirq = 9, .idle = 171 };
	a->t = 7;
	b->t = 8;
}

/* an edge tick too many is no "negative" missing time */
static void ticks_overshoot(struct nb_snapshot *a, struct nb_snapshot *b)
{
	ticks_missing(a, b);
	b->cpu_all.idle = 193;   /* 202 ticks */
}

/* threaded=1 points: napi/ thread time as a share of the machine, like traffic_proc_pct */
static void napi_threads_busy(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->napi_threads_present = b->napi_threads_present = true;
	a->clk_tck = b->clk_tck = 100;
	a->ncpus_online = b->ncpus_online = 2;
	a->napi_thread_ticks = 40;
	b->napi_thread_ticks = 90;   /* 50 ticks = 0.5 s of one CPU in 1 s of two */
	a->t = 3;
	b->t = 4;
}

static void zero_interval(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->netdev_present = b->netdev_present = true;
	a->rx_packets = 1;
	b->rx_packets = 2;
	a->tx_dropped = 1;
	b->tx_dropped = 4;
	a->t = b->t = 5;
}

static void rescanned_between(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->irqs_present = b->irqs_present = true;
	a->napi_threads_present = b->napi_threads_present = true;
	a->irq_count[0] = 10;
	b->irq_count[0] = 20;
	b->generation = 1;
	a->t = 0;
	b->t = 1;
}

static void irqs_same_generation(struct nb_snapshot *a, struct nb_snapshot *b)
{
	rescanned_between(a, b);
	b->irq_count[1] = 30;
	b->generation = 0;
}

static void irq_cpu_went_back(struct nb_snapshot *a, struct nb_snapshot *b)
{
	irqs_same_generation(a, b);
	a->irq_count[1] = 31;
}

static void traffic_pid_changed(struct nb_snapshot *a, struct nb_snapshot *b)
{
	two_cpus(a, 0, 0, 0);
	two_cpus(b, 0, 100, 0);
	a->traffic_present = b->traffic_present = true;
	a->traffic_pid = 10;
	b->traffic_pid = 11;
	b->traffic_ticks = 50;
	b->t = 1;
}

static void traffic_one_cpu_of_two(struct nb_snapshot *a, struct nb_snapshot *b)
{
	traffic_pid_changed(a, b);
	b->traffic_pid = 10;
	a->traffic_ticks = 20;
	b->traffic_ticks = 120;      /* one full CPU for 1 s of a 2-CPU machine */
}

static void udp_counts(struct nb_snapshot *a, struct nb_snapshot *b)
{
	a->udp_present = b->udp_present = true;
	a->udp_rcvbuf_errors = 7;
	b->udp_rcvbuf_errors = 19;
	b->udp_in_datagrams = 5;     /* InDatagrams went up 5 but t did not move: no rate */
}

static void udp_missing_in_b(struct nb_snapshot *a, struct nb_snapshot *b)
{
	udp_counts(a, b);
	b->udp_present = false;
}

static const struct delta_case delta_cases[] = {
	{ "iowait moves to idle", iowait_moves_to_idle, "cpu_busy_pct", 50.0, NULL },
	{ "idle+iowait goes back", idle_goes_back, NULL, 0, "cpu_busy_pct" },
	{ "guest counted once", guest_inside_user, "cpu_busy_pct", 50.0, NULL },
	{ "unplugged CPU", cpu1_unplugged, "cpu0_busy_pct", 10.0, "cpu1_busy_pct" },
	{ "steal counts as busy", steal_is_busy, "cpu_busy_pct", 100.0 * 50 / 150, NULL },
	{ "steal on its own", steal_is_busy, "steal_pct", 100.0 * 50 / 150, NULL },
	{ "32-bit counter wrapped", dropped_wraps, "rx_packets_per_s", 1000.0, "rx_dropped" },
	{ "CPU split: irq", cpu_split, "irq_pct", 5.0, NULL },
	{ "CPU split: softirq", cpu_split, "softirq_pct", 15.0, NULL },
	{ "CPU split: busy", cpu_split, "cpu_busy_pct", 52.0, NULL },
	{ "ticks missing", ticks_missing, "cpu_unaccounted_pct", 10.0, NULL },
	{ "ticks overshoot", ticks_overshoot, "cpu_unaccounted_pct", 0.0, NULL },
	{ "napi threads", napi_threads_busy, "napi_thread_pct", 25.0, NULL },
	{ "zero interval: counts only", zero_interval, "tx_dropped", 3.0, "rx_packets_per_s" },
	{ "rescan between snapshots", rescanned_between, NULL, 0, "interrupts_per_s" },
	{ "IRQs summed over CPUs", irqs_same_generation, "interrupts_per_s", 40.0, "napi_thread_pct" },
	{ "one CPU's IRQ count back", irq_cpu_went_back, NULL, 0, "interrupts_per_s" },
	{ "traffic process replaced", traffic_pid_changed, NULL, 0, "traffic_proc_pct" },
	{ "traffic: percent of machine", traffic_one_cpu_of_two, "traffic_proc_pct", 50.0, NULL },
	{ "UDP counts", udp_counts, "udp_rcvbuf_errors", 12.0, "udp_in_datagrams_per_s" },
	{ "UDP missing in b", udp_missing_in_b, NULL, 0, "udp_rcvbuf_errors" },
	{ "kernel CPU per packet", cost_per_packet, "kernel_cpu_ns_per_packet", 0.4e9 / 4000, NULL },
	{ "kernel CPU per packet: too few packets", cost_few_packets, "rx_packets_per_s", 999 / 0.5,
	  "kernel_cpu_ns_per_packet" },
	{ "kernel CPU per packet: counter back", cost_counter_back, "cpu_busy_pct", 52.0, "kernel_cpu_ns_per_packet" },
};

static void test_delta(void)
{
	for (size_t i = 0; i < sizeof(delta_cases) / sizeof(delta_cases[0]); i++) {
		const struct delta_case *c = &delta_cases[i];
		struct nb_metric_set m = { 0 };

		reset(&snap_a);
		reset(&snap_b);
		c->setup(&snap_a, &snap_b);
		nb_snapshot_delta(&snap_a, &snap_b, &m);
		if (c->present && c->value >= 0)
			CHECK_MSG(fabs(metric(&m, c->present) - c->value) < 1e-9, "%s: %s = %g, expected %g",
				  c->label, c->present, metric(&m, c->present), c->value);
		else if (c->present)
			CHECK_MSG(nb_metrics_get(&m, c->present, NULL), "%s: %s missing", c->label, c->present);
		if (c->absent)
			CHECK_MSG(!nb_metrics_get(&m, c->absent, NULL), "%s: %s present", c->label, c->absent);
		for (int k = 0; k < m.n; k++)
			CHECK_MSG(m.m[k].value >= 0, "%s: %s negative", c->label, m.m[k].name);
	}
}

/* The raw series must say what the full delta says, field by field, and NAN where the full
 * delta leaves the metric out: run it over every case above. */
static void test_series_matches_delta(void)
{
	for (size_t i = 0; i < sizeof(delta_cases) / sizeof(delta_cases[0]); i++) {
		const struct delta_case *c = &delta_cases[i];
		struct nb_series_snapshot sa, sb;
		struct nb_metric_set m = { 0 };
		double v[NB_SERIES_FIELDS];

		reset(&snap_a);
		reset(&snap_b);
		c->setup(&snap_a, &snap_b);
		nb_snapshot_delta(&snap_a, &snap_b, &m);
		nb_series_from_snapshot(&snap_a, &sa);
		nb_series_from_snapshot(&snap_b, &sb);
		nb_series_delta(&sa, &sb, v);
		for (int f = 0; f < NB_SERIES_FIELDS; f++) {
			double want;

			if (nb_metrics_get(&m, nb_series_field_names[f], &want))
				CHECK_MSG(fabs(v[f] - want) < 1e-9, "%s: series %s = %g, delta %g", c->label,
					  nb_series_field_names[f], v[f], want);
			else
				CHECK_MSG(isnan(v[f]), "%s: series %s = %g, delta has none", c->label,
					  nb_series_field_names[f], v[f]);
		}
	}
}

static void test_nothing_present(void)
{
	struct nb_metric_set m = { 0 };

	reset(&snap_a);
	reset(&snap_b);
	snap_b.t = 1;
	nb_snapshot_delta(&snap_a, &snap_b, &m);
	CHECK_MSG(m.n == 0, "%d metrics from empty snapshots", m.n);
}

int main(void)
{
	test_proc_stat();
	test_proc_stat_total();
	test_softirqs();
	test_softnet();
	test_snmp();
	test_pid_stat();
	test_small_values();
	test_delta();
	test_series_matches_delta();
	test_nothing_present();
	return nb_test_done("sampler_parse");
}
