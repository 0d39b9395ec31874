// SPDX-License-Identifier: MIT
/* Unit tests for the compare renderers and the command: formats, no NaN/inf, exit codes, one-line errors. */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "cli/commands.h"
#include "compare/compare.h"
#include "kit/nb_print.h"
#include "render/render.h"
#include "nb_test.h"

enum fmt { TEXT, JSON, JUNIT, MARKDOWN };

/* Render the comparison of two fixture reports into a heap string (caller frees). */
static char *render_fixtures(const char *base_name, const char *new_name, enum fmt f)
{
	struct nb_cmp_report base, new;
	struct nb_cmp_result r;
	struct nb_cmp_options opt;
	struct nb_cmp_render_opts ro = { .color = false };
	struct nb_err err = { 0 };
	char path[1024];
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	nb_cmp_options_init(&opt);
	snprintf(path, sizeof(path), "%s", nb_test_fixture(base_name));
	if (nb_cmp_report_load(path, &base, &err))
		return NULL;
	snprintf(path, sizeof(path), "%s", nb_test_fixture(new_name));
	if (nb_cmp_report_load(path, &new, &err)) {
		nb_cmp_report_free(&base);
		return NULL;
	}
	if (!nb_cmp_run(&base, &new, &opt, &r, &err)) {
		out = open_memstream(&text, &len);
		if (out) {
			int ret = f == JSON ? nb_cmp_render_json(out, &r)
				: f == JUNIT ? nb_cmp_render_junit(out, &r)
				: f == MARKDOWN ? nb_cmp_render_markdown(out, &r)
				: nb_cmp_render_text(out, &r, &ro);

			CHECK(ret == 0);
			fclose(out);
		}
		nb_cmp_result_free(&r);
	}
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
	return text;
}

static bool has_non_finite(const char *text)
{
	return strstr(text, "nan") || strstr(text, "inf") || strstr(text, "NaN") || strstr(text, "Inf");
}

