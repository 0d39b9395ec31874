// SPDX-License-Identifier: MIT
/* KCIDB I/O v5.3 output: one test per point and gated metric; DONE with a number for a run, PASS/FAIL for a compare. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "render/render.h"
#include "kit/metric_table.h"

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3

static bool origin_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int nb_kcidb_origin_check(const char *origin, struct nb_err *err)
{
	if (!origin[0])
		return nb_err_set(err, -EINVAL, "--origin is empty (KCIDB wants [a-z0-9_]+)");
	for (const char *c = origin; *c; c++)
		if (!origin_char(*c))
			return nb_err_set(err, -EINVAL, "--origin %s: KCIDB origins are [a-z0-9_]+", origin);
	return 0;
}

int nb_kcidb_build_id_check(const char *id, struct nb_err *err)
{
	const char *colon = strchr(id, ':');

	if (!colon || colon == id)
		return nb_err_set(err, -EINVAL, "--build-id %s: KCIDB ids are ORIGIN:ID with ORIGIN [a-z0-9_]+", id);
	for (const char *c = id; c < colon; c++)
		if (!origin_char(*c))
			return nb_err_set(err, -EINVAL, "--build-id %s: KCIDB ids are ORIGIN:ID with ORIGIN [a-z0-9_]+", id);
	return 0;
}

int nb_kcidb_report_url_check(const char *url, struct nb_err *err)
{
	if (strncmp(url, "https://", 8) && strncmp(url, "http://", 7))
		return nb_err_set(err, -EINVAL, "--report-url %s: KCIDB wants a URL it can download (http:// or https://)",
				  url);
	if (strchr(url, ' ') || strchr(url, '"'))
		return nb_err_set(err, -EINVAL, "--report-url %s: a URL has no spaces or quotes", url);
	return 0;
}

int nb_kcidb_commit_check(const char *commit, struct nb_err *err)
{
	size_t n = strlen(commit);

	if (n < 7 || n > 40 || strspn(commit, "0123456789abcdef") != n)
		return nb_err_set(err, -EINVAL, "--commit %s: a git commit hash, 7 to 40 lowercase hex digits", commit);
	return 0;
}

/* A path node: KCIDB paths are [a-zA-Z0-9_-]+ joined by dots. "threaded=1/gro=20000" -> "threaded-1_gro-20000". */
static void path_node(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (; *s && o + 1 < len; s++) {
		char c = *s;

		if (c == '=')
			c = '-';
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			   c == '_'))
			c = '_';
		buf[o++] = c;
	}
	if (o == 0 && len > 1)
		buf[o++] = '_';
	buf[o] = '\0';
}

/* A unit KCIDB dashboards can scale: bits per second with metric prefixes, percent as is. */
static json_t *number_json(const char *metric, double v)
{
	json_t *n = json_pack("{s:f}", "value", v);
	enum nb_metric_unit_kind kind = nb_metric_kind_of(metric);

	if (kind == NB_UNIT_BIT_PER_S || kind == NB_UNIT_BIT_PER_CPU_S) {
		json_object_set_new(n, "unit", json_string(kind == NB_UNIT_BIT_PER_S ? "bit/s" : "bit/CPU-s"));
		json_object_set_new(n, "prefix", json_string("metric"));
	} else if (nb_metric_kind_is_pct(kind)) {
		json_object_set_new(n, "unit", json_string("%"));
	}
	return n;
}

struct kcidb_doc {
	json_t *root, *tests, *issues, *incidents;
	const char *origin, *build_id;
	const struct nb_kcidb_opts *ko;
	char own_build[256];
};

/* Fields that describe where the run happened: environment.misc of every test. */
static json_t *environment_json(const struct nb_cmp_report *rep)
{
	json_t *misc = json_object();
	char comment[256];
	const char *host, *driver;

	json_object_set_new(misc, "kernel_release", json_string(rep->kernel_release));
	if (rep->cpus > 0)
		json_object_set_new(misc, "cpus", json_integer(rep->cpus));
	for (int i = 0; i < rep->n_env; i++) {
		/* compare_load keeps each field as compact JSON text: the same library reads it back */
		json_t *v = rep->env[i].value ? json_loads(rep->env[i].value, JSON_DECODE_ANY, NULL) : NULL;

		if (v)
			json_object_set_new(misc, rep->env[i].key, v);
	}
	host = json_string_value(json_object_get(misc, "host.hostname"));
	driver = json_string_value(json_object_get(misc, "interface.driver"));
	snprintf(comment, sizeof(comment), "%s, kernel %s, driver %s", host ? host : "unknown host",
		 rep->kernel_release[0] ? rep->kernel_release : "unknown", driver ? driver : "unknown");
	return json_pack("{s:s, s:o}", "comment", comment, "misc", misc);
}

