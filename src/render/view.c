// SPDX-License-Identifier: MIT
/* The report view: environment and series read with jansson, per-point bottleneck and efficiency, the Pareto choice. */
#include "render/view.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "kit/metric_table.h"
#include "kit/nic_names.h"
#include "kit/nb_print.h"
#include "kit/stats.h"

const char *const nb_rv_series_cols[NB_RV_SERIES_COLS] = {
	NB_M_CPU_BUSY_PCT, NB_M_SOFTIRQ_PCT, NB_M_IRQ_PCT, NB_M_NAPI_THREAD_PCT, NB_M_RX_PACKETS_PER_S, NB_M_TX_PACKETS_PER_S,
};

/* ---- extras ---- */

struct env_source {
	const char *label;
	const char *path[3]; /* object keys from the root */
};

static const struct env_source env_sources[] = {
	{ "host", { "host", "hostname" } },
	{ "kernel", { "host", "kernel", "release" } },
	{ "kernel version", { "host", "kernel", "version" } },
	{ "kernel config hash", { "host", "kernel", "config_hash" } },
	{ "CPUs", { "host", "cpus" } },
	{ "CPU model", { "host", "cpu_model" } },
	{ "interface", { "interface", "name" } },
	{ "driver", { "interface", "driver" } },
	{ "driver version", { "interface", "driver_version" } },
	{ "firmware", { "interface", "firmware" } },
	{ "bus", { "interface", "bus_info" } },
	{ "MTU", { "interface", "mtu" } },
	{ "link speed (Mbit/s)", { "interface", "speed_mbps" } },
	{ "peer", { "peer", "host" } },
	{ "peer port", { "peer", "port" } },
	{ "created", { "created" } },
	{ "nicbench", { "tool", "version" } },
	{ "traffic backend", { "tool", "traffic_backend" } },
	{ "iperf3", { "tool", "iperf3_version" } },
	{ "description", { "config", "description" } },
};

static char *scalar_text(const json_t *v)
{
	char buf[64];

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		return strdup(buf);
	}
	if (json_is_real(v)) {
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
		return strdup(buf);
	}
	if (json_is_boolean(v))
		return strdup(json_is_true(v) ? "true" : "false");
	return NULL; /* null or absent: not shown */
}

/* "A 1/5, set s7; diagnostics in round 1 (not this report)": the report's place in an A/B set
 * of rounds, and where its diagnostic repetition is; NULL when it is in none. */
static char *round_text(const json_t *root)
{
	const json_t *round = json_object_get(root, "round"), *diag = json_object_get(root, "diagnostics");
	const char *side = json_string_value(json_object_get(round, "side"));
	const char *set = json_string_value(json_object_get(round, "set"));
	const char *mode = json_string_value(json_object_get(diag, "mode"));
	const json_t *where = json_object_get(diag, "round");
	char buf[256];
	int n;

	if (!side)
		return NULL;
	n = snprintf(buf, sizeof(buf), "%s %lld/%lld", side, (long long)json_integer_value(json_object_get(round, "index")),
		     (long long)json_integer_value(json_object_get(round, "of")));
	if (set)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, ", set %.64s", set);
	if (mode && json_is_integer(where))
		snprintf(buf + n, sizeof(buf) - (size_t)n, "; diagnostics in round %lld (%s)",
			 (long long)json_integer_value(where),
			 json_is_true(json_object_get(diag, "in_this_report")) ? "this report" : "not this report");
	else if (mode)
		snprintf(buf + n, sizeof(buf) - (size_t)n, "; diagnostics %s", strcmp(mode, "never") ? "in every round" : "in none");
	return strdup(buf);
}

static void load_env(const json_t *root, struct nb_rv_extra *x)
{
	char *text;

	for (size_t i = 0; i < sizeof(env_sources) / sizeof(env_sources[0]) && x->n_env < NB_RV_ENV_MAX; i++) {
		const json_t *v = root;

		for (int k = 0; k < 3 && env_sources[i].path[k] && v; k++)
			v = json_object_get(v, env_sources[i].path[k]);
		text = v ? scalar_text(v) : NULL;
		if (!text)
			continue;
		x->env[x->n_env].key = env_sources[i].label;
		x->env[x->n_env++].value = text;
	}
	if (x->n_env < NB_RV_ENV_MAX && (text = round_text(root))) {
		x->env[x->n_env].key = "round";
		x->env[x->n_env++].value = text;
	}
}

