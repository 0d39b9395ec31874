// SPDX-License-Identifier: MIT
/* Bottleneck rules: hand-made saturation cases as tables, the seed replays in tests/fixtures/compare, the setting choice. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result/bottleneck.h"
#include "compare/compare.h"
#include "nb_test.h"
#include "render/view.h"

struct kv {
	const char *name;
	double value;
};

struct bn_case {
	const char *what;
	int cpus;
	double link_mbps, window_s;
	bool ok;
	struct kv m[16];
	enum nb_bn_code code;
	const char *owner;     /* expected owner for cpu verdicts; NULL: not checked */
	const char *words[3];  /* each must appear in the sentence */
};

static const struct bn_case cases[] = {
	{ "seed UDP TX base: one core held by softirq", 1, 1000, 10, true,
	  { { "throughput_bps", 500e6 }, { "cpu_busy_pct", 96 }, { "softirq_pct", 92 }, { "system_pct", 3 },
	    { "traffic_proc_pct", 3 } },
	  NB_BN_CPU, "softirq", { "CPU0 saturated (96% busy)", "by softirq 92%" } },
	{ "seed UDP TX new: threaded NAPI and iperf3 share the core", 1, 1000, 10, true,
	  { { "throughput_bps", 380e6 }, { "cpu_busy_pct", 97 }, { "softirq_pct", 0 }, { "napi_thread_pct", 48 },
	    { "traffic_proc_pct", 47 } },
	  NB_BN_CPU, "NAPI thread + traffic process", { "shared by NAPI thread 48% and traffic process 47%" } },
	{ "per-CPU split: CPU1 saturated by irq", 2, 1000, 10, true,
	  { { "throughput_bps", 300e6 }, { "cpu_busy_pct", 55 }, { "cpu0_busy_pct", 15 }, { "cpu1_busy_pct", 95 },
	    { "cpu1_irq_pct", 70 }, { "cpu1_softirq_pct", 20 }, { "traffic_proc_pct", 5 } },
	  NB_BN_CPU, "irq", { "CPU1 saturated (95% busy) by irq 70%" } },
	{ "two CPUs, machine line only, both saturated", 2, 1000, 10, true,
	  { { "throughput_bps", 950e6 }, { "cpu_busy_pct", 100 } },
	  NB_BN_CPU, "", { "every CPU saturated (100% busy)", "by whom not measured" } },
	{ "two CPUs at 80% on the machine line are not saturated; near the link", 2, 1000, 10, true,
	  { { "throughput_bps", 940e6 }, { "cpu_busy_pct", 80 } },
	  NB_BN_LINK, NULL, { "link-bound?", "94% of the 1000 Mbit/s" } },
	{ "the peer: its iperf3 at 97% of a core wins over a busy DUT", 1, 1000, 10, true,
	  { { "throughput_bps", 536e6 }, { "cpu_busy_pct", 95 }, { "iperf_remote_cpu_pct", 97.5 } },
	  NB_BN_PEER, NULL, { "The peer", "98% of a core" } },
	{ "NIC drops: rx_dropped 1% of the packets", 2, 1000, 10, true,
	  { { "throughput_bps", 600e6 }, { "cpu_busy_pct", 40 }, { "cpu0_busy_pct", 60 }, { "cpu1_busy_pct", 20 },
	    { "rx_dropped", 5000 }, { "rx_packets_per_s", 50000 } },
	  NB_BN_NIC_DROPS, NULL, { "rops at the NIC: 5000 per run", "0.99% of packets" } },
	{ "a few NIC drops (below 0.1%) are not a bottleneck", 2, 1000, 10, true,
	  { { "throughput_bps", 600e6 }, { "cpu_busy_pct", 40 }, { "rx_dropped", 10 }, { "rx_packets_per_s", 50000 } },
	  NB_BN_NONE, NULL, { "None found" } },
	{ "backlog drops", 2, 0, 10, true,
	  { { "throughput_bps", 600e6 }, { "cpu_busy_pct", 50 }, { "softnet_dropped", 20000 },
	    { "softnet_processed_per_s", 100000 } },
	  NB_BN_BACKLOG_DROPS, NULL, { "in the backlog" } },
	{ "socket drops without a datagram rate: absolute count", 2, 0, 0, true,
	  { { "throughput_bps", 700e6 }, { "cpu_busy_pct", 60 }, { "udp_rcvbuf_errors", 29963 } },
	  NB_BN_SOCKET_DROPS, NULL, { "at the socket", "29963 per run" } },
	{ "saturated CPU first, socket drops as 'also'", 1, 1000, 10, true,
	  { { "throughput_bps", 100e6 }, { "cpu_busy_pct", 99 }, { "softirq_pct", 80 }, { "udp_rcvbuf_errors", 1e6 } },
	  NB_BN_CPU, "softirq", { "by softirq 80%", "; also drops at the socket" } },
	{ "NAPI budget exhausted in most polls", 2, 0, 10, true,
	  { { "throughput_bps", 2e9 }, { "cpu_busy_pct", 60 }, { "napi_budget_exhausted_pct", 73 } },
	  NB_BN_NAPI_BUDGET, NULL, { "NAPI budget exhausted in 73% of polls" } },
	{ "time_squeeze per second of the window", 2, 0, 5, true,
	  { { "throughput_bps", 2e9 }, { "cpu_busy_pct", 60 }, { "time_squeeze", 400 } },
	  NB_BN_TIME_SQUEEZE, NULL, { "time_squeeze 80/s" } },
	{ "a little time_squeeze is not one", 2, 0, 5, true,
	  { { "throughput_bps", 2e9 }, { "cpu_busy_pct", 60 }, { "time_squeeze", 7 } },
	  NB_BN_NONE, NULL, { "None found" } },
	{ "nothing measured but status", 1, 1000, 10, true, { { "retransmits", 3 } }, NB_BN_NO_DATA, NULL,
	  { "neither throughput nor CPU" } },
	{ "a failed point is not judged", 1, 1000, 10, false, { { "throughput_bps", 1e9 } }, NB_BN_NO_DATA, NULL,
	  { "did not run to the end" } },
};

