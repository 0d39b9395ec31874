// SPDX-License-Identifier: MIT
/* Report structs -> JSON (schema nicbench-report/1): each finished repetition appended to the run
 * record as it ends, the report assembled from that record and written atomically; the table. */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bottleneck.h"
#include "run_record.h"
#include "report_napi.h"
#include "report_precision.h"
#include "stats.h"

struct table_row {
	char id[NB_POINT_ID_MAX];
	enum nb_point_status status;
	bool peer_bound;
	bool sender_bound;            /* a TX point whose own iperf3 child used >= NB_PEER_BOUND_PCT of a core */
	int disturbed_runs, ok_runs;  /* runs with cpu_other_pct >= NB_FOREIGN_LOAD_PCT, of the ok runs */
	double other;                 /* worst cpu_other_pct of the point's runs; NAN when absent */
	struct nb_stats tput;
	double busy, softirq, napi;   /* medians; NAN when absent */
	bool rr;                      /* a tcp-rr/udp-rr point: the rr table shows it */
	double rr_tps, rr_p50, rr_p90, rr_p99, rr_p999;  /* medians; NAN when absent */
	double unaccounted;           /* median cpu_unaccounted_pct; NAN when absent */
	enum nb_bn_code bottleneck;
	bool has_prec;                /* prec computed (a point with runs) */
	struct nb_precision_summary prec;
};

/* Above this, the table warns that busy % is a lower bound (see cpu_unaccounted_pct). */
#define NB_UNACCOUNTED_NOTE_PCT 5.0

#define NB_RECORD_FORMAT "nicbench-record/1"

/* The report in memory is only its head (host, interface, config) and one table row per
 * point: the points themselves are in the run record, so memory and the bytes written per
 * repetition stay flat however long the sweep. */
struct nb_report {
	json_t *root;
	int nrows, cap;
	struct table_row *rows;
	struct nb_record_writer *rec;  /* opened by nb_report_open_record, or anonymous on first use */
	/* per point index: begun in the record, runs recorded one by one; interleaved rounds keep
	 * several points open at once */
	struct point_mark {
		bool begun;
		int runs_recorded;
	} *marks;
	int nmarks;
	bool idle_warned;             /* the idle check before the first point found the machine busy */
	double idle_busy_pct;
};

const char *nb_point_status_name(enum nb_point_status s)
{
	static const char *const names[] = { "ok", "failed", "timeout", "unsupported" };

	return names[s];
}

const char *nb_run_status_name(enum nb_run_status s)
{
	static const char *const names[] = { "ok", "failed", "timeout" };

	return names[s];
}

void nb_point_result_settle(struct nb_point_result *pr)
{
	if (pr->status == NB_POINT_UNSUPPORTED || pr->status == NB_POINT_FAILED)
		return;
	pr->status = NB_POINT_OK;
	for (int i = 0; i < pr->nruns; i++) {
		const struct nb_run_record *run = &pr->runs[i];

		if (run->status == NB_RUN_OK)
			continue;
		pr->status = run->status == NB_RUN_TIMEOUT ? NB_POINT_TIMEOUT : NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "run %d: %.480s", i + 1, run->error);
		return;
	}
}

void nb_run_record_release(struct nb_run_record *run)
{
	free(run->qstats);
	run->qstats = NULL;
	free(run->rr_hist);
	run->rr_hist = NULL;
	free(run->iperf_json);
	run->iperf_json = NULL;
	free(run->samples);
	run->samples = NULL;
	run->nsamples = 0;
}

void nb_point_result_release(struct nb_point_result *pr)
{
	for (int i = 0; i < pr->nruns; i++) {
		free(pr->runs[i].iperf_json);
		free(pr->runs[i].samples);
		free(pr->runs[i].qstats);
		free(pr->runs[i].rr_hist);
	}
	free(pr->runs);
	pr->runs = NULL;
	pr->nruns = 0;
	free(pr->napis);
	pr->napis = NULL;
}

static void rfc3339_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Empty strings from the kernel become null: "not reported" is not "". */
static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

int nb_report_new(const struct nb_config *cfg, const struct nb_host_info *host, const struct nb_iface_info *iface,
		  struct nb_report **out, struct nb_err *err)
{
	struct nb_report *r = calloc(1, sizeof(*r));
	char created[32];
	char *cfg_text;
	json_t *cfg_json, *kernel;