static double *column(const json_t *samples, const char *name, int n)
{
	const json_t *col = json_object_get(samples, name);
	double *v;

	if (!json_is_array(col) || (int)json_array_size(col) != n)
		return NULL;
	v = malloc((size_t)n * sizeof(*v));
	if (!v)
		return NULL;
	for (int i = 0; i < n; i++) {
		const json_t *e = json_array_get(col, (size_t)i);

		v[i] = json_is_number(e) ? json_number_value(e) : NAN;
	}
	return v;
}

struct moved_counter {
	const char *name;
	json_int_t delta;
};

static int trouble_first(const void *a, const void *b)
{
	const struct moved_counter *ma = a, *mb = b;
	json_int_t x = ma->delta < 0 ? -ma->delta : ma->delta, y = mb->delta < 0 ? -mb->delta : mb->delta;
	bool ta = nb_driver_counter_counts_trouble(ma->name), tb = nb_driver_counter_counts_trouble(mb->name);

	if (ta != tb)
		return ta ? -1 : 1;
	return x < y ? 1 : x > y ? -1 : strcmp(ma->name, mb->name);
}

/* The ethtool -S counters that moved in the first ok run where any did: a driver lists dozens
 * to thousands, so the line keeps six, those that count trouble (drops, errors) first, then the
 * ones that moved most. */
static int load_driver_counters(const json_t *runs, struct nb_rv_series *s)
{
	enum { SHOWN = 6 };
	const json_t *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		const json_t *changed = json_object_get(json_object_get(run, "driver_counters"), "changed");
		struct moved_counter *mc;
		const char *key;
		json_t *v;
		char line[512];
		size_t n = 0;

		if (!json_is_object(changed) || json_object_size(changed) == 0)
			continue;
		mc = calloc(json_object_size(changed), sizeof(*mc));
		if (!mc)
			return -ENOMEM;
		json_object_foreach((json_t *)changed, key, v) {
			if (json_is_integer(v))
				mc[n++] = (struct moved_counter){ key, json_integer_value(v) };
		}
		qsort(mc, n, sizeof(*mc), trouble_first);
		line[0] = '\0';
		for (size_t k = 0; k < n && k < SHOWN; k++)
			nb_appendf(line, sizeof(line), "%s%s %+lld", k ? ", " : "", mc[k].name, (long long)mc[k].delta);
		if (n > SHOWN)
			nb_appendf(line, sizeof(line), " (%zu more)", n - SHOWN);
		free(mc);
		s->driver_counters = strdup(line);
		if (!s->driver_counters)
			return -ENOMEM;
		s->counters_run = (int)i + 1;
		return 0;
	}
	return 0;
}

static int load_kernel_log(const json_t *point, struct nb_rv_series *s)
{
	const json_t *lines = json_object_get(json_object_get(point, "kernel_log"), "lines");
	const char *first;

	if (!json_is_array(lines) || json_array_size(lines) == 0)
		return 0;
	s->kernel_log_lines = (int)json_array_size(lines);
	first = json_string_value(json_object_get(json_array_get(lines, 0), "text"));
	if (first && !(s->kernel_log_first = strdup(first)))
		return -ENOMEM;
	return 0;
}

/* Why page_pool went unmeasured, from both sources; nothing when the report recorded neither. */
static int load_pp_why(const json_t *point, const json_t *runs, struct nb_rv_series *s)
{
	const char *counters = json_string_value(json_object_get(json_object_get(json_array_get(runs, 0), "page_pool"),
								 "unavailable"));
	const char *off = json_string_value(json_object_get(point, "trace_unavailable"));
	const char *notes = json_string_value(json_object_get(point, "trace_notes"));
	const char *tp = off ? off : notes ? strstr(notes, "page_pool tracepoints: ") : NULL;
	char buf[800];

	if (!counters)
		return 0;
	if (tp && tp != off)
		tp += strlen("page_pool tracepoints: ");
	snprintf(buf, sizeof(buf), "counters: %s%s%s", counters, tp ? "; tracepoints: " : "", tp ? tp : "");
	s->pp_why = strdup(buf);
	return s->pp_why ? 0 : -ENOMEM;
}

