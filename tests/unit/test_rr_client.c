// SPDX-License-Identifier: MIT
/* Tests for the rr client: the open-loop schedule and per-transaction metrics (pure), then live
 * tcp-rr/udp-rr runs on loopback against the rr server child, a closed port and a silent peer. */
#include "traffic/rr_client.h"
#include "traffic/child_link.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "traffic/rr_server.h"
#include "nb_test.h"

/* Loopback ports 15401-15499 belong to the rr tests; free ones are picked at run time. */
#define PORT_FIRST 15401
#define PORT_LAST 15499

static void test_schedule(void)
{
	struct nb_rr_schedule s;
	int flow, flows_seen[3] = { 0 };
	uint64_t due, start = 5000000000ull;
	int n = 0;

	nb_rr_schedule_init(&s, start, 1000, 3);
	CHECK(nb_rr_schedule_take(&s, start - 1, &flow, &due) == 0);  /* nothing before the start */
	CHECK(nb_rr_schedule_take(&s, start, &flow, &due) == 1 && flow == 0 && due == start);
	CHECK(nb_rr_schedule_take(&s, start, &flow, &due) == 0);      /* the next one is 1 ms later */
	/* 10.5 ms in: transactions 1..10 are due, round robin over the flows, each at its own time */
	while (nb_rr_schedule_take(&s, start + 10500000, &flow, &due)) {
		n++;
		CHECK(due == start + (uint64_t)n * 1000000);
		CHECK(flow == n % 3);
		flows_seen[flow]++;
	}
	CHECK(n == 10);
	CHECK(flows_seen[0] == 3 && flows_seen[1] == 4 && flows_seen[2] == 3);
	/* no drift: 3 per second, transaction 3k is due exactly k seconds in, even far out */
	nb_rr_schedule_init(&s, start, 3, 1);
	CHECK(nb_rr_schedule_due_ns(&s, 3ull * 86400) == start + 86400ull * 1000000000ull);
	CHECK(nb_rr_schedule_due_ns(&s, 1) == start + 333333333ull);
}

/* A client that stalls 50 ms (a page fault, a descheduled thread, a server that held it up)
 * must not lose the delay: every transaction due during the stall is sent late, and its
 * latency counts from its due time. The answer is instant here, so latency = lateness. */
static void test_no_coordinated_omission(void)
{
	struct nb_rr_schedule s;
	struct nb_hist *h = calloc(1, sizeof(*h));
	uint64_t start = 1000000000ull, t = start, stall_from = start + 200000000ull, stall_ns = 50000000ull;
	uint64_t end = start + 1000000000ull;
	int flow, over_1ms = 0;
	uint64_t due;

	nb_rr_schedule_init(&s, start, 1000, 2);
	while (t < end) {
		while (nb_rr_schedule_take(&s, t, &flow, &due))
			nb_hist_record(h, t - due);
		t += t >= stall_from && t < stall_from + stall_ns ? stall_ns : 100000;  /* loop runs every 0.1 ms */
	}
	for (int i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		nb_hist_bucket_range(i, &lo, &hi);
		if (lo >= 1000000)
			over_1ms += (int)h->buckets[i];
	}
	CHECK_MSG(h->count >= 999 && h->count <= 1001, "%llu transactions in 1 s at 1000/s", (unsigned long long)h->count);
	CHECK_MSG(over_1ms >= 48 && over_1ms <= 51, "%d of the ~50 transactions due in the stall show it", over_1ms);
	CHECK_MSG(h->max_ns >= 49000000 && h->max_ns <= 50000000, "max %llu ns, the stall was 50 ms",
		  (unsigned long long)h->max_ns);
	CHECK(nb_hist_percentile_ns(h, 99) > 1000000);  /* 5% of the transactions were late: p99 shows it */
	free(h);
}