	if (!r)
		return nb_err_set(err, -ENOMEM, "create report: out of memory");
	cfg_text = nb_config_to_json(cfg);
	cfg_json = cfg_text ? json_loads(cfg_text, 0, NULL) : NULL;
	free(cfg_text);
	rfc3339_now(created, sizeof(created));
	/* --redact: a report to publish need not tell the boot arguments or the machine's name */
	kernel = json_pack("{s:s, s:s, s:s}", "release", host->release, "version", host->version,
			   "cmdline", cfg->redact ? NB_REDACTED : host->cmdline);
	json_object_set_new(kernel, "config_hash", str_or_null(host->config_hash));
	r->root = json_object();
	json_object_set_new(r->root, "schema", json_string(NB_REPORT_SCHEMA));
	json_object_set_new(r->root, "tool", json_pack("{s:s, s:s}", "name", "nicbench", "version", NICBENCH_VERSION));
	json_object_set_new(r->root, "created", json_string(created));
	json_object_set_new(r->root, "host", json_pack("{s:s, s:o, s:i, s:o}", "hostname",
						       cfg->redact ? NB_REDACTED : host->hostname,
						       "kernel", kernel, "cpus", host->cpus,
						       "cpu_model", str_or_null(host->cpu_model)));
	if (cfg->redact)
		json_object_set_new(json_object_get(r->root, "host"), "redacted",
				    json_pack("[s, s]", "hostname", "kernel.cmdline"));
	json_object_set_new(r->root, "interface",
			    json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "name", iface->name,
				      "driver", str_or_null(iface->driver),
				      "driver_version", str_or_null(iface->driver_version),
				      "firmware", str_or_null(iface->firmware),
				      "bus_info", str_or_null(iface->bus_info),
				      "mtu", iface->mtu >= 0 ? json_integer(iface->mtu) : json_null(),
				      "speed_mbps", iface->speed_mbps > 0 ? json_integer(iface->speed_mbps) : json_null()));
	json_object_set_new(r->root, "peer", json_pack("{s:s, s:i}", "host", cfg->peer_host, "port", cfg->peer_port));
	json_object_set_new(r->root, "config", cfg_json ? cfg_json : json_object());
	*out = r;
	return 0;
}

static const char *test_direction_name(enum nb_direction dir)
{
	return dir == NB_DIR_TX ? "tx" : dir == NB_DIR_RX ? "rx" : "rr";
}

static json_t *test_json(const struct nb_test_spec *t)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:I, s:i, s:i}", "name", t->name,
			 "protocol", t->proto == NB_PROTO_TCP ? "tcp" : "udp",
			 "direction", test_direction_name(t->dir),
			 "duration", t->duration_s,
			 "omit", t->omit_s, "rate", (json_int_t)t->rate_bps, "length", t->length,
			 "streams", t->streams);
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

	return nb_metrics_get(&run->metrics, "cpu_other_pct", &other) && other >= NB_FOREIGN_LOAD_PCT;
}