/* "MTU 9000 on both ends (the peer's labtap1 through nicbench serve); here: carrier back after 2.03 s" */
static int load_mtu(const json_t *point, struct nb_rv_series *s)
{
	const json_t *m = json_object_get(point, "mtu");
	const json_t *dut = json_object_get(m, "dut"), *peer = json_object_get(m, "peer");
	const char *how = json_string_value(json_object_get(m, "peer_how"));
	const char *iface = json_string_value(json_object_get(m, "peer_iface"));
	const char *dut_note = json_string_value(json_object_get(m, "dut_note"));
	const char *peer_note = json_string_value(json_object_get(m, "peer_note"));
	char buf[600];
	int n;

	if (!json_is_integer(dut))
		return 0;
	if (json_is_integer(peer) && json_integer_value(peer) == json_integer_value(dut))
		n = snprintf(buf, sizeof(buf), "MTU %lld on both ends (the peer's %s through %s)",
			     (long long)json_integer_value(dut), iface ? iface : "interface", how ? how : "?");
	else if (json_is_integer(peer))
		n = snprintf(buf, sizeof(buf), "MTU %lld here, %lld on the peer", (long long)json_integer_value(dut),
			     (long long)json_integer_value(peer));
	else
		n = snprintf(buf, sizeof(buf), "MTU %lld here only, the peer not set%s%s", (long long)json_integer_value(dut),
			     peer_note ? ": " : "", peer_note ? peer_note : "");
	if (dut_note && *dut_note && n > 0 && (size_t)n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - (size_t)n, "; here: %s", dut_note);
	s->mtu = strdup(buf);
	return s->mtu ? 0 : -ENOMEM;
}

static int load_series(const json_t *point, struct nb_rv_series *s)
{
	const json_t *runs = json_object_get(point, "runs");
	const json_t *id = json_object_get(point, "id");
	size_t i;
	const json_t *run;

	memset(s, 0, sizeof(*s));
	if (!json_is_string(id))
		return -EINVAL;
	s->point_id = strdup(json_string_value(id));
	if (!s->point_id)
		return -ENOMEM;
	json_array_foreach(runs, i, run) {
		const json_t *samples = json_object_get(run, "samples");
		const json_t *t = json_object_get(samples, "t");
		const char *status = json_string_value(json_object_get(run, "status"));

		if (!status || strcmp(status, "ok") || !json_is_array(t) || json_array_size(t) < 2)
			continue;
		s->n = (int)json_array_size(t);
		s->t = column(samples, "t", s->n);
		if (!s->t)
			return -ENOMEM;
		for (int c = 0; c < NB_RV_SERIES_COLS; c++)
			s->col[c] = column(samples, nb_rv_series_cols[c], s->n);
		s->run = (int)i + 1;
		break;
	}
	if (load_driver_counters(runs, s) < 0 || load_kernel_log(point, s) < 0 || load_mtu(point, s) < 0 ||
	    load_pp_why(point, runs, s) < 0)
		return -ENOMEM;
	return 0;
}

int nb_rv_extra_load(const char *path, struct nb_rv_extra *out, struct nb_err *err)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	const json_t *results, *point;
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!root)
		return nb_err_set(err, -EINVAL, "read report %s: line %d: %s", path, jerr.line, jerr.text);
	load_env(root, out);
	results = json_object_get(root, "results");
	if (json_is_array(results) && json_array_size(results) > 0) {
		out->series = calloc(json_array_size(results), sizeof(*out->series));
		if (!out->series)
			ret = nb_err_set(err, -ENOMEM, "read report %s: out of memory", path);
		json_array_foreach(results, i, point) {
			if (ret)
				break;
			ret = load_series(point, &out->series[out->n_series]);
			out->n_series++;
			if (ret)
				nb_err_set(err, ret, "read report %s: result %zu: %s", path, i + 1,
					   ret == -ENOMEM ? "out of memory" : "no id");
		}
	}
	json_decref(root);
	if (ret)
		nb_rv_extra_free(out);
	return ret;
}

