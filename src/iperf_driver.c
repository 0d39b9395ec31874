// SPDX-License-Identifier: MIT
/* Runs iperf3 tests through libiperf, or the iperf3 program (traffic/iperf_prog.c), in forked,
 * watched children and turns their JSON into metrics. */
#include "iperf_driver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "kit/metric_table.h"
#include "traffic/child_link.h"
#include "traffic/iperf_prog.h"
#include "traffic/traffic_run.h"
#include "kit/nb_paths.h"
#include "kit/nb_time.h"

/* libiperf's header relies on uint64_t without including <stdint.h> itself. */
#include <stdint.h>
#if NB_HAVE_LIBIPERF
#include <iperf_api.h>
#endif

#define NB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Retry pauses on busy/refused/reset: the server needs a moment to clean up after the previous test. */
static const int retry_backoff_ms[] = { 300, 600, 1200, 2400 };

/* A child that goes on writing must not grow the parent without bound. */
#define CHILD_OUTPUT_MAX (64u << 20)

struct child_report {
	int32_t failed;        /* 1: message says why the run failed */
	int32_t iperf_errno;
	int32_t attempts;
	uint32_t json_len;     /* bytes of JSON that follow */
	char message[448];
};

struct nb_iperf_run {
	struct nb_traffic_run base;  /* first: nb_traffic_finish frees the run through it */
	struct nb_iperf_params p;
	char host[256];
	char program[256];
};

/* A build without libiperf runs "iperf3" from PATH when no program is named. */
static const char *backend_program(const char *program)
{
	return program || NB_HAVE_LIBIPERF ? program : "iperf3";
}

struct nb_iperf_server {
	struct nb_iperf_serve_params p;
	char bind[256];
	char program[256];
	struct nb_child_link link;
	double forked_at;
	double ended_at;
	bool stopped;
};

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}


static const char *mode_label(const struct nb_iperf_params *p)
{
	if (p->udp)
		return p->reverse ? "UDP RX" : "UDP TX";
	return p->reverse ? "TCP RX" : "TCP TX";
}

/* ---- JSON reading (jansson; only this module knows iperf's JSON layout) ---- */

/* Follow a dotted path ("end.sum_received.bits_per_second") to a number. */
static bool json_number_at(json_t *root, const char *path, double *out)
{
	char key[64];
	json_t *node = root;
	const char *p = path;

	while (node && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return false;
		memcpy(key, p, n);
		key[n] = '\0';
		node = json_is_object(node) ? json_object_get(node, key) : NULL;
		p += n;
		if (*p == '.')
			p++;
	}
	if (!node || !json_is_number(node))
		return false;
	*out = json_number_value(node);
	return isfinite(*out);
}

static void put_metric_from(struct nb_metric_set *set, json_t *root, const char *name, const char *path)
{
	double v;

	if (json_number_at(root, path, &v))
		nb_metrics_put(set, name, v);
}

static const char *json_string_at(json_t *obj, const char *key)
{
	json_t *s = json_is_object(obj) ? json_object_get(obj, key) : NULL;

	return json_is_string(s) ? json_string_value(s) : NULL;
}

static bool json_is_udp(json_t *root)
{
	json_t *ts = json_object_get(json_object_get(root, "start"), "test_start");
	const char *proto = json_string_at(ts, "protocol");

	return proto && !strcmp(proto, "UDP");
}

/* Metrics both sides share: receiver throughput, UDP loss, CPU. */
static void collect_metrics(json_t *root, struct nb_metric_set *set)
{
	put_metric_from(set, root, NB_M_THROUGHPUT_BPS, "end.sum_received.bits_per_second");
	put_metric_from(set, root, NB_M_THROUGHPUT_SENT_BPS, "end.sum_sent.bits_per_second");
	if (json_is_udp(root)) {
		put_metric_from(set, root, NB_M_LOST_PERCENT, "end.sum_received.lost_percent");
		put_metric_from(set, root, NB_M_LOST_PACKETS, "end.sum_received.lost_packets");
		put_metric_from(set, root, NB_M_PACKETS, "end.sum_received.packets");
		put_metric_from(set, root, NB_M_JITTER_MS, "end.sum_received.jitter_ms");
	} else {
		put_metric_from(set, root, NB_M_RETRANSMITS, "end.sum_sent.retransmits");
	}
	put_metric_from(set, root, NB_M_IPERF_HOST_CPU_PCT, "end.cpu_utilization_percent.host_total");
	put_metric_from(set, root, NB_M_IPERF_REMOTE_CPU_PCT, "end.cpu_utilization_percent.remote_total");
}

