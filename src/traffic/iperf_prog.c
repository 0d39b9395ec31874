// SPDX-License-Identifier: MIT
/* Runs the iperf3 program with --json for the iperf3 tests when libiperf is not the backend:
 * its command lines, a fork/exec that reads its output back, and the backend's names. */
#include "traffic/iperf_prog.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/nb_time.h"
#include "traffic/child_link.h"

int nb_iperf_backend_parse(const char *text, enum nb_iperf_backend *out, struct nb_err *err)
{
	if (!strcmp(text, "auto"))
		*out = NB_IPERF_BACKEND_AUTO;
	else if (!strcmp(text, "libiperf"))
		*out = NB_IPERF_BACKEND_LIBIPERF;
	else if (!strcmp(text, "iperf3"))
		*out = NB_IPERF_BACKEND_PROGRAM;
	else
		return nb_err_set(err, -EINVAL, "traffic backend '%s': expected auto, libiperf or iperf3", text);
	return 0;
}

const char *nb_iperf_backend_name(enum nb_iperf_backend b)
{
	switch (b) {
	case NB_IPERF_BACKEND_LIBIPERF:
		return "libiperf";
	case NB_IPERF_BACKEND_PROGRAM:
		return "iperf3";
	case NB_IPERF_BACKEND_AUTO:
		break;
	}
	return "auto";
}

bool nb_iperf_have_libiperf(void)
{
	return NB_HAVE_LIBIPERF;
}

int nb_iperf_backend_resolve(enum nb_iperf_backend want, enum nb_iperf_backend *out, struct nb_err *err)
{
	if (want == NB_IPERF_BACKEND_AUTO)
		want = nb_iperf_have_libiperf() ? NB_IPERF_BACKEND_LIBIPERF : NB_IPERF_BACKEND_PROGRAM;
	if (want == NB_IPERF_BACKEND_LIBIPERF && !nb_iperf_have_libiperf())
		return nb_err_set(err, -ENOTSUP,
				  "traffic backend libiperf: this nicbench was built without libiperf "
				  "(NICBENCH_LIBIPERF); use the iperf3 program (traffic_backend iperf3)");
	*out = want;
	return 0;
}

/* ---- command lines ---- */

struct argv_builder {
	struct nb_iperf_argv *a;
	int argc;
	size_t used;
	bool full;
};