static void judge(const struct bn_case *c, struct nb_bottleneck *bn)
{
	struct nb_metric_set set = { 0 };
	struct nb_bn_input in = { .get = nb_bn_get_metric_set, .ctx = &set, .cpus = c->cpus,
				  .link_mbps = c->link_mbps, .window_s = c->window_s, .ok = c->ok };

	for (int i = 0; i < 16 && c->m[i].name; i++)
		nb_metrics_put(&set, c->m[i].name, c->m[i].value);
	nb_bottleneck_judge(&in, bn);
}

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bn_case *c = &cases[i];
		struct nb_bottleneck bn;

		judge(c, &bn);
		CHECK_MSG(bn.code == c->code, "%s: code %s, want %s (%s)", c->what, nb_bn_code_name(bn.code),
			  nb_bn_code_name(c->code), bn.sentence);
		if (c->owner)
			CHECK_MSG(!strcmp(bn.owner, c->owner), "%s: owner '%s', want '%s'", c->what, bn.owner, c->owner);
		for (int w = 0; w < 3 && c->words[w]; w++)
			CHECK_MSG(strstr(bn.sentence, c->words[w]) != NULL, "%s: '%s' not in '%s'", c->what, c->words[w],
				  bn.sentence);
		CHECK_MSG(bn.code == NB_BN_NO_DATA || bn.n_figures > 0, "%s: no figures behind the verdict", c->what);
	}
}

/* The seed's UDP TX case with threaded NAPI on one core: the bottleneck moves from softirq to a shared core. */
static void test_moved(void)
{
	struct nb_bottleneck a, b, c;
	char buf[2 * NB_BN_SENTENCE_MAX + 32];

	judge(&cases[0], &a);
	judge(&cases[1], &b);
	CHECK(nb_bn_moved(&a, &b, buf, sizeof(buf)));
	CHECK(strstr(buf, "base: CPU0 saturated (96% busy) by softirq 92%") != NULL);
	CHECK(strstr(buf, "new: CPU0 saturated (97% busy), shared by NAPI thread 48% and traffic process 47%") != NULL);
	CHECK(!nb_bn_moved(&a, &a, buf, sizeof(buf)) && buf[0] == '\0');
	judge(&cases[15], &c); /* no data never "moves" */
	CHECK(!nb_bn_moved(&a, &c, buf, sizeof(buf)));
}

