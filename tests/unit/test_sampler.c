// SPDX-License-Identifier: MIT
/* The sampler end to end on fixture trees (a real 6.18 pair and a 6.1 board built from
 * public sources): open, snapshot a/ and b/, and compare the delta with hand-computed values. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu_sampler.h"
#include "nb_test.h"

struct expect {
	const char *name;
	double value;
};

struct fixture_case {
	const char *dir;
	const char *iface;
	pid_t traffic_pid;
	double dt;                   /* from the uptime files, see the fixture README */
	const struct expect *expect;
	size_t nexpect;
	const char *const *absent;   /* NULL-terminated */
};

/* tests/fixtures/proc-6.18: numbers copied from a/ and b/ by hand, dt = 813.75 - 812.71 */
#define DT_618 1.04
static const struct expect expect_618[] = {
	/* cpu line: a 23210 0 11242 124347 1659 0 933 36, b 23220 0 11391 124384 1659 0 935 36 */
	{ "cpu_busy_pct", 100.0 * (10 + 149 + 2) / (10 + 149 + 37 + 2) },
	{ "user_pct", 100.0 * 10 / 198 },
	{ "system_pct", 100.0 * 149 / 198 },
	{ "irq_pct", 0.0 },
	{ "softirq_pct", 100.0 * 2 / 198 },
	{ "steal_pct", 0.0 },  /* 36 -> 36 */
	/* cpu0: a 10301 0 4544 65207 372 0 308 14, b 10306 0 4624 65225 372 0 309 14 */
	{ "cpu0_busy_pct", 100.0 * (5 + 80 + 1) / (5 + 80 + 18 + 1) },
	{ "cpu0_user_pct", 100.0 * 5 / 104 },
	{ "cpu0_system_pct", 100.0 * 80 / 104 },
	{ "cpu0_softirq_pct", 100.0 * 1 / 104 },
	/* cpu1: a 12909 0 6698 59140 1286 0 624 22, b 12914 0 6767 59159 1286 0 625 22 */
	{ "cpu1_busy_pct", 100.0 * (5 + 69 + 1) / (5 + 69 + 19 + 1) },
	{ "cpu1_system_pct", 100.0 * 69 / 94 },
	/* napi/nbs1-261 (pid 19151): utime+stime 0+69 -> 0+118; 2 CPUs, USER_HZ 100 */
	{ "napi_thread_pct", 100.0 * (118 - 69) / 100.0 / DT_618 / 2 },
	{ "napi_threads", 1 },
	/* iperf3 (pid 19206): 4+90 -> 7+155 */
	{ "traffic_proc_pct", 100.0 * ((7 + 155) - (4 + 90)) / 100.0 / DT_618 / 2 },
	/* NET_RX 674059 1141872 -> 674751 1142277; NET_TX unchanged */
	{ "net_rx_softirqs_per_s", ((674751 - 674059) + (1142277 - 1141872)) / DT_618 },
	{ "net_tx_softirqs_per_s", 0.0 },
	{ "rx_packets_per_s", (537571 - 319461) / DT_618 },
	{ "tx_packets_per_s", (14 - 12) / DT_618 },
	{ "rx_bytes_per_s", (765751858.0 - 454412082.0) / DT_618 },
	{ "tx_bytes_per_s", (988 - 828) / DT_618 },
	{ "rx_dropped", 0 },
	{ "tx_dropped", 0 },
	/* softnet_stat column 1, hex: 000b0620 001483a6 -> 000c1176 0014c2ae */
	{ "softnet_processed_per_s", ((0x000c1176 - 0x000b0620) + (0x0014c2ae - 0x001483a6)) / DT_618 },
	{ "softnet_dropped", 0 },
	{ "time_squeeze", 0 },
	/* Udp: 238995 0 78810 1 78810 0 0 -> 385859 0 149950 1 149950 0 0 */
	{ "udp_in_datagrams_per_s", (385859 - 238995) / DT_618 },
	{ "udp_in_errors", 149950 - 78810 },
	{ "udp_rcvbuf_errors", 149950 - 78810 },
	{ "udp_sndbuf_errors", 0 },
	{ "udp_no_ports", 0 },
	/* system + irq + softirq of the cpu line, 149 + 0 + 2 ticks at USER_HZ 100, over rx + tx packets */
	{ "kernel_cpu_ns_per_packet", (149 + 0 + 2) / 100.0 * 1e9 / ((537571 - 319461) + (14 - 12)) },
};
static const char *const absent_618[] = { "interrupts_per_s", NULL };