static void __attribute__((format(printf, 2, 3))) push(struct argv_builder *b, const char *fmt, ...)
{
	size_t room = sizeof(b->a->store) - b->used;
	va_list ap;
	int n;

	if (b->full || b->argc + 2 > (int)(sizeof(b->a->argv) / sizeof(b->a->argv[0]))) {
		b->full = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(b->a->store + b->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		b->full = true;
		return;
	}
	b->a->argv[b->argc++] = b->a->store + b->used;
	b->a->argv[b->argc] = NULL;
	b->used += (size_t)n + 1;
}

static int finish(struct argv_builder *b, struct nb_iperf_argv *a)
{
	if (b->full) {
		a->argv[0] = NULL;
		return -ENOSPC;
	}
	return 0;
}

/* The same test as iperf_driver.c's configure_client asks of libiperf, option for option. */
int nb_iperf_prog_client_argv(const char *program, const struct nb_iperf_prog_test *t, int connect_ms,
			      struct nb_iperf_argv *a)
{
	struct argv_builder b = { .a = a };

	a->argv[0] = NULL;
	push(&b, "%s", program);
	push(&b, "--client");
	push(&b, "%s", t->host);
	push(&b, "--port");
	push(&b, "%d", t->port);
	push(&b, "--time");
	push(&b, "%d", t->duration_s);
	push(&b, "--omit");
	push(&b, "%d", t->omit_s);
	push(&b, "--parallel");
	push(&b, "%d", t->streams > 0 ? t->streams : 1);
	if (t->reverse)
		push(&b, "--reverse");
	push(&b, "--connect-timeout");
	push(&b, "%d", connect_ms);
	push(&b, "--json");
	if (t->udp)
		push(&b, "--udp");
	if (t->length > 0) {
		push(&b, "--length");
		push(&b, "%d", t->length);
	}
	/* the program's UDP default is 1 Mbit/s where libiperf's test starts at 0 (unlimited): always say it */
	push(&b, "--bitrate");
	push(&b, "%llu", (unsigned long long)t->rate_bps);
	if (!t->udp && t->reverse)
		push(&b, "--get-server-output");
	return finish(&b, a);
}

int nb_iperf_prog_server_argv(const char *program, const char *bind, int port, double interval_s,
			      struct nb_iperf_argv *a)
{
	struct argv_builder b = { .a = a };

	a->argv[0] = NULL;
	push(&b, "%s", program);
	push(&b, "--server");
	push(&b, "--one-off");
	push(&b, "--port");
	push(&b, "%d", port);
	if (bind) {
		push(&b, "--bind");
		push(&b, "%s", bind);
	}
	push(&b, "--interval");
	push(&b, "%g", interval_s);
	push(&b, "--json");
	return finish(&b, a);
}

/* ---- running it ---- */

/* A growing buffer for one of the program's outputs. */
struct sink {
	char *buf;
	size_t len, cap, max;
	bool over;
};

static int sink_read(struct sink *s, int fd)
{
	char chunk[16384];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (n == 0)
		return 0;
	if (s->len + (size_t)n + 1 > s->max) {
		s->over = true;
		return 1;
	}
	if (s->len + (size_t)n + 1 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 65536;
		char *nbuf;

		while (ncap < s->len + (size_t)n + 1)
			ncap *= 2;
		nbuf = realloc(s->buf, ncap);
		if (!nbuf) {
			s->over = true;
			return 1;
		}
		s->buf = nbuf;
		s->cap = ncap;
	}
	memcpy(s->buf + s->len, chunk, (size_t)n);
	s->len += (size_t)n;
	s->buf[s->len] = '\0';
	return 1;
}

static void __attribute__((noreturn)) exec_program(char *const argv[], pid_t parent, int out_fd, int err_fd,
						  int exec_fd)
{
	int e;

	/* the program must not outlive the traffic child that waits for it (a watchdog kill) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(exec_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Read stdout and stderr to their end; stdout past its limit kills the program. */
static void drain(pid_t pid, int out_fd, int err_fd, struct sink *out, struct sink *err)
{
	struct pollfd pfd[2] = { { .fd = out_fd, .events = POLLIN }, { .fd = err_fd, .events = POLLIN } };
	struct sink *sinks[2] = { out, err };
	int open_fds = 2;

	while (open_fds > 0) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (sink_read(sinks[i], pfd[i].fd) <= 0) {
				pfd[i].fd = -1;
				open_fds--;
			}
			/* the program writes on: stop it and keep what arrived */
			if (sinks[i]->over && sinks[i] == out)
				kill(pid, SIGKILL);
		}
	}
}

int nb_iperf_prog_run(char *const argv[], size_t max_output, void (*started)(void *ctx, pid_t pid), void *ctx,
		      struct nb_iperf_prog_out *res)
{
	int out_pipe[2] = { -1, -1 }, err_pipe[2] = { -1, -1 }, exec_pipe[2] = { -1, -1 };
	struct sink out = { .max = max_output }, err = { .max = 1u << 20 };
	pid_t parent = getpid(), pid;
	int exec_errno = 0, rc = 0;
	ssize_t n;