static void test_json(void)
{
	static const char *const pairs[][2] = {
		{ "compare/g2ul-base.json", "compare/g2ul-new.json" },
		{ "compare/five-base-failed.json", "compare/five-new.json" },
		{ "compare/five-base-zero.json", "compare/five-new.json" },
		{ "compare/five-base-near-zero.json", "compare/five-new.json" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char *text = render_fixtures(pairs[i][0], pairs[i][1], JSON);
		json_error_t jerr;
		json_t *root;

		CHECK(text != NULL);
		if (!text)
			continue;
		CHECK_MSG(!has_non_finite(text), "%s: non-finite number in JSON", pairs[i][0]);
		root = json_loads(text, 0, &jerr);
		CHECK_MSG(root != NULL, "%s: JSON does not parse: %s", pairs[i][0], jerr.text);
		CHECK_STR(json_string_value(json_object_get(root, "schema")), "nicbench-compare/1");
		json_t *points = json_object_get(root, "points");

		CHECK(json_array_size(points) >= 2);
		for (size_t j = 0; j < json_array_size(points); j++) {
			json_t *p = json_array_get(points, j);
			json_t *thr = json_object_get(json_object_get(p, "metrics"), "throughput_bps");

			CHECK(json_is_string(json_object_get(p, "id")) && json_is_string(json_object_get(p, "verdict")));
			CHECK(thr && json_object_get(thr, "base") && json_object_get(thr, "new") &&
			      json_object_get(thr, "change_pct") && json_is_string(json_object_get(thr, "verdict")));
		}
		if (i == 0) {
			CHECK_STR(json_string_value(json_object_get(root, "verdict")), "regression");
			json_t *udp_tx = json_array_get(points, 2);
			json_t *thr = json_object_get(json_object_get(udp_tx, "metrics"), "throughput_bps");

			CHECK_STR(json_string_value(json_object_get(udp_tx, "id")), "udp-tx");
			CHECK_NEAR(json_number_value(json_object_get(thr, "change_pct")), -24, 1e-6);
			CHECK_NEAR(json_number_value(json_object_get(thr, "base")), 500e6, 1e-3);
			CHECK_STR(json_string_value(json_object_get(thr, "verdict")), "regressed");
			/* Every metric carries the floor it was judged with: 1% of the point's throughput. */
			CHECK_NEAR(json_number_value(json_object_get(thr, "floor")), 500e6 / 100, 1e-3);
			CHECK_STR(json_string_value(json_object_get(thr, "floor_family")), "bits");
			json_t *cpu = json_object_get(json_object_get(udp_tx, "metrics"), "cpu_busy_pct");

			CHECK_NEAR(json_number_value(json_object_get(cpu, "floor")), 3, 1e-12);
			CHECK(json_is_true(json_object_get(json_object_get(root, "settings"), "floors")));
			CHECK(json_object_size(json_object_get(json_object_get(root, "settings"), "floor_overrides")) == 0 &&
			      json_is_object(json_object_get(json_object_get(root, "settings"), "floor_overrides")));
		}
		json_decref(root);
		free(text);
	}
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_junit(void)
{
	char *text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new.json", JUNIT);

	CHECK(text != NULL);
	if (!text)
		return;
	/* Gated: throughput of 4 tests + CPU busy of the 2 RX tests. */
	CHECK_MSG(count(text, "<testcase ") == 6, "%d testcases", count(text, "<testcase "));
	CHECK(count(text, "<failure ") == 1);
	CHECK(strstr(text, "tests=\"6\" failures=\"1\"") != NULL);
	CHECK(strstr(text, "classname=\"udp-tx\" name=\"throughput_bps\">\n      <failure type=\"regression\"") != NULL);
	free(text);
	text = render_fixtures("compare/five-base-failed.json", "compare/five-new.json", JUNIT);
	CHECK(text && strstr(text, "classname=\"udp-rx\" name=\"status\"></testcase>") && !strstr(text, "<failure"));
	free(text);
	/* A gated metric NEW lost is a failure of its own type, not a skip. */
	text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new-lost-counter.json", JUNIT);
	CHECK(text && strstr(text, "classname=\"tcp-rx\" name=\"throughput_bps\">\n      <failure type=\"missing\" "
				  "message=\"missing: (base 400.00 Mbit/s, new -): measured only in the base report\""));
	CHECK(text && strstr(text, "tests=\"6\" failures=\"2\" skipped=\"0\""));
	free(text);
}

struct md_case {
	const char *base, *new, *line;
};

static const struct md_case md_cases[] = {
	{ "compare/g2ul-base.json", "compare/g2ul-new.json",
	  "- TCP TX: +6% bandwidth (500.00 Mbit/s -> 530.00 Mbit/s), similar CPU (70.0% -> 70.0%)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json",
	  "- TCP RX: +34% bandwidth (400.00 Mbit/s -> 536.00 Mbit/s), similar CPU (90.0% -> 90.0%)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json",
	  "- UDP RX: +500% bandwidth (100.00 Mbit/s -> 600.00 Mbit/s), similar CPU (99.0% -> 99.0%)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json",
	  "- UDP TX: -24% bandwidth (500.00 Mbit/s -> 380.00 Mbit/s), similar CPU (95.0% -> 95.0%)\n" },
	{ "compare/g2l-base.json", "compare/g2l-new.json",
	  "- TCP RX: similar bandwidth (940.00 Mbit/s -> 941.00 Mbit/s), -50% CPU (80.0% -> 40.0%), +100% bandwidth per "
	  "CPU (587.50 Mbit/cpu-s -> 1.18 Gbit/cpu-s)\n" },
	{ "compare/g2l-base.json", "compare/g2l-new.json",
	  "- UDP RX: similar bandwidth (950.00 Mbit/s -> 948.00 Mbit/s), -21% CPU (100.0% -> 79.0%), +26% bandwidth per "
	  "CPU (475.00 Mbit/cpu-s -> 600.00 Mbit/cpu-s)\n" },
	{ "compare/five-base-near-zero.json", "compare/five-new.json", "- UDP RX: >10000% bandwidth (" },
	{ "compare/g2ul-base.json", "compare/g2ul-new-peer-bound.json",
	  "- TCP RX: +34% bandwidth (400.00 Mbit/s -> 536.00 Mbit/s), similar CPU (90.0% -> 90.0%)\n"
	  "  - new: peer CPU 98% of a core: the peer may have set this figure (peer-bound)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new-loaded.json",
	  "- TCP TX: +6% bandwidth (500.00 Mbit/s -> 530.00 Mbit/s) (inconclusive), similar CPU (70.0% -> 70.0%)\n"
	  "  - new: sender CPU 99% of a core: the tool may have set this figure (sender-bound)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new-loaded.json",
	  "foreign load differs: other programs took up to not measured -> 45% of the CPU (cpu_other_pct)\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new-lost-counter.json",
	  "- TCP RX: not measured in the new report: throughput_bps; similar CPU (90.0% -> 90.0%)\n" },
	{ "compare/five-base-failed.json", "compare/five-new.json",
	  "- UDP RX: fixed (base failed: iperf3 control connection lost after 4 s (DUT starved by RX softirq)), now 420.00 Mbit/s\n" },
};

static void test_markdown(void)
{
	for (size_t i = 0; i < sizeof(md_cases) / sizeof(md_cases[0]); i++) {
		char *text = render_fixtures(md_cases[i].base, md_cases[i].new, MARKDOWN);

		CHECK_MSG(text && strstr(text, md_cases[i].line), "markdown lacks \"%s\":\n%s", md_cases[i].line,
			  text ? text : "(null)");
		free(text);
	}
}

static void test_text(void)
{
	char *text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new.json", TEXT);

	CHECK(text && !strchr(text, '\033'));
	CHECK(text && strstr(text, "verdict: regression (4 points: 3 improved, 1 regressed)"));
	CHECK(text && strstr(text, "profile movers (>= 2 pts; one profile a side, no noise figure): ravb_poll 20.0% -> 9.0% (-11.0 pts)"));
	/* Column heads once, over the first row; the unchanged, ungated rest is counted on the point's line. */
	CHECK(text && count(text, "    metric                                 base                new    change  verdict\n") == 1);
	CHECK(text && strstr(text, "\nudp-tx: REGRESSED  (+ 2 metrics unchanged or within floors; -v lists them)\n  * ") != NULL);
	CHECK_MSG(text && count(text, "  (+ 2 metrics unchanged or within floors; -v lists them)\n") == 2, "%s", text);
	CHECK(text && !strstr(text, "    retransmits ")); /* tcp-tx: unchanged, not gated */
	CHECK(text && strstr(text, "  * cpu_busy_pct ")); /* gated: listed though unchanged */
	free(text);
	text = render_fixtures("compare/five-base-zero.json", "compare/five-new.json", TEXT);
	CHECK(text && strstr(text, ">10000%") && !has_non_finite(text));
	free(text);
	/* A/A: the gated rows and one count line per point; nothing else moved. */
	text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-base.json", TEXT);
	CHECK_MSG(text && count(text, "\n") <= 24 && count(text, "unchanged or within floors; -v lists them)") == 4 &&
			  !strstr(text, "regressed") && !strstr(text, "improved"),
		  "A/A text:\n%s", text ? text : "");
	free(text);
}

/* docs/compare.md holds the floor table as compare --list-floors prints it from the metric table. */
static void test_floor_table_documented(void)
{
	char *table = NULL, *doc = NULL;
	size_t tlen = 0, dlen = 0;
	FILE *out = open_memstream(&table, &tlen);
	FILE *in = fopen(nb_test_fixture("../../docs/compare.md"), "r");

	CHECK(out && nb_cmp_render_floors(out) == 0);
	if (out)
		fclose(out);
	CHECK_MSG(in != NULL, "open docs/compare.md");
	if (in) {
		FILE *mem = open_memstream(&doc, &dlen);
		char buf[4096];
		size_t n;

		while (mem && (n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, mem);
		if (mem)
			fclose(mem);
		fclose(in);
	}
	CHECK(table && strstr(table, "| `lost_packets` | lower is better | drops | 100 |"));
	CHECK_MSG(table && doc && strstr(doc, table), "docs/compare.md lacks the table of --list-floors:\n%s",
		  table ? table : "");
	free(table);
	free(doc);
}

/* -v lists every metric and no count; the A/A fixture compare is short. */
static void test_text_verbose(void)
{
	struct nb_cmp_report base, new;
	struct nb_cmp_result r;
	struct nb_cmp_options opt;
	struct nb_cmp_render_opts ro = { .all_metrics = true };
	struct nb_err err = { 0 };
	char path[1024], *text = NULL;
	size_t len = 0;
	FILE *out;

	nb_cmp_options_init(&opt);
	snprintf(path, sizeof(path), "%s", nb_test_fixture("compare/g2ul-base.json"));
	CHECK(nb_cmp_report_load(path, &base, &err) == 0);
	snprintf(path, sizeof(path), "%s", nb_test_fixture("compare/g2ul-new.json"));
	CHECK(nb_cmp_report_load(path, &new, &err) == 0);
	CHECK(nb_cmp_run(&base, &new, &opt, &r, &err) == 0);
	out = open_memstream(&text, &len);
	CHECK(out && nb_cmp_render_text(out, &r, &ro) == 0);
	fclose(out);
	CHECK(text && !strstr(text, "unchanged or within floors") && strstr(text, "    retransmits "));
	free(text);
	nb_cmp_result_free(&r);
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
}

/* g2ul-new-peer-bound.json is g2ul-new.json with the iperf3 server at 96-99% of a core on
 * tcp-rx: the text output must say that the peer may have set that figure, and only there. */
static void test_peer_bound(void)
{
	char *text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new-peer-bound.json", TEXT);

	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_MSG(count(text, "(peer-bound)") == 1, "%d peer-bound lines", count(text, "(peer-bound)"));
	CHECK(strstr(text, "new: peer CPU 98% of a core") != NULL);
	free(text);
	text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new.json", TEXT);
	CHECK(text && count(text, "(peer-bound)") == 0);
	free(text);
}

/* g2ul-new-loaded.json: another program took ~45% of the CPU in every new run, and tcp-tx's
 * own iperf3 was at 99% of a core. compare flags tcp-tx sender-bound (TX only) and says
 * that the foreign load differs; without cpu_other_pct on either side it says nothing. */
static void test_sender_bound_and_load(void)
{
	char *text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new-loaded.json", TEXT);

	CHECK(text != NULL);
	if (!text)
		return;
	CHECK_MSG(count(text, "(sender-bound)") == 1, "%d sender-bound lines", count(text, "(sender-bound)"));
	CHECK(strstr(text, "new: sender CPU 99% of a core") != NULL);
	CHECK_MSG(strstr(text, "foreign load differs: other programs took up to not measured -> 45% of the CPU") != NULL,
		  "%s", text);
	/* The +34% of tcp-rx is not told from the load: inconclusive, and the reason says so. */
	CHECK_MSG(strstr(text, "+34.0%  inconclusive (disturbed: other programs took up to 45% of the CPU in a run "
			       "(cpu_other_pct))") != NULL, "%s", text);
	free(text);
	text = render_fixtures("compare/g2ul-base.json", "compare/g2ul-new.json", TEXT);
	CHECK(text && count(text, "(sender-bound)") == 0 && !strstr(text, "foreign load"));
	free(text);
	text = render_fixtures("compare/g2ul-new-loaded.json", "compare/g2ul-new-loaded.json", TEXT);
	CHECK(text && !strstr(text, "foreign load"));
	free(text);
}

/* ---- numbers: the renderers format them without printf, and must match it ---- */

/* Values where rounding is close: halves at 0..4 decimals and 4 significant digits,
 * a step either side of them, powers of ten, signed zeros, big and tiny values. */
static int tricky_values(double *v, int cap)
{
	static const double seeds[] = { 0.05, 0.15, 0.25, 0.35, 2.675, 1.005, 99.95, 9999.95, 0.00015, 0.0005, 123456.25,
					1e-4, 1e-3, 0.1, 1, 10, 1000, 9999.5, 10000, 1e9, 1e15, 1e16, 1e300, 5e-324, 0.0,
					-0.0, 4.35, 8.345, 1234.5, 0.99995, 999.95 };
	int n = 0;
	uint64_t x = 88172645463325252u;

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]) && n + 6 <= cap; i++) {
		v[n++] = seeds[i];
		v[n++] = -seeds[i];
		v[n++] = nextafter(seeds[i], INFINITY);
		v[n++] = nextafter(seeds[i], -INFINITY);
		v[n++] = seeds[i] * 100;
		v[n++] = seeds[i] / 7;
	}
	while (n < cap) { /* xorshift: reproducible, spread over many magnitudes */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[n++] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * pow(10, (double)(x % 24) - 8);
	}
	return n;
}