static json_t *run_json(const struct nb_run_record *run)
{
	json_t *o = json_object();
	json_t *metrics = json_object();

	json_object_set_new(o, "status", json_string(nb_run_status_name(run->status)));
	if (run->status != NB_RUN_OK)
		json_object_set_new(o, "error", json_string(run->error));
	for (int i = 0; i < run->metrics.n; i++)
		json_object_set_new(metrics, run->metrics.m[i].name, json_real(run->metrics.m[i].value));
	json_object_set_new(o, "metrics", metrics);
	if (run_disturbed(run))
		json_object_set_new(o, "disturbed", json_true());
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

static bool run_is_ok(const json_t *run)
{
	const char *status = json_string_value(json_object_get(run, "status"));

	return status && !strcmp(status, "ok");
}

/* Every metric that appears in an ok run, aggregated over the ok runs that have it. Works on
 * the runs' JSON so that the live table and a report assembled from a record agree. */
/* Under auto repetitions a disturbed run was repeated: it is not data (src/adaptive.h). */
static bool skips_disturbed(const json_t *config)
{
	struct nb_adaptive_rule rule;
	bool is_auto;

	nb_report_rule_from_config(config, &rule, &is_auto);
	return is_auto;
}

static json_t *aggregate_json(const json_t *runs, bool tx, bool skip_disturbed, struct table_row *row)
{
	json_t *agg = json_object();
	double values[NB_MAX_REPETITIONS];
	size_t r, r2;
	json_t *run, *run2;

	row->busy = row->softirq = row->napi = row->unaccounted = row->other = NAN;
	row->rr_tps = row->rr_p50 = row->rr_p90 = row->rr_p99 = row->rr_p999 = NAN;
	json_array_foreach(runs, r, run) {
		json_t *value, *other = json_object_get(json_object_get(run, "metrics"), "cpu_other_pct");
		const char *name;

		if (!run_is_ok(run))
			continue;
		row->ok_runs++;
		if (json_is_number(other)) {
			/* disturbed: other programs took enough CPU to move the figures (see cpu_other_pct) */
			row->disturbed_runs += json_number_value(other) >= NB_FOREIGN_LOAD_PCT;
			/* the worst run; the first comparison with NAN is false */
			if (!(json_number_value(other) <= row->other))
				row->other = json_number_value(other);
		}
		if (skip_disturbed && !nb_report_run_is_clean(run))
			continue;
		json_object_foreach(json_object_get(run, "metrics"), name, value) {
			struct nb_stats st;
			json_t *vals;
			int n = 0;

			if (json_object_get(agg, name))
				continue;
			json_array_foreach(runs, r2, run2) {
				json_t *v = json_object_get(json_object_get(run2, "metrics"), name);

				if (n < NB_MAX_REPETITIONS && json_is_number(v) && run_is_ok(run2) &&
				    (!skip_disturbed || nb_report_run_is_clean(run2)))
					values[n++] = json_number_value(v);
			}
			(void)value;
			nb_stats_compute(values, n, &st);
			vals = json_array();
			for (int i = 0; i < n; i++)
				json_array_append_new(vals, json_real(values[i]));
			json_object_set_new(agg, name, json_pack("{s:f, s:f, s:f, s:f, s:f, s:i, s:o}",
								 "median", st.median, "mean", st.mean,
								 "min", st.min, "max", st.max,
								 "stddev", st.stddev, "n", st.n, "values", vals));
			if (!strcmp(name, "throughput_bps"))
				row->tput = st;
			else if (!strcmp(name, "cpu_busy_pct"))
				row->busy = st.median;
			else if (!strcmp(name, "softirq_pct"))
				row->softirq = st.median;
			else if (!strcmp(name, "napi_thread_pct"))
				row->napi = st.median;
			else if (!strcmp(name, "cpu_unaccounted_pct"))
				row->unaccounted = st.median;
			else if (!strcmp(name, "iperf_remote_cpu_pct"))
				row->peer_bound = st.median >= NB_PEER_BOUND_PCT;
			else if (!strcmp(name, "rr_transactions_per_s"))
				row->rr_tps = st.median;
			else if (!strcmp(name, "rr_latency_p50_us"))
				row->rr_p50 = st.median;
			else if (!strcmp(name, "rr_latency_p90_us"))
				row->rr_p90 = st.median;
			else if (!strcmp(name, "rr_latency_p99_us"))
				row->rr_p99 = st.median;
			else if (!strcmp(name, "rr_latency_p999_us"))
				row->rr_p999 = st.median;
			else if (!strcmp(name, "iperf_host_cpu_pct"))
				row->sender_bound = tx && st.median >= NB_PEER_BOUND_PCT;
		}
	}
	return agg;
}

/* nb_bn_input.get over the point's aggregated metrics: the bottleneck reads medians. */
struct median_lookup {
	const json_t *agg;
	const json_t *diag;  /* the diagnostic repetition's metrics, or NULL */
};

/* A measured median first; a metric only the diagnostic repetition has (tracepoints) from it. */
static bool aggregate_median(const void *ctx, const char *name, double *value)
{
	const struct median_lookup *l = ctx;
	json_t *median = json_object_get(json_object_get(l->agg, name), "median");

	if (!json_is_number(median))
		median = l->diag ? json_object_get(l->diag, name) : NULL;
	if (!json_is_number(median))
		return false;
	*value = json_number_value(median);
	return true;
}

static json_t *bottleneck_json(const json_t *root, int window_s, bool ok, const json_t *agg, const json_t *diag,
			       struct table_row *row)
{
	struct median_lookup lookup = { agg, diag };
	struct nb_bn_input in = {
		.get = aggregate_median,
		.ctx = &lookup,
		.cpus = (int)json_integer_value(json_object_get(json_object_get(root, "host"), "cpus")),
		.link_mbps = (double)json_integer_value(json_object_get(json_object_get(root, "interface"),
									"speed_mbps")),
		.window_s = window_s,
		.ok = ok,
	};
	struct nb_bottleneck bn;
	json_t *figures = json_object();

	nb_bottleneck_judge(&in, &bn);
	row->bottleneck = bn.code;
	for (int i = 0; i < bn.n_figures; i++)
		json_object_set_new(figures, bn.figures[i].name, json_real(bn.figures[i].value));
	return json_pack("{s:s, s:s, s:o}", "code", nb_bn_code_name(bn.code), "sentence", bn.sentence, "figures",
			 figures);
}

/* ---- the run record: what each line holds ----
 * {"type":"header","format":"nicbench-record/1","report_path":P,"report":{schema, tool, host, ...}}
 * {"type":"point","index":I,"point":{id, test, knobs, capture?, trace_unavailable?, trace_notes?}}
 * {"type":"run","index":I,"rep":R,"run":{status, error?, metrics, samples?, iperf?}}
 * {"type":"diag","index":I,"run":{status, error?, metrics}}  (the diagnostic repetition)
 * {"type":"end","index":I,"status":S,"error":E?,"profile":[...]?,"capture_packets":N?}
 * A point with a "point" line and no "end" line was cut short: it is assembled as incomplete. */

static int record_put(struct nb_report *r, json_t *line, struct nb_err *err)
{
	char *text = json_dumps(line, JSON_COMPACT | JSON_REAL_PRECISION(17));
	int rc;

	json_decref(line);
	if (!text)
		return nb_err_set(err, -ENOMEM, "write run record: cannot serialise (out of memory)");
	rc = nb_record_append(r->rec, text, strlen(text), err);
	free(text);
	return rc;
}

int nb_report_open_record(struct nb_report *r, const char *record_path, const char *report_path, struct nb_err *err)
{
	char abs[PATH_MAX];
	json_t *header;
	int rc;

	if (r->rec)
		return nb_err_set(err, -EBUSY, "open run record: the report already has one");
	rc = nb_record_create(record_path, &r->rec, err);
	if (rc < 0)
		return rc;
	header = json_pack("{s:s, s:s, s:O}", "type", "header", "format", NB_RECORD_FORMAT, "report", r->root);
	if (report_path) {
		/* absolute: `nicbench knobs restore` may run from another directory */
		if (report_path[0] != '/' && getcwd(abs, sizeof(abs)) &&
		    strlen(abs) + 1 + strlen(report_path) < sizeof(abs)) {
			strcat(abs, "/");
			strcat(abs, report_path);
		} else {
			snprintf(abs, sizeof(abs), "%s", report_path);
		}
		json_object_set_new(header, "report_path", json_string(abs));
	}
	return record_put(r, header, err);
}

static int record_ready(struct nb_report *r, struct nb_err *err)
{
	return r->rec ? 0 : nb_report_open_record(r, NULL, NULL, err);
}

const char *nb_report_record_path(const struct nb_report *r)
{
	return r->rec ? nb_record_writer_path(r->rec) : "";
}

long long nb_report_record_bytes(const struct nb_report *r)
{
	return r->rec ? nb_record_writer_bytes(r->rec) : 0;
}

void nb_report_drop_record_file(struct nb_report *r)
{
	if (r->rec)
		nb_record_writer_unlink(r->rec);
}

/* The point's mark, grown on first use; NULL when out of memory. */
static struct point_mark *mark_of(struct nb_report *r, int index)
{
	if (index >= r->nmarks) {
		int n = index + 16;
		struct point_mark *grown = realloc(r->marks, (size_t)n * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + r->nmarks, 0, (size_t)(n - r->nmarks) * sizeof(*grown));
		r->marks = grown;
		r->nmarks = n;
	}
	return &r->marks[index];
}

static bool point_begun(struct nb_report *r, int index)
{
	return index < r->nmarks && r->marks[index].begun;
}

int nb_report_begin_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err)
{
	const struct nb_point *p = pr->point;
	json_t *o = json_object();
	json_t *knobs = json_object();
	struct point_mark *mark = mark_of(r, pr->point->index);
	int rc = mark ? record_ready(r, err) : nb_err_set(err, -ENOMEM, "begin point %s: out of memory", pr->point->id);

	if (rc < 0) {
		json_decref(o);
		json_decref(knobs);
		return rc;
	}
	for (int k = 0; k < pr->nknobs; k++)
		json_object_set_new(knobs, pr->readback[k].name, json_string(pr->readback[k].value));
	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "test", test_json(p->test));
	json_object_set_new(o, "knobs", knobs);
	nb_report_napi_json(o, pr);
	if (pr->capture_file[0])
		json_object_set_new(o, "capture", json_pack("{s:s, s:i}", "file", pr->capture_file, "packets", 0));
	if (pr->trace_note[0])
		json_object_set_new(o, "trace_unavailable", json_string(pr->trace_note));
	if (pr->trace_detail[0])
		json_object_set_new(o, "trace_notes", json_string(pr->trace_detail));
	mark->begun = true;
	mark->runs_recorded = 0;
	return record_put(r, json_pack("{s:s, s:i, s:o}", "type", "point", "index", p->index, "point", o), err);
}