/* The TCP sender's RTT (iperf3 reads tcpi_rtt per stream, in microseconds): from this side's
 * streams when it sent (tcp-tx), from the server's JSON when the server sent (-R, where the
 * client asked for it with get_server_output). A 0 is iperf3's "not measured" (the
 * receiver's streams carry 0): such streams are skipped, and no stream means no metric. */
static void collect_tcp_rtt(json_t *root, struct nb_metric_set *set)
{
	json_t *ts = json_object_get(json_object_get(root, "start"), "test_start");
	json_t *side = root, *streams, *st;
	double reverse = 0, mean_sum = 0, min = INFINITY, max = 0;
	int n = 0;
	size_t i;

	if (json_is_udp(root))
		return;
	json_number_at(ts, "reverse", &reverse);
	if (reverse != 0)
		side = json_object_get(root, "server_output_json");
	streams = json_object_get(json_object_get(side, "end"), "streams");
	if (!json_is_array(streams))
		return;
	json_array_foreach(streams, i, st) {
		json_t *snd = json_object_get(st, "sender");
		double mean, lo, hi;

		if (!json_number_at(snd, "mean_rtt", &mean) || !json_number_at(snd, "min_rtt", &lo) ||
		    !json_number_at(snd, "max_rtt", &hi) || mean <= 0)
			continue;
		mean_sum += mean;
		min = fmin(min, lo);
		max = fmax(max, hi);
		n++;
	}
	if (n == 0)
		return;
	nb_metrics_put(set, NB_M_TCP_RTT_MEAN_US, mean_sum / n);  /* streams weigh equally */
	nb_metrics_put(set, NB_M_TCP_RTT_MIN_US, min);
	nb_metrics_put(set, NB_M_TCP_RTT_MAX_US, max);
}

int nb_iperf_parse_json(const char *json, struct nb_iperf_result *res, struct nb_err *err)
{
	json_error_t jerr;
	json_t *root;
	const char *error_text;
	double bps;

	res->metrics.n = 0;
	res->error[0] = '\0';
	/* Not JSON_REJECT_DUPLICATES: 3.12 repeats start.sock_bufsize (and *_actual) once per stream under -R -P N. */
	root = json ? json_loads(json, 0, &jerr) : NULL;
	if (!root || !json_is_object(root)) {
		res->status = NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "iperf3 output is not a JSON object (%s)",
			 root ? "other JSON type" : json ? jerr.text : "no output");
		json_decref(root);
		return nb_err_set(err, -EBADMSG, "read iperf3 result: %s", res->error);
	}
	error_text = json_string_at(root, "error");
	if (error_text) {
		res->status = NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", error_text);
	} else if (!json_number_at(root, "end.sum_received.bits_per_second", &bps)) {
		res->status = NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error),
			 "iperf3 result has no end.sum_received.bits_per_second (the test did not finish)");
	} else {
		res->status = NB_RUN_OK;
		collect_metrics(root, &res->metrics);
		collect_tcp_rtt(root, &res->metrics);
	}
	json_decref(root);
	return 0;
}

const char *nb_iperf_version(void)
{
#if NB_HAVE_LIBIPERF
	return iperf_get_iperf_version();
#else
	return "none";
#endif
}

/* ---- child side: everything below runs only in forked children ---- */

/* The report and the JSON bytes that follow it. */
static void send_report(int fd, struct child_report *rep, const char *json)
{
	rep->json_len = json ? (uint32_t)strlen(json) : 0;
	nb_child_send_report(fd, rep, sizeof(*rep), json, rep->json_len);
}

/* A forked child must not inherit the parent's signal plans, and must not outlive it. */
static void child_setup(pid_t parent)
{
	int devnull;

	nb_child_setup(parent);
	/* JSON goes through the pipe; nothing of libiperf's may land in nicbench's own stdout. */
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull >= 0) {
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
}