	memset(res, 0, sizeof(*res));
	res->wait_status = -1;
	if (pipe2(out_pipe, O_CLOEXEC) < 0 || pipe2(err_pipe, O_CLOEXEC) < 0 || pipe2(exec_pipe, O_CLOEXEC) < 0) {
		rc = -errno;
		snprintf(res->error, sizeof(res->error), "run %.100s: pipe: %s", argv[0], strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(res->error, sizeof(res->error), "run %.100s: fork: %s", argv[0], strerror(errno));
		goto out;
	}
	if (pid == 0)
		exec_program(argv, parent, out_pipe[1], err_pipe[1], exec_pipe[1]);
	close(out_pipe[1]);
	close(err_pipe[1]);
	close(exec_pipe[1]);
	out_pipe[1] = err_pipe[1] = exec_pipe[1] = -1;
	if (started)
		started(ctx, pid);
	drain(pid, out_pipe[0], err_pipe[0], &out, &err);
	/* the exec pipe closes on a successful exec; an errno on it says why exec failed */
	while ((n = read(exec_pipe[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	while (waitpid(pid, &res->wait_status, 0) < 0) {
		if (errno != EINTR) {
			res->wait_status = -1;
			break;
		}
	}
	if (n == (ssize_t)sizeof(exec_errno)) {
		rc = -exec_errno;
		snprintf(res->error, sizeof(res->error), "exec %.100s: %s", argv[0], strerror(exec_errno));
		goto out;
	}
	if (out.over)
		snprintf(res->error, sizeof(res->error), "%.100s wrote over %zu MiB on stdout or memory ran out; killed",
			 argv[0], max_output >> 20);
	res->json = out.buf;
	out.buf = NULL;
	if (err.len) {
		/* the end of stderr says the most: the last message before it stopped */
		const char *tail = err.len >= sizeof(res->stderr_tail) ? err.buf + err.len - (sizeof(res->stderr_tail) - 1)
								     : err.buf;

		snprintf(res->stderr_tail, sizeof(res->stderr_tail), "%s", tail);
		for (char *c = res->stderr_tail; *c; c++)
			if (*c == '\n')
				*c = ' ';
	}
out:
	for (int i = 0; i < 2; i++) {
		if (out_pipe[i] >= 0)
			close(out_pipe[i]);
		if (err_pipe[i] >= 0)
			close(err_pipe[i]);
		if (exec_pipe[i] >= 0)
			close(exec_pipe[i]);
	}
	free(out.buf);
	free(err.buf);
	return rc;
}

struct attempt_start {
	int report_fd;
};

/* The program is forked: the parent's CPU figures follow it from this attempt's marker on. */
static void attempt_started(void *ctx, pid_t pid)
{
	const struct attempt_start *st = ctx;

	nb_child_send_worker(st->report_fd, pid);
	nb_child_send_marker(st->report_fd, nb_monotonic_s());
}

int nb_iperf_prog_attempt(const char *program, const struct nb_iperf_prog_test *t, int connect_ms, int report_fd,
			  size_t max_output, struct nb_iperf_prog_out *out)
{
	struct nb_iperf_argv argv;
	struct attempt_start st = { .report_fd = report_fd };

	if (nb_iperf_prog_client_argv(program, t, connect_ms, &argv) < 0) {
		memset(out, 0, sizeof(*out));
		out->wait_status = -1;
		snprintf(out->error, sizeof(out->error), "the iperf3 command line is too long");
		return -ENOSPC;
	}
	return nb_iperf_prog_run(argv.argv, max_output, attempt_started, &st, out);
}

void nb_iperf_prog_out_release(struct nb_iperf_prog_out *out)
{
	if (!out)
		return;
	free(out->json);
	out->json = NULL;
}

/* iperf3 3.x's texts for IECONNECT, IEACCESSDENIED and IERECVMESSAGE, libiperf's retry set */
bool nb_iperf_prog_error_retryable(const char *error_text)
{
	static const char *const texts[] = {
		"unable to connect to server",
		"the server is busy running a test",
		"unable to receive control message",
	};

	if (!error_text)
		return false;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (strstr(error_text, texts[i]))
			return true;
	return false;
}

int nb_iperf_prog_probe(const char *program, char *version, size_t len, struct nb_err *err)
{
	char *argv[] = { (char *)program, (char *)"--version", NULL };
	struct nb_iperf_prog_out out;
	const char *v;
	int rc;

	version[0] = '\0';
	rc = nb_iperf_prog_run(argv, 1u << 16, NULL, NULL, &out);
	if (rc < 0)
		return nb_err_set(err, rc, "iperf3 program backend: %s", out.error);
	/* "iperf 3.12 (cJSON 1.7.15)" on the first line */
	v = out.json && !strncmp(out.json, "iperf ", 6) ? out.json + 6 : NULL;
	if (!v || !WIFEXITED(out.wait_status) || WEXITSTATUS(out.wait_status) != 0) {
		rc = nb_err_set(err, -EBADMSG, "iperf3 program backend: '%s --version' did not print \"iperf VERSION\"%s%s",
				program, out.stderr_tail[0] ? ": " : "", out.stderr_tail);
		nb_iperf_prog_out_release(&out);
		return rc;
	}
	snprintf(version, len, "%.*s", (int)strcspn(v, " \n"), v);
	nb_iperf_prog_out_release(&out);
	return 0;
}