struct replay_point {
	const char *file, *id;
	enum nb_bn_code code;
};

/* What the seed fixtures hold: 1-CPU G2UL/Five with the machine line, 2-CPU G2L with busy only. */
static const struct replay_point replay[] = {
	{ "compare/g2ul-base.json", "tcp-tx", NB_BN_NONE },
	{ "compare/g2ul-base.json", "tcp-rx", NB_BN_CPU },
	{ "compare/g2ul-base.json", "udp-tx", NB_BN_CPU },
	{ "compare/g2ul-base.json", "udp-rx", NB_BN_CPU },
	{ "compare/g2ul-new-peer-bound.json", "tcp-rx", NB_BN_PEER },
	{ "compare/g2l-base.json", "tcp-rx", NB_BN_LINK },
	{ "compare/g2l-base.json", "udp-rx", NB_BN_CPU },
	{ "compare/g2l-new.json", "udp-rx", NB_BN_LINK },
	{ "compare/five-base-failed.json", "udp-rx", NB_BN_NO_DATA },
	{ "compare/five-base-zero.json", "udp-rx", NB_BN_CPU },
	{ "compare/five-new.json", "tcp-tx", NB_BN_CPU },
};

static const struct nb_cmp_point *find_point(const struct nb_cmp_report *r, const char *id)
{
	for (int i = 0; i < r->n_points; i++)
		if (!strcmp(r->points[i].id, id))
			return &r->points[i];
	return NULL;
}

static void test_replays(void)
{
	for (size_t i = 0; i < sizeof(replay) / sizeof(replay[0]); i++) {
		struct nb_cmp_report rep = { 0 };
		struct nb_err err = { 0 };
		const struct nb_cmp_point *p;
		struct nb_bottleneck bn;

		CHECK_MSG(nb_cmp_report_load(nb_test_fixture(replay[i].file), &rep, &err) == 0, "%s", err.msg);
		p = find_point(&rep, replay[i].id);
		CHECK_MSG(p != NULL, "%s: no point %s", replay[i].file, replay[i].id);
		if (p) {
			nb_rv_bottleneck(&rep, p, &bn);
			CHECK_MSG(bn.code == replay[i].code, "%s %s: %s (%s), want %s", replay[i].file, replay[i].id,
				  nb_bn_code_name(bn.code), bn.sentence, nb_bn_code_name(replay[i].code));
		}
		nb_cmp_report_free(&rep);
	}
}

struct move_case {
	const char *base, *new;
	const char *moved_id;  /* the one point that moved; NULL: none */
	const char *words;
};

static const struct move_case moves[] = {
	/* G2UL: tcp-rx went from a CPU held at 90% to the peer's one-thread iperf3 */
	{ "compare/g2ul-base.json", "compare/g2ul-new-peer-bound.json", "tcp-rx", "new: The peer" },
	/* G2UL without the peer flag: the fixtures hold only busy and softirq, and both sides stay CPU-bound */
	{ "compare/g2ul-base.json", "compare/g2ul-new.json", NULL, NULL },
	/* G2L: UDP RX from two saturated CPUs to the link */
	{ "compare/g2l-base.json", "compare/g2l-new.json", "udp-rx", "new: None found; link-bound?" },
};

static void test_replay_moves(void)
{
	struct nb_cmp_options opt;

	nb_cmp_options_init(&opt);
	for (size_t i = 0; i < sizeof(moves) / sizeof(moves[0]); i++) {
		struct nb_cmp_report base = { 0 }, new = { 0 };
		struct nb_cmp_result r = { 0 };
		struct nb_err err = { 0 };
		int n_moved = 0;

		CHECK_MSG(nb_cmp_report_load(nb_test_fixture(moves[i].base), &base, &err) == 0, "%s", err.msg);
		CHECK_MSG(nb_cmp_report_load(nb_test_fixture(moves[i].new), &new, &err) == 0, "%s", err.msg);
		CHECK_MSG(nb_cmp_run(&base, &new, &opt, &r, &err) == 0, "%s", err.msg);
		for (int p = 0; p < r.n_points; p++) {
			char buf[2 * NB_BN_SENTENCE_MAX + 32];

			if (!nb_rv_moved(&r, &r.points[p], buf, sizeof(buf)))
				continue;
			n_moved++;
			CHECK_MSG(moves[i].moved_id && !strcmp(r.points[p].id, moves[i].moved_id), "%s: %s moved: %s",
				  moves[i].new, r.points[p].id, buf);
			if (moves[i].words)
				CHECK_MSG(strstr(buf, moves[i].words) != NULL, "%s: '%s' not in '%s'", moves[i].new,
					  moves[i].words, buf);
		}
		CHECK_MSG(n_moved == (moves[i].moved_id ? 1 : 0), "%s: %d points moved", moves[i].new, n_moved);
		nb_cmp_result_free(&r);
		nb_cmp_report_free(&new);
		nb_cmp_report_free(&base);
	}
}