static int doc_init(struct kcidb_doc *d, const struct nb_cmp_report *rep, const struct nb_kcidb_opts *ko)
{
	json_t *checkout;

	memset(d, 0, sizeof(*d));
	d->ko = ko;
	d->origin = ko->origin ? ko->origin : "nicbench";
	d->root = json_object();
	d->tests = json_array();
	d->issues = json_array();
	d->incidents = json_array();
	if (!d->root || !d->tests || !d->issues || !d->incidents)
		return -ENOMEM;
	json_object_set_new(d->root, "version", json_pack("{s:i, s:i}", "major", KCIDB_MAJOR, "minor", KCIDB_MINOR));
	json_object_set(d->root, "tests", d->tests);
	if (ko->build_id) {
		d->build_id = ko->build_id;
		return 0;
	}
	/* Without a farm's build id the file stands alone: a checkout and a build named after the kernel. */
	snprintf(d->own_build, sizeof(d->own_build), "%s:%s", d->origin,
		 rep->kernel_release[0] ? rep->kernel_release : "unknown-kernel");
	d->build_id = d->own_build;
	checkout = json_pack("{s:s, s:s, s:s}", "id", d->own_build, "origin", d->origin, "comment",
			     rep->kernel_release[0] ? rep->kernel_release : "unknown kernel");
	if (ko->commit && strlen(ko->commit) == 40)
		json_object_set_new(checkout, "git_commit_hash", json_string(ko->commit));
	json_object_set_new(d->root, "checkouts", json_pack("[o]", checkout));
	json_object_set_new(d->root, "builds",
			    json_pack("[{s:s, s:s, s:s, s:s}]", "id", d->own_build, "origin", d->origin, "checkout_id",
				      d->own_build, "comment", "the kernel the report was measured on"));
	return 0;
}

static int doc_write(struct kcidb_doc *d, FILE *out)
{
	int ret;

	/* only a compare that found a regression has these: a plain run names no issue */
	if (json_array_size(d->issues)) {
		json_object_set(d->root, "issues", d->issues);
		json_object_set(d->root, "incidents", d->incidents);
	}
	ret = json_dumpf(d->root, out, JSON_INDENT(1) | JSON_REAL_PRECISION(12)) ? -EIO : 0;
	if (!ret && fputc('\n', out) == EOF)
		ret = -EIO;
	json_decref(d->issues);
	json_decref(d->incidents);
	json_decref(d->tests);
	json_decref(d->root);
	return ret ? ret : (ferror(out) ? -EIO : 0);
}

/* The published report as a test output: named after the URL's last segment, as KCIDB would save it. */
static json_t *output_files_json(const char *url)
{
	const char *end = url + strcspn(url, "?#"), *name = end;
	char file[256];

	while (name > url && name[-1] != '/')
		name--;
	if (name == end || name[-1] != '/' || (size_t)(end - name) >= sizeof(file) || !strncmp(name - 2, "//", 2))
		snprintf(file, sizeof(file), "nicbench-report.json");
	else
		snprintf(file, sizeof(file), "%.*s", (int)(end - name), name);
	return json_pack("[{s:s, s:s}]", "name", file, "url", url);
}

/* One test object; id and path from the point and metric. */
static json_t *test_json(struct kcidb_doc *d, const struct nb_cmp_report *rep, const struct nb_cmp_point *p,
			 const char *metric, json_t *environment)
{
	char test[64], setting[256], mnode[NB_METRIC_NAME_MAX], path[400], id[700];
	struct nb_bottleneck bn;
	json_t *t, *misc;

	path_node(test, sizeof(test), p->test_name[0] ? p->test_name : p->id);
	path_node(setting, sizeof(setting), nb_rv_setting(p));
	path_node(mnode, sizeof(mnode), metric);
	snprintf(path, sizeof(path), "nicbench.%s.%s.%s", test, setting, mnode);
	/* created makes the id unique per run of the farm; the point id and metric within it */
	snprintf(id, sizeof(id), "%s:%s:%s:%s", d->origin, rep->created ? rep->created : "", p->id, metric);
	nb_rv_bottleneck(rep, p, &bn);
	misc = json_pack("{s:s, s:s, s:s, s:s, s:s}", "point_id", p->id, "knobs", p->knobs, "metric", metric,
			 "bottleneck", nb_bn_code_name(bn.code), "bottleneck_sentence", bn.sentence);
	t = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "id", id, "origin", d->origin, "build_id", d->build_id,
		      "path", path, "environment", json_deep_copy(environment), "misc", misc);
	if (rep->created && rep->created[0])
		json_object_set_new(t, "start_time", json_string(rep->created));
	if (p->error)
		json_object_set_new(t, "log_excerpt", json_stringn(p->error, strnlen(p->error, 16000)));
	if (d->ko->report_url)
		json_object_set_new(t, "output_files", output_files_json(d->ko->report_url));
	return t;
}