/* A missing or unreadable JSON counts as an error too: there is nothing to report. */
static bool json_has_error(const char *json)
{
	json_t *root = json ? json_loads(json, 0, NULL) : NULL;
	bool has = !root || json_object_get(root, "error") != NULL;

	json_decref(root);
	return has;
}

#if NB_HAVE_LIBIPERF
static bool json_has_error_key(const char *json)
{
	return json && json_has_error(json);
}
#endif

/* True when the JSON shows traffic (a finished interval): such a run is not retried. */
static bool json_shows_traffic(const char *json)
{
	json_t *root = json ? json_loads(json, 0, NULL) : NULL;
	json_t *iv = root ? json_object_get(root, "intervals") : NULL;
	bool traffic = json_is_array(iv) && json_array_size(iv) > 0;

	json_decref(root);
	return traffic;
}

static const char *json_error_text(const char *json, char *buf, size_t len)
{
	json_t *root = json ? json_loads(json, 0, NULL) : NULL;
	const char *text = json_string_at(root, "error");

	snprintf(buf, len, "%s", text ? text : "");
	json_decref(root);
	return buf;
}

#if NB_HAVE_LIBIPERF
/* libiperf appends ": <strerror>" even when errno was 0, which leaves a dangling ":  ". */
static void trim_empty_reason(char *text)
{
	size_t n = strlen(text);

	while (n && (text[n - 1] == ' ' || text[n - 1] == ':'))
		text[--n] = '\0';
}
#endif

struct attempt {
	int rc;
	int ierr;
	int sys_errno;
	char *json;            /* strdup of libiperf's output, NULL when none */
	bool failed;
	bool retryable;        /* the server was not ready (refused, busy, dropped): try again */
	char prog_error[400];  /* the iperf3 program backend: why it did not run or what it said */
};

#if NB_HAVE_LIBIPERF

static int configure_client(struct iperf_test *t, const struct nb_iperf_params *p, int connect_ms)
{
	int length = p->length;

	iperf_defaults(t);
	iperf_set_test_role(t, 'c');
	iperf_set_test_server_hostname(t, p->host);
	iperf_set_test_server_port(t, p->port);
	iperf_set_test_duration(t, p->duration_s);
	iperf_set_test_omit(t, p->omit_s);
	iperf_set_test_num_streams(t, p->streams > 0 ? p->streams : 1);
	iperf_set_test_reverse(t, p->reverse ? 1 : 0);
	iperf_set_test_connect_timeout(t, connect_ms);
	iperf_set_test_json_output(t, 1);
	iperf_set_test_logfile(t, "/dev/null");
	if (p->udp) {
		if (set_protocol(t, Pudp) < 0)
			return -1;
		/* The API keeps the TCP block size for UDP, which fails with "Message too long". */
		if (length <= 0)
			length = NB_IPERF_UDP_DEFAULT_LENGTH;
	}
	if (length > 0)
		iperf_set_test_blksize(t, length);
	iperf_set_test_rate(t, p->rate_bps);
	/* under -R the server sends: its JSON carries the sender's TCP RTT (tcp_rtt_*_us) */
	if (!p->udp && p->reverse)
		iperf_set_test_get_server_output(t, 1);
	return 0;
}

static void run_attempt(const struct nb_iperf_params *p, int connect_ms, int report_fd, struct attempt *a)
{
	struct iperf_test *t = iperf_new_test();
	const char *out;

	memset(a, 0, sizeof(*a));
	if (!t) {
		a->rc = -1;
		a->ierr = i_errno;
		a->sys_errno = errno;
		a->failed = true;
		return;
	}
	i_errno = IENONE;
	if (configure_client(t, p, connect_ms) < 0) {
		a->rc = -1;
		a->ierr = i_errno;
		a->failed = true;
		iperf_free_test(t);
		return;
	}
	nb_child_send_marker(report_fd, nb_monotonic_s());
	errno = 0;
	a->rc = iperf_run_client(t);
	a->sys_errno = errno;
	a->ierr = i_errno;
	out = iperf_get_test_json_output_string(t);
	a->json = out ? strdup(out) : NULL;
	/* 3.12 returns 0 for a failed test when JSON is on: the JSON's "error" key is the verdict. */
	a->failed = a->rc < 0 || json_has_error(a->json);
	a->retryable = a->ierr == IEACCESSDENIED || a->ierr == IECONNECT || a->ierr == IERECVMESSAGE;
	iperf_free_test(t);
}
#endif