void nb_rv_extra_free(struct nb_rv_extra *x)
{
	for (int i = 0; i < x->n_env; i++)
		free(x->env[i].value);
	for (int i = 0; i < x->n_series; i++) {
		free(x->series[i].point_id);
		free(x->series[i].t);
		for (int c = 0; c < NB_RV_SERIES_COLS; c++)
			free(x->series[i].col[c]);
		free(x->series[i].driver_counters);
		free(x->series[i].kernel_log_first);
		free(x->series[i].pp_why);
		free(x->series[i].mtu);
	}
	free(x->series);
	memset(x, 0, sizeof(*x));
}

const struct nb_rv_series *nb_rv_series_of(const struct nb_rv_extra *x, const char *point_id)
{
	for (int i = 0; x && i < x->n_series; i++)
		if (x->series[i].point_id && !strcmp(x->series[i].point_id, point_id))
			return x->series[i].n > 1 ? &x->series[i] : NULL;
	return NULL;
}

const struct nb_rv_series *nb_rv_point_extras(const struct nb_rv_extra *x, const char *point_id)
{
	for (int i = 0; x && i < x->n_series; i++)
		if (x->series[i].point_id && !strcmp(x->series[i].point_id, point_id))
			return &x->series[i];
	return NULL;
}

/* ---- per point ---- */

static bool point_median(const void *ctx, const char *name, double *v)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(ctx, name);

	if (!s || s->n <= 0)
		return false;
	*v = s->median;
	return true;
}

/* An environment field as a number ("1000"); compare_load keeps them as compact JSON text. */
static double env_number(const struct nb_cmp_report *rep, const char *key)
{
	for (int i = 0; i < rep->n_env; i++) {
		if (strcmp(rep->env[i].key, key) || !rep->env[i].value)
			continue;
		char *end;
		double v = strtod(rep->env[i].value, &end);

		return end != rep->env[i].value && !*end && isfinite(v) ? v : 0;
	}
	return 0;
}

/* The point's measured window: its test's duration (compare_load keeps the test object as compact JSON). */
static double point_window_s(const struct nb_cmp_report *rep, const struct nb_cmp_point *p)
{
	json_t *test = p->test_json ? json_loads(p->test_json, 0, NULL) : NULL;
	json_t *d = json_object_get(test, "duration");
	double v = json_is_number(d) ? json_number_value(d) : 0;

	json_decref(test);
	return v > 0 ? v : env_number(rep, "config.duration");
}

void nb_rv_bottleneck(const struct nb_cmp_report *rep, const struct nb_cmp_point *p, struct nb_bottleneck *out)
{
	struct nb_bn_input in = {
		.get = point_median,
		.ctx = p,
		.cpus = rep->cpus,
		.link_mbps = env_number(rep, "interface.speed_mbps"),
		.window_s = point_window_s(rep, p),
		.ok = p->status == NB_CMP_STATUS_OK,
	};

	nb_bottleneck_judge(&in, out);
}

bool nb_rv_efficiency_in_packets(const struct nb_cmp_point *p)
{
	return nb_metric_kind_of(nb_rv_headline(p)) == NB_UNIT_PACKET_PER_S;
}

/* A flood's packets per CPU-second: its runs' rates and busy shares, paired by run where both metrics have
 * every run, else the medians. */
static bool packets_per_cpu_s(const struct nb_cmp_report *rep, const struct nb_cmp_point *p, double *out)
{
	const struct nb_cmp_samples *pps = nb_cmp_point_metric(p, NB_M_RX_PACKETS_PER_S);
	const struct nb_cmp_samples *busy = nb_cmp_point_metric(p, NB_M_CPU_BUSY_PCT);
	double v[256];
	int n = 0;
	struct nb_stats st;

	if (!pps || !busy || pps->n <= 0 || busy->n <= 0)
		return false;
	if (pps->n == busy->n) {
		for (int i = 0; i < pps->n && n < 256; i++)
			if (busy->values[i] > 0)
				v[n++] = pps->values[i] / (busy->values[i] * rep->cpus / 100.0);
	} else if (busy->median > 0) {
		v[n++] = pps->median / (busy->median * rep->cpus / 100.0);
	}
	if (n == 0)
		return false;
	nb_stats_compute(v, n, &st);
	*out = st.median;
	return true;
}

