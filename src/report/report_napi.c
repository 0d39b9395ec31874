// SPDX-License-Identifier: MIT
/* JSON for the NAPI side of a point (paths, per-NAPI values, queue->NAPI->IRQ->CPU) and a
 * run's qstats deltas. Absent counters are left out, never written as 0. */
#include "report/report_napi.h"

static json_t *counters_json(const struct nb_qstats *q)
{
	json_t *o = json_object();

	for (int c = 0; c < NB_QSTAT_COUNT; c++) {
		if (q->present & (1u << c))
			json_object_set_new(o, nb_qstat_names[c], json_integer((json_int_t)q->v[c]));
	}
	return o;
}

json_t *nb_report_qstats_json(const struct nb_qstats_delta *d)
{
	json_t *o = json_object();
	json_t *queues;

	if (!d->present) {
		json_object_set_new(o, "unavailable", json_string(d->why));
		return o;
	}
	queues = json_array();
	for (int i = 0; i < d->n; i++) {
		json_t *q = counters_json(&d->q[i]);

		json_object_set_new(q, "type", json_string(d->q[i].type == NB_NETDEV_QUEUE_TYPE_RX ? "rx" : "tx"));
		json_object_set_new(q, "id", json_integer(d->q[i].id));
		json_array_append_new(queues, q);
	}
	json_object_set_new(o, "queues", queues);
	json_object_set_new(o, "total", counters_json(&d->total));
	return o;
}

static json_t *u32_list(const uint32_t *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

/* An attribute the kernel did not give is null, not 0. */
static json_t *maybe(bool has, json_int_t v)
{
	return has ? json_integer(v) : json_null();
}

static json_t *napi_instance_json(const struct nb_napi_info *ni)
{
	const struct nb_napi *n = &ni->n;
	json_t *o = json_object();

	json_object_set_new(o, "id", json_integer(n->id));
	json_object_set_new(o, "irq", maybe(n->has_irq, n->irq));
	json_object_set_new(o, "irq_cpus", ni->irq_cpus[0] ? json_string(ni->irq_cpus) : json_null());
	json_object_set_new(o, "pid", maybe(n->has_pid, n->pid));
	json_object_set_new(o, "thread_cpu", maybe(ni->thread_cpu >= 0, ni->thread_cpu));
	json_object_set_new(o, "threaded", maybe(n->has_threaded, n->threaded));
	json_object_set_new(o, "gro_flush_timeout", maybe(n->has_gro, (json_int_t)n->gro_flush_timeout));
	json_object_set_new(o, "napi_defer_hard_irqs", maybe(n->has_defer, n->defer_hard_irqs));
	json_object_set_new(o, "irq_suspend_timeout", maybe(n->has_suspend, (json_int_t)n->irq_suspend_timeout));
	json_object_set_new(o, "rx_queues", u32_list(ni->rx_queues, ni->nrx));
	json_object_set_new(o, "tx_queues", u32_list(ni->tx_queues, ni->ntx));
	return o;
}

void nb_report_napi_json(json_t *point, const struct nb_point_result *pr)
{
	json_t *paths = json_object();
	json_t *napi;

	for (int k = 0; k < pr->nknobs; k++) {
		if (pr->knob_via[k][0])
			json_object_set_new(paths, pr->readback[k].name, json_string(pr->knob_via[k]));
	}
	json_object_set_new(point, "knob_paths", paths);
	if (!pr->napis)
		return;
	napi = json_object();
	json_object_set_new(napi, "listed", json_boolean(pr->napis->listed));
	json_object_set_new(napi, "per_napi_set", json_boolean(pr->napis->per_napi_set));
	if (pr->napis->why[0])
		json_object_set_new(napi, "note", json_string(pr->napis->why));
	if (pr->napis->listed) {
		json_t *list = json_array();

		for (int i = 0; i < pr->napis->n; i++)
			json_array_append_new(list, napi_instance_json(&pr->napis->napi[i]));
		json_object_set_new(napi, "instances", list);
		if (pr->napis->queues_why[0])
			json_object_set_new(napi, "queues_unavailable", json_string(pr->napis->queues_why));
	}
	json_object_set_new(point, "napi", napi);
}