int nb_report_add_run(struct nb_report *r, const struct nb_point_result *pr, int rep, struct nb_err *err)
{
	int rc = 0;

	if (!point_begun(r, pr->point->index))
		rc = nb_report_begin_point(r, pr, err);
	if (rc < 0)
		return rc;
	rc = record_put(r, json_pack("{s:s, s:i, s:i, s:o}", "type", "run", "index", pr->point->index, "rep", rep,
				     "run", run_json(&pr->runs[rep])), err);
	if (rc == 0)
		r->marks[pr->point->index].runs_recorded = rep + 1;
	return rc;
}

int nb_report_add_diagnostics(struct nb_report *r, const struct nb_point_result *pr, const struct nb_run_record *run,
			      struct nb_err *err)
{
	struct nb_run_record bare = *run;
	int rc = 0;

	if (!point_begun(r, pr->point->index))
		rc = nb_report_begin_point(r, pr, err);
	if (rc < 0)
		return rc;
	/* its figures explain the measured ones; its raw output and series are not kept */
	bare.iperf_json = NULL;
	bare.nsamples = 0;
	bare.qstats = NULL;
	bare.rr_hist = NULL;
	return record_put(r, json_pack("{s:s, s:i, s:o}", "type", "diag", "index", pr->point->index, "run",
				       run_json(&bare)), err);
}

int nb_report_add_round(struct nb_report *r, const struct nb_round_info *ri, struct nb_err *err)
{
	json_t *order = json_array();
	int rc = record_ready(r, err);

	if (rc < 0) {
		json_decref(order);
		return rc;
	}
	for (int i = 0; i < ri->npoints; i++)
		json_array_append_new(order, json_integer(ri->order[i]));
	return record_put(r, json_pack("{s:s, s:i, s:o, s:f, s:f}", "type", "round", "round", ri->round, "order", order,
				       "knob_change_s", ri->knob_change_s, "seconds", ri->seconds), err);
}