/* ---- the iperf3 program backend: the same attempt, run by the board's own iperf3 ---- */

static void run_attempt_program(const struct nb_iperf_params *p, int connect_ms, int report_fd, struct attempt *a)
{
	/* libiperf's UDP default datagram, as configure_client gives it */
	struct nb_iperf_prog_test t = {
		.host = p->host, .port = p->port, .udp = p->udp, .reverse = p->reverse, .duration_s = p->duration_s,
		.omit_s = p->omit_s, .streams = p->streams, .rate_bps = p->rate_bps,
		.length = p->udp && p->length <= 0 ? NB_IPERF_UDP_DEFAULT_LENGTH : p->length,
	};
	struct nb_iperf_prog_out out;
	char jtext[300];

	memset(a, 0, sizeof(*a));
	a->failed = true;
	a->rc = nb_iperf_prog_attempt(p->program, &t, connect_ms, report_fd, CHILD_OUTPUT_MAX, &out);
	a->json = out.json;
	out.json = NULL;
	json_error_text(a->json, jtext, sizeof(jtext));
	if (a->rc == 0) {
		a->failed = json_has_error(a->json);
		a->retryable = nb_iperf_prog_error_retryable(jtext);
	}
	if (out.error[0])
		snprintf(a->prog_error, sizeof(a->prog_error), "%s", out.error);
	else if (a->failed && !jtext[0])
		/* no JSON: the program's exit and its last words say what happened */
		snprintf(a->prog_error, sizeof(a->prog_error), "%s %s%s%.200s", p->program,
			 WIFEXITED(out.wait_status) ? "exited without a JSON result" : "died without a JSON result",
			 out.stderr_tail[0] ? ": " : "", out.stderr_tail);
}

static void run_one_attempt(const struct nb_iperf_params *p, int connect_ms, int report_fd, struct attempt *a)
{
#if NB_HAVE_LIBIPERF
	if (!p->program) {
		run_attempt(p, connect_ms, report_fd, a);
		return;
	}
#endif
	run_attempt_program(p, connect_ms, report_fd, a);
}

static void describe_failure(char *buf, size_t len, const struct nb_iperf_params *p, const struct attempt *a,
			     int attempts, double elapsed)
{
	char peer[300], detail[400], jtext[300];

	nb_traffic_format_peer(peer, sizeof(peer), p->host, p->port);
	json_error_text(a->json, jtext, sizeof(jtext));
	if (p->program) {
		/* the program's own words: its JSON's error, or why it did not give one */
		if (!jtext[0])
			snprintf(jtext, sizeof(jtext), "%.290s", a->prog_error[0] ? a->prog_error : "no result");
		snprintf(detail, sizeof(detail), "iperf3 %s test with %.200s failed: %.160s", mode_label(p), peer,
			 jtext);
		snprintf(buf, len, "%.390s (iperf3 program; %d attempt%s in %.1f s)", detail, attempts,
			 attempts == 1 ? "" : "s", elapsed);
		return;
	}
#if NB_HAVE_LIBIPERF
	if (!jtext[0])
		snprintf(jtext, sizeof(jtext), "%s", a->ierr ? iperf_strerror(a->ierr) : "no result");
	trim_empty_reason(jtext);
	if (a->ierr == IECONNECT && a->sys_errno)
		snprintf(detail, sizeof(detail), "connect to %.200s: %.120s", peer, strerror(a->sys_errno));
	else if (a->ierr == IEACCESSDENIED)
		snprintf(detail, sizeof(detail), "iperf3 server %.200s stayed busy running another test", peer);
	else
		snprintf(detail, sizeof(detail), "iperf3 %s test with %.200s failed: %.160s", mode_label(p), peer,
			 jtext);
	snprintf(buf, len, "%.390s (i_errno %d; %d attempt%s in %.1f s)", detail, a->ierr, attempts,
		 attempts == 1 ? "" : "s", elapsed);
#endif
}