static void test_number_text(void)
{
	static double v[20000];
	int n = tricky_values(v, 20000);
	struct nb_cmp_options opt;

	nb_cmp_options_init(&opt);
	for (int i = 0; i < n; i++) {
		struct nb_cmp_metric_result m = { .name = "cpu_busy_pct", .has_change = true, .change_pct = v[i] };
		char got[128], want[128], lo[32], hi[32];

		snprintf(want, sizeof(want), "%+.1f%%", v[i]);
		CHECK_MSG(!strcmp(nb_cmp_format_change(got, sizeof(got), &m), want), "change %a: \"%s\", printf \"%s\"",
			  v[i], got, want);
		if (!(fabs(v[i]) < 1e15 && fabs(v[(i + 1) % n]) < 1e15))
			continue; /* intervals are bounded by the change cap */
		m.reason = NB_CMP_REASON_SUPPORTED;
		m.ci_lo_pct = v[i];
		m.ci_hi_pct = v[(i + 1) % n];
		m.p_value = fabs(v[(i + 2) % n]);
		snprintf(lo, sizeof(lo), "%+.1f", m.ci_lo_pct);
		snprintf(hi, sizeof(hi), "%+.1f", m.ci_hi_pct);
		snprintf(want, sizeof(want), "90%% interval %s%%..%s%%, p=%.3f", lo, hi, m.p_value);
		CHECK_MSG(!strcmp(nb_cmp_reason_text(got, sizeof(got), &m, &opt), want), "reason: \"%s\", printf \"%s\"",
			  got, want);
		m.reason = NB_CMP_REASON_NOISY;
		m.min_effect_pct = fabs(v[i]);
		snprintf(want, sizeof(want), "too noisy: 90%% interval %s%%..%s%% reaches within %.3g%%", lo, hi,
			 m.min_effect_pct);
		CHECK_MSG(!strcmp(nb_cmp_reason_text(got, sizeof(got), &m, &opt), want), "reason: \"%s\", printf \"%s\"",
			  got, want);
	}
}