int nb_report_add_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err)
{
	const struct nb_point *p = pr->point;
	json_t *end, *light, *agg, *diag;
	struct table_row *row;
	int rc = 0;

	if (!point_begun(r, p->index))
		rc = nb_report_begin_point(r, pr, err);
	/* runs the caller did not record one by one */
	for (int i = rc == 0 ? r->marks[p->index].runs_recorded : 0; rc == 0 && i < pr->nruns; i++)
		rc = nb_report_add_run(r, pr, i, err);
	if (rc < 0)
		return rc;
	if (r->nrows == r->cap) {
		int cap = r->cap ? r->cap * 2 : 16;
		struct table_row *rows = realloc(r->rows, (size_t)cap * sizeof(*rows));

		if (!rows)
			return nb_err_set(err, -ENOMEM, "add point %s to the report: out of memory", p->id);
		r->rows = rows;
		r->cap = cap;
	}
	end = json_pack("{s:s, s:i, s:s}", "type", "end", "index", p->index, "status",
			nb_point_status_name(pr->status));
	if (pr->status != NB_POINT_OK)
		json_object_set_new(end, "error", json_string(pr->error));
	if (pr->capture_file[0])
		json_object_set_new(end, "capture_packets", json_integer(pr->capture_packets));
	if (pr->profile.n > 0) {
		json_t *prof = json_array();

		for (int i = 0; i < pr->profile.n; i++)
			json_array_append_new(prof, json_pack("{s:s, s:f}", "symbol", pr->profile.top[i].symbol,
							      "share_pct", pr->profile.top[i].share_pct));
		json_object_set_new(end, "profile", prof);
	}
	rc = record_put(r, end, err);
	r->marks[p->index].begun = false;
	if (rc < 0)
		return rc;

	/* the table row from the runs' metrics alone (samples and raw iperf output are on disk) */
	row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	snprintf(row->id, sizeof(row->id), "%s", p->id);
	row->status = pr->status;
	row->rr = p->test->dir == NB_DIR_RR;
	light = json_array();
	for (int i = 0; i < pr->nruns; i++) {
		struct nb_run_record bare = pr->runs[i];

		bare.iperf_json = NULL;
		bare.nsamples = 0;
		bare.qstats = NULL;
		bare.rr_hist = NULL;
		json_array_append_new(light, run_json(&bare));
	}
	agg = aggregate_json(light, p->test->dir == NB_DIR_TX, skips_disturbed(json_object_get(r->root, "config")), row);
	if (pr->nruns > 0) {
		row->has_prec = true;
		json_decref(nb_report_precision_json(light, test_direction_name(p->test->dir),
						     json_object_get(r->root, "config"), &row->prec));
	}
	diag = NULL;
	if (pr->has_diag) {
		diag = json_object();
		for (int i = 0; i < pr->diag_metrics.n; i++)
			json_object_set_new(diag, pr->diag_metrics.m[i].name, json_real(pr->diag_metrics.m[i].value));
	}
	json_decref(bottleneck_json(r->root, p->test->duration_s, pr->status == NB_POINT_OK, agg, diag, row));
	json_decref(diag);
	json_decref(agg);
	json_decref(light);
	return 0;
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

/* Why a point without its "end" line is incomplete. */
static void incomplete_reason(const struct assembly *a, const struct gathered *g, char *buf, size_t len)
{
	struct nb_adaptive_rule rule;
	bool is_auto;
	size_t runs = json_array_size(g->runs);

	nb_report_rule_from_config(json_object_get(a->root, "config"), &rule, &is_auto);
	if (!is_auto && (int)runs >= rule.max_runs)
		snprintf(buf, len, "the run ended during this point's diagnostic repetition: all %d repetitions "
			 "recorded", rule.max_runs);
	else if (is_auto)
		snprintf(buf, len, "the run ended before this point finished: %zu runs recorded (auto:%d-%d, "
			 "precision not known to be reached)", runs, rule.min_runs, rule.max_runs);
	else
		snprintf(buf, len, "the run ended before this point finished: %zu of %d repetitions recorded", runs,
			 rule.max_runs);
}

/* Write one gathered point: head + status + runs + aggregates, as the live run would have. */
static int flush_point(struct assembly *a, struct gathered *g)
{
	json_t *o, *agg, *v;
	const char *key, *direction;
	struct table_row row;
	const char *status;
	char error[200];
	int rc;

	if (!g->point)
		return 0;
	memset(&row, 0, sizeof(row));
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
	if (g->end) {
		status = json_string_value(json_object_get(g->end, "status"));
		json_object_set_new(o, "status", json_string(status ? status : "failed"));
		if ((v = json_object_get(g->end, "error")))
			json_object_set(o, "error", v);
	} else {
		status = "incomplete";
		incomplete_reason(a, g, error, sizeof(error));
		json_object_set_new(o, "status", json_string(status));
		json_object_set_new(o, "error", json_string(error));
		if (a->info)
			a->info->incomplete++;
	}
	json_object_set(o, "runs", g->runs);
	direction = json_string_value(json_object_get(json_object_get(g->point, "test"), "direction"));
	agg = aggregate_json(g->runs, direction && !strcmp(direction, "tx"),
			     skips_disturbed(json_object_get(a->root, "config")), &row);
	json_object_set_new(o, "metrics", agg);
	if (json_array_size(g->runs) > 0)
		json_object_set_new(o, "precision", nb_report_precision_json(g->runs, direction, json_object_get(
										     a->root, "config"), &row.prec));
	/* an incomplete point's finished runs are measurements: judged like an ok point's */
	json_object_set_new(o, "bottleneck",
			    bottleneck_json(a->root, (int)json_integer_value(json_object_get(json_object_get(
						    g->point, "test"), "duration")),
					    !strcmp(status, "ok") || (!strcmp(status, "incomplete") && row.tput.n > 0),
					    agg, run_is_ok(g->diag) ? json_object_get(g->diag, "metrics") : NULL, &row));
	if (row.peer_bound)
		json_object_set_new(o, "peer_bound", json_true());
	if (row.sender_bound)
		json_object_set_new(o, "sender_bound", json_true());
	if (row.disturbed_runs)
		json_object_set_new(o, "disturbed_runs", json_integer(row.disturbed_runs));
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
	if (g->diag)
		json_object_set(o, "diagnostics", g->diag);
	if (g->end && (v = json_object_get(g->end, "profile")))
		json_object_set(o, "profile", v);
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
static int assemble(struct nb_record_reader *rd, FILE *out, struct nb_assembly_info *info, struct nb_err *err)
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
		if (!line && lineno == 1)
			return nb_err_set(err, -EINVAL, "not a nicbench run record (first line should be the %s "
					  "header)", NB_RECORD_FORMAT);
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
		fputs("\n}\n", out);
		if (info) {
			info->points = a.npoints;
			info->torn = info->torn || nb_record_reader_torn(rd);
		}
	}
	json_decref(a.rounds);
	json_decref(header);
	return rc < 0 ? rc : 0;
}

