// SPDX-License-Identifier: MIT
/* The rr client's run as its parent sees it: the parameters checked, the child (rr_client.c)
 * forked and watched as every traffic client is (traffic_run.c), and the child's report turned
 * into the run's metrics, with the pure per-transaction figures derived from them. */
#include "traffic/rr_client.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/metric_table.h"
#include "traffic/child_link.h"
#include "traffic/rr_child.h"
#include "traffic/rr_proto.h"

#define NB_RR_MAX_FLOWS 256

/* ---- metrics (pure) ---- */

void nb_rr_latency_metrics(const struct nb_hist *h, struct nb_metric_set *m)
{
	static const struct { const char *name; double p; } pct[] = {
		{ NB_M_RR_LATENCY_P50_US, 50 }, { NB_M_RR_LATENCY_P90_US, 90 }, { NB_M_RR_LATENCY_P99_US, 99 },
		{ NB_M_RR_LATENCY_P999_US, 99.9 },
	};

	if (!h || h->count == 0)
		return;
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		nb_metrics_put(m, pct[i].name, nb_hist_percentile_ns(h, pct[i].p) / 1000.0);
	nb_metrics_put(m, NB_M_RR_LATENCY_MAX_US, (double)h->max_ns / 1000.0);
	nb_metrics_put(m, NB_M_RR_LATENCY_MIN_US, (double)h->min_ns / 1000.0);
	nb_metrics_put(m, NB_M_RR_LATENCY_MEAN_US, nb_hist_mean_ns(h) / 1000.0);
}

void nb_rr_derive_metrics(struct nb_metric_set *m)
{
	double tps, v, busy_cores = 0;
	bool any_cpu = false;

	if (!nb_metrics_get(m, NB_M_RR_TRANSACTIONS_PER_S, &tps) || tps <= 0)
		return;
	/* cpu_busy_pct is a share of the whole machine; the per-CPU shares add up to busy cores */
	for (int i = 0; i < m->n; i++) {
		const char *name = m->m[i].name;
		int cpu;

		if (nb_metric_name_number(nb_metric_cpu_share(NB_SHARE_BUSY, true), name, &cpu)) {
			busy_cores += m->m[i].value / 100.0;
			any_cpu = true;
		}
	}
	if (any_cpu)
		nb_metrics_put(m, NB_M_CPU_US_PER_TRANSACTION, busy_cores * 1e6 / tps);
	if (nb_metrics_get(m, NB_M_INTERRUPTS_PER_S, &v))
		nb_metrics_put(m, NB_M_INTERRUPTS_PER_TRANSACTION, v / tps);
	if (nb_metrics_get(m, NB_M_NAPI_POLLS_PER_S, &v))
		nb_metrics_put(m, NB_M_NAPI_POLLS_PER_TRANSACTION, v / tps);
}


/* ---- the run ---- */

struct nb_rr_run {
	struct nb_traffic_run base;  /* first: nb_traffic_finish frees the run through it */
	struct nb_rr_params p;
	char host[256];
};

static int validate(const struct nb_rr_params *p, struct nb_err *err)
{
	if (!p->host || !p->host[0] || strlen(p->host) >= 256)
		return nb_err_set(err, -EINVAL, "start rr client: no or too long peer host");
	if (p->port < 1 || p->port > 65535)
		return nb_err_set(err, -EINVAL, "start rr client to %s: port %d out of range 1..65535", p->host, p->port);
	if (p->flows < 1 || p->flows > NB_RR_MAX_FLOWS)
		return nb_err_set(err, -EINVAL, "start rr client to %s: %d flows, want 1..%d", p->host, p->flows,
				  NB_RR_MAX_FLOWS);
	if (p->request < NB_RR_MIN_LEN || p->request > NB_RR_MAX_LEN || p->response < NB_RR_MIN_LEN ||
	    p->response > NB_RR_MAX_LEN)
		return nb_err_set(err, -EINVAL, "start rr client to %s: request %d / response %d bytes, want %d..%d",
				  p->host, p->request, p->response, NB_RR_MIN_LEN, NB_RR_MAX_LEN);
	if (!(p->rate_tps >= 0) || p->timeout_ms < 1 || p->duration_s < 1 || p->omit_s < 0 || p->cpu >= CPU_SETSIZE)
		return nb_err_set(err, -EINVAL, "start rr client to %s: need rate >= 0, timeout >= 1 ms, duration >= 1 s, "
				  "omit >= 0, a CPU below %d", p->host, CPU_SETSIZE);
	return 0;
}

static size_t report_tail(const void *fixed)
{
	return ((const struct nb_rr_report *)fixed)->has_hist ? sizeof(struct nb_hist) : 0;
}