static const char *run_status(const struct nb_cmp_point *p)
{
	switch (p->status) {
	case NB_CMP_STATUS_OK: return "DONE";
	case NB_CMP_STATUS_UNSUPPORTED: return "SKIP";
	default: return "ERROR"; /* failed or timed out: the code under test is not known to be at fault */
	}
}

int nb_kcidb_render_report(FILE *out, const struct nb_cmp_report *rep, const struct nb_kcidb_opts *ko)
{
	struct nb_cmp_options opt;
	struct kcidb_doc d;
	json_t *env;
	int ret;

	nb_cmp_options_init(&opt);
	ret = doc_init(&d, rep, ko);
	if (ret)
		return ret;
	env = environment_json(rep);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		const char *test = p->test_name[0] ? p->test_name : p->id;

		/* the default gate's metrics: what a farm would gate on, one test each */
		for (int g = 0; g < opt.n_gate; g++) {
			const char *metric = opt.gate[g].metric;
			const struct nb_cmp_samples *s = nb_cmp_point_metric(p, metric);
			json_t *t;

			/* the headline rule: a flood point's packet rate; elsewhere a named rule has it already */
			if (!strcmp(metric, NB_CMP_GATE_HEADLINE)) {
				metric = p->headline;
				if (!metric || nb_rv_gated(&opt, test, metric))
					continue;
				s = nb_cmp_point_metric(p, metric);
			} else if (!nb_rv_gated(&opt, test, metric)) {
				continue;
			}
			t = test_json(&d, rep, p, metric, env);
			json_object_set_new(t, "status", json_string(s || p->status != NB_CMP_STATUS_OK ? run_status(p)
											: "MISS"));
			if (s && s->n > 0 && p->status == NB_CMP_STATUS_OK) {
				json_object_set_new(t, "number", number_json(metric, s->median));
				json_object_set_new(json_object_get(t, "misc"), "runs", json_integer(s->n));
			}
			json_array_append_new(d.tests, t);
		}
	}
	json_decref(env);
	return doc_write(&d, out);
}

static const char *compare_status(enum nb_cmp_verdict v)
{
	switch (v) {
	case NB_CMP_IMPROVED:
	case NB_CMP_UNCHANGED:
	case NB_CMP_FIXED:
		return "PASS";
	case NB_CMP_REGRESSED:
	case NB_CMP_BROKEN:
		return "FAIL";
	case NB_CMP_MISSING:
		return "MISS";
	default:
		return "DONE"; /* inconclusive, new, changed: measured, no verdict on the code */
	}
}

/* A regression as KCIDB data: an issue (the code is the culprit; which metric at which point, by how much) and
 * the incident that ties it to its FAIL test and build. KCIDB has no notion of a number judged against another:
 * this is where the verdict goes. */