static void __attribute__((noreturn)) client_child(const struct nb_iperf_params *p, int report_fd, pid_t parent)
{
	struct child_report rep;
	struct attempt a = { 0 };
	double t0 = nb_monotonic_s();
	int attempts = 0;

	child_setup(parent);
	memset(&rep, 0, sizeof(rep));
	if (p->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(p->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			rep.failed = 1;
			snprintf(rep.message, sizeof(rep.message), "pin the iperf3 client to CPU %d: %s",
				 p->cpu, strerror(errno));
			send_report(report_fd, &rep, NULL);
			_exit(0);
		}
	}
	for (;;) {
		int elapsed_ms = (int)((nb_monotonic_s() - t0) * 1000);
		int left_ms = p->connect_timeout_ms - elapsed_ms;
		int pause_ms;

		free(a.json);
		run_one_attempt(p, left_ms > 100 ? left_ms : 100, report_fd, &a);
		attempts++;
		if (!a.failed || !a.retryable || json_shows_traffic(a.json))
			break;
		pause_ms = retry_backoff_ms[attempts - 1 < (int)NB_ARRAY_SIZE(retry_backoff_ms) ?
					    attempts - 1 : (int)NB_ARRAY_SIZE(retry_backoff_ms) - 1];
		elapsed_ms = (int)((nb_monotonic_s() - t0) * 1000);
		if (elapsed_ms + pause_ms >= p->connect_timeout_ms)
			break;
		sleep_ms(pause_ms);
	}
	rep.attempts = attempts;
	if (a.failed) {
		rep.failed = 1;
		rep.iperf_errno = a.ierr;
		describe_failure(rep.message, sizeof(rep.message), p, &a, attempts, nb_monotonic_s() - t0);
	}
	send_report(report_fd, &rep, a.json);
	free(a.json);
	_exit(0);
}

/* nicbench serve without libiperf: one test served by the iperf3 program (--one-off --json). */
static void __attribute__((noreturn)) server_child_program(const struct nb_iperf_serve_params *p, int report_fd)
{
	struct child_report rep;
	struct nb_iperf_argv argv;
	struct nb_iperf_prog_out out = { .wait_status = -1 };
	char bind_text[300], jtext[300];
	int rc;

	memset(&rep, 0, sizeof(rep));
	rep.attempts = 1;
	nb_traffic_format_peer(bind_text, sizeof(bind_text), p->bind ? p->bind : "*", p->port);
	rc = nb_iperf_prog_server_argv(p->program, p->bind, p->port, p->stats_interval_s, &argv);
	if (rc == 0)
		rc = nb_iperf_prog_run(argv.argv, CHILD_OUTPUT_MAX, NULL, NULL, &out);
	json_error_text(out.json, jtext, sizeof(jtext));
	if (rc < 0 || json_has_error(out.json)) {
		if (!jtext[0])
			snprintf(jtext, sizeof(jtext), "%.290s",
				 out.error[0] ? out.error : out.stderr_tail[0] ? out.stderr_tail : "no JSON result");
		rep.failed = 1;
		snprintf(rep.message, sizeof(rep.message), "iperf3 server (%.60s) on %.120s: %.200s", p->program,
			 bind_text, jtext);
	}
	send_report(report_fd, &rep, out.json);
	nb_iperf_prog_out_release(&out);
	_exit(0);
}

