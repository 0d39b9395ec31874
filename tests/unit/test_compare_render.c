/* Unit tests for the compare renderers and the command: formats, no NaN/inf, exit codes, one-line errors. */
#include <jansson.h>
#include <stdbool.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
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
}

struct md_case {
	const char *base, *new, *line;
};

static const struct md_case md_cases[] = {
	{ "compare/g2ul-base.json", "compare/g2ul-new.json", "- TCP TX: +6% bandwidth, similar CPU\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json", "- TCP RX: +34% bandwidth, similar CPU\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json", "- UDP RX: +500% bandwidth, similar CPU\n" },
	{ "compare/g2ul-base.json", "compare/g2ul-new.json", "- UDP TX: -24% bandwidth, similar CPU\n" },
	{ "compare/g2l-base.json", "compare/g2l-new.json", "- TCP RX: similar bandwidth, -50% CPU, +100% bandwidth per CPU\n" },
	{ "compare/g2l-base.json", "compare/g2l-new.json", "- UDP RX: similar bandwidth, -21% CPU, +26% bandwidth per CPU\n" },
	{ "compare/five-base-near-zero.json", "compare/five-new.json", "- UDP RX: >10000% bandwidth, similar CPU\n" },
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
	CHECK(text && strstr(text, "profile movers: ravb_poll 20.0% -> 9.0%"));
	free(text);
	text = render_fixtures("compare/five-base-zero.json", "compare/five-new.json", TEXT);
	CHECK(text && strstr(text, ">10000%") && !has_non_finite(text));
	free(text);
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

/* ---- the command: exit codes and one-line errors ---- */

struct cli_case {
	const char *what;
	const char *args[8];
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
	  NB_EXIT_INCONCLUSIVE, NULL },
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
	{ "bad format", { "--format", "html", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "unknown format" },
	{ "bad gate", { "--gate", "throughput_bps=x", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "not a percentage" },
	{ "too few runs asked", { "--min-runs", "2", "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE,
	  "--min-runs" },
};

/* Run cmd_compare with stderr captured in a file; -o keeps stdout out of the test log. */
static int run_cli(const struct cli_case *c, const char *out_path, char *err_text, size_t err_len)
{
	char *argv[16];
	char paths[8][1024];
	int argc = 0, rc, saved;
	FILE *err_file = tmpfile();

	argv[argc++] = "compare";
	argv[argc++] = "-o";
	argv[argc++] = (char *)out_path;
	for (int i = 0; i < 8 && c->args[i]; i++) {
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

int main(void)
{
	test_json();
	test_junit();
	test_markdown();
	test_text();
	test_peer_bound();
	test_cli();
	return nb_test_done("test_compare_render");
}