/* A report of n points as JSON text: point i has one metric, whose median is values[i]. */
static char *median_report(const char *release, const double *values, int n)
{
	static const char *const names[] = { "throughput_bps", "cpu_busy_pct", "retransmits" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "{\"schema\":\"nicbench-report/1\",\"created\":\"x\",\"host\":{\"kernel\":{\"release\":\"%s\"}},"
		   "\"results\":[", release);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s{\"id\":\"p%d\",\"test\":{\"name\":\"t%d\"},\"status\":\"ok\",\"metrics\":{"
			   "\"%s\":{\"median\":%.17g}}}", i ? "," : "", i, i, names[i % 3], values[i]);
	fputs("]}", f);
	fclose(f);
	return text;
}

/* Medians render in the text table as printf would, and in JSON as the value rounded
 * to 10 significant digits. */
static void test_number_render(void)
{
	static double v[600];
	int n = 0;
	char *base_text, *new_text, *out = NULL;
	size_t out_len = 0;
	struct nb_cmp_report base, new;
	struct nb_cmp_result r;
	struct nb_cmp_options opt;
	struct nb_cmp_render_opts ro = { .all_metrics = true };
	struct nb_err err = { 0 };
	static double all[20000];
	int n_all = tricky_values(all, 20000);

	for (int i = 0; i < n_all && n < 600; i++) {
		if (fabs(all[i]) < 1e15) /* beyond, the 32-byte table cells cut the digits */
			v[n++] = all[i];
	}
	base_text = median_report("a", v, n);
	new_text = median_report("b", v, n);
	nb_cmp_options_init(&opt);
	CHECK(base_text && new_text);
	if (!base_text || !new_text || nb_cmp_report_parse(base_text, strlen(base_text), "base", &base, &err) ||
	    nb_cmp_report_parse(new_text, strlen(new_text), "new", &new, &err)) {
		CHECK_MSG(false, "parse: %s", err.msg);
		free(base_text);
		free(new_text);
		return;
	}
	CHECK(nb_cmp_run(&base, &new, &opt, &r, &err) == 0);
	for (int f = 0; f < 2; f++) {
		FILE *mem = open_memstream(&out, &out_len);

		CHECK(mem && (f ? nb_cmp_render_json(mem, &r) : nb_cmp_render_text(mem, &r, &ro)) == 0);
		fclose(mem);
		for (int i = 0; i < n && out; i++) {
			char want[128];
			double a = fabs(v[i]);

			if (f == 1) {
				/* "base":X: X parses back to the median rounded to 10 digits, or to
				 * a whole number from 1e10 to 1e15, which is printed without exponent */
				char key[32], *at;
				double expect;

				snprintf(key, sizeof(key), "{\"id\":\"p%d\"", i);
				at = strstr(out, key);
				at = at ? strstr(at, "\"base\":") : NULL;
				snprintf(want, sizeof(want), "%.10g", v[i]);
				expect = a >= 1e10 && a < 1e15 ? round(v[i]) : strtod(want, NULL);
				CHECK_MSG(at && strtod(at + 7, NULL) == expect, "JSON median %a: %.40s", v[i],
					  at ? at : "(missing)");
				continue;
			}
			if (i % 3 == 0 && a >= 1e9)
				snprintf(want, sizeof(want), " %.2f Gbit/s ", v[i] / 1e9);
			else if (i % 3 == 0 && a >= 1e6)
				snprintf(want, sizeof(want), " %.2f Mbit/s ", v[i] / 1e6);
			else if (i % 3 == 0 && a >= 1e3)
				snprintf(want, sizeof(want), " %.2f kbit/s ", v[i] / 1e3);
			else if (i % 3 == 0)
				snprintf(want, sizeof(want), " %.0f bit/s ", v[i]);
			else if (i % 3 == 1)
				snprintf(want, sizeof(want), " %.1f%% ", v[i]);
			else
				snprintf(want, sizeof(want), " %.4g ", v[i]);
			CHECK_MSG(strstr(out, want), "text lacks \"%s\" for %a", want, v[i]);
		}
		free(out);
		out = NULL;
	}
	nb_cmp_result_free(&r);
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
	free(base_text);
	free(new_text);
}

