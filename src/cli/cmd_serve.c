// SPDX-License-Identifier: MIT
/* nicbench serve: the iperf3 peer, a supervised libiperf server that restarts after errors
 * and reports its own CPU use per test so a peer-bound result can be recognised. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "commands.h"
#include "iperf_driver.h"
#include "traffic/iperf_prog.h"
#include "kit/metric_table.h"
#include "kit/options.h"
#include "kit/nb_time.h"
#include "traffic/peer_ctl.h"
#include "traffic/rr_proto.h"
#include "traffic/rr_server.h"


/* libiperf 3.12 moves data in one thread: a server near one full core limits the result itself. */
#define PEER_BOUND_CORE_FRACTION 0.9
#define BACKOFF_FIRST_MS 250
#define BACKOFF_MAX_MS 5000

struct serve_opts {
	const char *bind;
	int port;
	bool once;
	double stats_interval_s;
	int rr_port;           /* 0: no rr server */
	int rr_think_us;
	int ctl_port;          /* 0: no control requests (the peer's MTU stays put) */
};

/* libiperf refuses interval statistics below 0.1 s, except 0 for "off". */
static int parse_stats_interval(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	double v = strtod(text, NULL);  /* the row's range is checked already */

	if (v > 0 && v < 0.1)
		return nb_err_set(err, -EINVAL, "--stats-interval '%s': expected 0 (off) or 0.1..60 seconds", text);
	nb_opt_store_number(o, obj, v);
	return 0;
}

#define SERVE(member) NB_OPT_FIELD(struct serve_opts, member)

static const struct nb_opt serve_rows[] = {
	{ .name = "bind", .short_name = 'B', .type = NB_OPT_ARG, .offset = SERVE(bind), .metavar = "ADDR",
	  .help = "listen on this local address only (default: all)" },
	{ .name = "port", .short_name = 'p', .type = NB_OPT_INT, .offset = SERVE(port), .min = 1, .max = 65535,
	  .def = 5201, .metavar = "PORT", .help = "control port; iperf3's own default" },
	{ .name = "once", .type = NB_OPT_FLAG, .offset = SERVE(once),
	  .help = "serve one test, then exit: 0 if it succeeded, 1 if not\n(for scripts and tests)" },
	{ .name = "stats-interval", .type = NB_OPT_SECONDS, .offset = SERVE(stats_interval_s), .min = 0, .max = 60,
	  .def = 1, .metavar = "S", .unit = "s", .parse = parse_stats_interval,
	  .brief = "interval statistics, as iperf3 -s -i S; 0 = off, else >= 0.1",
	  .help = "libiperf's interval statistics on the server, as iperf3 -s -i S;\n"
		  "0 turns them off and saves the peer a little CPU, else 0.1 or more" },
	{ .name = "rr-port", .type = NB_OPT_INT, .offset = SERVE(rr_port), .min = 0, .max = 65535,
	  .def = NB_RR_DEFAULT_PORT, .metavar = "PORT",
	  .brief = "TCP and UDP port of the tcp-rr / udp-rr server; 0 = none",
	  .help = "TCP and UDP port of the request/response server for the tcp-rr\n"
		  "and udp-rr tests; 0 = no rr server. One supervised child serves\n"
		  "every rr client; it logs each TCP client's transactions and CPU\n"
		  "time when the client leaves" },
	{ .name = "rr-think", .type = NB_OPT_INT, .offset = SERVE(rr_think_us), .min = 0, .max = 10000000, .def = 0,
	  .metavar = "US", .unit = "us", .brief = "service time: each rr response waits US microseconds (a timer)",
	  .help = "service time: each rr response goes out US microseconds after\n"
		  "its request arrived, as an application that works per request;\n"
		  "timer-based, it costs no CPU while waiting" },
	{ .name = "ctl-port", .type = NB_OPT_INT, .offset = SERVE(ctl_port), .min = 0, .max = 65535,
	  .def = NB_CTL_DEFAULT_PORT, .metavar = "PORT",
	  .brief = "TCP port for run's control requests (peer MTU); 0 = none",
	  .help = "TCP port for nicbench run's control requests: set the MTU of the\n"
		  "interface that holds the address run reached, restored when run\n"
		  "asks, when its connection drops and when serve exits; 0 = none" },
};