/* tests/fixtures/proc-6.1: values from make-fixture.py, dt exactly 1 s */
static const struct expect expect_61[] = {
	/* cpu0 +8 user, +22 system, +31 idle, +1 iowait, +38 softirq; cpu1 +41, +27, +29, 0, +3 */
	{ "cpu_busy_pct", 100.0 * (8 + 22 + 38 + 41 + 27 + 3) / 200 },
	{ "user_pct", 100.0 * (8 + 41) / 200 },
	{ "system_pct", 100.0 * (22 + 27) / 200 },
	{ "softirq_pct", 100.0 * (38 + 3) / 200 },
	{ "cpu0_busy_pct", 100.0 * (8 + 22 + 38) / 100 },
	{ "cpu0_softirq_pct", 38.0 },
	{ "cpu0_irq_pct", 0.0 },
	{ "cpu1_user_pct", 41.0 },
	{ "traffic_proc_pct", 100.0 * ((131 + 335) - (118 + 307)) / 100.0 / 1.0 / 2 },
	{ "interrupts_per_s", 4210 },
	{ "net_rx_softirqs_per_s", (187094 - 182904) + (1235 - 1210) },
	{ "net_tx_softirqs_per_s", (3132 - 3120) + (885 - 882) },
	{ "rx_packets_per_s", 187557 - 183377 },
	{ "rx_bytes_per_s", 283578184 - 277258024 },
	{ "tx_packets_per_s", 1219 - 1204 },
	{ "softnet_processed_per_s", 4180 + 25 },
	{ "time_squeeze", 7 },
	{ "softnet_dropped", 0 },
	{ "udp_in_datagrams_per_s", 175330 - 171230 },
	{ "udp_rcvbuf_errors", 80 },
	{ "udp_in_errors", 80 },
	{ "udp_no_ports", 0 },
	/* (22 + 27) system + (38 + 3) softirq ticks over 4180 packets received and 15 sent */
	{ "kernel_cpu_ns_per_packet", (22 + 27 + 38 + 3) / 100.0 * 1e9 / ((187557 - 183377) + (1219 - 1204)) },
};
static const char *const absent_61[] = { "napi_thread_pct", "napi_threads", NULL };

static const struct fixture_case cases[] = {
	{ "proc-6.18", "nbs1", 19206, DT_618, expect_618, sizeof(expect_618) / sizeof(expect_618[0]),
	  absent_618 },
	{ "proc-6.1", "eth0", 1432, 1.0, expect_61, sizeof(expect_61) / sizeof(expect_61[0]), absent_61 },
};

static void fixture_dir(char *buf, size_t len, const char *dir, const char *snap, const char *sub)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/%s/%s", dir, snap, sub);
	snprintf(buf, len, "%s", nb_test_fixture(rel));
}

static int take(const char *proc, const char *sys, const char *iface, pid_t pid, struct nb_snapshot *snap)
{
	struct nb_paths paths = { .proc = proc, .sys = sys };
	struct nb_sampler_target t = { .paths = &paths, .iface = iface, .traffic_pid = pid };
	struct nb_sampler *s;
	struct nb_err err = { 0 };
	int ret = nb_sampler_new(&t, &s, &err);

	CHECK_MSG(ret == 0, "nb_sampler_new(%s): %s", proc, err.msg);
	if (ret)
		return ret;
	ret = nb_sampler_snapshot(s, snap, &err);
	CHECK_MSG(ret == 0, "snapshot %s: %s", proc, err.msg);
	nb_sampler_free(s);
	return ret;
}