/* ---- the command: exit codes and one-line errors ---- */

struct cli_case {
	const char *what;
	const char *args[10];
	int rc;
	const char *stderr_has; /* NULL: stderr must be empty */
};

static const struct cli_case cli_cases[] = {
	{ "regression", { "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_FAIL, NULL },
	{ "pass", { "compare/g2l-base.json", "compare/g2l-new.json" }, NB_EXIT_OK, NULL },
	{ "trade-off accepted by the gate",
	  { "--gate", "throughput_bps@tcp-*,throughput_bps@udp-rx", "compare/g2ul-base.json", "compare/g2ul-new.json" },
	  NB_EXIT_OK, NULL },
	{ "A/A", { "compare/g2ul-base.json", "compare/g2ul-base.json" }, NB_EXIT_OK, NULL },
	{ "fixed is no regression", { "--format", "junit", "compare/five-base-failed.json", "compare/five-new.json" },
	  NB_EXIT_OK, NULL },
	{ "broken is a regression", { "compare/five-new.json", "compare/five-base-failed.json" }, NB_EXIT_FAIL, NULL },
	{ "inconclusive passes by default", { "--min-runs", "6", "compare/g2l-base.json", "compare/g2l-new.json" },
	  NB_EXIT_OK, NULL },
	{ "inconclusive fails on request",
	  { "--min-runs", "6", "--fail-on-inconclusive", "compare/g2l-base.json", "compare/g2l-new.json" },
	  NB_EXIT_UNDECIDED, NULL },
	{ "env warning", { "compare/g2ul-base.json", "compare/g2ul-new-other-env.json" }, NB_EXIT_FAIL,
	  "warning: the reports differ in more than the kernel: interface.driver" },
	{ "strict env", { "--strict-env", "compare/g2ul-base.json", "compare/g2ul-new-other-env.json" }, NB_EXIT_USAGE,
	  "error: the reports differ in more than the kernel" },
	{ "missing file", { "compare/nope.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE, "No such file or directory" },
	{ "truncated", { "compare/g2ul-base.json", "compare/bad-truncated.json" }, NB_EXIT_USAGE, "not valid JSON" },
	{ "not JSON", { "compare/bad-not-json.txt", "compare/g2ul-new.json" }, NB_EXIT_USAGE, "not valid JSON" },
	{ "other schema", { "compare/bad-schema.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE, "nicbench-report/2" },
	{ "no results", { "compare/g2ul-base.json", "compare/bad-no-results.json" }, NB_EXIT_USAGE, "no results" },
	{ "one report", { "compare/g2ul-base.json" }, NB_EXIT_USAGE, "expected two reports" },
	{ "bad format", { "--format", "pdf", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "unknown format" },
	{ "bad gate", { "--gate", "throughput_bps=x", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "not a percentage" },
	{ "gate on a misspelt metric", { "--gate", "throughput_bsp@tcp-*", "compare/g2ul-base.json", "compare/g2ul-new.json" },
	  NB_EXIT_USAGE, "no metric \"throughput_bsp\" (did you mean \"throughput_bps\"?)" },
	{ "floor of an unknown family", { "--floor", "cpus=1", "compare/g2ul-base.json", "compare/g2ul-new.json" },
	  NB_EXIT_USAGE, "neither a metric nicbench writes nor a floor family" },
	{ "too few runs asked", { "--min-runs", "2", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "--min-runs" },
	{ "a gated metric lost in NEW fails",
	  { "--gate", "throughput_bps@tcp-*", "compare/g2ul-base.json", "compare/g2ul-new-lost-counter.json" }, NB_EXIT_FAIL,
	  NULL },
	{ "--missing-ok: lost is inconclusive",
	  { "--missing-ok", "--gate", "throughput_bps@tcp-*", "compare/g2ul-base.json", "compare/g2ul-new-lost-counter.json" },
	  NB_EXIT_OK, NULL },
	{ "--missing-ok with --fail-on-inconclusive",
	  { "--missing-ok", "--fail-on-inconclusive", "--gate", "throughput_bps@tcp-*", "compare/g2ul-base.json",
	    "compare/g2ul-new-lost-counter.json" },
	  NB_EXIT_UNDECIDED, NULL },
	/* the seed's G2UL replay, NEW loaded by another program: a gate withheld for bad data is no pass */
	{ "disturbed: exit 4 by default", { "compare/g2ul-base.json", "compare/g2ul-new-loaded.json" },
	  NB_EXIT_WITHHELD, "foreign load differs" },
	{ "--allow-disturbed: exit 0", { "--allow-disturbed", "compare/g2ul-base.json", "compare/g2ul-new-loaded.json" },
	  NB_EXIT_OK, "foreign load differs" },
	{ "floors off", { "--floor", "none", "compare/g2l-base.json", "compare/g2l-new.json" }, NB_EXIT_OK, NULL },
	{ "floor override", { "--floor", "cpu=1,lost_packets=10", "-v", "compare/g2l-base.json", "compare/g2l-new.json" },
	  NB_EXIT_OK, NULL },
	{ "bad floor", { "--floor", "cpu", "compare/g2l-base.json", "compare/g2l-new.json" }, NB_EXIT_USAGE,
	  "expected METRIC=VALUE" },
	{ "negative floor", { "--floor", "cpu=-2", "compare/g2l-base.json", "compare/g2l-new.json" }, NB_EXIT_USAGE,
	  "VALUE >= 0" },
};

/* Run cmd_compare with stderr captured in a file; -o keeps stdout out of the test log. */
static int run_cli(const struct cli_case *c, const char *out_path, char *err_text, size_t err_len)
{
	char *argv[16];
	char paths[10][1024];
	int argc = 0, rc, saved;
	FILE *err_file = tmpfile();

	argv[argc++] = "compare";
	argv[argc++] = "-o";
	argv[argc++] = (char *)out_path;
	for (int i = 0; i < 10 && c->args[i]; i++) {
		const char *a = c->args[i];

		if (!strncmp(a, "compare/", 8)) {
			snprintf(paths[i], sizeof(paths[i]), "%s", nb_test_fixture(a));
			a = paths[i];
		}
		argv[argc++] = (char *)a;
	}
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(err_file), 2);
	rc = cmd_compare(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(err_file);
	err_len = fread(err_text, 1, err_len - 1, err_file);
	err_text[err_len] = '\0';
	fclose(err_file);
	return rc;
}

static void test_cli(void)
{
	char out_path[] = "/tmp/nb-compare-test-XXXXXX";
	int fd = mkstemp(out_path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	for (size_t i = 0; i < sizeof(cli_cases) / sizeof(cli_cases[0]); i++) {
		const struct cli_case *c = &cli_cases[i];
		char err_text[4096];
		int rc = run_cli(c, out_path, err_text, sizeof(err_text));

		CHECK_MSG(rc == c->rc, "%s: exit %d, expected %d (stderr: %s)", c->what, rc, c->rc, err_text);
		if (c->stderr_has)
			CHECK_MSG(strstr(err_text, c->stderr_has), "%s: stderr \"%s\"", c->what, err_text);
		else
			CHECK_MSG(!err_text[0], "%s: unexpected stderr \"%s\"", c->what, err_text);
		/* Input errors are one line. */
		if (rc == NB_EXIT_USAGE && strncmp(c->what, "strict", 6))
			CHECK_MSG(count(err_text, "\n") == 1, "%s: %d lines on stderr", c->what, count(err_text, "\n"));
	}
	unlink(out_path);
}

/* Render two inline reports (caller frees). */
static char *render_texts(const char *btext, const char *ntext, enum fmt f)
{
	struct nb_cmp_report base, new;
	struct nb_cmp_options opt;
	struct nb_cmp_result r;
	struct nb_cmp_render_opts ro = { .color = false };
	struct nb_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	nb_cmp_options_init(&opt);
	if (nb_cmp_report_parse(btext, strlen(btext), "base", &base, &err))
		return NULL;
	if (nb_cmp_report_parse(ntext, strlen(ntext), "new", &new, &err)) {
		nb_cmp_report_free(&base);
		return NULL;
	}
	if (!nb_cmp_run(&base, &new, &opt, &r, &err)) {
		out = open_memstream(&text, &len);
		if (out) {
			CHECK((f == JSON ? nb_cmp_render_json(out, &r) : f == JUNIT ? nb_cmp_render_junit(out, &r)
			       : f == MARKDOWN ? nb_cmp_render_markdown(out, &r) : nb_cmp_render_text(out, &r, &ro)) == 0);
			fclose(out);
		}
		nb_cmp_result_free(&r);
	}
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
	return text;
}

/* A point the run was killed in ("incomplete") is compared on its finished runs, and every
 * format says which side it was, with the report's reason. */
static void test_incomplete(void)
{
	static const char fmt[] =
		"{\"schema\": \"nicbench-report/1\", \"results\": [{\"id\": \"tcp-rx\", \"status\": \"%s\",%s"
		" \"test\": {\"name\": \"tcp-rx\", \"direction\": \"rx\"}, \"knobs\": {},"
		" \"metrics\": {\"throughput_bps\": {\"median\": %g, \"values\": [%g, %g]}}}]}";
	static const char why[] = " \"error\": \"the run ended before this point finished: 2 of 3 repetitions recorded\",";
	char ok[1024], cut[1024], slower[1024];
	struct { const char *base, *new, *side; } cases[] = {
		{ ok, cut, "new" }, { cut, ok, "base" }, { ok, slower, NULL },
	};

	snprintf(ok, sizeof(ok), fmt, "ok", "", 1e9, 1e9, 1.01e9);
	snprintf(cut, sizeof(cut), fmt, "incomplete", why, 1e9, 1e9, 1.01e9);
	/* incomplete and regressed: the note comes with the failure */
	snprintf(slower, sizeof(slower), fmt, "incomplete", why, 5e8, 5e8, 5.05e8);
	cases[2].new = slower;
	cases[2].side = "new";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char note[160], *json = render_texts(cases[i].base, cases[i].new, JSON);
		char *junit = render_texts(cases[i].base, cases[i].new, JUNIT);
		char *md = render_texts(cases[i].base, cases[i].new, MARKDOWN);
		char *text = render_texts(cases[i].base, cases[i].new, TEXT);
		json_t *root = json ? json_loads(json, 0, NULL) : NULL;
		json_t *pt = json_array_get(json_object_get(root, "points"), 0);
		bool base_cut = !strcmp(cases[i].side, "base");

		snprintf(note, sizeof(note), "%s incomplete (compared on its finished runs): the run ended before this "
			 "point finished: 2 of 3 repetitions recorded", cases[i].side);
		CHECK_MSG(root && pt, "case %zu: compare JSON does not parse: %s", i, json ? json : "(none)");
		CHECK_MSG(json_is_true(json_object_get(pt, base_cut ? "base_incomplete" : "new_incomplete")) &&
			  json_is_false(json_object_get(pt, base_cut ? "new_incomplete" : "base_incomplete")),
			  "case %zu: %s", i, json ? json : "");
		CHECK_MSG(junit && strstr(junit, note) && count(junit, "<system-out>") == 1 &&
			  count(junit, "<testcase ") == count(junit, "</testcase>"), "case %zu: %s", i, junit ? junit : "");
		CHECK_MSG(md && strstr(md, "\n  - ") && strstr(md, note), "case %zu: %s", i, md ? md : "");
		CHECK_MSG(text && strstr(text, note), "case %zu: %s", i, text ? text : "");
		if (i == 2)
			CHECK_MSG(junit && strstr(junit, "\"/>\n      <system-out>new incomplete"), "%s", junit ? junit : "");
		json_decref(root);
		free(json);
		free(junit);
		free(md);
		free(text);
	}
}

/* Every byte of a file name reaches the output (a path on the command line need not be UTF-8),
 * and a kernel release could hold anything: JSON and JUnit stay valid UTF-8 all the same. */
static bool valid_utf8(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u;) {
		size_t n = nb_utf8_seq_len(u);

		if (!n)
			return false;
		u += n;
	}
	return true;
}

static void test_odd_bytes(void)
{
	struct nb_cmp_report base, new;
	struct nb_cmp_result r;
	struct nb_cmp_options opt;
	struct nb_err err = { 0 };
	char path[1024];

	nb_cmp_options_init(&opt);
	snprintf(path, sizeof(path), "%s", nb_test_fixture("compare/g2ul-base.json"));
	CHECK(nb_cmp_report_load(path, &base, &err) == 0);
	snprintf(path, sizeof(path), "%s", nb_test_fixture("compare/g2ul-new.json"));
	CHECK(nb_cmp_report_load(path, &new, &err) == 0);
	base.path = "base-\xff\xfe.json";
	new.path = "new-\xc3\xa9-\xed\xa0\x80-\x1b[31m.json";
	base.kernel_release = "6.1\x80<cut\xe2\x82";
	CHECK(nb_cmp_run(&base, &new, &opt, &r, &err) == 0);
	for (int f = JSON; f <= JUNIT; f++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		CHECK(out && (f == JSON ? nb_cmp_render_json(out, &r) : nb_cmp_render_junit(out, &r)) == 0);
		fclose(out);
		CHECK_MSG(valid_utf8(text), "%s output is not valid UTF-8", f == JSON ? "JSON" : "JUnit");
		if (f == JSON) {
			json_error_t jerr;
			json_t *root = json_loads(text, 0, &jerr);

			CHECK_MSG(root != NULL, "JSON with odd bytes: %s", jerr.text);
			CHECK_STR(json_string_value(json_object_get(json_object_get(root, "base"), "path")),
				  "base-\xef\xbf\xbd\xef\xbf\xbd.json");
			CHECK_STR(json_string_value(json_object_get(json_object_get(root, "new"), "path")),
				  "new-\xc3\xa9-\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd-\x1b[31m.json");
			json_decref(root);
		} else {
			CHECK(strstr(text, "6.1\xef\xbf\xbd&lt;cut\xef\xbf\xbd\xef\xbf\xbd -&gt;") != NULL);
		}
		free(text);
	}
	nb_cmp_result_free(&r);
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
}

/* A recorded A/A pair from the veth test bed (bench/aa-noise: tcp-tx, tcp-rx, udp-rx, 3 runs of
 * 2 s a side, a quiet machine): nothing regressed or improved, every metric in the JSON with its
 * verdict and floor key, and the default text on one screen (24 lines), the per-CPU moves named
 * on one line. */
static void test_recorded_aa(void)
{
	char *text = render_fixtures("compare/veth-aa-a.json", "compare/veth-aa-b.json", TEXT);
	char *json = render_fixtures("compare/veth-aa-a.json", "compare/veth-aa-b.json", JSON);

	CHECK(text && json);
	if (text && json) {
		CHECK_MSG(count(text, "\n") <= 24, "A/A text is %d lines:\n%s", count(text, "\n"), text);
		CHECK(!strstr(text, "regressed") && !strstr(text, "improved"));
		CHECK(count(text, "changed, no direction: cpu0_busy_pct") == 1);
		CHECK(!strstr(json, "\"verdict\":\"regressed\"") && !strstr(json, "\"verdict\":\"improved\""));
		/* every metric of every point: 3 points, 55-56 metrics each */
		CHECK_MSG(count(json, "\"floor\":") > 150 && count(json, "\"floor\":") == count(json, "\"direction\":"),
			  "%d floor keys, %d metrics", count(json, "\"floor\":"), count(json, "\"direction\":"));
	}
	free(text);
	free(json);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 1 << 20);

	if (f && text)
		text[fread(text, 1, (1 << 20) - 1, f)] = '\0';
	if (f)
		fclose(f);
	return text;
}

/* Every format says what the exit code says about disturbed data, and the opt-out too. */
static void test_disturbed_gate(void)
{
	static const struct {
		const char *format, *has, *allowed_has; /* allowed_has: with --allow-disturbed */
	} cases[] = {
		{ "text", "inconclusive because a side was disturbed, in 4 point(s):\n  tcp-tx throughput_bps: disturbed: "
			  "other programs took up to 45% of the CPU in a run (cpu_other_pct)",
		  "(--allow-disturbed: exit 0 all the same)" },
		{ "text", "a gate cannot pass on that data: exit 4; run again on a quiet machine, or in alternating rounds",
		  "run again on a quiet machine" },
		{ "markdown", "**Inconclusive because a side was disturbed** in 4 point(s):\n- tcp-tx throughput_bps: ",
		  "(--allow-disturbed: exit 0 all the same)" },
		{ "junit", "failures=\"4\"", "failures=\"0\"" },
		{ "junit", "<failure type=\"disturbed\" message=\"inconclusive", "<skipped message=\"inconclusive" },
		{ "kcidb", "\"status\": \"ERROR\"", "\"disturbed\": \"disturbed: other programs took up to 45%" },
	};
	char out_path[] = "/tmp/nb-compare-disturbed-XXXXXX";
	int fd = mkstemp(out_path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int allow = 0; allow <= 1; allow++) {
			struct cli_case c = { "disturbed", { "--format", cases[i].format,
							     allow ? "--allow-disturbed" : "compare/g2ul-base.json",
							     allow ? "compare/g2ul-base.json" : "compare/g2ul-new-loaded.json",
							     allow ? "compare/g2ul-new-loaded.json" : NULL }, 0, NULL };
			char err_text[4096], *text;
			int rc = run_cli(&c, out_path, err_text, sizeof(err_text));
			const char *want = allow ? cases[i].allowed_has : cases[i].has;

			CHECK_MSG(rc == (allow ? NB_EXIT_OK : NB_EXIT_WITHHELD), "%s%s: exit %d", cases[i].format,
				  allow ? " --allow-disturbed" : "", rc);
			text = slurp(out_path);
			CHECK_MSG(text && strstr(text, want), "%s%s: no \"%s\" in:\n%s", cases[i].format,
				  allow ? " --allow-disturbed" : "", want, text ? text : "(unreadable)");
			free(text);
		}
	}
	/* kcidb with the opt-out: no ERROR for the disturbed points */
	{
		struct cli_case c = { "kcidb allowed", { "--format", "kcidb", "--allow-disturbed", "compare/g2ul-base.json",
							 "compare/g2ul-new-loaded.json" }, 0, NULL };
		char err_text[4096], *text;

		run_cli(&c, out_path, err_text, sizeof(err_text));
		text = slurp(out_path);
		CHECK(text && !strstr(text, "\"ERROR\""));
		free(text);
	}
	unlink(out_path);
}

int main(void)
{
	test_json();
	test_junit();
	test_markdown();
	test_text();
	test_text_verbose();
	test_floor_table_documented();
	test_peer_bound();
	test_sender_bound_and_load();
	test_number_text();
	test_number_render();
	test_cli();
	test_disturbed_gate();
	test_incomplete();
	test_odd_bytes();
	test_recorded_aa();
	return nb_test_done("test_compare_render");
}
