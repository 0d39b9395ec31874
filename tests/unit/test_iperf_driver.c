// SPDX-License-Identifier: MIT
/* Tests for iperf_driver: the JSON reader on recorded iperf3 output, and live runs on loopback
 * against an iperf3 CLI server, a port with nothing listening and a peer that never answers. */
#include "iperf_driver.h"
#include "traffic/child_link.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nb_test.h"

/* Loopback ports 15201-15299 belong to the iperf driver's tests; free ones are picked at run time
 * because another build directory may be running this same test. */
#define PORT_FIRST 15201
#define PORT_LAST 15299

/* The peers a live case can talk to; their ports are filled in by main(). */
enum peer { PEER_SERVER, PEER_DOWN, PEER_SILENT, PEER_SERVER2, PEER_COUNT };
static int peer_port[PEER_COUNT];
static pid_t peer_pid[PEER_COUNT];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* ---- the JSON reader, on recorded output ---- */

struct expect_metric {
	const char *name;
	double value;          /* checked when present is true */
	bool present;
};

struct parse_case {
	const char *file;
	int rc;
	enum nb_run_status status;
	const char *error_has;  /* substring of res.error, NULL when no error is expected */
	struct expect_metric metrics[8];
};

static const struct parse_case parse_cases[] = {
	{ "iperf/tcp_tx.json", 0, NB_RUN_OK, NULL, {
		{ "throughput_bps", 22399615764.35249, true },
		{ "throughput_sent_bps", 22467433825.455574, true },
		{ "retransmits", 0, true },
		{ "iperf_host_cpu_pct", 17.89235247988057, true },
		{ "iperf_remote_cpu_pct", 80.01294448034592, true },
		{ "lost_percent", 0, false },
		{ "jitter_ms", 0, false } } },
	{ "iperf/tcp_rx.json", 0, NB_RUN_OK, NULL, {
		{ "throughput_bps", 22490613398.025826, true },
		{ "iperf_host_cpu_pct", 42.95177287428565, true },
		{ "iperf_remote_cpu_pct", 90.70938173993494, true } } },
	/* 3.12 repeats start.sock_bufsize once per stream under -R -P 2: still a good result. */
	{ "iperf/tcp_rx_2streams.json", 0, NB_RUN_OK, NULL, {
		{ "throughput_bps", 20293652008.3518, true },
		{ "retransmits", 8, true } } },
	{ "iperf/udp_tx.json", 0, NB_RUN_OK, NULL, {
		{ "throughput_bps", 199820029.51515952, true },
		{ "lost_percent", 0, true },
		{ "lost_packets", 0, true },
		{ "packets", 17844, true },
		{ "jitter_ms", 0.005405407732040344, true },
		{ "retransmits", 0, false } } },
	{ "iperf/refused.json", 0, NB_RUN_FAILED, "unable to connect to server: Connection refused", {
		{ "throughput_bps", 0, false } } },
	{ "iperf/no_end.json", 0, NB_RUN_FAILED, "no end.sum_received", { { "throughput_bps", 0, false } } },
	{ "iperf/truncated.json", -EBADMSG, NB_RUN_FAILED, "not a JSON object", { { NULL, 0, false } } },
	{ "iperf/not_object.json", -EBADMSG, NB_RUN_FAILED, "not a JSON object", { { NULL, 0, false } } },
};

static void test_parse_case(const struct parse_case *c)
{
	struct nb_iperf_result res;
	struct nb_err err = { 0 };
	char *json = slurp(nb_test_fixture(c->file));
	int rc;

	CHECK_MSG(json != NULL, "fixture %s", c->file);
	if (!json)
		return;
	memset(&res, 0, sizeof(res));
	rc = nb_iperf_parse_json(json, &res, &err);
	CHECK_MSG(rc == c->rc, "%s: rc %d, want %d", c->file, rc, c->rc);
	CHECK_MSG(res.status == c->status, "%s: status %d, want %d (%s)", c->file, res.status, c->status, res.error);
	if (c->error_has)
		CHECK_MSG(strstr(res.error, c->error_has) != NULL, "%s: error \"%s\"", c->file, res.error);
	else
		CHECK_MSG(res.error[0] == '\0', "%s: unexpected error \"%s\"", c->file, res.error);
	for (size_t i = 0; i < sizeof(c->metrics) / sizeof(c->metrics[0]) && c->metrics[i].name; i++) {
		const struct expect_metric *m = &c->metrics[i];
		double v = -1;
		bool got = nb_metrics_get(&res.metrics, m->name, &v);

		CHECK_MSG(got == m->present, "%s: metric %s present=%d", c->file, m->name, got);
		if (got && m->present)
			CHECK_NEAR(v, m->value, 1e-6 * (1 + m->value));
	}
	free(json);
}

