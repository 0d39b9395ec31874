// SPDX-License-Identifier: MIT
/* child_link with real forked children: markers and a report split over several writes, a child
 * that exits or dies without a report, one that hangs past its deadline, one that writes too
 * much, and one that writes garbage. */
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "traffic/child_link.h"
#include "kit/nb_paths.h"
#include "nb_test.h"
#include "kit/nb_time.h"

struct test_report {
	int32_t code;
	uint32_t tail_len;
};

struct watch {
	double deadline;     /* monotonic s; 0: none */
	int late_calls;
};

static size_t tail_of(const void *fixed)
{
	return ((const struct test_report *)fixed)->tail_len;
}

static double watch_deadline(const void *ctx)
{
	const struct watch *w = ctx;

	return w->deadline > 0 ? w->deadline : INFINITY;
}

static void note_late(void *ctx)
{
	((struct watch *)ctx)->late_calls++;
}

static const struct nb_child_ops ops = {
	.report_fixed = sizeof(struct test_report),
	.report_tail = tail_of,
	.max_output = 1u << 20,
	.deadline = watch_deadline,
	.on_late = note_late,
};

enum behaviour { SEND_REPORT, SEND_SPLIT, EXIT_3, DIE_SIGTERM, HANG, FLOOD, GARBAGE };

static void __attribute__((noreturn)) child(enum behaviour b, int fd, pid_t parent)
{
	static char big[1 << 16];
	struct test_report rep = { .code = 7, .tail_len = 5 };

	nb_child_setup(parent);
	switch (b) {
	case SEND_REPORT:
		nb_child_send_marker(fd, 1.5);
		nb_child_send_marker(fd, 2.5);
		nb_child_send_report(fd, &rep, sizeof(rep), "hello", 5);
		break;
	case SEND_SPLIT: {
		char msg[1 + sizeof(rep) + 5];

		/* the same report, a few bytes at a time: the parent must wait for the whole tail */
		msg[0] = 'R';
		memcpy(msg + 1, &rep, sizeof(rep));
		memcpy(msg + 1 + sizeof(rep), "hello", 5);
		for (size_t off = 0; off < sizeof(msg); off += 3) {
			nb_write_all(fd, msg + off, sizeof(msg) - off < 3 ? sizeof(msg) - off : 3);
			usleep(20000);
		}
		break;
	}
	case EXIT_3:
		_exit(3);
	case DIE_SIGTERM:
		raise(SIGTERM);
		break;
	case HANG:
		nb_child_send_marker(fd, nb_monotonic_s());
		pause();
		break;
	case FLOOD:
		memset(big, 'M', sizeof(big));  /* markers are 9 bytes: a stream of 'M' never ends one badly */
		for (;;)
			if (nb_write_all(fd, big, sizeof(big)) < 0)
				break;
		break;
	case GARBAGE:
		nb_write_all(fd, "Zzz", 3);
		pause();
		break;
	}
	_exit(0);
}

static void run(enum behaviour b, struct nb_child_link *l, struct watch *w)
{
	struct nb_err err = { 0 };
	int rc = nb_child_link_fork(l, &ops, w, "test child", &err);

	CHECK_MSG(rc == 0, "fork: %s", err.msg);
	if (rc < 0)
		return;
	if (l->pid == 0)
		child(b, l->fd, l->parent);
	while (nb_child_link_wait(l, 100) == 0)
		;
	CHECK(l->reaped);
}

int main(void)
{
	static const struct {
		const char *name;
		enum behaviour b;
		double deadline_s;     /* from the start; 0: none */
		bool report;
		int exit_code;         /* -1: not a normal exit */
		int signal;            /* 0: not killed by a signal */
		const char *io_error;  /* a prefix; "" none */
		const char *describe;  /* nb_child_describe_exit without a report; "" when there is one */
	} cases[] = {
		{ "report", SEND_REPORT, 0, true, 0, 0, "", "" },
		{ "report in pieces", SEND_SPLIT, 0, true, 0, 0, "", "" },
		{ "exit without report", EXIT_3, 0, false, 3, 0, "", "kid exited with status 3 without a result" },
		{ "signal without report", DIE_SIGTERM, 0, false, -1, SIGTERM, "",
		  "kid died from signal 15 (Terminated) without a result" },
		{ "hang past the deadline", HANG, 0.3, false, -1, SIGKILL, "",
		  "kid died from signal 9 (Killed) without a result" },
		{ "flood", FLOOD, 0, false, -1, SIGKILL, "child output over 1 MiB", "" },
		{ "garbage", GARBAGE, 0.3, false, -1, SIGKILL, "unknown message 0x5a from the child", "" },
	};

	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_child_link l;
		struct watch w = { 0 };
		const char *at;
		struct test_report rep;

		fprintf(stderr, "case %s\n", cases[i].name);
		if (cases[i].deadline_s > 0)
			w.deadline = nb_monotonic_s() + cases[i].deadline_s;
		run(cases[i].b, &l, &w);
		at = nb_child_link_report(&l);
		CHECK_MSG((at != NULL) == cases[i].report, "%s: report %p", cases[i].name, (const void *)at);
		if (at && cases[i].report) {
			memcpy(&rep, at, sizeof(rep));  /* unaligned in the buffer */
			CHECK(rep.code == 7 && rep.tail_len == 5);
			CHECK(!memcmp(at + sizeof(rep), "hello", 5));
		}
		if (cases[i].b == SEND_REPORT) {
			CHECK(l.markers == 2);
			CHECK(l.started_at == 2.5);
		}
		CHECK_MSG(w.late_calls == (cases[i].b == HANG || cases[i].b == GARBAGE), "%s: late %d", cases[i].name,
			  w.late_calls);
		CHECK(l.late == (w.late_calls > 0));
		if (cases[i].exit_code >= 0)
			CHECK_MSG(WIFEXITED(l.status) && WEXITSTATUS(l.status) == cases[i].exit_code, "%s: status %#x",
				  cases[i].name, l.status);
		if (cases[i].signal)
			CHECK_MSG(WIFSIGNALED(l.status) && WTERMSIG(l.status) == cases[i].signal, "%s: status %#x",
				  cases[i].name, l.status);
		CHECK_MSG(!strncmp(l.io_error, cases[i].io_error, strlen(cases[i].io_error)) &&
			  (cases[i].io_error[0] || !l.io_error[0]), "%s: io_error \"%s\"", cases[i].name, l.io_error);
		if (cases[i].describe[0]) {
			char text[200];

			nb_child_describe_exit(text, sizeof(text), "kid", l.status);
			CHECK_STR(text, cases[i].describe);
		}
		nb_child_link_release(&l);
	}
	{
		/* a wait that times out while the child runs returns 0; a kill ends it */
		struct nb_child_link l;
		struct watch w = { 0 };
		struct nb_err err = { 0 };

		CHECK(nb_child_link_fork(&l, &ops, &w, "test child", &err) == 0);
		if (l.pid == 0)
			child(HANG, l.fd, l.parent);
		CHECK(nb_child_link_wait(&l, 50) == 0);
		CHECK(!l.reaped);
		nb_child_link_kill(&l);
		while (nb_child_link_wait(&l, -1) == 0)
			;
		CHECK(WIFSIGNALED(l.status) && WTERMSIG(l.status) == SIGKILL);
		CHECK(l.markers == 1);
		CHECK(l.killed_on_request && !l.late);
		nb_child_link_release(&l);
	}
	return nb_test_done("child_link");
}
