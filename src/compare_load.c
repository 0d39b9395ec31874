/* Read a nicbench-report/1 JSON file into compare's plain structs; the only compare file that knows jansson. */
#include "compare_load.h"
#include "compare_stats.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thousands of small strings and arrays per report: one arena keeps loading fast
 * and makes nb_cmp_report_free a handful of free() calls. */
struct nb_cmp_arena_chunk {
	struct nb_cmp_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct nb_cmp_arena {
	struct nb_cmp_arena_chunk *head;
};

#define ARENA_CHUNK_MIN (256 * 1024)

static void *arena_alloc(struct nb_cmp_arena *a, size_t len)
{
	struct nb_cmp_arena_chunk *c = a->head;
	size_t align = sizeof(max_align_t);

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

/* A loader context: the arena plus the error to fill and the file's name. */
struct loader {
	struct nb_cmp_arena *arena;
	struct nb_err *err;
	const char *label;
};

static int oom(struct loader *ld)
{
	return nb_err_set(ld->err, -ENOMEM, "load report %s: out of memory", ld->label);
}

static const char *json_str_or(json_t *obj, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : fallback;
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

/* Fields that should be equal in both reports; the kernel is what is being compared,
 * and in-tree driver versions follow it, so neither is listed. */
static const char *const env_keys[] = {
	"host.hostname", "host.cpus", "host.cpu_model",
	"interface.name", "interface.driver", "interface.firmware", "interface.bus_info",
	"interface.mtu", "interface.speed_mbps",
	"peer.host", "peer.port",
	"config.duration", "config.omit", "config.repetitions", "config.settle",
	"config.tests", "config.knobs",
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

/* Compact, key-sorted JSON text so equal values compare equal as strings. */
static const char *json_compact(struct loader *ld, json_t *v)
{
	char *text;
	const char *copy;

	if (!v || json_is_null(v))
		return NULL;
	text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text)
		return NULL;
	copy = arena_strdup(ld->arena, text);
	free(text);
	return copy;
}

static int load_env(struct loader *ld, json_t *root, struct nb_cmp_report *r)
{
	for (size_t i = 0; i < sizeof(env_keys) / sizeof(env_keys[0]) && r->n_env < NB_CMP_ENV_MAX; i++) {
		json_t *v = json_get_path(root, env_keys[i]);

		r->env[r->n_env].key = env_keys[i];
		r->env[r->n_env].value = json_compact(ld, v);
		if (v && !json_is_null(v) && !r->env[r->n_env].value)
			return oom(ld);
		r->n_env++;
	}
	return 0;
}

/* A value array may hold non-numbers from a broken writer: they are skipped. */
static int load_values(struct loader *ld, json_t *arr, struct nb_cmp_samples *s)
{
	size_t n = json_array_size(arr);
	size_t i;
	json_t *v;

	s->values = n ? arena_alloc(ld->arena, sizeof(double) * n) : NULL;
	if (n && !s->values)
		return oom(ld);
	s->n = 0;
	json_array_foreach(arr, i, v) {
		if (json_is_number(v))
			s->values[s->n++] = json_number_value(v);
	}
	return 0;
}

static int load_metric(struct loader *ld, const char *name, json_t *m, struct nb_cmp_samples *s)
{
	json_t *median;
	int ret;

	snprintf(s->name, sizeof(s->name), "%s", name);
	s->n = 0;
	s->values = NULL;
	if (json_is_number(m)) { /* a bare number: a median without runs */
		s->median = json_number_value(m);
		return 1;
	}
	if (!json_is_object(m))
		return 0;
	ret = load_values(ld, json_object_get(m, "values"), s);
	if (ret)
		return ret;
	median = json_object_get(m, "median");
	if (json_is_number(median)) {
		s->median = json_number_value(median);
		return 1;
	}
	if (s->n == 0)
		return 0;
	s->median = nb_stats_median(s->values, s->n);
	return 1;
}

static int load_metrics(struct loader *ld, json_t *obj, struct nb_cmp_point *p)
{
	const char *name;
	json_t *m;
	size_t n = json_object_size(obj);

	p->n_metrics = 0;
	p->metrics = n ? arena_alloc(ld->arena, sizeof(*p->metrics) * n) : NULL;
	if (n && !p->metrics)
		return oom(ld);
	json_object_foreach(obj, name, m) {
		int ret = load_metric(ld, name, m, &p->metrics[p->n_metrics]);

		if (ret < 0)
			return ret;
		if (ret > 0)
			p->n_metrics++;
	}
	return 0;
}

static int load_pairs(struct loader *ld, json_t *runs, struct nb_cmp_point *p)
{
	size_t n = json_array_size(runs);
	size_t i;
	json_t *run;

	p->n_pairs = 0;
	if (!n)
		return 0;
	p->pair_throughput_bps = arena_alloc(ld->arena, sizeof(double) * n);
	p->pair_cpu_busy_pct = arena_alloc(ld->arena, sizeof(double) * n);
	if (!p->pair_throughput_bps || !p->pair_cpu_busy_pct)
		return oom(ld);
	json_array_foreach(runs, i, run) {
		json_t *m = json_object_get(run, "metrics");
		json_t *thr = json_object_get(m, "throughput_bps");
		json_t *cpu = json_object_get(m, "cpu_busy_pct");

		if (parse_status(json_string_value(json_object_get(run, "status"))) != NB_CMP_STATUS_OK)
			continue;
		if (!json_is_number(thr) || !json_is_number(cpu))
			continue;
		p->pair_throughput_bps[p->n_pairs] = json_number_value(thr);
		p->pair_cpu_busy_pct[p->n_pairs] = json_number_value(cpu);
		p->n_pairs++;
	}
	return 0;
}

static int load_profile(struct loader *ld, json_t *arr, struct nb_cmp_point *p)
{
	size_t n = json_array_size(arr);
	size_t i;
	json_t *e;

	p->n_profile = 0;
	if (!n)
		return 0;
	p->profile = arena_alloc(ld->arena, sizeof(*p->profile) * n);
	if (!p->profile)
		return oom(ld);
	json_array_foreach(arr, i, e) {
		const char *sym = json_string_value(json_object_get(e, "symbol"));
		json_t *share = json_object_get(e, "share_pct");

		if (!sym || !json_is_number(share))
			continue;
		p->profile[p->n_profile].symbol = arena_strdup(ld->arena, sym);
		if (!p->profile[p->n_profile].symbol)
			return oom(ld);
		p->profile[p->n_profile].share_pct = json_number_value(share);
		p->n_profile++;
	}
	return 0;
}

/* "threaded=1 gro_flush_timeout=20000" in the report's key order. */
static const char *knobs_text(struct loader *ld, json_t *knobs)
{
	char buf[512];
	size_t used = 0;
	const char *key;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach(knobs, key, v) {
		const char *val = json_string_value(v);
		char num[32];

		if (!val) {
			snprintf(num, sizeof(num), "%g", json_number_value(v));
			val = num;
		}
		int w = snprintf(buf + used, sizeof(buf) - used, "%s%s=%s", used ? " " : "", key, val);

		if (w < 0 || (size_t)w >= sizeof(buf) - used)
			break;
		used += (size_t)w;
	}
	return arena_strdup(ld->arena, buf);
}

static int load_point(struct loader *ld, size_t index, json_t *res, struct nb_cmp_point *p)
{
	json_t *test = json_object_get(res, "test");
	const char *id = json_string_value(json_object_get(res, "id"));
	const char *error = json_string_value(json_object_get(res, "error"));
	int ret;

	memset(p, 0, sizeof(*p));
	if (!id || !*id)
		return nb_err_set(ld->err, -EINVAL, "load report %s: results[%zu] has no \"id\"", ld->label, index);
	p->id = arena_strdup(ld->arena, id);
	p->test_name = arena_strdup(ld->arena, json_str_or(test, "name", ""));
	p->direction = arena_strdup(ld->arena, json_str_or(test, "direction", ""));
	p->knobs = knobs_text(ld, json_object_get(res, "knobs"));
	p->test_json = json_compact(ld, test);
	p->status = parse_status(json_string_value(json_object_get(res, "status")));
	p->error = error ? arena_strdup(ld->arena, error) : NULL;
	if (!p->id || !p->test_name || !p->direction || !p->knobs || (error && !p->error))
		return oom(ld);
	ret = load_metrics(ld, json_object_get(res, "metrics"), p);
	if (!ret)
		ret = load_pairs(ld, json_object_get(res, "runs"), p);
	if (!ret)
		ret = load_profile(ld, json_object_get(res, "profile"), p);
	return ret;
}

static int load_root(struct loader *ld, json_t *root, struct nb_cmp_report *r)
{
	json_t *schema = json_object_get(root, "schema");
	json_t *results = json_object_get(root, "results");
	json_t *host = json_object_get(root, "host");
	size_t i;
	json_t *res;
	int ret;

	if (!json_is_object(root))
		return nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (top level is not an object)",
				  ld->label);
	if (!json_is_string(schema))
		return nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (no \"schema\" key)",
				  ld->label);
	if (strcmp(json_string_value(schema), NB_CMP_REPORT_SCHEMA))
		return nb_err_set(ld->err, -EPROTO, "load report %s: schema \"%s\" is not supported (expected \"%s\")",
				  ld->label, json_string_value(schema), NB_CMP_REPORT_SCHEMA);
	if (!json_is_array(results) || json_array_size(results) == 0)
		return nb_err_set(ld->err, -ENODATA, "load report %s: the report has no results", ld->label);

	r->kernel_release = arena_strdup(ld->arena, json_str_or(json_object_get(host, "kernel"), "release", ""));
	r->created = arena_strdup(ld->arena, json_str_or(root, "created", ""));
	r->cpus = (int)json_integer_value(json_object_get(host, "cpus"));
	if (!r->kernel_release || !r->created)
		return oom(ld);
	ret = load_env(ld, root, r);
	if (ret)
		return ret;
	r->points = arena_alloc(ld->arena, sizeof(*r->points) * json_array_size(results));
	if (!r->points)
		return oom(ld);
	json_array_foreach(results, i, res) {
		ret = load_point(ld, i, res, &r->points[r->n_points]);
		if (ret)
			return ret;
		r->n_points++;
	}
	return 0;
}

int nb_cmp_report_parse(const char *text, size_t len, const char *label, struct nb_cmp_report *out,
			struct nb_err *err)
{
	struct loader ld = { .err = err, .label = label };
	json_error_t jerr;
	json_t *root;
	int ret;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return nb_err_set(err, -EINVAL, "load report %s: the file is empty", label);
	root = json_loadb(text, len, 0, &jerr);
	if (!root)
		return nb_err_set(err, -EINVAL, "load report %s: not valid JSON (line %d, column %d: %s)", label,
				  jerr.line, jerr.column, jerr.text);
	ld.arena = calloc(1, sizeof(*ld.arena));
	if (!ld.arena) {
		json_decref(root);
		return oom(&ld);
	}
	out->arena = ld.arena;
	out->path = arena_strdup(ld.arena, label);
	ret = out->path ? load_root(&ld, root, out) : oom(&ld);
	json_decref(root);
	if (ret)
		nb_cmp_report_free(out);
	return ret;
}

static int read_whole_file(const char *path, char **text, size_t *len, struct nb_err *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, used = 0;
	char *buf;

	if (!f)
		return nb_err_set(err, -errno, "load report %s: %s", path, strerror(errno));
	buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + used, 1, cap - used, f);

		used += got;
		if (used < cap)
			break;
		char *bigger = realloc(buf, cap * 2);

		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	if (!buf) {
		fclose(f);
		return nb_err_set(err, -ENOMEM, "load report %s: out of memory", path);
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		fclose(f);
		free(buf);
		return nb_err_set(err, -e, "load report %s: %s", path, strerror(e));
	}
	fclose(f);
	*text = buf;
	*len = used;
	return 0;
}

int nb_cmp_report_load(const char *path, struct nb_cmp_report *out, struct nb_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_whole_file(path, &text, &len, err);
	if (ret)
		return ret;
	ret = nb_cmp_report_parse(text, len, path, out, err);
	free(text);
	return ret;
}

void nb_cmp_report_free(struct nb_cmp_report *r)
{
	if (!r)
		return;
	arena_free(r->arena);
	memset(r, 0, sizeof(*r));
}

const struct nb_cmp_samples *nb_cmp_point_metric(const struct nb_cmp_point *p, const char *name)
{
	for (int i = 0; i < p->n_metrics; i++) {
		if (!strcmp(p->metrics[i].name, name))
			return &p->metrics[i];
	}
	return NULL;
}
