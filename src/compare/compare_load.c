// SPDX-License-Identifier: MIT
/* Read nicbench-report/1 files into compare's plain structs with jansson. */
#include "compare_load.h"
#include "compare_stats.h"
#include "kit/headline.h"
#include "kit/metric_table.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Thousands of small strings and arrays per report: one arena copies them out of the
 * jansson tree (which is freed right after loading: with raw iperf JSON it is most of
 * the file) and makes nb_cmp_report_free a handful of free() calls. */
struct nb_cmp_arena_chunk {
	struct nb_cmp_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct nb_cmp_arena {
	struct nb_cmp_arena_chunk *head;
};

#define ARENA_CHUNK_MIN (256 * 1024)

/* The arena holds chars, ints, doubles and pointers: their alignment, not
 * max_align_t's, which would pad each five-run sample array by a fifth. */
union arena_align {
	double d;
	long long ll;
	void *p;
};

static void *arena_alloc(struct nb_cmp_arena *a, size_t len)
{
	struct nb_cmp_arena_chunk *c = a->head;
	size_t align = _Alignof(union arena_align);

	len = (len + align - 1) / align * align;
	if (!c || c->size - c->used < len) {
		size_t size = len > ARENA_CHUNK_MIN ? len : ARENA_CHUNK_MIN;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;

	c->used += len;
	return p;
}

static void arena_free(struct nb_cmp_arena *a)
{
	if (!a)
		return;
	while (a->head) {
		struct nb_cmp_arena_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
	free(a);
}

static const char *arena_strdup(struct nb_cmp_arena *a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = arena_alloc(a, len);

	if (d)
		memcpy(d, s, len);
	return d;
}

/* Zeroed room for n elements of size elem (NULL for n == 0, never an error then). */
static void *arena_array(struct nb_cmp_arena *a, size_t n, size_t elem)
{
	void *d;

	if (!n)
		return NULL;
	d = arena_alloc(a, n * elem);
	if (d)
		memset(d, 0, n * elem);
	return d;
}

#define LOADER_NAMES_MAX 256

/* A loader context: the arena, the error to fill and the report's name. */
struct loader {
	struct nb_cmp_arena *arena;
	struct nb_err *err;
	const char *label;
	int n_names;
	const char *names[LOADER_NAMES_MAX]; /* metric names met so far, each copied once */
	bool promiscuous;                    /* config.promiscuous: UDP rx points are floods */
};

static int oom(struct loader *ld)
{
	return nb_err_set(ld->err, -ENOMEM, "load report %s: out of memory", ld->label);
}

const char *nb_cmp_status_name(enum nb_cmp_status s)
{
	static const char *const names[] = {
		[NB_CMP_STATUS_OK] = "ok",
		[NB_CMP_STATUS_FAILED] = "failed",
		[NB_CMP_STATUS_TIMEOUT] = "timeout",
		[NB_CMP_STATUS_UNSUPPORTED] = "unsupported",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "failed";
}

static enum nb_cmp_status parse_status(const char *s)
{
	if (!s || !strcmp(s, "ok"))
		return NB_CMP_STATUS_OK;
	if (!strcmp(s, "timeout"))
		return NB_CMP_STATUS_TIMEOUT;
	if (!strcmp(s, "unsupported"))
		return NB_CMP_STATUS_UNSUPPORTED;
	/* Unknown states from a newer runner count as a failure rather than as data. */
	return NB_CMP_STATUS_FAILED;
}

/* A string member copied into the arena, or fallback (not copied) when absent or not a string. */
static int copy_str(struct loader *ld, json_t *obj, const char *key, const char *fallback, const char **out)
{
	const char *s = json_string_value(json_object_get(obj, key));

	*out = s ? arena_strdup(ld->arena, s) : fallback;
	return s && !*out ? oom(ld) : 0;
}

/* Fields that should be equal in both reports; the kernel is what is being compared,
 * and in-tree driver versions follow it, so neither is listed. */
static const char *const env_keys[] = {
	"host.hostname", "host.cpus", "host.cpu_model",
	"interface.name", "interface.driver", "interface.firmware", "interface.bus_info",
	"interface.mtu", "interface.speed_mbps",
	"peer.host", "peer.port",
	"config.duration", "config.omit", "config.repetitions", "config.settle",
	"config.tests", "config.knobs", "config.interval_ms", "config.trace", "config.profile",
};

static json_t *json_get_path(json_t *root, const char *dotted)
{
	char buf[64];
	char *save = NULL;
	json_t *cur = root;

	snprintf(buf, sizeof(buf), "%s", dotted);
	for (char *tok = strtok_r(buf, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, tok);
	return cur;
}

/* Compact, key-sorted JSON text so equal values compare equal as strings; NULL for
 * absent or null (*out), -ENOMEM otherwise. */
static int json_compact(struct loader *ld, json_t *v, const char **out)
{
	char *text;

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (text)
		*out = arena_strdup(ld->arena, text);
	free(text);
	return *out ? 0 : oom(ld);
}

static int load_env(struct loader *ld, json_t *root, struct nb_cmp_report *r)
{
	for (size_t i = 0; i < sizeof(env_keys) / sizeof(env_keys[0]) && r->n_env < NB_CMP_ENV_MAX; i++) {
		r->env[r->n_env].key = env_keys[i];
		if (json_compact(ld, json_get_path(root, env_keys[i]), &r->env[r->n_env].value))
			return -ENOMEM;
		r->n_env++;
	}
	return 0;
}

/* Where a bad value sits, for messages: results[3] ("tcp-rx/threaded=1"). */
struct where {
	size_t index;
	const char *id;
};

static int bad_value(struct loader *ld, const struct where *w, const char *what, const char *expected, json_t *v)
{
	static const char *const type_names[] = {
		[JSON_OBJECT] = "an object", [JSON_ARRAY] = "an array", [JSON_STRING] = "a string",
		[JSON_INTEGER] = "a number", [JSON_REAL] = "a number", [JSON_TRUE] = "true",
		[JSON_FALSE] = "false", [JSON_NULL] = "null",
	};

	return nb_err_set(ld->err, -EINVAL, "load report %s: results[%zu] (\"%s\") %s is %s, expected %s", ld->label,
			  w->index, w->id, what, type_names[json_typeof(v)], expected);
}

/* One copy of each metric name per report (a dozen names, a thousand points) keeps
 * the samples small; hint is where the name was in the last point. */
static const char *intern_name(struct loader *ld, size_t hint, const char *name)
{
	const char *copy;

	if (hint < (size_t)ld->n_names && !strcmp(ld->names[hint], name))
		return ld->names[hint];
	for (int i = 0; i < ld->n_names; i++) {
		if (!strcmp(ld->names[i], name))
			return ld->names[i];
	}
	copy = arena_strdup(ld->arena, name);
	if (copy && ld->n_names < LOADER_NAMES_MAX)
		ld->names[ld->n_names++] = copy;
	return copy;
}

/* One metric: {"median": M, "values": [...]} or a bare number. Returns 1 when kept,
 * 0 when the metric is null or has neither (missing), -errno on a value of the wrong type. */
static int load_metric(struct loader *ld, const struct where *w, const char *name, json_t *v,
		       struct nb_cmp_samples *m)
{
	char what[256];
	json_t *median, *values;

	if (json_is_number(v)) {
		m->median = json_number_value(v);
		return 1;
	}
	snprintf(what, sizeof(what), "metric \"%s\"", name);
	if (json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return bad_value(ld, w, what, "a number or an object", v);
	median = json_object_get(v, "median");
	values = json_object_get(v, "values");
	if (median && !json_is_number(median) && !json_is_null(median)) {
		snprintf(what, sizeof(what), "metric \"%s\" median", name);
		return bad_value(ld, w, what, "a number", median);
	}
	if (values && !json_is_array(values)) {
		snprintf(what, sizeof(what), "metric \"%s\" values", name);
		return bad_value(ld, w, what, "an array of numbers", values);
	}
	m->n = (int)json_array_size(values);
	m->values = arena_array(ld->arena, (size_t)m->n, sizeof(double));
	if (m->n && !m->values)
		return oom(ld);
	for (int i = 0; i < m->n; i++) {
		json_t *x = json_array_get(values, (size_t)i);

		if (!json_is_number(x)) {
			snprintf(what, sizeof(what), "metric \"%s\" values[%d]", name, i);
			return bad_value(ld, w, what, "a number", x);
		}
		m->values[i] = json_number_value(x);
	}
	if (json_is_number(median))
		m->median = json_number_value(median);
	else if (m->n)
		m->median = nb_stats_median(m->values, m->n);
	return json_is_number(median) || m->n ? 1 : 0;
}

/* The measured metrics, then those only the point's diagnostic repetition has (tracepoints), each
 * as one value marked diagnostic: shown, never gated. A diagnostic repetition that failed adds none. */
static int load_metrics(struct loader *ld, const struct where *w, json_t *metrics, json_t *diagnostics,
			struct nb_cmp_point *p)
{
	json_t *diag = json_object_get(diagnostics, "metrics");
	const char *status = json_string_value(json_object_get(diagnostics, "status"));
	size_t room = json_object_size(metrics);
	const char *name;
	json_t *v;

	if (metrics && !json_is_object(metrics))
		return bad_value(ld, w, "\"metrics\"", "an object", metrics);
	if (!status || strcmp(status, "ok") || !json_is_object(diag))
		diag = NULL;
	room += json_object_size(diag);
	p->metrics = arena_array(ld->arena, room, sizeof(*p->metrics));
	if (room && !p->metrics)
		return oom(ld);
	json_object_foreach(metrics, name, v) {
		struct nb_cmp_samples *m = &p->metrics[p->n_metrics];
		int ret = load_metric(ld, w, name, v, m);

		if (ret < 0)
			return ret;
		if (!ret)
			continue;
		m->name = intern_name(ld, (size_t)p->n_metrics, name);
		if (!m->name)
			return oom(ld);
		p->n_metrics++;
	}
	json_object_foreach(diag, name, v) {
		struct nb_cmp_samples *m = &p->metrics[p->n_metrics];

		if (!json_is_number(v) || json_object_get(metrics, name))
			continue;
		m->median = json_number_value(v);
		m->n = 1;
		m->values = arena_array(ld->arena, 1, sizeof(double));
		m->name = intern_name(ld, (size_t)p->n_metrics, name);
		if (!m->values || !m->name)
			return oom(ld);
		m->values[0] = m->median;
		m->diagnostic = true;
		p->n_metrics++;
	}
	return 0;
}

/* Runs that are ok and measured both throughput and CPU busy, for the efficiency metric. */
static int load_runs(struct loader *ld, json_t *runs, struct nb_cmp_point *p)
{
	size_t n = json_array_size(runs);
	size_t i;
	json_t *run;

	p->pair_throughput_bps = arena_array(ld->arena, n, sizeof(double));
	p->pair_cpu_busy_pct = arena_array(ld->arena, n, sizeof(double));
	if (n && (!p->pair_throughput_bps || !p->pair_cpu_busy_pct))
		return oom(ld);
	json_array_foreach(runs, i, run) {
		json_t *metrics = json_object_get(run, "metrics");
		json_t *thr = json_object_get(metrics, NB_M_THROUGHPUT_BPS), *cpu = json_object_get(metrics, NB_M_CPU_BUSY_PCT);

		if (parse_status(json_string_value(json_object_get(run, "status"))) != NB_CMP_STATUS_OK ||
		    !json_is_number(thr) || !json_is_number(cpu))
			continue;
		p->pair_throughput_bps[p->n_pairs] = json_number_value(thr);
		p->pair_cpu_busy_pct[p->n_pairs] = json_number_value(cpu);
		p->n_pairs++;
	}
	return 0;
}

static int load_profile(struct loader *ld, json_t *profile, struct nb_cmp_point *p)
{
	size_t n = json_array_size(profile);
	size_t i;
	json_t *e;

	p->profile = arena_array(ld->arena, n, sizeof(*p->profile));
	if (n && !p->profile)
		return oom(ld);
	json_array_foreach(profile, i, e) {
		struct nb_cmp_profile_entry *pe = &p->profile[p->n_profile];
		json_t *share = json_object_get(e, "share_pct");

		if (!json_is_string(json_object_get(e, "symbol")) || !json_is_number(share))
			continue;
		if (copy_str(ld, e, "symbol", NULL, &pe->symbol))
			return -ENOMEM;
		pe->share_pct = json_number_value(share);
		p->n_profile++;
	}
	return 0;
}

/* The file is named relative to the report's directory (the label, for a report read from a
 * file); a name with a slash in it is not ours and is left alone. */
static int load_stacks_file(struct loader *ld, json_t *stacks, struct nb_cmp_point *p)
{
	const char *file = json_string_value(json_object_get(stacks, "file"));
	const char *slash = strrchr(ld->label, '/');
	char path[4096];

	if (!file || !*file || strchr(file, '/'))
		return 0;
	snprintf(path, sizeof(path), "%.*s%s", slash ? (int)(slash - ld->label + 1) : 0, ld->label, file);
	p->stacks_file = arena_strdup(ld->arena, path);
	return p->stacks_file ? 0 : oom(ld);
}

/* "threaded=1 gro_flush_timeout=20000" in the report's key order, cut at 511 bytes; for display only. */
static int load_knobs(struct loader *ld, json_t *knobs, struct nb_cmp_point *p)
{
	char buf[512];
	size_t used = 0;
	const char *key;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach(knobs, key, v) {
		char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		const char *val = json_is_string(v) ? json_string_value(v) : text;
		int n = snprintf(buf + used, sizeof(buf) - used, "%s%s=%s", used ? " " : "", key, val ? val : "");

		free(text);
		if (n < 0 || (size_t)n >= sizeof(buf) - used) {
			buf[used] = '\0'; /* keep whole settings only */
			break;
		}
		used += (size_t)n;
	}
	p->knobs = arena_strdup(ld->arena, buf);
	return p->knobs ? 0 : oom(ld);
}

/* The point's "headline" as the run wrote it; a report from before the field (or naming a metric
 * nicbench does not write) gets the same rule from its test (kit/headline.h). Static strings. */
static const char *point_headline(const struct loader *ld, json_t *res, json_t *test)
{
	const char *written = json_string_value(json_object_get(res, "headline"));
	const char *proto = json_string_value(json_object_get(test, "protocol"));
	const char *dir = json_string_value(json_object_get(test, "direction"));
	const struct nb_metric_def *d = written ? nb_metric_lookup(written) : NULL;
	json_t *rate = json_object_get(test, "rate"), *length = json_object_get(test, "length");
	struct nb_headline_test h = { .promiscuous = ld->promiscuous };

	if (d && !strcmp(d->name, written))
		return d->name;
	h.udp = proto && !strcmp(proto, "udp");
	h.rx = dir && !strcmp(dir, "rx");
	h.rr = dir && !strcmp(dir, "rr");
	h.rate_bps = json_is_integer(rate) && json_integer_value(rate) > 0 ? (uint64_t)json_integer_value(rate) : 0;
	h.length = json_is_integer(length) && json_integer_value(length) > 0 && json_integer_value(length) < 65536
			   ? (int)json_integer_value(length) : 0;
	return nb_headline_metric(&h);
}

static int load_point(struct loader *ld, size_t index, json_t *res, struct nb_cmp_point *p)
{
	json_t *test = json_object_get(res, "test");
	struct where w = { index, NULL };
	const char *status;
	int ret;

	memset(p, 0, sizeof(*p));
	w.id = json_string_value(json_object_get(res, "id"));
	if (!w.id || !*w.id)
		return nb_err_set(ld->err, -EINVAL, "load report %s: results[%zu] has no \"id\"", ld->label, index);
	status = json_string_value(json_object_get(res, "status"));
	/* incomplete: the run was killed or stopped during the point; its finished runs are data */
	p->incomplete = status && !strcmp(status, "incomplete");
	p->status = p->incomplete ? NB_CMP_STATUS_OK : parse_status(status);
	ret = copy_str(ld, res, "id", "", &p->id);
	if (!ret)
		ret = copy_str(ld, res, "error", NULL, &p->error);
	if (!ret)
		ret = copy_str(ld, test, "name", "", &p->test_name);
	if (!ret)
		ret = copy_str(ld, test, "direction", "", &p->direction);
	if (!ret && json_is_object(test))
		ret = json_compact(ld, test, &p->test_json);
	p->headline = point_headline(ld, res, test);
	if (!ret)
		ret = load_knobs(ld, json_object_get(res, "knobs"), p);
	if (!ret)
		ret = load_metrics(ld, &w, json_object_get(res, "metrics"), json_object_get(res, "diagnostics"), p);
	if (!ret)
		ret = load_runs(ld, json_object_get(res, "runs"), p);
	if (!ret)
		ret = load_profile(ld, json_object_get(res, "profile"), p);
	if (!ret)
		ret = load_stacks_file(ld, json_object_get(res, "profile_stacks"), p);
	return ret;
}

/* "round": {"side": "A", "index": 1, "of": 5, "set": "..."}; absent is fine, a malformed one is
 * an error: compare over rounds pairs on it. */
static int load_round(struct loader *ld, json_t *round, struct nb_cmp_round *out)
{
	const char *side = json_string_value(json_object_get(round, "side"));
	json_t *index = json_object_get(round, "index"), *of = json_object_get(round, "of");

	memset(out, 0, sizeof(*out));
	out->set = "";
	if (!round)
		return 0;
	if (!json_is_object(round) || !side || (strcmp(side, "A") && strcmp(side, "B")) || !json_is_integer(index) ||
	    !json_is_integer(of) || json_integer_value(index) < 1 || json_integer_value(of) < json_integer_value(index) ||
	    json_integer_value(of) > 100000)
		return nb_err_set(ld->err, -EINVAL,
				  "load report %s: \"round\" is not {\"side\": \"A\" or \"B\", \"index\": I, \"of\": N} "
				  "with 1 <= I <= N", ld->label);
	out->present = true;
	out->side = side[0];
	out->index = (int)json_integer_value(index);
	out->of = (int)json_integer_value(of);
	return copy_str(ld, round, "set", "", &out->set);
}

/* The report as a jansson tree -> out. Checks schema, then results, then the rest. */
static int load_root(struct loader *ld, json_t *root, struct nb_cmp_report *r)
{
	json_t *schema = json_object_get(root, "schema");
	json_t *results = json_object_get(root, "results");
	json_t *host = json_object_get(root, "host");
	json_t *cpus = json_object_get(host, "cpus");
	size_t i;
	json_t *res;
	int ret;

	if (!json_is_object(root))
		return nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (top level is not an object)",
				  ld->label);
	if (!json_is_string(schema))
		return nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (no \"schema\" key)", ld->label);
	if (strcmp(json_string_value(schema), NB_CMP_REPORT_SCHEMA))
		return nb_err_set(ld->err, -EPROTO, "load report %s: schema \"%s\" is not supported (expected \"%s\")",
				  ld->label, json_string_value(schema), NB_CMP_REPORT_SCHEMA);
	if (!json_array_size(results))
		return nb_err_set(ld->err, -ENODATA, "load report %s: the report has no results", ld->label);
	ld->promiscuous = json_is_true(json_object_get(json_object_get(root, "config"), "promiscuous"));
	r->points = arena_array(ld->arena, json_array_size(results), sizeof(*r->points));
	if (!r->points)
		return oom(ld);
	json_array_foreach(results, i, res) {
		ret = load_point(ld, i, res, &r->points[r->n_points]);
		if (ret)
			return ret;
		r->n_points++;
	}
	ret = copy_str(ld, json_object_get(host, "kernel"), "release", "", &r->kernel_release);
	if (!ret)
		ret = copy_str(ld, host, "hostname", "", &r->hostname);
	if (!ret)
		ret = copy_str(ld, root, "created", "", &r->created);
	if (!ret)
		ret = copy_str(ld, json_object_get(root, "restore"), "status", "", &r->restore_status);
	if (!ret)
		ret = copy_str(ld, json_object_get(root, "restore"), "error", "", &r->restore_error);
	r->restore_knobs = (int)json_array_size(json_object_get(json_object_get(root, "restore"), "knobs"));
	r->cpus = json_is_integer(cpus) ? (int)json_integer_value(cpus) : 0;
	if (!ret)
		ret = load_round(ld, json_object_get(root, "round"), &r->round);
	return ret ? ret : load_env(ld, root, r);
}

/* Where jansson's tree comes from: a buffer in memory or a file descriptor. */
struct source {
	const char *text;
	size_t len;
	int fd;
	size_t got;    /* bytes read from fd */
	int read_errno;
};

/* jansson asks for the file in chunks: reading it, rather than mapping it, leaves no
 * page to fault when the file is truncated under us, and a pipe works the same way. */
static size_t read_chunk(void *buf, size_t len, void *arg)
{
	struct source *src = arg;

	for (;;) {
		ssize_t n = read(src->fd, buf, len);

		if (n >= 0) {
			src->got += (size_t)n;
			return (size_t)n;
		}
		if (errno != EINTR) {
			src->read_errno = errno;
			return (size_t)-1;
		}
	}
}

static int parse_source(struct source *src, const char *label, struct nb_cmp_report *out, struct nb_err *err)
{
	struct loader ld = { .err = err, .label = label };
	json_error_t jerr;
	json_t *root;
	int ret;

	memset(out, 0, sizeof(*out));
	ld.arena = calloc(1, sizeof(*ld.arena));
	if (!ld.arena)
		return oom(&ld);
	out->arena = ld.arena;
	if (src->text)
		root = json_loadb(src->text, src->len, 0, &jerr);
	else
		root = json_load_callback(read_chunk, src, 0, &jerr);
	if (!root && src->read_errno)
		ret = nb_err_set(err, -src->read_errno, "load report %s: %s", label, strerror(src->read_errno));
	else if (!root && (src->text ? src->len : src->got) == 0)
		ret = nb_err_set(err, -EINVAL, "load report %s: the file is empty", label);
	else if (!root)
		ret = nb_err_set(err, json_error_code(&jerr) == json_error_out_of_memory ? -ENOMEM : -EINVAL,
				 "load report %s: not valid JSON (line %d, column %d: %s)", label, jerr.line, jerr.column,
				 jerr.text);
	else if (!(out->path = arena_strdup(ld.arena, label)))
		ret = oom(&ld);
	else
		ret = load_root(&ld, root, out);
	json_decref(root);
	if (ret)
		nb_cmp_report_free(out);
	return ret;
}

int nb_cmp_report_parse(const char *text, size_t len, const char *label, struct nb_cmp_report *out,
			struct nb_err *err)
{
	struct source src = { .text = text ? text : "", .len = len, .fd = -1 };

	return parse_source(&src, label, out, err);
}

int nb_cmp_report_load(const char *path, struct nb_cmp_report *out, struct nb_err *err)
{
	struct source src = { .fd = open(path, O_RDONLY | O_CLOEXEC) };
	struct stat st;
	int ret;

	memset(out, 0, sizeof(*out));
	if (src.fd < 0)
		return nb_err_set(err, -errno, "load report %s: %s", path, strerror(errno));
	if (fstat(src.fd, &st) || S_ISDIR(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		close(src.fd);
		return nb_err_set(err, ret, "load report %s: %s", path, strerror(-ret));
	}
	ret = parse_source(&src, path, out, err);
	close(src.fd);
	return ret;
}

struct load_job {
	const char *path;
	struct nb_cmp_report *report;
	struct nb_err err;
	int ret;
};

static void *load_job_run(void *arg)
{
	struct load_job *job = arg;

	job->ret = nb_cmp_report_load(job->path, job->report, &job->err);
	return NULL;
}

int nb_cmp_reports_load(const char *base_path, const char *new_path, struct nb_cmp_report *base,
			struct nb_cmp_report *new, struct nb_err *err)
{
	struct load_job jobs[2] = { { .path = base_path, .report = base }, { .path = new_path, .report = new } };
	pthread_t thread;
	bool threaded;

	/* jansson seeds its hash function on first use; do that before two threads race to. */
	json_object_seed(0);
	threaded = pthread_create(&thread, NULL, load_job_run, &jobs[0]) == 0;
	if (!threaded)
		load_job_run(&jobs[0]);
	load_job_run(&jobs[1]);
	if (threaded)
		pthread_join(thread, NULL);
	for (int i = 0; i < 2; i++) {
		if (!jobs[i].ret)
			continue;
		if (err)
			*err = jobs[i].err;
		nb_cmp_report_free(base);
		nb_cmp_report_free(new);
		return jobs[i].ret;
	}
	return 0;
}

void nb_cmp_report_free(struct nb_cmp_report *r)
{
	if (!r)
		return;
	arena_free(r->arena);
	memset(r, 0, sizeof(*r));
}

int nb_cmp_report_init(struct nb_cmp_report *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->arena = calloc(1, sizeof(*r->arena));
	if (!r->arena || !(r->path = arena_strdup(r->arena, path))) {
		nb_cmp_report_free(r);
		return -ENOMEM;
	}
	r->kernel_release = r->hostname = r->created = r->restore_status = r->restore_error = "";
	r->round.set = "";
	return 0;
}

void *nb_cmp_report_alloc(struct nb_cmp_report *r, size_t n, size_t elem)
{
	return arena_array(r->arena, n, elem);
}

const char *nb_cmp_report_strdup(struct nb_cmp_report *r, const char *s)
{
	return arena_strdup(r->arena, s);
}

const struct nb_cmp_samples *nb_cmp_point_metric(const struct nb_cmp_point *p, const char *name)
{
	for (int i = 0; i < p->n_metrics; i++) {
		/* Renderers ask for one metric per point: skip the call for most names. */
		if (p->metrics[i].name[0] == name[0] && !strcmp(p->metrics[i].name, name))
			return &p->metrics[i];
	}
	return NULL;
}