static void __attribute__((noreturn)) server_child(const struct nb_iperf_serve_params *p, int report_fd,
						  pid_t parent)
{
#if NB_HAVE_LIBIPERF
	struct child_report rep;
	struct iperf_test *t;
	char *json = NULL;
	char bind_text[300];
	int rc, ierr, sys_errno;
#endif

	child_setup(parent);
	if (p->program)
		server_child_program(p, report_fd);
#if NB_HAVE_LIBIPERF
	memset(&rep, 0, sizeof(rep));
	rep.attempts = 1;
	t = iperf_new_test();
	if (!t) {
		rep.failed = 1;
		snprintf(rep.message, sizeof(rep.message), "create a libiperf test: %s", strerror(errno));
		send_report(report_fd, &rep, NULL);
		_exit(0);
	}
	iperf_defaults(t);
	iperf_set_test_role(t, 's');
	iperf_set_test_server_port(t, p->port);
	if (p->bind)
		iperf_set_test_bind_address(t, p->bind);
	iperf_set_test_stats_interval(t, p->stats_interval_s);
	iperf_set_test_reporter_interval(t, p->stats_interval_s);
	iperf_set_test_json_output(t, 1);
	iperf_set_test_logfile(t, "/dev/null");
	i_errno = IENONE;
	errno = 0;
	rc = iperf_run_server(t);
	sys_errno = errno;
	ierr = i_errno;
	if (iperf_get_test_json_output_string(t))
		json = strdup(iperf_get_test_json_output_string(t));
	if (rc < 0 || json_has_error_key(json)) {
		char jtext[300];

		nb_traffic_format_peer(bind_text, sizeof(bind_text), p->bind ? p->bind : "*", p->port);
		json_error_text(json, jtext, sizeof(jtext));
		if (!jtext[0])
			snprintf(jtext, sizeof(jtext), "%s", ierr ? iperf_strerror(ierr) : strerror(sys_errno));
		trim_empty_reason(jtext);
		rep.failed = 1;
		rep.iperf_errno = ierr;
		snprintf(rep.message, sizeof(rep.message), "iperf3 server on %.120s: %.280s (i_errno %d)", bind_text,
			 jtext, ierr);
	}
	send_report(report_fd, &rep, json);
	free(json);
	iperf_free_test(t);
	_exit(0);
#else
	/* nb_iperf_server_start gives every server a program in a build without libiperf */
	_exit(1);
#endif
}

/* ---- parent side ---- */

static size_t report_tail(const void *fixed)
{
	return ((const struct child_report *)fixed)->json_len;
}

static const struct nb_child_ops server_ops = {
	.report_fixed = sizeof(struct child_report),
	.report_tail = report_tail,
	.max_output = CHILD_OUTPUT_MAX,
};

/* ---- client runs ---- */

static int validate_params(const struct nb_iperf_params *p, struct nb_err *err)
{
	if (!p->host || !p->host[0] || strlen(p->host) >= 256)
		return nb_err_set(err, -EINVAL, "start iperf3 client: no or too long peer host");
	if (p->program && (!p->program[0] || strlen(p->program) >= 256))
		return nb_err_set(err, -EINVAL, "start iperf3 client to %s: empty or too long iperf3 program path",
				  p->host);
	if (p->port <= 0 || p->port > 65535)
		return nb_err_set(err, -EINVAL, "start iperf3 client to %s: port %d out of range 1..65535",
				  p->host, p->port);
	if (p->duration_s <= 0 || p->omit_s < 0 || p->grace_ms < 0 || p->length < 0 || p->streams < 0)
		return nb_err_set(err, -EINVAL,
				  "start iperf3 client to %s:%d: need duration > 0 and omit, grace, length, streams >= 0",
				  p->host, p->port);
	if (p->cpu >= CPU_SETSIZE)
		return nb_err_set(err, -EINVAL, "start iperf3 client to %s:%d: CPU %d out of range",
				  p->host, p->port, p->cpu);
	return 0;
}

static void __attribute__((noreturn)) client_main(struct nb_traffic_run *base)
{
	const struct nb_iperf_run *r = (const struct nb_iperf_run *)base;

	client_child(&r->p, base->link.fd, base->link.parent);
}

static void fill_from_report(const struct nb_traffic_run *r, struct nb_traffic_result *res)
{
	struct child_report rep;
	struct nb_iperf_result parsed;
	const char *json = (const char *)nb_child_link_report(&r->link) + sizeof(rep);

	memcpy(&rep, (const char *)nb_child_link_report(&r->link), sizeof(rep));
	res->attempts = rep.attempts;
	res->client_errno = rep.iperf_errno;
	if (rep.json_len)
		res->raw_json = strndup(json, rep.json_len);
	if (rep.failed) {
		res->status = NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", rep.message);
		return;
	}
	memset(&parsed, 0, sizeof(parsed));
	nb_iperf_parse_json(res->raw_json, &parsed, NULL);
	res->status = parsed.status;
	res->metrics = parsed.metrics;
	if (parsed.status != NB_RUN_OK)
		snprintf(res->error, sizeof(res->error), "%.20s test with %.100s: %.370s", r->test, r->peer, parsed.error);
}

