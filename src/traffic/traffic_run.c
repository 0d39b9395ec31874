// SPDX-License-Identifier: MIT
/* The life cycle every traffic client shares: fork a watched child, the watchdog's deadline
 * and message, then reap and the verdict when the child gave no report. */
#include "traffic/traffic_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nb_traffic_format_peer(char *buf, size_t len, const char *host, int port)
{
	if (strchr(host, ':'))
		snprintf(buf, len, "[%s]:%d", host, port);
	else
		snprintf(buf, len, "%s:%d", host, port);
}

double nb_traffic_deadline(const void *run)
{
	const struct nb_traffic_run *r = run;

	return nb_child_timing_deadline(&r->link, &r->timing);
}

void nb_traffic_late(void *run)
{
	struct nb_traffic_run *r = run;

	nb_child_timing_late_message(r->timeout_msg, sizeof(r->timeout_msg), &r->link, &r->timing, r->client,
				     r->peer);
}

int nb_traffic_fork(struct nb_traffic_run *r, struct nb_err *err)
{
	int rc = nb_child_link_fork(&r->link, &r->kind->child, r, r->client, err);

	if (rc < 0)
		return rc;
	if (r->link.pid == 0)
		r->kind->child_main(r);
	return 0;
}

struct nb_child_link *nb_traffic_link(struct nb_traffic_run *r)
{
	return &r->link;
}

int nb_traffic_finish(struct nb_traffic_run *r, struct nb_traffic_result *res, struct nb_err *err)
{
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->status = NB_RUN_FAILED;
	if (!r)
		return nb_err_set(err, -EINVAL, "finish traffic run: no run");
	while (!r->link.reaped)
		nb_child_link_wait(&r->link, -1);
	res->attempts = r->link.markers;
	if (r->link.late) {
		res->status = NB_RUN_TIMEOUT;
		snprintf(res->error, sizeof(res->error), "%s", r->timeout_msg);
	} else if (r->link.have_report) {
		r->kind->fill(r, res);
	} else if (r->link.killed_on_request) {
		snprintf(res->error, sizeof(res->error), "%s test with %s stopped on request (interrupted)", r->test,
			 r->peer);
	} else {
		char who[400];
		size_t used;

		snprintf(who, sizeof(who), "%s client child for %s", r->test, r->peer);
		nb_child_describe_exit(res->error, sizeof(res->error), who, r->link.status);
		used = strlen(res->error);
		if (r->link.io_error[0])
			snprintf(res->error + used, sizeof(res->error) - used, " (%s)", r->link.io_error);
		if (r->link.status == -1)
			rc = nb_err_set(err, -ECHILD, "%s", res->error);
	}
	nb_child_link_release(&r->link);
	/* the client's own run struct, which begins with r */
	free(r);
	return rc;
}

void nb_traffic_result_release(struct nb_traffic_result *res)
{
	if (!res)
		return;
	free(res->raw_json);
	res->raw_json = NULL;
	free(res->hist);
	res->hist = NULL;
}