static const struct nb_opt_table serve_table = {
	.command = "serve", .rows = serve_rows, .nrows = (int)(sizeof(serve_rows) / sizeof(serve_rows[0])),
};

/* The rr child lives beside the iperf children for the whole serve; it is restarted with
 * the same backoff when it dies. */
struct rr_supervisor {
	const struct serve_opts *o;
	struct nb_rr_server *s;    /* NULL: not running (off, or waiting to restart) */
	double restart_at;         /* monotonic s; 0: no restart pending */
	int errors_in_a_row;
};

struct serve_counts {
	int tests;             /* tests served to their end */
	int errors;            /* server children that failed (each one is restarted) */
};

static void serve_usage(FILE *out)
{
	fprintf(out,
		"usage: nicbench serve [-B ADDR] [-p PORT] [--once] [--stats-interval S]\n"
		"                      [--rr-port PORT] [--rr-think US] [--ctl-port PORT]\n"
		"\n"
		"The peer of 'nicbench run': a libiperf server (any iperf3 client can use it) and the rr\n"
		"server, at the far end of the link. One child a test, restarted after errors (backoff\n"
		"%d ms doubling to %d ms); one line a test on stderr with the server's CPU time, and\n"
		"PEER-BOUND at %.0f%% of a core or more: then the peer, not the DUT, may set the figure.\n"
		"\n"
		"options:\n",
		BACKOFF_FIRST_MS, BACKOFF_MAX_MS, PEER_BOUND_CORE_FRACTION * 100);
	nb_opts_help(out, &serve_table, NULL, NULL);
	fprintf(out,
		"  -h, --help              this text\n"
		"\n"
		"exit codes: 0 stopped by SIGINT or SIGTERM (forwarded to the children), or --once's test\n"
		"ok; 1 --once's test failed, or a server could not start; 2 usage error.\n"
		"More: man nicbench, docs/running.md (the peer).\n"
		"\n"
		"examples:\n"
		"  nicbench serve -B 10.0.0.2                  # peer for 'nicbench run' tests to 10.0.0.2\n"
		"  ip netns exec peer nicbench serve -p 5202   # the peer inside a namespace\n"
		"  nicbench serve --once -p 15210 -B 127.0.0.1 & iperf3 -c 127.0.0.1 -p 15210 -t 2\n");
}

/* The parse convention of every subcommand (options.h): 0, 1 for --help, -EINVAL with err. */
static int parse_serve_args(int argc, char **argv, struct serve_opts *o, struct nb_err *err)
{
	int rc;

	memset(o, 0, sizeof(*o));
	nb_opts_defaults(&serve_table, o);
	rc = nb_opts_parse(&serve_table, argc, argv, o, NULL, err);
	if (rc)
		return rc;
	if (o->rr_port && o->rr_port == o->port)  /* TCP would clash with the iperf3 control port */
		return nb_err_set(err, -EINVAL, "--rr-port %d is the iperf3 port; pick another", o->rr_port);
	if (o->ctl_port && (o->ctl_port == o->port || o->ctl_port == o->rr_port))
		return nb_err_set(err, -EINVAL, "--ctl-port %d is the iperf3 or rr port; pick another", o->ctl_port);
	return 0;
}

