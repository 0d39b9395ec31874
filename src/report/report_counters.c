// SPDX-License-Identifier: MIT
/* JSON of a run's page_pool and ethtool -S deltas and of a point's kernel log lines. */
#include "report/report_counters.h"

static json_t *pp_counters_json(const struct nb_page_pool *p)
{
	json_t *o = json_object();

	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		if (p->present & (1u << c))
			json_object_set_new(o, nb_pp_counter_names[c], json_integer((json_int_t)p->v[c]));
	}
	return o;
}

static json_t *page_pool_json(const struct nb_pp_delta *d)
{
	json_t *o = json_object(), *pools, *total;

	if (!d->present) {
		json_object_set_new(o, "unavailable", json_string(d->why));
		return o;
	}
	if (d->from_ethtool) {
		total = pp_counters_json(&d->total);
		if (d->has_recycle_pct)
			json_object_set_new(total, "recycle_pct", json_real(d->recycle_pct));
		json_object_set_new(o, "source", json_string("ethtool -S"));
		json_object_set_new(o, "total", total);
		json_object_set_new(o, "netlink_unavailable", json_string(d->netlink_why));
		return o;
	}
	pools = json_array();
	for (int i = 0; i < d->n; i++) {
		const struct nb_page_pool *p = &d->pool[i];
		json_t *po = pp_counters_json(p);

		json_object_set_new(po, "id", json_integer((json_int_t)p->id));
		if (p->has_napi)
			json_object_set_new(po, "napi_id", json_integer((json_int_t)p->napi_id));
		/* a level at the window's end, not a delta */
		if (p->has_inflight)
			json_object_set_new(po, "inflight_pages", json_integer((json_int_t)p->inflight));
		if (p->has_inflight_mem)
			json_object_set_new(po, "inflight_bytes", json_integer((json_int_t)p->inflight_mem));
		if (d->created[i])
			json_object_set_new(po, "created_in_run", json_true());
		if (p->detached)
			json_object_set_new(po, "detached", json_true());
		json_array_append_new(pools, po);
	}
	json_object_set_new(o, "pools", pools);
	total = pp_counters_json(&d->total);
	if (d->total.has_inflight)
		json_object_set_new(total, "inflight_pages", json_integer((json_int_t)d->total.inflight));
	if (d->has_recycle_pct)
		json_object_set_new(total, "recycle_pct", json_real(d->recycle_pct));
	json_object_set_new(o, "total", total);
	if (!d->stats)
		json_object_set_new(o, "stats_unavailable", json_string(d->stats_why));
	if (d->gone)
		json_object_set_new(o, "pools_gone", json_integer(d->gone));
	return o;
}

static json_t *driver_counters_json(const struct nb_eth_stats_delta *d)
{
	json_t *o = json_object(), *changed;

	if (!d->present) {
		json_object_set_new(o, "unavailable", json_string(d->why));
		return o;
	}
	changed = json_object();
	for (int i = 0; i < d->nkept; i++)
		json_object_set_new(changed, d->changed[i].name, json_integer((json_int_t)d->changed[i].delta));
	json_object_set_new(o, "source", json_string("ethtool -S"));
	json_object_set_new(o, "listed", json_integer(d->listed));
	/* counters that did not move are left out: a driver lists dozens to thousands */
	json_object_set_new(o, "changed", changed);
	if (d->nchanged > d->nkept)
		json_object_set_new(o, "changed_not_kept", json_integer(d->nchanged - d->nkept));
	if (d->backwards)
		json_object_set_new(o, "went_backwards", json_integer(d->backwards));
	return o;
}

void nb_report_counters_json(json_t *run, const struct nb_run_counters *c)
{
	json_object_set_new(run, "page_pool", page_pool_json(&c->pp));
	json_object_set_new(run, "driver_counters", driver_counters_json(&c->eth));
}

json_t *nb_report_kernel_log_json(const struct nb_kmsg_log *log)
{
	json_t *o = json_object(), *lines;

	if (!log->present) {
		json_object_set_new(o, "unavailable", json_string(log->why));
		return o;
	}
	lines = json_array();
	for (int i = 0; i < log->n; i++) {
		const struct nb_kmsg_line *l = &log->line[i];

		json_array_append_new(lines, json_pack("{s:i, s:I, s:I, s:s}", "level", l->level, "seq",
						       (json_int_t)l->seq, "ts_us", (json_int_t)l->ts_us, "text", l->text));
	}
	json_object_set_new(o, "lines", lines);
	if (log->over_cap)
		json_object_set_new(o, "over_cap", json_integer(log->over_cap));
	if (log->lost)
		json_object_set_new(o, "lost", json_integer(log->lost));
	return o;
}