/* Which setting: four settings over three tests, the best by geometric mean with its worst case. */
static const char choice_report[] =
	"{\"schema\":\"nicbench-report/1\",\"host\":{\"cpus\":1,\"kernel\":{\"release\":\"t\"}},"
	"\"interface\":{\"speed_mbps\":1000},\"config\":{\"duration\":10},\"results\":["
#define PT(test, set, t1, t2, t3, b) \
	"{\"id\":\"" test "/" set "\",\"test\":{\"name\":\"" test "\"},\"knobs\":{},\"status\":\"ok\",\"runs\":[" \
	"{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":" #t1 ",\"cpu_busy_pct\":" #b "}}," \
	"{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":" #t2 ",\"cpu_busy_pct\":" #b "}}," \
	"{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":" #t3 ",\"cpu_busy_pct\":" #b "}}]," \
	"\"metrics\":{\"throughput_bps\":{\"median\":" #t2 ",\"n\":3,\"values\":[" #t1 "," #t2 "," #t3 "]}," \
	"\"cpu_busy_pct\":{\"median\":" #b ",\"n\":3,\"values\":[" #b "," #b "," #b "]}}}"
	PT("tcp-rx", "threaded=0", 399e6, 400e6, 401e6, 90) ","
	PT("tcp-rx", "threaded=1", 535e6, 536e6, 537e6, 90) ","
	PT("tcp-rx", "threaded=2", 300e6, 300e6, 300e6, 30) ","
	PT("udp-rx", "threaded=0", 99e6, 100e6, 101e6, 99) ","
	PT("udp-rx", "threaded=1", 599e6, 600e6, 601e6, 99) ","
	PT("udp-rx", "threaded=2", 100e6, 100e6, 100e6, 99) ","
	PT("udp-tx", "threaded=0", 499e6, 500e6, 501e6, 95) ","
	PT("udp-tx", "threaded=1", 379e6, 380e6, 381e6, 95) ","
	PT("udp-tx", "threaded=2", 500e6, 500e6, 500e6, 99)
	"]}";
#undef PT

/* rr points: transactions per second up, p99 down; the front keeps the trade-off and drops the loser. */
static const char rr_report[] =
	"{\"schema\":\"nicbench-report/1\",\"host\":{\"cpus\":2,\"kernel\":{\"release\":\"t\"}},\"results\":["
#define RR(set, tps, p99) \
	"{\"id\":\"tcp-rr/" set "\",\"test\":{\"name\":\"tcp-rr\"},\"knobs\":{},\"status\":\"ok\",\"runs\":[]," \
	"\"metrics\":{\"rr_transactions_per_s\":{\"median\":" #tps ",\"n\":3,\"values\":[" #tps "," #tps "," #tps "]}," \
	"\"rr_latency_p999_us\":{\"median\":1,\"n\":3,\"values\":[1,1,1]}," \
	"\"rr_latency_p99_us\":{\"median\":" #p99 ",\"n\":3,\"values\":[" #p99 "," #p99 "," #p99 "]}}}"
	RR("threaded=0", 10000, 100) "," RR("threaded=1", 9000, 50) "," RR("threaded=2", 8000, 120)
	"]}";
#undef RR