static void test_derive(void)
{
	struct nb_metric_set m = { 0 };
	double v;

	nb_metrics_put(&m, "cpu_busy_pct", 37.5);      /* a machine share: must not be added in */
	nb_metrics_put(&m, "cpu0_busy_pct", 50);
	nb_metrics_put(&m, "cpu1_busy_pct", 25);
	nb_metrics_put(&m, "cpu1_softirq_pct", 10);    /* a part of busy, not more busy */
	nb_metrics_put(&m, "interrupts_per_s", 2000);
	nb_rr_derive_metrics(&m);
	CHECK(!nb_metrics_get(&m, "cpu_us_per_transaction", NULL));  /* no transaction rate: nothing */
	nb_metrics_put(&m, "rr_transactions_per_s", 1000);
	nb_rr_derive_metrics(&m);
	CHECK(nb_metrics_get(&m, "cpu_us_per_transaction", &v) && fabs(v - 750) < 1e-9);  /* 0.75 cores / 1000 */
	CHECK(nb_metrics_get(&m, "interrupts_per_transaction", &v) && fabs(v - 2) < 1e-9);
	CHECK(!nb_metrics_get(&m, "napi_polls_per_transaction", NULL));  /* no polls measured: absent, not 0 */
	nb_metrics_put(&m, "napi_polls_per_s", 500);
	nb_rr_derive_metrics(&m);
	CHECK(nb_metrics_get(&m, "napi_polls_per_transaction", &v) && fabs(v - 0.5) < 1e-9);
}

/* ---- live ---- */

static bool port_free(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok = bind(t, (struct sockaddr *)&a, sizeof(a)) == 0 && bind(u, (struct sockaddr *)&a, sizeof(a)) == 0;

	close(t);
	close(u);
	return ok;
}

static int pick_port(int after)
{
	for (int p = after + 1; p <= PORT_LAST; p++)
		if (port_free(p))
			return p;
	return -1;
}

static void run(const struct nb_rr_params *p, struct nb_traffic_result *res)
{
	struct nb_traffic_run *r;
	struct nb_err err = { 0 };

	memset(res, 0, sizeof(*res));
	if (nb_rr_start_traffic(p, &r, &err) < 0) {
		res->status = NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", err.msg);
		return;
	}
	while (!nb_child_link_wait(nb_traffic_link(r), 100))
		;
	nb_traffic_finish(r, res, &err);
}

static struct nb_rr_params params(int port, bool udp)
{
	struct nb_rr_params p = { .host = "127.0.0.1", .port = port, .udp = udp, .flows = 1, .request = 64,
				  .response = 64, .timeout_ms = 100, .duration_s = 1, .omit_s = 0, .cpu = -1,
				  .connect_timeout_ms = 2000, .grace_ms = 2000 };
	return p;
}

static void check_ok(const char *what, const struct nb_traffic_result *res, bool udp)
{
	static const char *const names[] = { "rr_transactions_per_s", "rr_latency_p50_us", "rr_latency_p90_us",
					      "rr_latency_p99_us", "rr_latency_p999_us", "rr_latency_max_us",
					      "rr_latency_mean_us" };
	double v[7], n;

	CHECK_MSG(res->status == NB_RUN_OK, "%s: status %d: %s", what, res->status, res->error);
	if (res->status != NB_RUN_OK)
		return;
	for (int i = 0; i < 7; i++)
		CHECK_MSG(nb_metrics_get(&res->metrics, names[i], &v[i]) && v[i] > 0, "%s: %s", what, names[i]);
	CHECK_MSG(v[1] <= v[2] && v[2] <= v[3] && v[3] <= v[4] && v[4] <= v[5], "%s: percentiles out of order", what);
	CHECK(res->hist && nb_metrics_get(&res->metrics, "rr_transactions", &n) && (double)res->hist->count == n);
	CHECK(nb_metrics_get(&res->metrics, "rr_lost_transactions", NULL) == udp);
	CHECK(nb_metrics_get(&res->metrics, "rr_late_transactions", NULL) == udp);
	printf("%s: %.0f trans/s, p50 %.1f us, p99 %.1f us\n", what, v[0], v[1], v[3]);
}

