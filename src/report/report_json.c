// SPDX-License-Identifier: MIT
/* The report's JSON: runs as the record holds them, a point's summary (metrics, bottleneck),
 * and the assembly of a run record into the report, streamed a point at a time. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "traffic/latency_hist.h"
#include "kit/metric_table.h"
#include "result/bottleneck.h"
#include "report/report_internal.h"
#include "report/report_counters.h"
#include "report/report_napi.h"
#include "report/report_precision.h"

json_t *nb_report_test_json(const struct nb_test_spec *t)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:I, s:i, s:i}", "name", t->name,
			      "protocol", t->proto == NB_PROTO_TCP ? "tcp" : "udp",
			      "direction", t->dir == NB_DIR_TX ? "tx" : t->dir == NB_DIR_RX ? "rx" : "rr",
			      "duration", t->duration_s,
			      "omit", t->omit_s, "rate", (json_int_t)t->rate_bps, "length", t->length,
			      "streams", t->streams);

	/* the length each point used is its "udp_length" */
	if (o && t->length == NB_UDP_LENGTH_MTU)
		json_object_set_new(o, "length", json_string("mtu"));
	return o;
}

static json_t *samples_json(const struct nb_run_record *run)
{
	json_t *cols = json_object();
	json_t *t = json_array();

	for (int i = 0; i < run->nsamples; i++)
		json_array_append_new(t, json_real(round(run->samples[i].t * 1000) / 1000));
	json_object_set_new(cols, "t", t);
	for (int f = 0; f < NB_SERIES_FIELDS; f++) {
		json_t *col = json_array();
		bool any = false;

		for (int i = 0; i < run->nsamples; i++) {
			double v = run->samples[i].v[f];

			any = any || isfinite(v);
			json_array_append_new(col, isfinite(v) ? json_real(v) : json_null());
		}
		if (any)
			json_object_set_new(cols, nb_series_field_names[f], col);
		else
			json_decref(col);
	}
	return cols;
}

/* The latency histogram as its non-empty buckets [lo_ns, hi_ns, count], hi exclusive. */
static json_t *hist_json(const struct nb_hist *h)
{
	json_t *buckets = json_array();

	for (int i = 0; i < NB_HIST_BUCKETS; i++) {
		uint64_t lo, hi;

		if (!h->buckets[i])
			continue;
		nb_hist_bucket_range(i, &lo, &hi);
		json_array_append_new(buckets, json_pack("[I, I, I]", (json_int_t)lo, (json_int_t)hi,
							 (json_int_t)h->buckets[i]));
	}
	return json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:o}", "unit", "ns", "relative_error", NB_HIST_REL_ERROR,
			 "count", (json_int_t)h->count, "sum", (json_int_t)h->sum_ns, "min", (json_int_t)h->min_ns,
			 "max", (json_int_t)h->max_ns, "buckets", buckets);
}

/* Other programs took enough CPU in this run to move its figures (see cpu_other_pct). */
static bool run_disturbed(const struct nb_run_record *run)
{
	double other;

	return nb_metrics_get(&run->metrics, NB_M_CPU_OTHER_PCT, &other) && other >= NB_FOREIGN_LOAD_PCT;
}

json_t *nb_report_run_json(const struct nb_run_record *run, bool bare)
{
	json_t *o = json_object();
	json_t *metrics = json_object();

	json_object_set_new(o, "status", json_string(nb_run_status_name(run->status)));
	if (run->status != NB_RUN_OK)
		json_object_set_new(o, "error", json_string(run->error));
	for (int i = 0; i < run->metrics.n; i++)
		json_object_set_new(metrics, run->metrics.m[i].name, json_real(run->metrics.m[i].value));
	json_object_set_new(o, "metrics", metrics);
	if (run->round > 0)
		json_object_set_new(o, "round", json_integer(run->round));
	if (run_disturbed(run))
		json_object_set_new(o, "disturbed", json_true());
	/* the diagnostic repetition keeps them too: its tracepoint figures are read against the
	 * driver's counters of the same window, not of a measured repetition */
	if (run->counters)
		nb_report_counters_json(o, run->counters);
	if (bare)
		return o;
	if (run->nsamples > 0)
		json_object_set_new(o, "samples", samples_json(run));
	if (run->qstats)
		json_object_set_new(o, "qstats", nb_report_qstats_json(run->qstats));
	if (run->iperf_json) {
		json_t *raw = json_loads(run->iperf_json, 0, NULL);

		json_object_set_new(o, "iperf", raw ? raw : json_string(run->iperf_json));
	}
	if (run->rr_hist)
		json_object_set_new(o, "rr_latency_histogram", hist_json(run->rr_hist));
	return o;
}