char *nb_report_dumps(struct nb_report *r)
{
	struct nb_record_reader *rd;
	struct nb_err err = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	int rc;

	if (record_ready(r, &err) < 0 || nb_record_reader_open(NULL, nb_record_writer_fd(r->rec), &rd, &err) < 0)
		return NULL;
	mem = open_memstream(&text, &size);
	if (!mem) {
		nb_record_reader_close(rd);
		return NULL;
	}
	rc = assemble(rd, mem, NULL, &err);
	nb_record_reader_close(rd);
	if (fclose(mem) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int temp_path(const char *path, char *tmp, size_t len)
{
	return (size_t)snprintf(tmp, len, "%s.tmp.%d", path, (int)getpid()) < len ? 0 : -ENAMETOOLONG;
}

int nb_report_check_writable(const char *path, struct nb_err *err)
{
	char tmp[PATH_MAX + 16];
	int fd;

	if (temp_path(path, tmp, sizeof(tmp)) < 0)
		return nb_err_set(err, -ENAMETOOLONG, "write report %s: path too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return nb_err_set(err, -errno, "write report %s: create %s: %s", path, tmp, strerror(errno));
	close(fd);
	unlink(tmp);
	return 0;
}

/* Assemble into a temporary file, fsync, rename: a crash leaves the old or the new report. */
static int assemble_to(struct nb_record_reader *rd, const char *path, struct nb_assembly_info *info,
		       struct nb_err *err)
{
	char tmp[PATH_MAX + 16];
	FILE *out;
	int fd, rc;

	if (temp_path(path, tmp, sizeof(tmp)) < 0)
		return nb_err_set(err, -ENAMETOOLONG, "write report %s: path too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return nb_err_set(err, -errno, "write report %s: create %s: %s", path, tmp, strerror(errno));
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		unlink(tmp);
		return nb_err_set(err, -ENOMEM, "write report %s: out of memory", path);
	}
	rc = assemble(rd, out, info, err);
	if (rc < 0) {
		fclose(out);
		unlink(tmp);
		nb_err_prefix(err, "write report %s: ", path);
		return rc;
	}
	if (fflush(out) != 0 || fsync(fd) < 0) {
		int e = errno;

		fclose(out);
		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: flush %s: %s", path, tmp, strerror(e));
	}
	if (fclose(out) != 0) {
		int e = errno;

		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: close %s: %s", path, tmp, strerror(e));
	}
	if (rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: rename from %s: %s", path, tmp, strerror(e));
	}
	return 0;
}

int nb_report_write(struct nb_report *r, const char *path, struct nb_err *err)
{
	struct nb_record_reader *rd;
	int rc = record_ready(r, err);

	if (rc == 0)
		rc = nb_record_reader_open(NULL, nb_record_writer_fd(r->rec), &rd, err);
	if (rc < 0)
		return rc;
	rc = assemble_to(rd, path, NULL, err);
	nb_record_reader_close(rd);
	return rc;
}

int nb_report_assemble(const char *record_path, const char *report_path, struct nb_assembly_info *info,
		       struct nb_err *err)
{
	struct nb_assembly_info probe = { 0 };
	struct nb_record_reader *rd;
	FILE *null;
	int rc;

	memset(info, 0, sizeof(*info));
	if (!report_path) {
		/* the header names the report: read it first (one pass to /dev/null is cheap next
		 * to the run that made the record) */
		rc = nb_record_reader_open(record_path, -1, &rd, err);
		if (rc < 0)
			return rc;
		null = fopen("/dev/null", "we");
		rc = null ? assemble(rd, null, &probe, err) : nb_err_set(err, -errno, "open /dev/null: %s",
									 strerror(errno));
		if (null)
			fclose(null);
		nb_record_reader_close(rd);
		if (rc < 0) {
			nb_err_prefix(err, "assemble %s: ", record_path);
			return rc;
		}
		if (!probe.report_path[0])
			return nb_err_set(err, -EINVAL, "assemble %s: the record names no report path", record_path);
		report_path = probe.report_path;
	}
	rc = nb_record_reader_open(record_path, -1, &rd, err);
	if (rc < 0)
		return rc;
	snprintf(info->report_path, sizeof(info->report_path), "%s", report_path);
	rc = assemble_to(rd, report_path, info, err);
	nb_record_reader_close(rd);
	if (rc == 0)
		snprintf(info->report_path, sizeof(info->report_path), "%s", report_path);
	return rc;
}

static void format_bps(double bps, char *buf, size_t len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f Gbit/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.1f Mbit/s", bps / 1e6);
	else
		snprintf(buf, len, "%.1f kbit/s", bps / 1e3);
}

static void format_pct(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "-");
}

static void print_unaccounted_note(const struct nb_report *r, FILE *out)
{
	double worst = 0;
	int points = 0;

	for (int i = 0; i < r->nrows; i++) {
		double u = r->rows[i].unaccounted;

		if (u > NB_UNACCOUNTED_NOTE_PCT) {  /* false for NAN */
			points++;
			worst = u > worst ? u : worst;
		}
	}
	if (points > 0)
		fprintf(out, "note: in %d point%s /proc/stat missed up to %.0f%% of the CPU time (interrupts taken "
			"from idle on a tickless kernel without IRQ time accounting, or unreported steal on a VM): "
			"busy%% there is a lower bound; see cpu_unaccounted_pct\n", points, points == 1 ? "" : "s", worst);
}

static void format_rr(double v, int decimals, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

/* The request/response points again, with what they are about: transactions and latency. */
static void print_rr_table(const struct nb_report *r, int idw, FILE *out)
{
	bool header = false;

	for (int i = 0; i < r->nrows; i++) {
		const struct table_row *row = &r->rows[i];
		char tps[24], p50[16], p90[16], p99[16], p999[16];

		if (!row->rr)
			continue;
		if (!header) {
			fprintf(out, "\n%-*s  %12s  %9s  %9s  %9s  %9s  (latency: medians over runs, us)\n", idw,
				"rr point", "trans/s", "p50", "p90", "p99", "p99.9");
			header = true;
		}
		format_rr(row->rr_tps, 0, tps, sizeof(tps));
		format_rr(row->rr_p50, 1, p50, sizeof(p50));
		format_rr(row->rr_p90, 1, p90, sizeof(p90));
		format_rr(row->rr_p99, 1, p99, sizeof(p99));
		format_rr(row->rr_p999, 1, p999, sizeof(p999));
		fprintf(out, "%-*s  %12s  %9s  %9s  %9s  %9s\n", idw, row->id, tps, p50, p90, p99, p999);
	}
}

/* Which points never reached their precision, and the noisiest ones (widest interval). */
static void print_precision_notes(const struct nb_report *r, FILE *out)
{
	const struct table_row *noisy[3] = { NULL, NULL, NULL };
	double precision = NB_DEFAULT_PRECISION_PCT;
	int missed = 0, shown = 0;
	struct nb_adaptive_rule rule;
	bool is_auto;

	nb_report_rule_from_config(json_object_get(r->root, "config"), &rule, &is_auto);
	precision = rule.precision_pct;
	for (int i = 0; i < r->nrows; i++) {
		const struct table_row *row = &r->rows[i];

		if (!row->has_prec || row->prec.clean == 0)
			continue;
		missed += !row->prec.met;
		for (int k = 0; k < 3 && isfinite(row->prec.worst_pct); k++) {
			if (!noisy[k] || !(row->prec.worst_pct <= noisy[k]->prec.worst_pct)) {
				memmove(&noisy[k + 1], &noisy[k], (size_t)(2 - k) * sizeof(noisy[0]));
				noisy[k] = row;
				break;
			}
		}
	}
	if (missed) {
		fprintf(out, "precision not reached (+-%.3g%%%s) in %d point%s:", precision,
			is_auto ? ", auto repetitions" : "", missed, missed == 1 ? "" : "s");
		for (int i = 0; i < r->nrows; i++) {
			if (r->rows[i].has_prec && r->rows[i].prec.clean > 0 && !r->rows[i].prec.met && shown++ < 8)
				fprintf(out, " %s (%d runs)", r->rows[i].id, r->rows[i].prec.runs);
		}
		fprintf(out, "%s\n", shown > 8 ? " ..." : "");
	}
	if (noisy[0] && r->nrows > 1) {
		fprintf(out, "noisiest:");
		for (int k = 0; k < 3 && noisy[k]; k++)
			fprintf(out, "%s %s +-%.1f%% (%s)", k ? "," : "", noisy[k]->id, noisy[k]->prec.worst_pct,
				noisy[k]->prec.worst_metric ? noisy[k]->prec.worst_metric : "-");
		fputc('\n', out);
	}
}

/* Flags in the status column are explained once, below the table. */
static void print_flag_notes(const struct nb_report *r, FILE *out)
{
	int peer = 0, sender = 0, disturbed = 0;
	double worst = 0;

	for (int i = 0; i < r->nrows; i++) {
		peer += r->rows[i].peer_bound;
		sender += r->rows[i].sender_bound;
		if (r->rows[i].disturbed_runs) {
			disturbed++;
			worst = r->rows[i].other > worst ? r->rows[i].other : worst;
		}
	}
	if (peer)
		fprintf(out, "peer-bound?: the peer's iperf3 used >= %.0f%% of a core (iperf_remote_cpu_pct): the peer, "
			"not the device, may have set the throughput\n", NB_PEER_BOUND_PCT);
	if (sender)
		fprintf(out, "sender-bound?: this host's iperf3 used >= %.0f%% of a core while sending "
			"(iperf_host_cpu_pct): the tool, not the driver, may have set the throughput\n", NB_PEER_BOUND_PCT);
	if (disturbed)
		fprintf(out, "warning: in %d point%s other programs took up to %.0f%% of the CPU (cpu_other_pct >= %.0f%% "
			"in the runs marked disturbed): their figures may be low; find the program (top) and run again\n",
			disturbed, disturbed == 1 ? "" : "s", worst, NB_FOREIGN_LOAD_PCT);
	if (r->idle_warned)
		fprintf(out, "warning: the machine was %.0f%% busy before the first point (idle check)\n",
			r->idle_busy_pct);
}

void nb_report_set_idle_check(struct nb_report *r, const struct nb_idle_check *ic)
{
	json_t *busiest = json_array();

	for (int i = 0; i < ic->nbusiest; i++)
		json_array_append_new(busiest, json_pack("{s:i, s:s, s:f}", "pid", ic->busiest[i].pid,
							 "comm", ic->busiest[i].comm, "core_pct", ic->busiest[i].core_pct));
	json_object_set_new(r->root, "idle_check",
			    json_pack("{s:f, s:o, s:o}", "seconds", ic->seconds, "busy_pct",
				      ic->busy_present ? json_real(ic->busy_pct) : json_null(), "busiest", busiest));
	r->idle_warned = ic->busy_present && ic->busy_pct >= NB_FOREIGN_LOAD_PCT;
	r->idle_busy_pct = ic->busy_pct;
}

void nb_report_print_table(const struct nb_report *r, FILE *out)
{
	int idw = 10;

	for (int i = 0; i < r->nrows; i++) {
		int w = (int)strlen(r->rows[i].id);

		idw = w > idw ? w : idw;
	}
	fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s\n", idw, "test point", "throughput", "spread",
		"+-90%ci", "runs", "busy%", "softirq%", "napi%", "bottleneck", "status");
	for (int i = 0; i < r->nrows; i++) {
		const struct table_row *row = &r->rows[i];
		char tput[32] = "-", spread[16] = "-", busy[16], soft[16], napi[16], ci[16] = "-", runs[16] = "-";

		if (row->tput.n > 0) {
			format_bps(row->tput.median, tput, sizeof(tput));
			/* spread: (max - min) relative to the median, the noise a reader should expect */
			if (row->tput.median > 0)
				snprintf(spread, sizeof(spread), "%.1f%%",
					 100.0 * (row->tput.max - row->tput.min) / row->tput.median);
		}
		if (row->has_prec) {
			if (isfinite(row->prec.worst_pct))
				snprintf(ci, sizeof(ci), "%.1f%%%s", row->prec.worst_pct, row->prec.met ? "" : "!");
			snprintf(runs, sizeof(runs), "%d", row->prec.runs);
		}
		format_pct(row->busy, busy, sizeof(busy));
		format_pct(row->softirq, soft, sizeof(soft));
		format_pct(row->napi, napi, sizeof(napi));
		char disturbed[32] = "";

		if (row->disturbed_runs)
			snprintf(disturbed, sizeof(disturbed), " (disturbed %d/%d)", row->disturbed_runs, row->ok_runs);
		fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s%s%s%s\n", idw, row->id, tput, spread, ci, runs,
			busy, soft, napi,
			nb_bn_code_name(row->bottleneck), nb_point_status_name(row->status),
			row->peer_bound ? " (peer-bound?)" : "", row->sender_bound ? " (sender-bound?)" : "", disturbed);
	}
	fprintf(out, "throughput: median of the runs; spread: (max - min) / median of the runs' throughput; "
		"busy%%, softirq%%, napi%%: medians, %% of all CPUs\n"
		"+-90%%ci: half width of the 90%% interval of the median, %% of it (the wider of throughput and, "
		"for rx tests, busy%%; ! = not within the precision asked for); runs: runs taken\n");
	print_precision_notes(r, out);
	print_flag_notes(r, out);
	print_unaccounted_note(r, out);
	print_rr_table(r, idw, out);
}

void nb_report_count(const struct nb_report *r, int *ok, int *failed, int *unsupported)
{
	*ok = *failed = *unsupported = 0;
	for (int i = 0; i < r->nrows; i++) {
		switch (r->rows[i].status) {
		case NB_POINT_OK: (*ok)++; break;
		case NB_POINT_UNSUPPORTED: (*unsupported)++; break;
		default: (*failed)++; break;
		}
	}
}

void nb_report_free(struct nb_report *r)
{
	if (!r)
		return;
	json_decref(r->root);
	nb_record_writer_close(r->rec, false);
	free(r->marks);
	free(r->rows);
	free(r);
}