static struct nb_rr_server *serve(int port, int think_us)
{
	struct nb_rr_serve_params sp = { .bind = "127.0.0.1", .port = port, .think_us = think_us };
	struct nb_rr_server *s = NULL;
	struct nb_err err = { 0 };

	if (nb_rr_server_start(&sp, &s, &err) < 0) {
		CHECK_MSG(0, "start the rr server: %s", err.msg);
		return NULL;
	}
	usleep(200000);  /* let it bind */
	return s;
}

static void unserve(struct nb_rr_server *s)
{
	char why[200];

	if (!s)
		return;
	nb_rr_server_stop(s);
	nb_rr_server_poll(s, NULL);
	nb_rr_server_finish(s, why, sizeof(why));
}

static void test_live(void)
{
	int port = pick_port(PORT_FIRST - 1), down = pick_port(port), silent_port = pick_port(down);
	struct nb_rr_server *s = serve(port, 0), *slow;
	struct nb_rr_params p;
	struct nb_traffic_result res;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int silent;
	double v;

	if (port < 0 || down < 0 || silent_port < 0 || !s) {
		CHECK_MSG(0, "no free loopback ports in %d..%d", PORT_FIRST, PORT_LAST);
		return;
	}
	p = params(port, false);
	run(&p, &res);
	check_ok("tcp-rr closed, 1 flow", &res, false);
	nb_traffic_result_release(&res);

	p = params(port, true);
	p.flows = 3;
	p.request = 200;
	p.response = 1000;
	run(&p, &res);
	check_ok("udp-rr closed, 3 flows, 200/1000 bytes", &res, true);
	nb_traffic_result_release(&res);

	/* open loop: the offered rate is what is done when the server keeps up */
	p = params(port, true);
	p.rate_tps = 2000;
	p.flows = 2;
	run(&p, &res);
	check_ok("udp-rr open loop 2000/s", &res, true);
	CHECK(nb_metrics_get(&res.metrics, "rr_transactions_per_s", &v) && v >= 1900 && v <= 2001);
	nb_traffic_result_release(&res);
	p.udp = false;
	run(&p, &res);
	check_ok("tcp-rr open loop 2000/s", &res, false);
	CHECK(nb_metrics_get(&res.metrics, "rr_transactions_per_s", &v) && v >= 1900 && v <= 2001);
	nb_traffic_result_release(&res);
	unserve(s);

	/* a server that takes 3 ms per request: no answer can come sooner */
	slow = serve(port, 3000);
	p = params(port, false);
	run(&p, &res);
	check_ok("tcp-rr, server think 3000 us", &res, false);
	CHECK_MSG(nb_metrics_get(&res.metrics, "rr_latency_min_us", &v) && v >= 3000, "min %.1f us", v);
	nb_traffic_result_release(&res);
	p.udp = true;
	run(&p, &res);
	check_ok("udp-rr, server think 3000 us", &res, true);
	CHECK_MSG(nb_metrics_get(&res.metrics, "rr_latency_min_us", &v) && v >= 3000, "min %.1f us", v);
	nb_traffic_result_release(&res);
	unserve(slow);

	/* nothing on the port: failed, and the message says why */
	for (int udp = 0; udp <= 1; udp++) {
		p = params(down, udp);
		run(&p, &res);
		CHECK_MSG(res.status == NB_RUN_FAILED && strstr(res.error, "refused"), "down %s: %d: %s",
			  udp ? "udp" : "tcp", res.status, res.error);
		nb_traffic_result_release(&res);
	}

	/* a peer that takes the connection (the kernel's backlog) and never answers: timeout */
	silent = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_port = htons((uint16_t)silent_port);
	CHECK(bind(silent, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(silent, 8) == 0);
	p = params(silent_port, false);
	p.connect_timeout_ms = 1000;
	run(&p, &res);
	CHECK_MSG(res.status == NB_RUN_TIMEOUT, "silent peer: %d: %s", res.status, res.error);
	printf("silent peer: %s\n", res.error);
	nb_traffic_result_release(&res);
	close(silent);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_schedule();
	test_no_coordinated_omission();
	test_derive();
	test_live();
	return nb_test_done("rr client");
}
