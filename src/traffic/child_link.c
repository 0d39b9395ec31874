// SPDX-License-Identifier: MIT
/* A watched child and its report pipe: the one fork, read, split, deadline and reap of nicbench. */
#include "traffic/child_link.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/nb_paths.h"
#include "kit/nb_time.h"

#define MSG_MARKER 'M'
#define MSG_REPORT 'R'
#define MSG_WORKER 'W'

int nb_child_link_fork(struct nb_child_link *l, const struct nb_child_ops *ops, void *ctx, const char *what,
		       struct nb_err *err)
{
	int fds[2];

	memset(l, 0, sizeof(*l));
	l->ops = ops;
	l->ctx = ctx;
	l->pid = -1;
	l->fd = -1;
	l->started_at = -1;
	l->forked_at = nb_monotonic_s();
	if (pipe2(fds, O_CLOEXEC) < 0)
		return nb_err_set(err, -errno, "start %s: pipe: %s", what, strerror(errno));
	/* Flush so the child's exit cannot duplicate buffered output; it leaves with _exit anyway. */
	fflush(NULL);
	l->parent = getpid();
	l->pid = fork();
	if (l->pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return nb_err_set(err, -e, "start %s: fork: %s", what, strerror(e));
	}
	if (l->pid == 0) {
		close(fds[0]);
		l->fd = fds[1];
		return 0;
	}
	close(fds[1]);
	l->fd = fds[0];
	fcntl(l->fd, F_SETFL, fcntl(l->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* ---- child side ---- */

void nb_child_setup(pid_t parent)
{
	static const int to_default[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
	sigset_t none;

	for (size_t i = 0; i < sizeof(to_default) / sizeof(to_default[0]); i++)
		signal(to_default[i], SIG_DFL);
	/* libiperf writes sockets without MSG_NOSIGNAL: a peer that goes away must give EPIPE, not death. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died before prctl took effect: then nobody would ever reap or kill us. */
	if (getppid() != parent)
		_exit(1);
}

void nb_child_send_marker(int fd, double t)
{
	char msg[1 + sizeof(double)];

	msg[0] = MSG_MARKER;
	memcpy(msg + 1, &t, sizeof(t));
	nb_write_all(fd, msg, sizeof(msg));
}

void nb_child_send_worker(int fd, pid_t pid)
{
	char msg[1 + sizeof(pid_t)];

	msg[0] = MSG_WORKER;
	memcpy(msg + 1, &pid, sizeof(pid));
	nb_write_all(fd, msg, sizeof(msg));
}

void nb_child_send_report(int fd, const void *fixed, size_t fixed_len, const void *tail, size_t tail_len)
{
	char tag = MSG_REPORT;

	if (nb_write_all(fd, &tag, 1) == 0 && nb_write_all(fd, fixed, fixed_len) == 0 && tail_len)
		nb_write_all(fd, tail, tail_len);
}

/* ---- parent side ---- */

/* Reading failed (io_error says why): the child is killed, the pipe is done. */
static void kill_on_error(struct nb_child_link *l)
{
	kill(l->pid, SIGKILL);
	l->eof = true;
}

/* Read what is there without blocking; sets eof when the child closed its end. */
static void link_read(struct nb_child_link *l)
{
	for (;;) {
		ssize_t n;

		if (l->cap - l->len < 4096) {
			size_t ncap = l->cap ? l->cap * 2 : 65536;
			char *nbuf;

			if (ncap > l->ops->max_output || !(nbuf = realloc(l->buf, ncap))) {
				snprintf(l->io_error, sizeof(l->io_error), "child output over %zu MiB or out of memory",
					 l->ops->max_output >> 20);
				kill_on_error(l);
				return;
			}
			l->buf = nbuf;
			l->cap = ncap;
		}
		n = read(l->fd, l->buf + l->len, l->cap - l->len);
		if (n > 0) {
			l->len += (size_t)n;
			continue;
		}
		if (n == 0) {
			l->eof = true;
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			snprintf(l->io_error, sizeof(l->io_error), "read the child's pipe: %s", strerror(errno));
			kill_on_error(l);
		}
		return;
	}
}

/* Split the received bytes into messages: markers, then the report once it is whole. */
static void link_parse(struct nb_child_link *l)
{
	while (!l->have_report && l->parsed < l->len) {
		size_t avail = l->len - l->parsed;
		const char *m = l->buf + l->parsed;

		if (m[0] == MSG_MARKER) {
			double t;

			if (avail < 1 + sizeof(double))
				return;
			memcpy(&t, m + 1, sizeof(t));
			l->started_at = t;
			l->markers++;
			l->parsed += 1 + sizeof(double);
		} else if (m[0] == MSG_WORKER) {
			pid_t pid;

			if (avail < 1 + sizeof(pid_t))
				return;
			memcpy(&pid, m + 1, sizeof(pid));
			l->worker_pid = pid;
			l->parsed += 1 + sizeof(pid_t);
		} else if (m[0] == MSG_REPORT) {
			size_t fixed = l->ops->report_fixed;

			if (avail < 1 + fixed)
				return;
			/* the tail's length is read from an aligned copy of the fixed part */
			if (l->ops->report_tail) {
				void *copy = malloc(fixed);
				size_t tail;

				if (!copy)
					return;
				memcpy(copy, m + 1, fixed);
				tail = l->ops->report_tail(copy);
				free(copy);
				if (avail - 1 - fixed < tail)
					return;
			}
			l->report_off = l->parsed + 1;
			l->have_report = true;
		} else {
			snprintf(l->io_error, sizeof(l->io_error), "unknown message 0x%02x from the child",
				 (unsigned char)m[0]);
			l->parsed = l->len;  /* the report will be missing, and the caller says so */
		}
	}
}

/* Poll the pipe for up to timeout_ms and take what came; -errno when the poll failed. */
static int link_poll(struct nb_child_link *l, int timeout_ms)
{
	struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
	int rc;

	if (l->eof)
		return 0;
	rc = poll(&pfd, 1, timeout_ms);
	if (rc < 0)
		return -errno;
	if (rc > 0)
		link_read(l);
	link_parse(l);
	return 0;
}

/* After the child is gone (or killed): take the rest of the pipe and reap it. */
static void drain_and_reap(struct nb_child_link *l)
{
	double give_up = nb_monotonic_s() + 5.0;

	while (!l->eof && nb_monotonic_s() < give_up) {
		int rc = link_poll(l, 200);

		if (rc < 0 && rc != -EINTR)
			break;
	}
	if (!l->eof)
		kill(l->pid, SIGKILL);
	while (!l->reaped) {
		pid_t got = wait4(l->pid, &l->status, 0, &l->ru);

		if (got == l->pid || (got < 0 && errno != EINTR)) {
			l->reaped = true;
			if (got < 0)
				l->status = -1;
		}
	}
}

double nb_child_timing_deadline(const struct nb_child_link *l, const struct nb_child_timing *t)
{
	if (l->started_at < 0)
		return l->forked_at + t->connect_s;
	return l->started_at + t->run_s + t->grace_s;
}

void nb_child_timing_late_message(char *buf, size_t len, const struct nb_child_link *l,
				  const struct nb_child_timing *t, const char *client, const char *peer)
{
	if (l->started_at < 0)
		snprintf(buf, len, "%s for %s did not start within the connect timeout (%.1f s); killed", client, peer,
			 t->connect_s);
	else
		snprintf(buf, len, "no result from the %s for %s within %.1f s (%s %.1f s, grace %.1f s); killed",
			 client, peer, t->run_s + t->grace_s, t->run_parts, t->run_s, t->grace_s);
}

static double link_deadline(const struct nb_child_link *l)
{
	return l->ops->deadline ? l->ops->deadline(l->ctx) : INFINITY;
}

static int kill_late(struct nb_child_link *l)
{
	if (l->ops->on_late)
		l->ops->on_late(l->ctx);
	l->late = true;
	kill(l->pid, SIGKILL);
	drain_and_reap(l);
	return 1;
}

int nb_child_link_wait(struct nb_child_link *l, int timeout_ms)
{
	double now, left;
	int wait_ms, rc;

	if (l->reaped)
		return 1;
	now = nb_monotonic_s();
	left = link_deadline(l) - now;
	/* At a deadline, take what already arrived first: a report that is waiting must not be
	 * killed as late. Before it, the waiting poll below sees that data anyway, and one poll
	 * per wake is what the sampler's 100 ms rhythm can afford. */
	if (left <= 0 || l->have_report) {
		link_poll(l, 0);
		if (l->eof) {
			drain_and_reap(l);
			return 1;
		}
		left = link_deadline(l) - now;
	}
	if (left <= 0 && !l->have_report)
		return kill_late(l);
	wait_ms = isinf(left) ? -1 : (int)fmin(ceil(fmax(left, 0.0) * 1000), INT_MAX);
	if (timeout_ms >= 0 && (wait_ms < 0 || timeout_ms < wait_ms))
		wait_ms = timeout_ms;
	if (l->have_report)
		wait_ms = timeout_ms;  /* the child is on its way out: no deadline applies */
	rc = link_poll(l, wait_ms);
	if (rc == -EINTR)
		return 0;
	if (rc < 0) {
		snprintf(l->io_error, sizeof(l->io_error), "poll the child's pipe: %s", strerror(-rc));
		kill_on_error(l);
	}
	if (l->eof) {
		drain_and_reap(l);
		return 1;
	}
	if (!l->have_report && nb_monotonic_s() >= link_deadline(l))
		return kill_late(l);
	return 0;
}

const void *nb_child_link_report(const struct nb_child_link *l)
{
	return l->have_report ? l->buf + l->report_off : NULL;
}

void nb_child_link_kill(struct nb_child_link *l)
{
	if (l->reaped || l->late || l->pid <= 0)
		return;
	l->killed_on_request = true;
	kill(l->pid, SIGKILL);
}

void nb_child_describe_exit(char *buf, size_t len, const char *who, int status)
{
	if (status == -1)
		snprintf(buf, len, "%s could not be reaped", who);
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "%s died from signal %d (%s) without a result", who, WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "%s exited with status %d without a result", who, WEXITSTATUS(status));
}

void nb_child_link_release(struct nb_child_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	l->fd = -1;
	l->buf = NULL;
}