static void format_rate(char *buf, size_t len, double bps)
{
	static const char *const units[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	size_t u = 0;

	while (bps >= 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, "%.2f %s", bps, units[u]);
}

static void print_test_line(const struct nb_iperf_serve_result *res, int number)
{
	double cpu = res->cpu_user_s + res->cpu_sys_s;
	double secs = res->test_s > 0 ? res->test_s : res->wall_s;
	double core = secs > 0 ? cpu / secs : 0;
	char rate[32] = "no throughput";
	double bps;

	if (nb_metrics_get(&res->metrics, NB_M_THROUGHPUT_BPS, &bps))
		format_rate(rate, sizeof(rate), bps);
	fprintf(stderr,
		"nicbench serve: test %d from %s: %s, %d stream%s, %s sends, %.2f s, %s; "
		"server CPU %.2f s (user %.2f, sys %.2f) = %.0f%% of one core%s\n",
		number, res->client[0] ? res->client : "?", res->protocol[0] ? res->protocol : "?", res->streams,
		res->streams == 1 ? "" : "s", res->reverse ? "server" : "client", secs, rate, cpu, res->cpu_user_s,
		res->cpu_sys_s, core * 100, core >= PEER_BOUND_CORE_FRACTION ? "  PEER-BOUND?" : "");
	if (res->status != NB_RUN_OK)
		fprintf(stderr, "nicbench serve: test %d failed: %s\n", number, res->error);
}

static int backoff_after(int errors_in_a_row)
{
	int ms = BACKOFF_FIRST_MS;

	for (int i = 1; i < errors_in_a_row && ms < BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < BACKOFF_MAX_MS ? ms : BACKOFF_MAX_MS;
}

/* Returns the signal number that arrived on sigfd, or 0. */
static int take_signal(int sigfd)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return 0;
	return (int)si.ssi_signo;
}

/* Sleep for ms unless a signal comes first; returns that signal or 0. Control requests are
 * answered meanwhile: a run killed during the backoff gets its MTU back at once. */
static int sleep_or_signal(int sigfd, struct nb_ctl_server *ctl, int ms)
{
	double until = nb_monotonic_s() + ms / 1000.0;

	for (;;) {
		struct pollfd pfd[1 + 1 + NB_CTL_MAX_CLIENTS] = { { .fd = sigfd, .events = POLLIN } };
		int nctl = nb_ctl_server_pollfds(ctl, pfd + 1, 1 + NB_CTL_MAX_CLIENTS);
		double left = until - nb_monotonic_s();

		if (left <= 0)
			return 0;
		if (poll(pfd, (nfds_t)(1 + nctl), (int)(left * 1000) + 1) <= 0)
			continue;
		if (pfd[0].revents & POLLIN)
			return take_signal(sigfd);
		nb_ctl_server_service(ctl, pfd + 1, nctl);
	}
}

static int rr_lines_seen;

static void rr_log_line(const char *line)
{
	rr_lines_seen++;
	fprintf(stderr, "nicbench serve: rr: %s\n", line);
}

static int rr_start(struct rr_supervisor *rr)
{
	struct nb_rr_serve_params p = { .bind = rr->o->bind, .port = rr->o->rr_port, .think_us = rr->o->rr_think_us };
	struct nb_err err = { 0 };

	rr->restart_at = 0;
	if (nb_rr_server_start(&p, &rr->s, &err) < 0) {
		fprintf(stderr, "nicbench serve: %s\n", err.msg);
		rr->s = NULL;
		return err.code;
	}
	return 0;
}

/* Take the rr child's news; when it died, say why and plan its restart. */
static void rr_service(struct rr_supervisor *rr)
{
	char why[200];

	if (!rr->s || !nb_rr_server_poll(rr->s, rr_log_line))
		return;
	nb_rr_server_finish(rr->s, why, sizeof(why));
	rr->s = NULL;
	rr->errors_in_a_row++;
	rr->restart_at = nb_monotonic_s() + backoff_after(rr->errors_in_a_row) / 1000.0;
	fprintf(stderr, "nicbench serve: rr: %s; restarting it in %.2f s\n", why[0] ? why : "the rr server ended",
		backoff_after(rr->errors_in_a_row) / 1000.0);
}

/* Restart a dead rr child when its backoff has passed; ms until then (-1: nothing pending). */
static int rr_due_ms(struct rr_supervisor *rr)
{
	double left;

	if (rr->s || rr->restart_at <= 0)
		return -1;
	left = rr->restart_at - nb_monotonic_s();
	if (left <= 0) {
		rr_start(rr);
		return rr->s ? -1 : 0;
	}
	return (int)(left * 1000) + 1;
}

static void rr_stop(struct rr_supervisor *rr)
{
	char why[200];

	if (!rr->s)
		return;
	nb_rr_server_stop(rr->s);
	nb_rr_server_finish(rr->s, why, sizeof(why));
	rr->s = NULL;
}

/* At start-up the rr child must say "ready" (or why not) before serve goes on: a port in
 * use is a set-up error, not something to retry forever. */
static int rr_first_start(struct rr_supervisor *rr)
{
	double give_up = nb_monotonic_s() + 5.0;

	if (!rr->o->rr_port)
		return 0;
	rr_lines_seen = 0;
	if (rr_start(rr) < 0)
		return -1;
	while (nb_monotonic_s() < give_up) {
		struct pollfd pfd = { .fd = nb_rr_server_fd(rr->s), .events = POLLIN };
		char why[200];
		int ended;

		poll(&pfd, 1, 100);
		ended = nb_rr_server_poll(rr->s, rr_log_line);
		if (ended) {
			nb_rr_server_finish(rr->s, why, sizeof(why));
			rr->s = NULL;
			fprintf(stderr, "nicbench serve: rr: could not start: %s\n", why);
			return -1;
		}
		/* the child's first line is "ready: ..." (or an error, and then it exits) */
		if (rr_lines_seen)
			return 0;
	}
	return 0;
}

/* Serve one test in a child; *stop_sig is set when SIGINT/SIGTERM arrived meanwhile. */
static void ctl_log_line(const char *line)
{
	fprintf(stderr, "nicbench serve: ctl: %s\n", line);
}

static int serve_one(const struct serve_opts *o, int sigfd, struct rr_supervisor *rr, struct nb_ctl_server *ctl,
		     struct nb_iperf_serve_result *res, int *stop_sig)
{
	struct nb_iperf_serve_params p = { .bind = o->bind, .port = o->port, .stats_interval_s = o->stats_interval_s };
	struct nb_iperf_server *s;
	struct nb_err err = { 0 };
	int rc;

	memset(res, 0, sizeof(*res));
	rc = nb_iperf_server_start(&p, &s, &err);
	if (rc < 0) {
		fprintf(stderr, "nicbench serve: %s\n", err.msg);
		return rc;
	}
	for (;;) {
		struct pollfd pfd[3 + 1 + NB_CTL_MAX_CLIENTS] = {
			{ .fd = nb_iperf_server_fd(s), .events = POLLIN },
			{ .fd = sigfd, .events = POLLIN },
			{ .fd = -1, .events = POLLIN },
		};
		int wait_ms = rr_due_ms(rr);
		int nctl = nb_ctl_server_pollfds(ctl, pfd + 3, 1 + NB_CTL_MAX_CLIENTS);

		if (rr->s)
			pfd[2].fd = nb_rr_server_fd(rr->s);
		if (poll(pfd, (nfds_t)(3 + nctl), wait_ms) < 0 && errno != EINTR)
			break;
		if (pfd[2].revents)
			rr_service(rr);
		nb_ctl_server_service(ctl, pfd + 3, nctl);
		if (pfd[1].revents & POLLIN) {
			*stop_sig = take_signal(sigfd);
			if (*stop_sig) {
				nb_iperf_server_stop(s, *stop_sig);
				break;
			}
		}
		if (pfd[0].revents && nb_iperf_server_wait(s, 0))
			break;
	}
	rc = nb_iperf_server_finish(s, res, &err);
	if (rc < 0)
		fprintf(stderr, "nicbench serve: %s\n", err.msg);
	return rc;
}

static int serve_loop(const struct serve_opts *o, int sigfd, struct rr_supervisor *rr, struct nb_ctl_server *ctl)
{
	struct serve_counts n = { 0, 0 };
	int errors_in_a_row = 0;
	int stop_sig = 0;

	for (;;) {
		struct nb_iperf_serve_result res;
		int rc = serve_one(o, sigfd, rr, ctl, &res, &stop_sig);

		if (stop_sig) {
			if (res.served && !res.stopped)
				print_test_line(&res, ++n.tests);
			fprintf(stderr, "nicbench serve: stopped by SIG%s after %d test%s, %d error%s\n",
				sigabbrev_np(stop_sig), n.tests, n.tests == 1 ? "" : "s", n.errors, n.errors == 1 ? "" : "s");
			return NB_EXIT_OK;
		}
		if (rc < 0 && rc != -ECHILD)
			return NB_EXIT_FAIL;
		if (res.served)
			print_test_line(&res, ++n.tests);
		if (res.status == NB_RUN_OK) {
			errors_in_a_row = 0;
			if (o->once)
				return NB_EXIT_OK;
			continue;
		}
		n.errors++;
		errors_in_a_row++;
		if (!res.served)
			fprintf(stderr, "nicbench serve: %s%s%s\n", res.error, res.client[0] ? "; client " : "",
				res.client);
		if (o->once)
			return NB_EXIT_FAIL;
		fprintf(stderr, "nicbench serve: error %d; restarting the server in %.2f s\n", n.errors,
			backoff_after(errors_in_a_row) / 1000.0);
		stop_sig = sleep_or_signal(sigfd, ctl, backoff_after(errors_in_a_row));
		if (stop_sig) {
			fprintf(stderr, "nicbench serve: stopped by SIG%s after %d test%s, %d error%s\n",
				sigabbrev_np(stop_sig), n.tests, n.tests == 1 ? "" : "s", n.errors, n.errors == 1 ? "" : "s");
			return NB_EXIT_OK;
		}
	}
}

int cmd_serve(int argc, char **argv)
{
	struct serve_opts o;
	struct nb_err err = { 0 };
	struct rr_supervisor rr = { 0 };
	struct nb_ctl_server *ctl = NULL;
	sigset_t stop_set, old_set;
	int rc, sigfd;

	rc = parse_serve_args(argc, argv, &o, &err);
	if (nb_opts_done(rc, "serve", &err, serve_usage, &rc))
		return rc;
	/* Signals arrive through a descriptor, so a stop request cannot slip in between checks. */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop_set, &old_set);
	sigfd = signalfd(-1, &stop_set, SFD_CLOEXEC);
	if (sigfd < 0) {
		fprintf(stderr, "nicbench serve: signalfd for SIGINT/SIGTERM: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		return NB_EXIT_FAIL;
	}
	fprintf(stderr,
		"nicbench serve %s (%s %s): listening on %s port %d; control port %d; once=%s; "
		"stats interval %g s; pid %d\n",
		NICBENCH_VERSION, nb_iperf_have_libiperf() ? "libiperf" : "the iperf3 program, as",
		nb_iperf_have_libiperf() ? nb_iperf_version() : "iperf3 --server --one-off --json", o.bind ? o.bind : "all addresses", o.port, o.ctl_port,
		o.once ? "yes" : "no", o.stats_interval_s, (int)getpid());
	rr.o = &o;
	if (rr_first_start(&rr) < 0) {
		close(sigfd);
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		return NB_EXIT_FAIL;
	}
	if (o.ctl_port && nb_ctl_server_start(o.bind, o.ctl_port, ctl_log_line, &ctl, &err) < 0) {
		fprintf(stderr, "nicbench serve: %s\n", err.msg);
		rr_stop(&rr);
		close(sigfd);
		sigprocmask(SIG_SETMASK, &old_set, NULL);
		return NB_EXIT_FAIL;
	}
	rc = serve_loop(&o, sigfd, &rr, ctl);
	nb_ctl_server_stop(ctl);  /* puts back every MTU a run left changed */
	rr_stop(&rr);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &old_set, NULL);
	return rc;
}