bool nb_rv_efficiency(const struct nb_cmp_report *rep, const struct nb_cmp_point *p, double *per_cpu_s)
{
	double v[256];
	int n = 0;
	struct nb_stats st;

	if (rep->cpus <= 0 || p->status != NB_CMP_STATUS_OK)
		return false;
	if (nb_rv_efficiency_in_packets(p))
		return packets_per_cpu_s(rep, p, per_cpu_s);
	for (int i = 0; i < p->n_pairs && n < 256; i++)
		if (p->pair_cpu_busy_pct[i] > 0)
			v[n++] = p->pair_throughput_bps[i] / (p->pair_cpu_busy_pct[i] * rep->cpus / 100.0);
	if (n == 0)
		return false;
	nb_stats_compute(v, n, &st);
	*per_cpu_s = st.median;
	return true;
}

const char *nb_rv_efficiency_text(char *buf, size_t len, const struct nb_cmp_point *p, double v)
{
	if (nb_rv_efficiency_in_packets(p))
		snprintf(buf, len, "%.1f kpps", v / 1e3);
	else
		nb_rv_bps(buf, len, v);
	return buf;
}

const struct nb_cmp_samples *nb_rv_p99(const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, NB_M_RR_LATENCY_P99_US);

	return s && s->n > 0 ? s : NULL;
}

const char *nb_rv_setting(const struct nb_cmp_point *p)
{
	const char *slash = strchr(p->id, '/');

	return slash && slash[1] ? slash + 1 : "default";
}

/* Length of the id's head: the test name and the swept fields after it ("udp-rx/rate=1000M/length=60"). */
/* Does an id's part ("rate=1000M/...") name a test field: a TEST_FIELD row's leaf ("udp.rate": rate)
 * and '=', as plan.c writes the swept ones? */
static bool field_part(const char *part)
{
	const struct nb_opt_table *t = &nb_config_table;

	for (int i = 0; i < t->nrows; i++) {
		const char *key = t->rows[i].key, *dot;
		size_t n;

		if (!(t->rows[i].flags & NB_OPT_TEST_FIELD) || !key)
			continue;
		dot = strrchr(key, '.');
		key = dot ? dot + 1 : key;
		n = strlen(key);
		if (!strncmp(part, key, n) && part[n] == '=')
			return true;
	}
	return false;
}

static size_t fields_head(const char *id)
{
	const char *end = strchr(id, '/');

	if (!end)
		return strlen(id);
	for (;;) {
		if (!field_part(end + 1))
			return (size_t)(end - id);
		end = strchr(end + 1, '/');
		if (!end)
			return strlen(id);
	}
}

const char *nb_rv_choice_setting(const struct nb_cmp_point *p)
{
	const char *rest = p->id + fields_head(p->id);

	return rest[0] == '/' && rest[1] ? rest + 1 : "default";
}

void nb_rv_choice_test(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const char *slash = strchr(p->id, '/');
	size_t head = fields_head(p->id);

	if (!p->test_name[0])
		snprintf(buf, len, "%s", p->id); /* no test name: each point is its own test, as before */
	else if (slash && (size_t)(slash - p->id) < head)
		snprintf(buf, len, "%s%.*s", p->test_name, (int)(head - (size_t)(slash - p->id)), slash);
	else
		snprintf(buf, len, "%s", p->test_name);
}

bool nb_rv_gated(const struct nb_cmp_options *opt, const char *test, const char *metric)
{
	for (int i = 0; i < opt->n_gate; i++) {
		if (strcmp(opt->gate[i].metric, metric))
			continue;
		if (opt->gate[i].tests[0] && fnmatch(opt->gate[i].tests, test, 0))
			continue;
		return true;
	}
	return false;
}

/* ---- which setting to choose ---- */

const char *nb_rv_headline(const struct nb_cmp_point *p)
{
	/* a flood's packet rate stands in for the throughput; rr points keep their own cells
	 * (trans/s in HTML, "-" in text) */
	if (p->headline && nb_metric_kind_of(p->headline) == NB_UNIT_PACKET_PER_S)
		return p->headline;
	return NB_M_THROUGHPUT_BPS;
}

