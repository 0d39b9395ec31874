// SPDX-License-Identifier: MIT
/* The life cycle every traffic client shares (traffic_run.c), with a stand-in client in real
 * forked children: a report read by the kind, a child that exits or dies without one, one that
 * never starts, one that starts and then hangs past its deadline, and one killed on request. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "kit/nb_time.h"
#include "nb_test.h"
#include "traffic/traffic_run.h"

enum behaviour { REPORT, EXIT_3, DIE_SIGTERM, NEVER_START, HANG_AFTER_START, WAIT_FOR_KILL };

struct fake_report {
	int32_t failed;
	double value;
};

struct fake_run {
	struct nb_traffic_run base;  /* first, as nb_traffic_finish expects */
	enum behaviour b;
};

static void __attribute__((noreturn)) fake_main(struct nb_traffic_run *base)
{
	const struct fake_run *r = (const struct fake_run *)base;
	struct fake_report rep = { .failed = 0, .value = 42.5 };
	int fd = base->link.fd;

	nb_child_setup(base->link.parent);
	switch (r->b) {
	case REPORT:
		nb_child_send_marker(fd, nb_monotonic_s());
		nb_child_send_marker(fd, nb_monotonic_s());
		nb_child_send_report(fd, &rep, sizeof(rep), NULL, 0);
		break;
	case EXIT_3:
		_exit(3);
	case DIE_SIGTERM:
		raise(SIGTERM);
		break;
	case NEVER_START:
		pause();
		break;
	case HANG_AFTER_START:
	case WAIT_FOR_KILL:
		nb_child_send_marker(fd, nb_monotonic_s());
		pause();
		break;
	}
	_exit(0);
}

static void fake_fill(const struct nb_traffic_run *r, struct nb_traffic_result *res)
{
	struct fake_report rep;

	memcpy(&rep, nb_child_link_report(&r->link), sizeof(rep));
	res->status = rep.failed ? NB_RUN_FAILED : NB_RUN_OK;
	nb_metrics_put(&res->metrics, "fake_value", rep.value);
}

static const struct nb_traffic_kind fake_kind = {
	.child = {
		.report_fixed = sizeof(struct fake_report),
		.max_output = 1u << 16,
		.deadline = nb_traffic_deadline,
		.on_late = nb_traffic_late,
	},
	.child_main = fake_main,
	.fill = fake_fill,
};

static struct fake_run *fake_start(enum behaviour b, const char *host)
{
	struct fake_run *r = calloc(1, sizeof(*r));
	struct nb_err err = { 0 };

	if (!r)
		return NULL;
	r->b = b;
	r->base.kind = &fake_kind;
	snprintf(r->base.client, sizeof(r->base.client), "fake client");
	snprintf(r->base.test, sizeof(r->base.test), "fake TX");
	nb_traffic_format_peer(r->base.peer, sizeof(r->base.peer), host, 9);
	r->base.timing = (struct nb_child_timing){ .connect_s = 0.3, .run_s = 0.2, .grace_s = 0.2,
						   .run_parts = "omit + duration" };
	if (nb_traffic_fork(&r->base, &err) < 0) {
		fprintf(stderr, "fork: %s\n", err.msg);
		free(r);
		return NULL;
	}
	return r;
}

int main(void)
{
	static const struct {
		const char *name;
		enum behaviour b;
		enum nb_run_status status;
		int attempts;
		const char *error;      /* what res.error holds (a part of it); NULL: empty */
	} cases[] = {
		{ "report", REPORT, NB_RUN_OK, 2, NULL },
		{ "exit without report", EXIT_3, NB_RUN_FAILED, 0,
		  "fake TX client child for 127.0.0.1:9 exited with status 3 without a result" },
		{ "signal without report", DIE_SIGTERM, NB_RUN_FAILED, 0,
		  "fake TX client child for 127.0.0.1:9 died from signal 15" },
		{ "never starts", NEVER_START, NB_RUN_TIMEOUT, 0,
		  "fake client for 127.0.0.1:9 did not start within the connect timeout (0.3 s); killed" },
		{ "hangs after the start", HANG_AFTER_START, NB_RUN_TIMEOUT, 1,
		  "no result from the fake client for 127.0.0.1:9 within 0.4 s (omit + duration 0.2 s, grace 0.2 s)" },
		{ "killed on request", WAIT_FOR_KILL, NB_RUN_FAILED, 1,
		  "fake TX test with 127.0.0.1:9 stopped on request (interrupted)" },
	};
	char peer[64];

	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_run *r = fake_start(cases[i].b, "127.0.0.1");
		struct nb_traffic_result res;
		struct nb_err err = { 0 };
		double value = 0;
		int rc;

		fprintf(stderr, "case %s\n", cases[i].name);
		CHECK(r != NULL);
		if (!r)
			continue;
		CHECK(nb_traffic_link(&r->base)->pid > 0);
		if (cases[i].b == WAIT_FOR_KILL) {
			while (nb_traffic_link(&r->base)->started_at < 0 && !nb_child_link_wait(nb_traffic_link(&r->base), 50))
				;
			nb_child_link_kill(nb_traffic_link(&r->base));
		}
		rc = nb_traffic_finish(&r->base, &res, &err);  /* frees r */
		CHECK_MSG(rc == 0, "%s: rc %d: %s", cases[i].name, rc, err.msg);
		CHECK_MSG(res.status == cases[i].status, "%s: status %d: %s", cases[i].name, res.status, res.error);
		CHECK_MSG(res.attempts == cases[i].attempts, "%s: attempts %d", cases[i].name, res.attempts);
		if (cases[i].error)
			CHECK_MSG(strstr(res.error, cases[i].error) != NULL, "%s: error \"%s\"", cases[i].name, res.error);
		else
			CHECK_STR(res.error, "");
		CHECK_MSG(nb_metrics_get(&res.metrics, "fake_value", &value) == (cases[i].status == NB_RUN_OK),
			  "%s: metric", cases[i].name);
		if (cases[i].status == NB_RUN_OK)
			CHECK_NEAR(value, 42.5, 1e-12);
		nb_traffic_result_release(&res);
		CHECK(res.raw_json == NULL && res.hist == NULL);
	}
	{
		struct nb_traffic_result res;
		struct nb_err err = { 0 };

		CHECK(nb_traffic_finish(NULL, &res, &err) == -EINVAL);
		CHECK(res.status == NB_RUN_FAILED);
	}
	nb_traffic_format_peer(peer, sizeof(peer), "fd00::2", 5201);
	CHECK_STR(peer, "[fd00::2]:5201");
	nb_traffic_format_peer(peer, sizeof(peer), "10.0.0.2", 5201);
	CHECK_STR(peer, "10.0.0.2:5201");
	return nb_test_done("traffic_run");
}