static int take_fixture(const struct fixture_case *c, const char *which, struct nb_snapshot *snap)
{
	char proc[1024], sys[1024];

	fixture_dir(proc, sizeof(proc), c->dir, which, "proc");
	fixture_dir(sys, sizeof(sys), c->dir, which, "sys");
	return take(proc, sys, c->iface, c->traffic_pid, snap);
}

static void check_metrics(const char *label, const struct nb_metric_set *m, const struct expect *e,
			  size_t n, const char *const *absent)
{
	for (size_t i = 0; i < n; i++) {
		double v;
		bool present = nb_metrics_get(m, e[i].name, &v);

		CHECK_MSG(present, "%s: %s missing", label, e[i].name);
		if (present)
			CHECK_MSG(fabs(v - e[i].value) <= 1e-9 * (1 + fabs(e[i].value)),
				  "%s: %s = %.9g, expected %.9g", label, e[i].name, v, e[i].value);
	}
	for (size_t i = 0; absent && absent[i]; i++)
		CHECK_MSG(!nb_metrics_get(m, absent[i], NULL), "%s: %s should be absent", label, absent[i]);
}

static void test_fixture(const struct fixture_case *c)
{
	static struct nb_snapshot a, b;
	struct nb_metric_set m = { 0 };
	double v;

	if (take_fixture(c, "a", &a) || take_fixture(c, "b", &b))
		return;
	CHECK(a.ncpus == 2 && b.ncpus_online == 2);
	CHECK(a.cpu_all_present && a.softirqs_present && a.softnet_present && a.udp_present &&
	      a.netdev_present && a.traffic_present);
	a.t = 0;
	b.t = c->dt;
	nb_snapshot_delta(&a, &b, &m);
	check_metrics(c->dir, &m, c->expect, c->nexpect, c->absent);
	/* Reversed order: counters that moved now go backwards and must vanish; the ones that
	 * stood still give 0 (napi_threads is a count and traffic_cpu_* are samples, not deltas);
	 * nothing may be negative. */
	memset(&m, 0, sizeof(m));
	a.t = c->dt;
	b.t = 0;
	nb_snapshot_delta(&b, &a, &m);
	for (int i = 0; i < m.n; i++)
		CHECK_MSG(m.m[i].value == 0 || !strcmp(m.m[i].name, "napi_threads") ||
			  !strncmp(m.m[i].name, "traffic_cpu_", 12),
			  "%s reversed: %s = %g", c->dir, m.m[i].name, m.m[i].value);
	CHECK(!nb_metrics_get(&m, "cpu_busy_pct", &v));
	CHECK(!nb_metrics_get(&m, "rx_packets_per_s", &v));
}

/* The 6.1 board again, with a sys tree that has no kernel/irq: counts must come from
 * <proc>/interrupts and agree with per_cpu_count. */
static void test_interrupts_fallback(void)
{
	static struct nb_snapshot a, b;
	char tmpl[] = "/tmp/nb-sampler-XXXXXX", link_path[64], target[1024], proc[1024];
	struct nb_metric_set m = { 0 };
	double v = 0;
	char *root = mkdtemp(tmpl);

	CHECK(root != NULL);
	if (!root)
		return;
	snprintf(link_path, sizeof(link_path), "%s/class", root);
	fixture_dir(target, sizeof(target), "proc-6.1", "a", "sys/class");
	CHECK(symlink(target, link_path) == 0);
	fixture_dir(proc, sizeof(proc), "proc-6.1", "a", "proc");
	take(proc, root, "eth0", 0, &a);
	fixture_dir(proc, sizeof(proc), "proc-6.1", "b", "proc");
	take(proc, root, "eth0", 0, &b);
	a.t = 0;
	b.t = 0.5;
	CHECK(a.irqs_present && b.irqs_present);
	CHECK(a.irq_count[0] == 183415 && a.irq_count[1] == 0);
	nb_snapshot_delta(&a, &b, &m);
	CHECK(nb_metrics_get(&m, "interrupts_per_s", &v));
	CHECK_NEAR(v, 4210 / 0.5, 1e-9);
	/* one by one: the IRQs' own rates add up to the interface's */
	CHECK(a.nirq_each > 0 && a.nirq_each == b.nirq_each);
	{
		double sum = 0, x = 0;
		char name[32];

		for (int i = 0; i < b.nirq_each; i++) {
			snprintf(name, sizeof(name), "irq%d_per_s", b.irq_each[i]);
			CHECK(nb_metrics_get(&m, name, &x));
			sum += x;
		}
		CHECK_NEAR(sum, 4210 / 0.5, 1e-9);
	}
	CHECK(!nb_metrics_get(&m, "traffic_proc_pct", NULL));
	unlink(link_path);
	rmdir(root);
}

