// SPDX-License-Identifier: MIT
/* nicbench report's command line: every format on the replays, and bad input as one line and exit 2. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "nb_test.h"

struct cli_case {
	const char *what;
	const char *args[8];      /* "compare/..." names a fixture */
	int rc;
	const char *stderr_has;   /* NULL: stderr stays empty */
	const char *stdout_has[3];/* each must be in the output */
	const char *absent[3];    /* none may be in it */
};

static const struct cli_case cases[] = {
	{ "text", { "compare/g2ul-base.json" }, NB_EXIT_OK, NULL,
	  { "tcp-rx", "CPU0 saturated (90% busy)", "only one setting: nothing to choose" }, { NULL } },
	{ "text with a base names the move", { "--base", "compare/g2ul-base.json", "compare/g2ul-new-peer-bound.json" },
	  NB_EXIT_OK, NULL, { "bottleneck moved", "tcp-rx: base: CPU0 saturated", "new: The peer" }, { NULL } },
	{ "markdown", { "-f", "markdown", "compare/g2l-new.json" }, NB_EXIT_OK, NULL,
	  { "| test point | throughput |", "| udp-rx | 948.0 Mbit/s |", "## Which setting to choose" }, { NULL } },
	{ "html", { "--format", "html", "compare/five-new.json" }, NB_EXIT_OK, NULL,
	  { "<!DOCTYPE html>", "data-chart=\"throughput\"", "420.0 Mbit/s" }, { NULL } },
	{ "kcidb", { "--format", "kcidb", "compare/five-base-failed.json" }, NB_EXIT_OK, NULL,
	  { "\"major\": 5", "\"status\": \"ERROR\"", "\"status\": \"DONE\"" }, { NULL } },
	/* the example: the seed's UDP TX with threaded NAPI on one core */
	{ "seed UDP TX move", { "--base", "report/seed-udptx-base.json", "report/seed-udptx-new.json" }, NB_EXIT_OK, NULL,
	  { "udp-tx: base: CPU0 saturated (96% busy) by softirq 92%; new: CPU0 saturated (97% busy), shared by NAPI "
	    "thread 48% and traffic process 47%" }, { NULL } },
	/* an rr point on the front shows its rate and p99, not "(-)" */
	{ "rr front figures", { "report/veth-rr.json" }, NB_EXIT_OK, NULL,
	  { "napi_defer_hard_irqs=1 (10623 trans/s, p99 193 us)" }, { "(-)" } },
	{ "rr front figures in html", { "-f", "html", "report/veth-rr.json" }, NB_EXIT_OK, NULL,
	  { "napi_defer_hard_irqs=1 (10623 trans/s, p99 193 us)" }, { NULL } },
	/* strings from a report are text in every format, never markup */
	{ "html escapes", { "-f", "html", "report/hostile.json" }, NB_EXIT_OK, NULL,
	  { "&lt;script&gt;alert('host')&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;", "a &amp; b &lt;/td&gt;" },
	  { "<script>alert", "<img src=x", "<b>1</b>" } },
	{ "markdown escapes", { "-f", "markdown", "report/hostile.json" }, NB_EXIT_OK, NULL,
	  { "&lt;script&gt;alert('host')", "knob=&lt;b&gt;1&lt;/b&gt;" }, { "<script>", "<b>1</b>", "</table>" } },
	{ "no report", { NULL }, NB_EXIT_USAGE, "expected one report", { NULL }, { NULL } },
	{ "two reports", { "compare/g2ul-base.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE, "expected one report",
	  { NULL }, { NULL } },
	{ "missing file", { "compare/no-such-report.json" }, NB_EXIT_USAGE, "no-such-report.json", { NULL }, { NULL } },
	{ "not JSON", { "compare/bad-not-json.txt" }, NB_EXIT_USAGE, "bad-not-json.txt", { NULL }, { NULL } },
	{ "truncated", { "compare/bad-truncated.json" }, NB_EXIT_USAGE, "bad-truncated.json", { NULL }, { NULL } },
	{ "empty", { "compare/bad-empty.json" }, NB_EXIT_USAGE, "bad-empty.json", { NULL }, { NULL } },
	{ "another schema", { "compare/bad-schema.json" }, NB_EXIT_USAGE, "bad-schema.json", { NULL }, { NULL } },
	{ "bad base", { "--base", "compare/bad-array.json", "compare/g2ul-new.json" }, NB_EXIT_USAGE, "bad-array.json",
	  { NULL }, { NULL } },
	{ "unknown format", { "--format", "pdf", "compare/g2ul-base.json" }, NB_EXIT_USAGE, "unknown format", { NULL }, { NULL } },
	{ "bad origin", { "--format", "kcidb", "--origin", "My-Lab", "compare/g2ul-base.json" }, NB_EXIT_USAGE,
	  "[a-z0-9_]+", { NULL }, { NULL } },
	{ "bad build id", { "--format", "kcidb", "--build-id", ":x", "compare/g2ul-base.json" }, NB_EXIT_USAGE,
	  "ORIGIN:ID", { NULL }, { NULL } },
};

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int run(const struct cli_case *c, const char *out_path, char *err_text, size_t err_len)
{
	char *argv[16];
	char paths[8][1024];
	int argc = 0, rc, saved;
	FILE *err_file = tmpfile();

	argv[argc++] = "report";
	argv[argc++] = "-o";
	argv[argc++] = (char *)out_path;
	for (int i = 0; i < 8 && c->args[i]; i++) {
		const char *a = c->args[i];

		if (!strncmp(a, "compare/", 8) || !strncmp(a, "report/", 7)) {
			snprintf(paths[i], sizeof(paths[i]), "%s", nb_test_fixture(a));
			a = paths[i];
		}
		argv[argc++] = (char *)a;
	}
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(err_file), 2);
	rc = cmd_report(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(err_file);
	err_len = fread(err_text, 1, err_len - 1, err_file);
	err_text[err_len] = '\0';
	fclose(err_file);
	return rc;
}

int main(void)
{
	char out_path[] = "/tmp/nb-report-test-XXXXXX";
	static char out_text[1 << 20];
	int fd = mkstemp(out_path);

	CHECK(fd >= 0);
	if (fd < 0)
		return nb_test_done("report_cli");
	close(fd);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cli_case *c = &cases[i];
		char err_text[4096];
		FILE *f;
		size_t n = 0;
		int rc;

		CHECK(truncate(out_path, 0) == 0);
		rc = run(c, out_path, err_text, sizeof(err_text));
		CHECK_MSG(rc == c->rc, "%s: exit %d, expected %d (stderr: %s)", c->what, rc, c->rc, err_text);
		if (c->stderr_has) {
			CHECK_MSG(strstr(err_text, c->stderr_has) != NULL, "%s: stderr \"%s\"", c->what, err_text);
			CHECK_MSG(count_lines(err_text) == 1, "%s: %d lines on stderr", c->what, count_lines(err_text));
		} else {
			CHECK_MSG(!err_text[0], "%s: unexpected stderr \"%s\"", c->what, err_text);
		}
		f = fopen(out_path, "r");
		if (f) {
			n = fread(out_text, 1, sizeof(out_text) - 1, f);
			fclose(f);
		}
		out_text[n] = '\0';
		for (int k = 0; k < 3 && c->stdout_has[k]; k++)
			CHECK_MSG(strstr(out_text, c->stdout_has[k]) != NULL, "%s: '%s' not in the output", c->what,
				  c->stdout_has[k]);
		for (int k = 0; k < 3 && c->absent[k]; k++)
			CHECK_MSG(strstr(out_text, c->absent[k]) == NULL, "%s: '%s' in the output", c->what, c->absent[k]);
	}
	unlink(out_path);
	return nb_test_done("report_cli");
}