static void add_regression(struct kcidb_doc *d, const struct nb_cmp_result *r, const struct nb_cmp_point *p,
			   const struct nb_cmp_metric_result *mr, json_t *t)
{
	const char *test_id = json_string_value(json_object_get(t, "id"));
	const char *created = r->new->created ? r->new->created : "";
	char id[800], comment[600], change[32], where[160] = "";
	json_t *issue, *misc;

	snprintf(id, sizeof(id), "%s:regression:%s:%s:%s", d->origin, created, p->id, mr->name);
	nb_cmp_format_change(change, sizeof(change), mr);
	if (d->ko->commit)
		snprintf(where, sizeof(where), ", commit %s", d->ko->commit);
	snprintf(comment, sizeof(comment), "nicbench: %s of %s (%s) regressed %s on kernel %s%s against %s",
		 mr->name, p->id, nb_rv_setting(p), change, r->new->kernel_release, where, r->base->kernel_release);
	misc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "point_id", p->id, "metric", mr->name, "knobs", p->knobs,
			 "change", change, "kernel_release", r->new->kernel_release, "base_kernel_release",
			 r->base->kernel_release);
	if (mr->has_base)
		json_object_set_new(misc, "base_median", json_real(mr->base));
	if (mr->has_new)
		json_object_set_new(misc, "new_median", json_real(mr->new));
	if (mr->has_ci) {
		json_object_set_new(misc, "ci_lo_pct", json_real(mr->ci_lo_pct));
		json_object_set_new(misc, "ci_hi_pct", json_real(mr->ci_hi_pct));
	}
	if (d->ko->commit)
		json_object_set_new(misc, "commit", json_string(d->ko->commit));
	issue = json_pack("{s:s, s:i, s:s, s:s, s:{s:b, s:b, s:b}, s:o}", "id", id, "version", 1, "origin", d->origin,
			  "comment", comment, "culprit", "code", 1, "tool", 0, "harness", 0, "misc", misc);
	json_array_append_new(d->issues, issue);
	json_array_append_new(d->incidents,
			      json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:b, s:s}", "id", id, "origin", d->origin,
					"issue_id", id, "issue_version", 1, "test_id", test_id ? test_id : "",
					"build_id", d->build_id, "present", 1, "comment", comment));
	json_object_set_new(json_object_get(t, "misc"), "issue_id", json_string(id));
}

int nb_kcidb_render_compare(FILE *out, const struct nb_cmp_result *r, const struct nb_kcidb_opts *ko)
{
	struct kcidb_doc d;
	json_t *env;
	int ret = doc_init(&d, r->new, ko);

	if (ret)
		return ret;
	env = environment_json(r->new);
	json_object_set_new(json_object_get(env, "misc"), "base_kernel_release", json_string(r->base->kernel_release));
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];
		const struct nb_cmp_point *p = pr->new ? pr->new : pr->base;
		char moved[2 * NB_BN_SENTENCE_MAX + 32];
		bool did_move = nb_rv_moved(r, pr, moved, sizeof(moved));

		for (int m = 0; m < pr->n_metrics; m++) {
			const struct nb_cmp_metric_result *mr = &pr->metrics[m];
			json_t *t, *misc;
			char change[32];
			enum nb_cmp_verdict v = mr->verdict;

			if (!mr->gated)
				continue;
			/* a point that broke or got fixed carries that verdict, whatever its metrics say */
			if (pr->verdict == NB_CMP_BROKEN || pr->verdict == NB_CMP_FIXED || pr->verdict == NB_CMP_MISSING)
				v = pr->verdict;
			t = test_json(&d, r->new, p, mr->name, env);
			misc = json_object_get(t, "misc");
			/* bad data is no pass: ERROR, as compare's exit 4 */
			if (nb_cmp_withheld_disturbed(mr) && v == NB_CMP_INCONCLUSIVE && !r->opt->allow_disturbed)
				json_object_set_new(t, "status", json_string("ERROR"));
			else
				json_object_set_new(t, "status", json_string(compare_status(v)));
			if (mr->has_new)
				json_object_set_new(t, "number", number_json(mr->name, mr->new));
			json_object_set_new(misc, "verdict", json_string(nb_cmp_verdict_name(v)));
			if (mr->has_base)
				json_object_set_new(misc, "base_median", json_real(mr->base));
			if (mr->has_change)
				json_object_set_new(misc, "change", json_string(nb_cmp_format_change(change, sizeof(change), mr)));
			if (mr->has_ci) {
				json_object_set_new(misc, "ci_lo_pct", json_real(mr->ci_lo_pct));
				json_object_set_new(misc, "ci_hi_pct", json_real(mr->ci_hi_pct));
			}
			if (did_move)
				json_object_set_new(misc, "bottleneck_moved", json_string(moved));
			if (nb_cmp_withheld_disturbed(mr)) {
				char why[160];

				json_object_set_new(misc, "disturbed",
						    json_string(nb_cmp_reason_text(why, sizeof(why), mr, r->opt)));
			}
			if (v == NB_CMP_REGRESSED)
				add_regression(&d, r, p, mr, t);
			json_array_append_new(d.tests, t);
		}
	}
	json_decref(env);
	return doc_write(&d, out);
}