/* The point's headline rate: throughput, or a flood's received packets per second. */
static bool tput_of(const struct nb_cmp_point *p, double *v)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, nb_rv_headline(p));

	if (!s || s->n <= 0 || p->status != NB_CMP_STATUS_OK)
		return false;
	*v = s->median;
	return true;
}

/* The "more is better" rate of a point: throughput, or for rr tests transactions per second. */
static bool rate_of(const struct nb_cmp_point *p, double *v)
{
	const struct nb_cmp_samples *s;

	if (p->status != NB_CMP_STATUS_OK)
		return false;
	if (tput_of(p, v))
		return true;
	s = nb_cmp_point_metric(p, NB_M_RR_TRANSACTIONS_PER_S);
	if (!s || s->n <= 0)
		return false;
	*v = s->median;
	return true;
}

/* Can the point be on a front at all: it ran and has a rate or a p99. */
static bool judgeable(const struct nb_cmp_point *p)
{
	double v;

	return p->status == NB_CMP_STATUS_OK && (rate_of(p, &v) || nb_rv_p99(p));
}

/* a dominates b: no worse in every objective both have and better in one; without a common objective
 * neither dominates. Objectives: rate and bits per CPU-second (more is better), p99 (less is better). */
static bool dominates(const struct nb_cmp_report *rep, const struct nb_cmp_point *a, const struct nb_cmp_point *b,
		      bool use_p99)
{
	double ra, rb, ea, eb;
	bool common = false, better = false;

	if (rate_of(a, &ra) && rate_of(b, &rb)) {
		if (ra < rb)
			return false;
		better = ra > rb;
		common = true;
	}
	if (nb_rv_efficiency(rep, a, &ea) && nb_rv_efficiency(rep, b, &eb)) {
		if (ea < eb)
			return false;
		better = better || ea > eb;
		common = true;
	}
	if (use_p99) {
		const struct nb_cmp_samples *la = nb_rv_p99(a), *lb = nb_rv_p99(b);

		if (la && lb) {
			if (la->median > lb->median)
				return false;
			better = better || la->median < lb->median;
			common = true;
		}
	}
	return common && better;
}

static int test_index(struct nb_rv_choice *c, const char *test)
{
	for (int i = 0; i < c->n_tests; i++)
		if (!strcmp(c->tests[i].test, test))
			return i;
	if (c->n_tests == NB_RV_MAX_TESTS)
		return -1;
	snprintf(c->tests[c->n_tests].test, sizeof(c->tests[0].test), "%s", test);
	return c->n_tests++;
}

static const struct nb_cmp_point *point_of(const struct nb_rv_test_front *t, const char *setting)
{
	for (int i = 0; i < t->n_points; i++)
		if (!strcmp(nb_rv_choice_setting(t->points[i]), setting))
			return t->points[i];
	return NULL;
}

/* Change of one setting against the reference in one test, %; NAN where either is missing. */
static double change_in(const struct nb_rv_test_front *t, const char *setting, const char *reference)
{
	const struct nb_cmp_point *a = point_of(t, setting), *r = point_of(t, reference);
	double ta, tr;

	if (!a || !r || !rate_of(a, &ta) || !rate_of(r, &tr) || tr <= 0)
		return NAN;
	return 100.0 * (ta - tr) / tr;
}

/* Group the points by test (with its swept fields) and gather the settings, in the report's order. */
static void gather(const struct nb_cmp_report *rep, struct nb_rv_choice *out, const char **settings)
{
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		const char *s = nb_rv_choice_setting(p);
		char test[sizeof(out->tests[0].test)];
		int t, k;

		nb_rv_choice_test(test, sizeof(test), p);
		t = test_index(out, test);
		if (t < 0 || out->tests[t].n_points == NB_RV_MAX_SETTINGS)
			continue;
		out->tests[t].points[out->tests[t].n_points++] = p;
		out->tests[t].has_p99 = out->tests[t].has_p99 || nb_rv_p99(p);
		out->tests[t].packets = out->tests[t].packets || nb_rv_efficiency_in_packets(p);
		for (k = 0; k < out->n_settings; k++)
			if (!strcmp(settings[k], s))
				break;
		if (k == out->n_settings && k < NB_RV_MAX_SETTINGS)
			settings[out->n_settings++] = s;
	}
}