/* Leaving a source out makes its snapshot fields and metrics absent, nothing else. */
static void test_sources_mask(void)
{
	static struct nb_snapshot a, b;
	struct nb_paths pa, pb;
	struct nb_sampler_target t = { .iface = "eth0", .traffic_pid = 1432 };
	struct nb_sampler *sa = NULL, *sb = NULL;
	struct nb_metric_set m = { 0 };
	char proc_a[1024], sys_a[1024], proc_b[1024], sys_b[1024];

	fixture_dir(proc_a, sizeof(proc_a), "proc-6.1", "a", "proc");
	fixture_dir(sys_a, sizeof(sys_a), "proc-6.1", "a", "sys");
	fixture_dir(proc_b, sizeof(proc_b), "proc-6.1", "b", "proc");
	fixture_dir(sys_b, sizeof(sys_b), "proc-6.1", "b", "sys");
	pa = (struct nb_paths){ .proc = proc_a, .sys = sys_a };
	pb = (struct nb_paths){ .proc = proc_b, .sys = sys_b };
	t.paths = &pa;
	CHECK(nb_sampler_new(&t, &sa, NULL) == 0);
	t.paths = &pb;
	CHECK(nb_sampler_new(&t, &sb, NULL) == 0);
	if (!sa || !sb)
		goto out;
	nb_sampler_set_sources(sa, NB_SRC_ALL);
	nb_sampler_set_sources(sb, NB_SRC_ALL & ~(NB_SRC_UDP | NB_SRC_CPU));
	CHECK(nb_sampler_snapshot(sa, &a, NULL) == 0 && nb_sampler_snapshot(sb, &b, NULL) == 0);
	CHECK(a.udp_present && !b.udp_present && !b.cpu_all_present && b.netdev_present);
	b.t = a.t + 1.0;
	nb_snapshot_delta(&a, &b, &m);
	CHECK(!nb_metrics_get(&m, "udp_rcvbuf_errors", NULL) && !nb_metrics_get(&m, "cpu_busy_pct", NULL));
	CHECK(!nb_metrics_get(&m, "cpu0_busy_pct", NULL));
	CHECK(nb_metrics_get(&m, "rx_packets_per_s", NULL) && nb_metrics_get(&m, "traffic_proc_pct", NULL));
out:
	nb_sampler_free(sa);
	nb_sampler_free(sb);
}

static void test_errors(void)
{
	struct nb_paths paths = { .proc = "/nonexistent/proc", .sys = "/nonexistent/sys" };
	struct nb_sampler_target t = { .paths = &paths, .iface = "eth0" };
	struct nb_sampler *s = (struct nb_sampler *)&t;
	struct nb_err err = { 0 };

	CHECK(nb_sampler_new(&t, &s, &err) == -ENODEV);
	CHECK(s == NULL);
	CHECK_MSG(strstr(err.msg, "/nonexistent/sys/class/net/eth0") != NULL, "%s", err.msg);
	t.iface = "bad/name";
	CHECK(nb_sampler_new(&t, &s, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "bad/name") != NULL, "%s", err.msg);
	CHECK(nb_sampler_snapshot(NULL, NULL, &err) == -EINVAL);
	nb_sampler_free(NULL);
}