/* ---- live runs on loopback ---- */

static bool port_taken(int port)
{
	for (int i = 0; i < PEER_COUNT; i++)
		if (peer_port[i] == port)
			return true;
	return false;
}

/* A port in our range that nobody has bound; 0 when there is none. */
static int pick_free_port(int after)
{
	for (int port = after + 1; port <= PORT_LAST; port++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool free_port;

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		free_port = fd >= 0 && !port_taken(port) && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
		if (fd >= 0)
			close(fd);
		if (free_port)
			return port;
	}
	return 0;
}

static bool port_accepts(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Start `iperf3 -s` as our own child on a free port; returns its pid or -1. */
static pid_t start_iperf3_server_on(int port)
{
	char port_text[16];
	pid_t pid;

	snprintf(port_text, sizeof(port_text), "%d", port);
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
		execlp("iperf3", "iperf3", "-s", "-p", port_text, "-B", "127.0.0.1", (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	for (int i = 0; i < 50; i++) {
		int status;

		if (waitpid(pid, &status, WNOHANG) == pid)
			return -1;
		/* A probe connection is harmless: the server drops a client that sends no cookie. */
		if (port_accepts(port))
			return pid;
		usleep(100 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

static pid_t start_iperf3_server(enum peer which)
{
	int port = PORT_FIRST - 1;

	/* Someone may take the port between our check and iperf3's bind: try the next one then. */
	for (int tries = 0; tries < 5; tries++) {
		pid_t pid;

		port = pick_free_port(port);
		if (!port)
			return -1;
		pid = start_iperf3_server_on(port);
		if (pid > 0) {
			peer_port[which] = port;
			peer_pid[which] = pid;
			return pid;
		}
	}
	return -1;
}

static void stop_child(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

/* A peer that completes the TCP handshake (the kernel does that from the backlog) and never answers. */
static int open_silent_listener(void)
{
	for (int port = PORT_FIRST; port <= PORT_LAST; port++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (fd < 0)
			return -1;
		if (!port_taken(port) && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(fd, 8) == 0) {
			peer_port[PEER_SILENT] = port;
			return fd;
		}
		close(fd);
	}
	return -1;
}

struct live_case {
	const char *name;
	enum peer peer;
	bool udp, reverse;
	int length;
	uint64_t rate_bps;
	int cpu;
	int connect_timeout_ms, grace_ms;
	double kill_after_s;     /* > 0: kill the child after this long */
	double freeze_after_s;   /* > 0: SIGSTOP the iperf3 server this long into the traffic, SIGCONT at the end */
	enum nb_run_status status;
	const char *error_has, *error_has2;
	const char *metric;      /* must be present (and > 0 for throughput) when status is OK */
	double min_s, max_s;     /* wall time from start to finish */
};

static const struct live_case live_cases[] = {
	{ "tcp tx, pinned", PEER_SERVER, false, false, 0, 0, 0, 5000, 3000, 0, 0,
	  NB_RUN_OK, NULL, NULL, "throughput_bps", 1.9, 6 },
	{ "tcp rx", PEER_SERVER, false, true, 0, 0, -1, 5000, 3000, 0, 0,
	  NB_RUN_OK, NULL, NULL, "throughput_bps", 1.9, 6 },
	{ "udp 1400 B at 200M", PEER_SERVER, true, false, 1400, 200000000, -1, 5000, 3000, 0, 0,
	  NB_RUN_OK, NULL, NULL, "lost_percent", 1.9, 6 },
	{ "udp rx, default length", PEER_SERVER, true, true, 0, 100000000, -1, 5000, 3000, 0, 0,
	  NB_RUN_OK, NULL, NULL, "jitter_ms", 1.9, 6 },
	{ "peer down", PEER_DOWN, false, false, 0, 0, -1, 2000, 1000, 0, 0,
	  NB_RUN_FAILED, "connect to 127.0.0.1:", ": Connection refused", NULL, 0.5, 3 },
	{ "cpu that does not exist", PEER_SERVER, false, false, 0, 0, 1000, 2000, 1000, 0, 0,
	  NB_RUN_FAILED, "pin the iperf3 client to CPU 1000", "Invalid argument", NULL, 0, 1 },
	/* Accepted, never answered: after the start marker the child has duration + omit + grace = 3 s. */
	{ "peer never answers", PEER_SILENT, false, false, 0, 0, -1, 3000, 1000, 0, 0,
	  NB_RUN_TIMEOUT, "no result from the iperf3 client for 127.0.0.1:",
	  "within 3.0 s (omit + duration 2.0 s, grace 1.0 s); killed", NULL, 2.8, 4.5 },
	/* The server freezes mid-test, so the results never come: killed at duration + omit + grace. */
	{ "run past its deadline", PEER_SERVER2, false, false, 0, 0, -1, 5000, 1000, 0, 0.5,
	  NB_RUN_TIMEOUT, "within 3.0 s (omit + duration 2.0 s, grace 1.0 s); killed", NULL, NULL, 2.8, 4.5 },
	{ "killed on request", PEER_SERVER2, false, false, 0, 0, -1, 5000, 3000, 0.5, 0,
	  NB_RUN_FAILED, "stopped on request", NULL, NULL, 0.4, 2 },
};

static void test_live_case(const struct live_case *c)
{
	struct nb_iperf_params p = {
		.host = "127.0.0.1", .port = peer_port[c->peer], .udp = c->udp, .reverse = c->reverse,
		.duration_s = 2, .omit_s = 0, .streams = 1, .rate_bps = c->rate_bps, .length = c->length,
		.cpu = c->cpu, .connect_timeout_ms = c->connect_timeout_ms, .grace_ms = c->grace_ms,
	};
	struct nb_traffic_run *r = NULL;
	struct nb_traffic_result res;
	struct nb_err err = { 0 };
	double t0 = now_s(), started = -1, elapsed, v = 0;
	bool frozen = false;
	int rc;

	rc = nb_iperf_start_traffic(&p, &r, &err);
	CHECK_MSG(rc == 0, "%s: start: %s", c->name, err.msg);
	if (rc < 0)
		return;
	CHECK_MSG(nb_traffic_link(r)->pid > 0, "%s: pid", c->name);
	while (!nb_child_link_wait(nb_traffic_link(r), 100)) {
		if (nb_traffic_link(r)->started_at >= 0)
			started = nb_traffic_link(r)->started_at;
		if (c->kill_after_s > 0 && now_s() - t0 >= c->kill_after_s)
			nb_child_link_kill(nb_traffic_link(r));
		if (c->freeze_after_s > 0 && !frozen && started >= 0 && now_s() - started >= c->freeze_after_s)
			frozen = kill(peer_pid[c->peer], SIGSTOP) == 0;
		/* Whatever goes wrong, the watchdog must end the run: fail rather than hang. */
		if (now_s() - t0 > 30) {
			CHECK_MSG(false, "%s: still running after 30 s", c->name);
			nb_child_link_kill(nb_traffic_link(r));
		}
	}
	rc = nb_traffic_finish(r, &res, &err);
	elapsed = now_s() - t0;
	if (frozen)
		kill(peer_pid[c->peer], SIGCONT);
	CHECK_MSG(c->freeze_after_s == 0 || frozen, "%s: the server was not frozen", c->name);
	CHECK_MSG(rc == 0, "%s: finish rc %d: %s", c->name, rc, err.msg);
	CHECK_MSG(res.status == c->status, "%s: status %d, want %d: %s", c->name, res.status, c->status,
		  res.error);
	CHECK_MSG(elapsed >= c->min_s && elapsed <= c->max_s, "%s: took %.2f s, want %.1f..%.1f", c->name,
		  elapsed, c->min_s, c->max_s);
	if (c->error_has)
		CHECK_MSG(strstr(res.error, c->error_has) != NULL, "%s: error \"%s\"", c->name, res.error);
	if (c->error_has2)
		CHECK_MSG(strstr(res.error, c->error_has2) != NULL, "%s: error \"%s\"", c->name, res.error);
	if (c->status == NB_RUN_OK) {
		CHECK_MSG(res.error[0] == '\0', "%s: error \"%s\" on an ok run", c->name, res.error);
		CHECK_MSG(res.raw_json && strstr(res.raw_json, "\"end\""), "%s: raw JSON kept", c->name);
		CHECK_MSG(nb_metrics_get(&res.metrics, c->metric, &v), "%s: metric %s present", c->name, c->metric);
		CHECK_MSG(nb_metrics_get(&res.metrics, "throughput_bps", &v) && v > 0, "%s: throughput %g", c->name,
			  v);
		CHECK_MSG(started >= t0 && started <= t0 + 1.0, "%s: started_at %.3f vs start %.3f", c->name,
			  started, t0);
		CHECK_MSG(res.attempts >= 1 && res.client_errno == 0, "%s: attempts %d, i_errno %d", c->name,
			  res.attempts, res.client_errno);
	} else {
		CHECK_MSG(res.metrics.n == 0, "%s: %d metrics on a failed run", c->name, res.metrics.n);
	}
	if (c->peer == PEER_DOWN)
		CHECK_MSG(res.attempts >= 2 && res.client_errno == 103, "%s: attempts %d, i_errno %d", c->name,
			  res.attempts, res.client_errno);
	printf("  %-24s %-7s %5.2f s  %s\n", c->name,
	       res.status == NB_RUN_OK ? "ok" : res.status == NB_RUN_TIMEOUT ? "timeout" : "failed", elapsed,
	       res.status == NB_RUN_OK ? "" : res.error);
	nb_traffic_result_release(&res);
	CHECK(res.raw_json == NULL);
}

/* Two runs at once against one server: the second finds it busy and must get through by retrying. */
static void test_busy_peer_is_retried(void)
{
	struct nb_iperf_params p = {
		.host = "127.0.0.1", .port = peer_port[PEER_SERVER], .duration_s = 2, .streams = 1, .cpu = -1,
		.connect_timeout_ms = 5000, .grace_ms = 3000,
	};
	struct nb_traffic_run *first = NULL, *second = NULL;
	struct nb_traffic_result res1, res2;
	struct nb_err err = { 0 };

	CHECK(nb_iperf_start_traffic(&p, &first, &err) == 0);
	if (!first)
		return;
	/* Let the first one take the server before the second knocks. */
	while (nb_traffic_link(first)->started_at < 0 && !nb_child_link_wait(nb_traffic_link(first), 50))
		;
	usleep(200 * 1000);
	CHECK(nb_iperf_start_traffic(&p, &second, &err) == 0);
	/* Finishing the first without a wait loop must not deadlock on its pipe either. */
	CHECK(nb_traffic_finish(first, &res1, &err) == 0);
	if (second)
		CHECK(nb_traffic_finish(second, &res2, &err) == 0);
	CHECK_MSG(res1.status == NB_RUN_OK, "first: %s", res1.error);
	if (second) {
		CHECK_MSG(res2.status == NB_RUN_OK, "second: %s", res2.error);
		CHECK_MSG(res2.attempts >= 2, "second run: %d attempts (the server should have been busy)",
			  res2.attempts);
		printf("  %-24s %d attempts for the second run\n", "busy peer", res2.attempts);
		nb_traffic_result_release(&res2);
	}
	nb_traffic_result_release(&res1);
}

/* Where to look for a port for our own server child: it binds only after the check, so two
 * parallel runs of this test should not start from the same place. */
static int own_server_base(void)
{
	return PORT_LAST - 30 + (int)(getpid() % 10);
}

/* nicbench's own server child against nicbench's own client: one test, charged its CPU time. */
static void test_server_serves_one_test(void)
{
	struct nb_iperf_serve_params sp = { .bind = "127.0.0.1", .port = pick_free_port(own_server_base()),
					    .stats_interval_s = 1 };
	struct nb_iperf_params p = {
		.host = "127.0.0.1", .port = sp.port, .reverse = true, .duration_s = 2, .streams = 2, .cpu = -1,
		.connect_timeout_ms = 5000, .grace_ms = 3000,
	};
	struct nb_iperf_server *s = NULL;
	struct nb_traffic_run *r = NULL;
	struct nb_iperf_serve_result sres;
	struct nb_traffic_result res;
	struct nb_err err = { 0 };
	double bps = 0;

	CHECK_MSG(nb_iperf_server_start(&sp, &s, &err) == 0, "server start: %s", err.msg);
	if (!s)
		return;
	CHECK(nb_iperf_server_pid(s) > 0 && nb_iperf_server_fd(s) >= 0);
	/* No probe connection here: it would be the one test this child serves. The client retries refused. */
	CHECK_MSG(nb_iperf_start_traffic(&p, &r, &err) == 0, "client start: %s", err.msg);
	if (r)
		CHECK(nb_traffic_finish(r, &res, &err) == 0);
	CHECK(nb_iperf_server_finish(s, &sres, &err) == 0);
	CHECK_MSG(r && res.status == NB_RUN_OK, "client: %s", r ? res.error : err.msg);
	CHECK_MSG(sres.status == NB_RUN_OK && sres.served, "server: %s", sres.error);
	CHECK_STR(sres.protocol, "TCP");
	CHECK(sres.reverse && sres.streams == 2 && !sres.stopped);
	CHECK_MSG(strncmp(sres.client, "127.0.0.1:", 10) == 0, "client \"%s\"", sres.client);
	CHECK_MSG(sres.test_s > 1.5 && sres.test_s < 3 && sres.wall_s >= sres.test_s, "test %.2f s, wall %.2f s",
		  sres.test_s, sres.wall_s);
	CHECK_MSG(sres.cpu_user_s + sres.cpu_sys_s > 0, "server CPU %.3f s", sres.cpu_user_s + sres.cpu_sys_s);
	CHECK(nb_metrics_get(&sres.metrics, "throughput_bps", &bps) && bps > 0);
	printf("  %-24s %s; %.2f s, CPU %.2f s, %.3g bit/s\n", "own server", sres.client, sres.test_s,
	       sres.cpu_user_s + sres.cpu_sys_s, bps);
	if (r)
		nb_traffic_result_release(&res);
}

/* A stop request reaches an idle server child and is reported as such, not as a served test. */
static void test_server_stop(void)
{
	struct nb_iperf_serve_params sp = { .bind = "127.0.0.1", .port = pick_free_port(own_server_base()),
					    .stats_interval_s = 0 };
	struct nb_iperf_server *s = NULL;
	struct nb_iperf_serve_result sres;
	struct nb_err err = { 0 };

	CHECK_MSG(nb_iperf_server_start(&sp, &s, &err) == 0, "server start: %s", err.msg);
	if (!s)
		return;
	CHECK(nb_iperf_server_wait(s, 300) == 0);
	nb_iperf_server_stop(s, SIGTERM);
	CHECK(nb_iperf_server_finish(s, &sres, &err) == 0);
	CHECK(sres.stopped && !sres.served && sres.status == NB_RUN_FAILED);
	CHECK_MSG(strstr(sres.error, "stopped") != NULL, "error \"%s\"", sres.error);
}

static void test_bad_params(void)
{
	static const struct { int port, duration, streams; } bad[] = { { 0, 2, 1 }, { 70000, 2, 1 }, { 5201, 0, 1 },
								     { 5201, 2, -1 } };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nb_iperf_params p = { .host = "127.0.0.1", .port = bad[i].port, .duration_s = bad[i].duration,
					     .streams = bad[i].streams, .cpu = -1 };
		struct nb_traffic_run *r = (struct nb_traffic_run *)&p;
		struct nb_err err = { 0 };

		CHECK(nb_iperf_start_traffic(&p, &r, &err) == -EINVAL);
		CHECK(r == NULL);
		CHECK(err.msg[0] != '\0');
	}
}

int main(void)
{
	pid_t server, server2;
	int silent;

	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++)
		test_parse_case(&parse_cases[i]);
	test_bad_params();

	server = start_iperf3_server(PEER_SERVER);
	server2 = start_iperf3_server(PEER_SERVER2);
	silent = open_silent_listener();
	/* From the top of the range, away from the servers a parallel run of this test starts. */
	peer_port[PEER_DOWN] = pick_free_port(PORT_LAST - 10);
	CHECK_MSG(server > 0 && server2 > 0, "iperf3 -s on two free ports in 127.0.0.1:%d-%d", PORT_FIRST, PORT_LAST);
	CHECK_MSG(silent >= 0, "a listening socket on a free port in 127.0.0.1:%d-%d", PORT_FIRST, PORT_LAST);
	CHECK_MSG(peer_port[PEER_DOWN] > 0 && !port_accepts(peer_port[PEER_DOWN]), "a port where nothing listens");
	printf("ports: iperf3 %d and %d, silent %d, down %d\n", peer_port[PEER_SERVER], peer_port[PEER_SERVER2],
	       peer_port[PEER_SILENT], peer_port[PEER_DOWN]);
	if (server > 0 && server2 > 0 && silent >= 0 && peer_port[PEER_DOWN] > 0) {
		for (size_t i = 0; i < sizeof(live_cases) / sizeof(live_cases[0]); i++)
			test_live_case(&live_cases[i]);
		test_busy_peer_is_retried();
		test_server_serves_one_test();
		test_server_stop();
	}
	if (silent >= 0)
		close(silent);
	stop_child(server);
	stop_child(server2);
	return nb_test_done("iperf_driver");
}