void nb_rv_choose(const struct nb_cmp_report *rep, struct nb_rv_choice *out)
{
	const char *settings[NB_RV_MAX_SETTINGS];
	double score[NB_RV_MAX_SETTINGS];
	int best = -1, second = -1;

	memset(out, 0, sizeof(*out));
	out->worst_test = -1;
	gather(rep, out, settings);
	for (int t = 0; t < out->n_tests; t++) {
		struct nb_rv_test_front *f = &out->tests[t];

		for (int i = 0; i < f->n_points; i++) {
			f->on_front[i] = judgeable(f->points[i]);
			for (int j = 0; j < f->n_points && f->on_front[i]; j++)
				if (j != i && dominates(rep, f->points[j], f->points[i], f->has_p99))
					f->on_front[i] = false;
		}
	}
	if (out->n_settings < 2)
		return;
	/* Each setting's score: the geometric mean of its rate over the first setting's, over the tests where
	 * both ran; a setting missing from a test it should have been in cannot win. Ratios of scores are
	 * ratios of geometric means, so the best's margin over the runner-up does not depend on the first. */
	for (int s = 0; s < out->n_settings; s++) {
		double log_sum = 0;
		int n = 0;
		bool complete = true;

		for (int t = 0; t < out->n_tests; t++) {
			double c = change_in(&out->tests[t], settings[s], settings[0]);

			if (isnan(c)) {
				const struct nb_cmp_point *r = point_of(&out->tests[t], settings[0]);
				double x;

				/* missing where the first setting has a rate */
				complete = complete && !(r && rate_of(r, &x));
				continue;
			}
			log_sum += log(fmax(1.0 + c / 100.0, 1e-6));
			n++;
		}
		if (!complete || n == 0)
			continue;
		score[s] = log_sum / n;
		if (best < 0 || score[s] > score[best]) {
			second = best;
			best = s;
		} else if (second < 0 || score[s] > score[second]) {
			second = s;
		}
	}
	if (best < 0)
		return;
	out->best = settings[best];
	/* the runner-up; with no other complete setting, the first other one the report has */
	for (int s = 0; second < 0 && s < out->n_settings; s++)
		if (s != best)
			second = s;
	out->reference = settings[second];
	for (int t = 0; t < out->n_tests; t++) {
		out->change_pct[t] = change_in(&out->tests[t], out->best, out->reference);
		if (!isnan(out->change_pct[t]) &&
		    (out->worst_test < 0 || out->change_pct[t] < out->change_pct[out->worst_test]))
			out->worst_test = t;
	}
}

const char *nb_rv_front_figures(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *tps = nb_cmp_point_metric(p, NB_M_RR_TRANSACTIONS_PER_S), *p99 = nb_rv_p99(p);
	double bps;
	int n = 0;

	if (tput_of(p, &bps) && nb_metric_kind_of(nb_rv_headline(p)) == NB_UNIT_PACKET_PER_S)
		n = snprintf(buf, len, "%.1f kpps", bps / 1e3);
	else if (tput_of(p, &bps))
		nb_rv_bps(buf, len, bps), n = (int)strlen(buf);
	else if (tps && tps->n > 0 && p->status == NB_CMP_STATUS_OK)
		n = snprintf(buf, len, "%.0f trans/s", tps->median);
	if (p99 && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%sp99 %.0f us", n ? ", " : "", p99->median);
	if (n == 0)
		snprintf(buf, len, "-");
	return buf;
}

const char *nb_rv_bps(char *buf, size_t len, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f Gbit/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.1f Mbit/s", bps / 1e6);
	else if (bps >= 1e3)
		snprintf(buf, len, "%.1f kbit/s", bps / 1e3);
	else
		snprintf(buf, len, "%.0f bit/s", bps);
	return buf;
}

bool nb_rv_moved(const struct nb_cmp_result *r, const struct nb_cmp_point_result *pr, char *buf, size_t len)
{
	struct nb_bottleneck a, b;

	if (len)
		buf[0] = '\0';
	if (!pr->base || !pr->new)
		return false;
	nb_rv_bottleneck(r->base, pr->base, &a);
	nb_rv_bottleneck(r->new, pr->new, &b);
	return nb_bn_moved(&a, &b, buf, len);
}