static void test_choice_rr(void)
{
	struct nb_cmp_report rep = { 0 };
	struct nb_err err = { 0 };
	struct nb_rv_choice c;

	CHECK_MSG(nb_cmp_report_parse(rr_report, sizeof(rr_report) - 1, "rr", &rep, &err) == 0, "%s", err.msg);
	nb_rv_choose(&rep, &c);
	CHECK(c.n_tests == 1 && c.tests[0].has_p99);
	CHECK(c.tests[0].on_front[0] && c.tests[0].on_front[1] && !c.tests[0].on_front[2]);
	/* p99, not p999: the p999 of 1 us would make every point equal */
	CHECK(rep.n_points == 3 && nb_rv_p99(&rep.points[1]) && nb_rv_p99(&rep.points[1])->median == 50);
	CHECK(c.best && !strcmp(c.best, "threaded=0"));
	nb_cmp_report_free(&rep);
}

static void test_choice(void)
{
	struct nb_cmp_report rep = { 0 };
	struct nb_err err = { 0 };
	struct nb_rv_choice c;

	CHECK_MSG(nb_cmp_report_parse(choice_report, sizeof(choice_report) - 1, "choice", &rep, &err) == 0, "%s",
		  err.msg);
	nb_rv_choose(&rep, &c);
	CHECK(c.n_tests == 3 && c.n_settings == 3);
	CHECK(c.reference && !strcmp(c.reference, "threaded=0"));
	CHECK(c.best && !strcmp(c.best, "threaded=1"));
	CHECK_NEAR(c.change_pct[0], 34.0, 0.01);
	CHECK_NEAR(c.change_pct[1], 500.0, 0.01);
	CHECK_NEAR(c.change_pct[2], -24.0, 0.01);
	CHECK(c.worst_test == 2);
	/* tcp-rx: threaded=1 has the throughput, threaded=2 the efficiency (300M at 30%): both on the front */
	CHECK(!c.tests[0].on_front[0] && c.tests[0].on_front[1] && c.tests[0].on_front[2]);
	/* udp-tx: threaded=2 equals threaded=0's throughput at more CPU: dominated; threaded=0 is on it */
	CHECK(c.tests[2].on_front[0] && !c.tests[2].on_front[1] && !c.tests[2].on_front[2]);
	nb_cmp_report_free(&rep);
}

/* The lantiq seed's sweep: the best setting is the report's first, UDP swept over two rates, and a 60-byte
 * flood whose headline is packets. The margin is over the runner-up, rates are tests, not settings. */
static const char sweep_report[] =
	"{\"schema\":\"nicbench-report/1\",\"host\":{\"cpus\":2,\"kernel\":{\"release\":\"t\"}},"
	"\"config\":{\"duration\":10},\"results\":["
#define SW(id, name, proto, rate, len, metric, v, b) \
	"{\"id\":\"" id "\",\"test\":{\"name\":\"" name "\",\"protocol\":\"" proto "\",\"direction\":\"rx\"," \
	"\"rate\":" #rate ",\"length\":" #len "},\"knobs\":{},\"status\":\"ok\",\"runs\":[]," \
	"\"metrics\":{\"" metric "\":{\"median\":" #v ",\"n\":2,\"values\":[" #v "," #v "]}," \
	"\"cpu_busy_pct\":{\"median\":" #b ",\"n\":2,\"values\":[" #b "," #b "]}}}"
	SW("tcp-tx/irq_affinity=rx0-tx0", "tcp-tx", "tcp", 0, 0, "throughput_bps", 78e6, 50) ","
	SW("tcp-tx/irq_affinity=rx0-tx1", "tcp-tx", "tcp", 0, 0, "throughput_bps", 69.6e6, 50) ","
	SW("udp-rx/rate=150M/irq_affinity=rx0-tx0", "udp-rx", "udp", 150000000, 1460, "throughput_bps", 150e6, 40) ","
	SW("udp-rx/rate=150M/irq_affinity=rx0-tx1", "udp-rx", "udp", 150000000, 1460, "throughput_bps", 150e6, 40) ","
	SW("udp-rx/rate=1000M/irq_affinity=rx0-tx0", "udp-rx", "udp", 1000000000, 1460, "throughput_bps", 3e6, 100) ","
	SW("udp-rx/rate=1000M/irq_affinity=rx0-tx1", "udp-rx", "udp", 1000000000, 1460, "throughput_bps", 2e6, 100) ","
	SW("udp-rx/length=60/irq_affinity=rx0-tx0", "udp-rx", "udp", 700000000, 60, "rx_packets_per_s", 65000, 50) ","
	SW("udp-rx/length=60/irq_affinity=rx0-tx1", "udp-rx", "udp", 700000000, 60, "rx_packets_per_s", 47000, 100)
	"]}";