static const struct nb_traffic_kind iperf_kind = {
	.child = {
		.report_fixed = sizeof(struct child_report),
		.report_tail = report_tail,
		.max_output = CHILD_OUTPUT_MAX,
		.deadline = nb_traffic_deadline,
		.on_late = nb_traffic_late,
	},
	.child_main = client_main,
	.fill = fill_from_report,
	.figures_foreign_load = true,
};

static int start_run(const struct nb_iperf_params *p, struct nb_iperf_run **out, struct nb_err *err)
{
	struct nb_iperf_run *r;
	int rc;

	*out = NULL;
	rc = validate_params(p, err);
	if (rc < 0)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return nb_err_set(err, -ENOMEM, "start iperf3 client to %s:%d: out of memory", p->host, p->port);
	r->p = *p;
	snprintf(r->host, sizeof(r->host), "%s", p->host);
	r->p.host = r->host;
	if (backend_program(p->program)) {
		snprintf(r->program, sizeof(r->program), "%s", backend_program(p->program));
		r->p.program = r->program;
	}
	if (r->p.connect_timeout_ms <= 0)
		r->p.connect_timeout_ms = NB_IPERF_DEFAULT_CONNECT_TIMEOUT_MS;
	r->base.kind = &iperf_kind;
	snprintf(r->base.client, sizeof(r->base.client), "iperf3 client");
	snprintf(r->base.test, sizeof(r->base.test), "iperf3 %s", mode_label(&r->p));
	nb_traffic_format_peer(r->base.peer, sizeof(r->base.peer), r->host, r->p.port);
	r->base.timing = (struct nb_child_timing){ .connect_s = r->p.connect_timeout_ms / 1000.0,
						   .run_s = r->p.omit_s + r->p.duration_s,
						   .grace_s = r->p.grace_ms / 1000.0, .run_parts = "omit + duration" };
	rc = nb_traffic_fork(&r->base, err);
	if (rc < 0) {
		free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int nb_iperf_start_traffic(const struct nb_iperf_params *p, struct nb_traffic_run **out, struct nb_err *err)
{
	struct nb_iperf_run *r;
	int rc = start_run(p, &r, err);

	*out = rc == 0 ? &r->base : NULL;
	return rc;
}

/* ---- server runs ---- */

int nb_iperf_server_start(const struct nb_iperf_serve_params *p, struct nb_iperf_server **out, struct nb_err *err)
{
	struct nb_iperf_server *s;
	int rc;

	*out = NULL;
	if (p->port <= 0 || p->port > 65535)
		return nb_err_set(err, -EINVAL, "start iperf3 server: port %d out of range 1..65535", p->port);
	if (p->bind && strlen(p->bind) >= sizeof(s->bind))
		return nb_err_set(err, -EINVAL, "start iperf3 server: bind address too long");
	if (!(p->stats_interval_s >= 0 && p->stats_interval_s <= 60))
		return nb_err_set(err, -EINVAL, "start iperf3 server: stats interval %g s out of range 0..60",
				  p->stats_interval_s);
	s = calloc(1, sizeof(*s));
	if (!s)
		return nb_err_set(err, -ENOMEM, "start iperf3 server: out of memory");
	s->p = *p;
	if (p->bind) {
		snprintf(s->bind, sizeof(s->bind), "%s", p->bind);
		s->p.bind = s->bind;
	}
	if (backend_program(p->program)) {
		snprintf(s->program, sizeof(s->program), "%s", backend_program(p->program));
		s->p.program = s->program;
	}
	rc = nb_child_link_fork(&s->link, &server_ops, s, "iperf3 server", err);
	if (rc < 0) {
		free(s);
		return rc;
	}
	if (s->link.pid == 0)
		server_child(&s->p, s->link.fd, s->link.parent);
	*out = s;
	return 0;
}

pid_t nb_iperf_server_pid(const struct nb_iperf_server *s)
{
	return s->link.pid;
}

int nb_iperf_server_fd(const struct nb_iperf_server *s)
{
	return s->link.fd;
}

int nb_iperf_server_wait(struct nb_iperf_server *s, int timeout_ms)
{
	int rc;

	if (s->link.reaped)
		return 1;
	rc = nb_child_link_wait(&s->link, timeout_ms);
	if (rc == 1)
		s->ended_at = nb_monotonic_s();
	return rc;
}

void nb_iperf_server_stop(struct nb_iperf_server *s, int sig)
{
	if (!s || s->link.reaped)
		return;
	s->stopped = true;
	kill(s->link.pid, sig);
}

/* What the server's JSON says about the test it served. */
static void read_server_json(const char *json, struct nb_iperf_serve_result *res)
{
	json_t *root = json ? json_loads(json, 0, NULL) : NULL;
	json_t *start = json_object_get(root, "start");
	json_t *ts = json_object_get(start, "test_start");
	json_t *acc = json_object_get(start, "accepted_connection");
	double v, sent = 0, recv = 0;

	if (!root)
		return;
	if (json_is_object(ts)) {
		res->served = true;
		snprintf(res->protocol, sizeof(res->protocol), "%s",
			 json_string_at(ts, "protocol") ? json_string_at(ts, "protocol") : "");
		if (json_number_at(ts, "reverse", &v))
			res->reverse = v != 0;
		if (json_number_at(ts, "num_streams", &v))
			res->streams = (int)v;
	}
	if (json_string_at(acc, "host") && json_number_at(acc, "port", &v))
		nb_traffic_format_peer(res->client, sizeof(res->client), json_string_at(acc, "host"), (int)v);
	json_number_at(root, "end.sum_sent.seconds", &sent);
	json_number_at(root, "end.sum_received.seconds", &recv);
	res->test_s = fmax(sent, recv);
	collect_metrics(root, &res->metrics);
	/* The server is the sender under -R: its throughput is what it sent. */
	if (res->reverse && json_number_at(root, "end.sum_sent.bits_per_second", &v))
		nb_metrics_put(&res->metrics, NB_M_THROUGHPUT_BPS, v);
	json_decref(root);
}

int nb_iperf_server_finish(struct nb_iperf_server *s, struct nb_iperf_serve_result *res, struct nb_err *err)
{
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->status = NB_RUN_FAILED;
	if (!s)
		return nb_err_set(err, -EINVAL, "finish iperf3 server: no server");
	while (!s->link.reaped)
		nb_iperf_server_wait(s, -1);
	res->stopped = s->stopped;
	res->wall_s = s->ended_at - s->link.forked_at;
	res->cpu_user_s = (double)s->link.ru.ru_utime.tv_sec + s->link.ru.ru_utime.tv_usec / 1e6;
	res->cpu_sys_s = (double)s->link.ru.ru_stime.tv_sec + s->link.ru.ru_stime.tv_usec / 1e6;
	if (s->link.have_report) {
		struct child_report rep;
		const char *json = (const char *)nb_child_link_report(&s->link) + sizeof(rep);
		char *copy;

		memcpy(&rep, (const char *)nb_child_link_report(&s->link), sizeof(rep));
		copy = rep.json_len ? strndup(json, rep.json_len) : NULL;
		read_server_json(copy, res);
		free(copy);
		res->iperf_errno = rep.iperf_errno;
		res->status = rep.failed ? NB_RUN_FAILED : NB_RUN_OK;
		snprintf(res->error, sizeof(res->error), "%s", rep.failed ? rep.message : "");
	} else if (s->stopped) {
		snprintf(res->error, sizeof(res->error), "iperf3 server stopped by a signal before it finished a test");
	} else {
		nb_child_describe_exit(res->error, sizeof(res->error), "iperf3 server child", s->link.status);
		if (s->link.status == -1)
			rc = nb_err_set(err, -ECHILD, "%s", res->error);
	}
	nb_child_link_release(&s->link);
	free(s);
	return rc;
}