/* Every metric that appears in an ok run, with its statistics over the ok runs that have it. */
static json_t *summary_metrics_json(const struct nb_point_summary *s)
{
	json_t *agg = json_object();

	for (int i = 0; i < s->nmetrics; i++) {
		const struct nb_metric_summary *m = &s->metrics[i];
		json_t *vals = json_array();

		for (int v = 0; v < m->st.n; v++)
			json_array_append_new(vals, json_real(m->values[v]));
		json_object_set_new(agg, m->name, json_pack("{s:f, s:f, s:f, s:f, s:f, s:i, s:o}", "median",
							    m->st.median, "mean", m->st.mean, "min", m->st.min,
							    "max", m->st.max, "stddev", m->st.stddev, "n", m->st.n,
							    "values", vals));
	}
	return agg;
}

static json_t *bottleneck_json(const struct nb_bottleneck *bn)
{
	json_t *figures = json_object();

	for (int i = 0; i < bn->n_figures; i++)
		json_object_set_new(figures, bn->figures[i].name, json_real(bn->figures[i].value));
	return json_pack("{s:s, s:s, s:o}", "code", nb_bn_code_name(bn->code), "sentence", bn->sentence, "figures",
			 figures);
}

void nb_report_head_facts(const json_t *root, struct nb_summary_input *in)
{
	in->cpus = (int)json_integer_value(json_object_get(json_object_get(root, "host"), "cpus"));
	in->link_mbps = (double)json_integer_value(json_object_get(json_object_get(root, "interface"), "speed_mbps"));
}

/* ---- assembly: run record -> report ---- */

/* A point being gathered from the record; point NULL: none. */
struct gathered {
	json_t *point, *runs, *end, *diag;
};

struct assembly {
	const json_t *root;
	FILE *out;
	int npoints;
	bool any_written;
	/* by point index: a sequential sweep has one open at a time, interleaved rounds all of them */
	struct gathered *open;
	int nopen;
	json_t *rounds;      /* the "round" lines of an interleaved sweep, in order */
	json_t *restore;     /* the "restore" line: what the run found and left */
	struct nb_assembly_info *info;
};

static struct gathered *gathered_of(struct assembly *a, int index)
{
	if (index < 0 || index >= NB_MAX_POINTS)
		return NULL;
	if (index >= a->nopen) {
		int n = index + 16;
		struct gathered *grown = realloc(a->open, (size_t)n * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + a->nopen, 0, (size_t)(n - a->nopen) * sizeof(*grown));
		a->open = grown;
		a->nopen = n;
	}
	return &a->open[index];
}

static void gathered_release(struct gathered *g)
{
	json_decref(g->point);
	json_decref(g->runs);
	json_decref(g->end);
	json_decref(g->diag);
	memset(g, 0, sizeof(*g));
}

static bool run_is_ok(const json_t *run)
{
	const char *status = json_string_value(json_object_get(run, "status"));

	return status && !strcmp(status, "ok");
}

static enum nb_point_status point_status_from(const char *name)
{
	for (enum nb_point_status s = NB_POINT_OK; s <= NB_POINT_INCOMPLETE; s++)
		if (!strcmp(name, nb_point_status_name(s)))
			return s;
	return NB_POINT_FAILED;
}