/* Burns ms of CPU time (not wall time), so a loaded CI machine still gives whole ticks. */
static void spin_cpu_ms(int ms)
{
	struct timespec t0, t;
	double elapsed = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	while (elapsed < ms) {
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		elapsed = (double)(t.tv_sec - t0.tv_sec) * 1e3 + (double)(t.tv_nsec - t0.tv_nsec) / 1e6;
	}
}

/* The live machine's loopback: every global source must be there, and shares are sane. */
static void test_live_loopback(void)
{
	struct nb_sampler_target t = { .paths = &nb_paths_live, .iface = "lo", .traffic_pid = getpid() };
	static struct nb_snapshot a, b;
	struct nb_metric_set m = { 0 };
	struct nb_sampler *s;
	struct nb_err err = { 0 };
	double v;

	if (access("/sys/class/net/lo", F_OK)) {
		printf("skip live test: no /sys/class/net/lo\n");
		return;
	}
	CHECK_MSG(nb_sampler_new(&t, &s, &err) == 0, "%s", err.msg);
	if (!s)
		return;
	CHECK(nb_sampler_snapshot(s, &a, &err) == 0);
	spin_cpu_ms(30);
	CHECK(nb_sampler_rescan(s, &err) == 0);
	CHECK(nb_sampler_snapshot(s, &b, &err) == 0);
	CHECK(b.generation == a.generation);
	CHECK(a.cpu_all_present && a.softirqs_present && a.softnet_present && a.netdev_present);
	CHECK(a.traffic_present && !a.irqs_present);
	nb_snapshot_delta(&a, &b, &m);
	/* no upper bound: whole ticks over 30 ms can exceed the wall time on a 1-CPU machine */
	CHECK(nb_metrics_get(&m, "traffic_proc_pct", &v) && v > 0);
	if (nb_metrics_get(&m, "cpu_busy_pct", &v))
		CHECK(v >= 0 && v <= 100.0 + 1e-9);
	CHECK(!nb_metrics_get(&m, "interrupts_per_s", NULL));
	nb_sampler_free(s);
}

/* A traffic process that exits and is reaped keeps its last CPU time instead of vanishing. */
static void test_live_traffic_exit(void)
{
	struct nb_sampler_target t = { .paths = &nb_paths_live, .iface = "lo" };
	static struct nb_snapshot a, b;
	struct nb_sampler *s = NULL;
	int ready[2], go[2], status;  /* one pipe per direction: a shared one races */
	char c = 0;
	pid_t child;

	if (access("/sys/class/net/lo", F_OK) || pipe(ready))
		return;
	if (pipe(go)) {
		close(ready[0]);
		close(ready[1]);
		return;
	}
	child = fork();
	if (child == 0) {
		close(ready[0]);
		close(go[1]);
		spin_cpu_ms(60);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		(void)!read(go[0], &c, 1);  /* returns at "y" or when the parent closes go[1] */
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	CHECK(child > 0);
	if (child > 0 && read(ready[0], &c, 1) == 1) {
		t.traffic_pid = child;
		CHECK(nb_sampler_new(&t, &s, NULL) == 0);
		CHECK(s && nb_sampler_snapshot(s, &a, NULL) == 0);
	}
	close(go[1]);
	close(ready[0]);
	if (child <= 0)
		return;
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(s && nb_sampler_snapshot(s, &b, NULL) == 0);
	CHECK(a.traffic_present && b.traffic_present);
	CHECK_MSG(a.traffic_ticks >= 1, "child used 60 ms of CPU but has %llu ticks",
		  (unsigned long long)a.traffic_ticks);
	CHECK(b.traffic_ticks == a.traffic_ticks && b.traffic_pid == child);
	nb_sampler_free(s);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_fixture(&cases[i]);
	test_interrupts_fallback();
	test_sources_mask();
	test_errors();
	test_live_loopback();
	test_live_traffic_exit();
	return nb_test_done("sampler");
}