#undef SW

static void test_choice_sweep(void)
{
	struct nb_cmp_report rep = { 0 };
	struct nb_err err = { 0 };
	struct nb_rv_choice c;
	double e;
	char buf[32];

	CHECK_MSG(nb_cmp_report_parse(sweep_report, sizeof(sweep_report) - 1, "sweep", &rep, &err) == 0, "%s",
		  err.msg);
	nb_rv_choose(&rep, &c);
	/* the rates and the length are tests of their own; the settings are the placements alone */
	CHECK_MSG(c.n_tests == 4 && c.n_settings == 2, "%d tests, %d settings", c.n_tests, c.n_settings);
	CHECK(!strcmp(c.tests[1].test, "udp-rx/rate=150M") && !strcmp(c.tests[2].test, "udp-rx/rate=1000M"));
	CHECK(!strcmp(c.tests[3].test, "udp-rx/length=60") && c.tests[3].packets && !c.tests[0].packets);
	CHECK(!strcmp(nb_rv_choice_setting(&rep.points[2]), "irq_affinity=rx0-tx0"));
	CHECK(!strcmp(nb_rv_setting(&rep.points[2]), "rate=150M/irq_affinity=rx0-tx0"));
	/* the best is the first setting; its margin is over the other, never over itself */
	CHECK(c.best && !strcmp(c.best, "irq_affinity=rx0-tx0"));
	CHECK(c.reference && !strcmp(c.reference, "irq_affinity=rx0-tx1"));
	CHECK_NEAR(c.change_pct[0], 100.0 * (78.0 - 69.6) / 69.6, 0.01);
	CHECK_NEAR(c.change_pct[1], 0.0, 0.01);
	CHECK_NEAR(c.change_pct[2], 50.0, 0.01);
	CHECK(c.worst_test == 1);
	/* the flood's efficiency: 65 kpps at 50% of 2 CPUs is 65 kpps per CPU-second, in packets */
	CHECK(nb_rv_efficiency(&rep, &rep.points[6], &e));
	CHECK_NEAR(e, 65000.0, 0.01);
	CHECK(!strcmp(nb_rv_efficiency_text(buf, sizeof(buf), &rep.points[6], e), "65.0 kpps"));
	CHECK(nb_rv_efficiency(&rep, &rep.points[7], &e));
	CHECK_NEAR(e, 23500.0, 0.01);
	nb_cmp_report_free(&rep);
}

/* Settings that never share a test cannot be weighed: no margin is made up. */
static void test_choice_disjoint(void)
{
	static const char disjoint[] =
		"{\"schema\":\"nicbench-report/1\",\"host\":{\"cpus\":1},\"results\":["
		"{\"id\":\"tcp-tx\",\"test\":{\"name\":\"tcp-tx\"},\"knobs\":{},\"status\":\"ok\",\"runs\":[],"
		"\"metrics\":{\"throughput_bps\":{\"median\":5e8,\"n\":1,\"values\":[5e8]}}},"
		"{\"id\":\"udp-tx/threaded=1\",\"test\":{\"name\":\"udp-tx\"},\"knobs\":{},\"status\":\"ok\",\"runs\":[],"
		"\"metrics\":{\"throughput_bps\":{\"median\":4e8,\"n\":1,\"values\":[4e8]}}}]}";
	struct nb_cmp_report rep = { 0 };
	struct nb_err err = { 0 };
	struct nb_rv_choice c;

	CHECK_MSG(nb_cmp_report_parse(disjoint, sizeof(disjoint) - 1, "disjoint", &rep, &err) == 0, "%s", err.msg);
	nb_rv_choose(&rep, &c);
	CHECK(c.n_settings == 2 && c.worst_test < 0);
	CHECK(isnan(c.change_pct[0]) && isnan(c.change_pct[1]));
	nb_cmp_report_free(&rep);
}

int main(void)
{
	test_cases();
	test_moved();
	test_replays();
	test_replay_moves();
	test_choice();
	test_choice_rr();
	test_choice_sweep();
	test_choice_disjoint();
	return nb_test_done("bottleneck");
}