static void __attribute__((noreturn)) client_main(struct nb_traffic_run *base)
{
	const struct nb_rr_run *r = (const struct nb_rr_run *)base;

	nb_rr_client_child(&r->p, base->link.fd, base->link.parent);
}

static void fill_from_report(const struct nb_traffic_run *base, struct nb_traffic_result *res)
{
	const struct nb_rr_run *r = (const struct nb_rr_run *)base;
	struct nb_rr_report rep;

	memcpy(&rep, nb_child_link_report(&base->link), sizeof(rep));
	rep.message[sizeof(rep.message) - 1] = '\0';
	if (rep.kind != NB_RR_REPORT_OK) {
		res->status = rep.kind == NB_RR_REPORT_TIMEOUT ? NB_RUN_TIMEOUT : NB_RUN_FAILED;
		snprintf(res->error, sizeof(res->error), "%s", rep.message);
		return;
	}
	res->status = NB_RUN_OK;
	if (rep.has_hist) {
		res->hist = malloc(sizeof(*res->hist));
		if (res->hist)
			memcpy(res->hist, (const char *)nb_child_link_report(&base->link) + sizeof(rep), sizeof(*res->hist));
	}
	nb_metrics_put(&res->metrics, NB_M_RR_TRANSACTIONS, (double)rep.transactions);
	nb_metrics_put(&res->metrics, NB_M_RR_TRANSACTIONS_PER_S, (double)rep.transactions / r->p.duration_s);
	nb_rr_latency_metrics(res->hist, &res->metrics);
	if (r->p.udp) {
		nb_metrics_put(&res->metrics, NB_M_RR_LOST_TRANSACTIONS, (double)rep.lost);
		nb_metrics_put(&res->metrics, NB_M_RR_LATE_TRANSACTIONS, (double)rep.late);
	}
	if (rep.unsent)
		nb_metrics_put(&res->metrics, NB_M_RR_UNSENT_TRANSACTIONS, (double)rep.unsent);
	if (rep.answered)
		nb_metrics_put(&res->metrics, NB_M_RR_CLIENT_CPU_US_PER_TRANSACTION, (double)rep.cpu_ns / 1000.0 / (double)rep.answered);
	if (r->p.rate_tps > 0)
		nb_metrics_put(&res->metrics, NB_M_RR_OFFERED_TRANSACTIONS_PER_S, r->p.rate_tps);
}

/* A child that goes on writing must not grow the parent without bound: a report is < 40 KiB. */
static const struct nb_traffic_kind rr_kind = {
	.child = {
		.report_fixed = sizeof(struct nb_rr_report),
		.report_tail = report_tail,
		.max_output = 4u << 20,
		.deadline = nb_traffic_deadline,
		.on_late = nb_traffic_late,
	},
	.child_main = client_main,
	.fill = fill_from_report,
	.derive = nb_rr_derive_metrics,
	.figures_foreign_load = false,
};

static int start_run(const struct nb_rr_params *p, struct nb_rr_run **out, struct nb_err *err)
{
	struct nb_rr_run *r;
	const char *name;
	int rc;

	*out = NULL;
	rc = validate(p, err);
	if (rc < 0)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return nb_err_set(err, -ENOMEM, "start rr client: out of memory");
	r->p = *p;
	snprintf(r->host, sizeof(r->host), "%s", p->host);
	r->p.host = r->host;
	if (r->p.connect_timeout_ms <= 0)
		r->p.connect_timeout_ms = NB_TRAFFIC_DEFAULT_CONNECT_TIMEOUT_MS;
	name = r->p.udp ? "udp-rr" : "tcp-rr";
	r->base.kind = &rr_kind;
	snprintf(r->base.client, sizeof(r->base.client), "%s client", name);
	snprintf(r->base.test, sizeof(r->base.test), "%s", name);
	nb_traffic_format_peer(r->base.peer, sizeof(r->base.peer), r->host, r->p.port);
	/* a run ends when its last request has had its reply timeout */
	r->base.timing = (struct nb_child_timing){ .connect_s = r->p.connect_timeout_ms / 1000.0,
						   .run_s = r->p.omit_s + r->p.duration_s + r->p.timeout_ms / 1000.0,
						   .grace_s = r->p.grace_ms / 1000.0,
						   .run_parts = "omit + duration + reply timeout" };
	rc = nb_traffic_fork(&r->base, err);
	if (rc < 0) {
		free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int nb_rr_start_traffic(const struct nb_rr_params *p, struct nb_traffic_run **out, struct nb_err *err)
{
	struct nb_rr_run *r;
	int rc = start_run(p, &r, err);

	*out = rc == 0 ? &r->base : NULL;
	return rc;
}