/* A run's "metrics" object back into a set: the summary reads the record as the live run did. */
static void metrics_from_json(const json_t *obj, struct nb_metric_set *set)
{
	const char *name;
	json_t *v;

	set->n = 0;
	json_object_foreach((json_t *)obj, name, v) {
		if (json_is_number(v))
			nb_metrics_put(set, name, json_number_value(v));
	}
}

/* The gathered point's summary; -ENOMEM when its runs do not fit in memory. */
static int summarize_gathered(const struct assembly *a, const struct gathered *g, const char *status, struct nb_point_summary *s)
{
	const json_t *test = json_object_get(g->point, "test");
	const char *direction = json_string_value(json_object_get(test, "direction"));
	size_t nruns = json_array_size(g->runs);
	struct nb_metric_set *sets = calloc(nruns + 1, sizeof(*sets));
	struct nb_summary_run *runs = calloc(nruns + 1, sizeof(*runs));
	struct nb_summary_input in = {
		.nruns = (int)nruns,
		.runs = runs,
		.tx = direction && !strcmp(direction, "tx"),
		.status = point_status_from(status),
		.window_s = (int)json_integer_value(json_object_get(test, "duration")),
	};

	bool skip_disturbed = nb_report_skips_disturbed(json_object_get(a->root, "config"));

	if (!sets || !runs) {
		free(sets);
		free(runs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nruns; i++) {
		const json_t *run = json_array_get(g->runs, i);

		/* under auto repetitions a disturbed run was repeated: it is not data */
		runs[i].ok = skip_disturbed ? nb_report_run_is_clean(run) : run_is_ok(run);
		runs[i].metrics = &sets[i];
		metrics_from_json(json_object_get(run, "metrics"), &sets[i]);
	}
	if (run_is_ok(g->diag)) {
		metrics_from_json(json_object_get(g->diag, "metrics"), &sets[nruns]);
		in.diag = &sets[nruns];
	}
	nb_report_head_facts(a->root, &in);
	nb_point_summarize(&in, s);
	free(sets);
	free(runs);
	return 0;
}

/* The point's status and error: from its end line, or incomplete with how far it got. */
static const char *gathered_status(struct assembly *a, const struct gathered *g, json_t *o)
{
	size_t runs = json_array_size(g->runs);
	struct nb_adaptive_rule rule;
	char error[200];
	const char *status;
	bool is_auto;
	json_t *v;

	if (g->end) {
		status = json_string_value(json_object_get(g->end, "status"));
		status = status ? status : "failed";
		json_object_set_new(o, "status", json_string(status));
		if ((v = json_object_get(g->end, "error")))
			json_object_set(o, "error", v);
		return json_string_value(json_object_get(o, "status"));
	}
	nb_report_rule_from_config(json_object_get(a->root, "config"), &rule, &is_auto);
	if (!is_auto && (int)runs >= rule.max_runs)
		snprintf(error, sizeof(error), "the run ended during this point's diagnostic repetition: all %d "
			 "repetitions recorded", rule.max_runs);
	else if (is_auto)
		snprintf(error, sizeof(error), "the run ended before this point finished: %zu runs recorded (auto:%d-%d, "
			 "precision not known to be reached)", runs, rule.min_runs, rule.max_runs);
	else
		snprintf(error, sizeof(error), "the run ended before this point finished: %zu of %d repetitions "
			 "recorded", runs, rule.max_runs);
	json_object_set_new(o, "status", json_string("incomplete"));
	json_object_set_new(o, "error", json_string(error));
	if (a->info)
		a->info->incomplete++;
	return "incomplete";
}

/* Write one gathered point: head + status + runs + summary, as the live run would have. */
static int flush_point(struct assembly *a, struct gathered *g)
{
	struct nb_point_summary *s;
	const char *key, *status;
	json_t *o, *v;
	int rc;

	if (!g->point)
		return 0;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	o = json_object();
	json_object_set(o, "id", json_object_get(g->point, "id"));
	json_object_set(o, "test", json_object_get(g->point, "test"));
	json_object_set(o, "knobs", json_object_get(g->point, "knobs"));
	/* the rest of the head as the live run wrote it (knob paths, NAPIs, ...) */
	json_object_foreach(g->point, key, v) {
		if (!json_object_get(o, key) && strcmp(key, "index") && strcmp(key, "capture") &&
		    strcmp(key, "trace_unavailable") && strcmp(key, "trace_notes"))
			json_object_set(o, key, v);
	}
	status = gathered_status(a, g, o);
	json_object_set(o, "runs", g->runs);
	rc = summarize_gathered(a, g, status, s);
	if (rc < 0) {
		free(s);
		json_decref(o);
		return rc;
	}
	json_object_set_new(o, "metrics", summary_metrics_json(s));
	if (json_array_size(g->runs) > 0) {
		struct nb_precision_summary prec;
		const char *direction = json_string_value(json_object_get(json_object_get(g->point, "test"), "direction"));

		json_object_set_new(o, "precision", nb_report_precision_json(g->runs, direction,
									     json_object_get(a->root, "config"), &prec));
	}
	json_object_set_new(o, "bottleneck", bottleneck_json(&s->bottleneck));
	if (s->peer_bound)
		json_object_set_new(o, "peer_bound", json_true());
	if (s->sender_bound)
		json_object_set_new(o, "sender_bound", json_true());
	if (s->disturbed_runs)
		json_object_set_new(o, "disturbed_runs", json_integer(s->disturbed_runs));
	free(s);
	if ((v = json_object_get(g->point, "capture"))) {
		json_t *cap = json_deep_copy(v);

		json_object_set_new(cap, "packets", json_integer(json_integer_value(json_object_get(g->end,
											   "capture_packets"))));
		json_object_set_new(o, "capture", cap);
	}
	if ((v = json_object_get(g->point, "trace_unavailable")))
		json_object_set(o, "trace_unavailable", v);
	if ((v = json_object_get(g->point, "trace_notes")))
		json_object_set(o, "trace_notes", v);
	if (g->end && (v = json_object_get(g->end, "notes")))
		json_object_set(o, "notes", v);
	if (g->end && (v = json_object_get(g->end, "kernel_log")))
		json_object_set(o, "kernel_log", v);
	if (g->diag)
		json_object_set(o, "diagnostics", g->diag);
	if (g->end && (v = json_object_get(g->end, "profile")))
		json_object_set(o, "profile", v);
	if (g->end && (v = json_object_get(g->end, "profile_stacks")))
		json_object_set(o, "profile_stacks", v);
	fputs(a->any_written ? ",\n" : "\n", a->out);
	rc = json_dumpf(o, a->out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(o);
	a->any_written = true;
	a->npoints++;
	gathered_release(g);
	return rc < 0 ? -EIO : 0;
}

static int assemble_line(struct assembly *a, json_t *line, struct nb_err *err)
{
	const char *type = json_string_value(json_object_get(line, "type"));
	int index = (int)json_integer_value(json_object_get(line, "index"));
	struct gathered *g;
	int rc = 0;

	if (!type)
		return nb_err_set(err, -EINVAL, "record line without a type");
	if (!strcmp(type, "round")) {
		json_object_del(line, "type");
		json_array_append(a->rounds, line);
		return 0;
	}
	if (!strcmp(type, "restore")) {
		json_decref(a->restore);
		a->restore = json_incref(json_object_get(line, "restore"));
		return 0;
	}
	if (strcmp(type, "point") && strcmp(type, "run") && strcmp(type, "end") && strcmp(type, "diag"))
		return 0; /* from a newer nicbench: not ours to judge */
	g = gathered_of(a, index);
	if (!g)
		return nb_err_set(err, -EINVAL, "record line for point %d: no such point (or out of memory)", index + 1);
	if (!strcmp(type, "point")) {
		rc = flush_point(a, g);
		g->point = json_incref(json_object_get(line, "point"));
		json_object_set_new(g->point, "index", json_integer(index));
		g->runs = json_array();
		return rc;
	}
	if (!g->point)
		return nb_err_set(err, -EINVAL, "record line for point %d outside that point", index + 1);
	if (!strcmp(type, "run")) {
		json_array_append(g->runs, json_object_get(line, "run"));
	} else if (!strcmp(type, "diag")) {
		json_decref(g->diag);
		g->diag = json_incref(json_object_get(line, "run"));
	} else {
		g->end = json_incref(line);
		rc = flush_point(a, g);
	}
	return rc;
}

/* The report's head keys, then "results" streamed a point at a time. */
int nb_report_assemble_json(struct nb_record_reader *rd, FILE *out, json_t *restore, struct nb_assembly_info *info,
			    struct nb_err *err)
{
	struct assembly a = { .out = out, .info = info, .rounds = json_array() };
	json_t *header = NULL, *line;
	const char *text, *key;
	json_t *value;
	size_t len;
	int rc, lineno = 0;
	bool first = true;

	while ((rc = nb_record_next(rd, &text, &len, err)) > 0) {
		json_error_t jerr;

		lineno++;
		line = json_loadb(text, len, 0, &jerr);
		if (!line && lineno == 1) {
			json_decref(a.rounds);
			return nb_err_set(err, -EINVAL, "not a nicbench run record (first line should be the %s "
					  "header)", NB_RECORD_FORMAT);
		}
		if (!line) {
			/* a complete line that does not parse: the disk lost it; nothing after it is trusted */
			if (info)
				info->torn = true;
			break;
		}
		if (lineno == 1) {
			const char *format = json_string_value(json_object_get(line, "format"));

			if (!format || strcmp(format, NB_RECORD_FORMAT) || !json_is_object(json_object_get(line, "report"))) {
				json_decref(line);
				json_decref(a.rounds);
				return nb_err_set(err, -EINVAL, "not a nicbench run record (first line should be the "
						  "%s header)", NB_RECORD_FORMAT);
			}
			header = line;
			a.root = json_object_get(header, "report");
			if (info) {
				const char *rp = json_string_value(json_object_get(header, "report_path"));

				snprintf(info->report_path, sizeof(info->report_path), "%s", rp ? rp : "");
			}
			fputc('{', out);
			json_object_foreach((json_t *)a.root, key, value) {
				fprintf(out, "%s\n  \"", first ? "" : ",");
				first = false;
				fputs(key, out);  /* the head's keys are ours: plain names */
				fputs("\": ", out);
				json_dumpf(value, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_ENCODE_ANY);
			}
			fputs(",\n  \"results\": [", out);
			continue;
		}
		rc = assemble_line(&a, line, err);
		json_decref(line);
		if (rc < 0) {
			nb_err_prefix(err, "record line %d: ", lineno);
			break;
		}
	}
	if (rc == 0 && !header)
		rc = nb_err_set(err, -EINVAL, "empty run record (no header line)");
	/* points begun and never ended, in plan order: incomplete */
	for (int i = 0; rc == 0 && i < a.nopen; i++)
		rc = flush_point(&a, &a.open[i]);
	for (int i = 0; i < a.nopen; i++)
		gathered_release(&a.open[i]);
	free(a.open);
	if (rc == 0) {
		fputs(a.any_written ? "\n  ]" : "]", out);
		if (json_array_size(a.rounds) > 0) {
			fputs(",\n  \"rounds\": ", out);
			json_dumpf(a.rounds, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		}
		if (restore || a.restore) {
			fputs(",\n  \"restore\": ", out);
			json_dumpf(restore ? restore : a.restore, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		}
		fputs("\n}\n", out);
		if (info) {
			info->points = a.npoints;
			info->torn = info->torn || nb_record_reader_torn(rd);
		}
	}
	json_decref(a.rounds);
	json_decref(a.restore);
	json_decref(header);
	return rc < 0 ? rc : 0;
}

