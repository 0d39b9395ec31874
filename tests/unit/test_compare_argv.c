// SPDX-License-Identifier: MIT
/* compare's command line over rounds: the "--" parts A's reports from B's and ends no options, so
 * an option means the same before, between or after the sides; a report named like an option is
 * reached through its directory (./-x.json). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "nb_test.h"

#define MAX_ARGS 24

/* Words of a command line: "@A1".."@B5" name the slow-rounds fixtures, "@@" is "--" between the
 * sides (the list ends at NULL). */
struct argv_case {
	const char *what;
	const char *args[MAX_ARGS];
	int rc;
	const char *stderr_has; /* NULL: stderr stays empty */
	bool same_as_first;     /* the output must equal the first case's, byte for byte */
};

#define SIDE_A "@A1", "@A2", "@A3", "@A4", "@A5"
#define SIDE_B "@B1", "@B2", "@B3", "@B4", "@B5"

static const struct argv_case cases[] = {
	/* the reference: every option before the reports */
	{ "options first", { "--format", "json", "--gate", "throughput_bps", SIDE_A, "@@", SIDE_B }, NB_EXIT_FAIL, NULL,
	  false },
	{ "options after B's reports", { SIDE_A, "@@", SIDE_B, "--format", "json", "--gate", "throughput_bps" },
	  NB_EXIT_FAIL, NULL, true },
	{ "options on both sides of --",
	  { "@A1", "@A2", "-f", "json", "@A3", "@A4", "@A5", "@@", "@B1", "--gate", "throughput_bps", "@B2", "@B3", "@B4",
	    "@B5" },
	  NB_EXIT_FAIL, NULL, true },
	{ "--option=value after --", { SIDE_A, "@@", "--format=json", SIDE_B, "--gate=throughput_bps" }, NB_EXIT_FAIL, NULL,
	  true },
	/* an option after "--" changes the verdict's exit: two pairs cannot reach a verdict */
	{ "flag after -- takes effect", { "@A1", "@A2", "@@", "@B1", "@B2", "--fail-on-inconclusive" },
	  NB_EXIT_UNDECIDED, NULL, false },
	{ "same without it", { "@A1", "@A2", "@@", "@B1", "@B2" }, NB_EXIT_OK, NULL, false },
	{ "a second --", { "@A1", "@@", "@B1", "@@", "@B2" }, NB_EXIT_USAGE, "one '--' only", false },
	{ "no reports after --", { "@A1", "@A2", "@@", "--format", "json" }, NB_EXIT_USAGE, "both sides of '--'", false },
	{ "bad option after --", { "@A1", "@@", "@B1", "--no-such-option" }, NB_EXIT_USAGE, "unknown option '--no-such-option'", false },
	{ "-x.json is an option", { "-x.json", "@@", "@B1" }, NB_EXIT_USAGE, "unknown option", false },
	{ "./-x.json is a report", { "./-x.json", "@@", "@B1" }, NB_EXIT_OK, NULL, false },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char buf[4096];
	size_t n;

	while (f && mem && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, mem);
	if (f)
		fclose(f);
	if (mem)
		fclose(mem);
	return text;
}

static int run(const struct argv_case *c, const char *out_path, char *err_text, size_t err_len)
{
	static char paths[MAX_ARGS][1024];
	char *argv[MAX_ARGS + 4];
	int argc = 0, rc, saved;
	FILE *err_file = tmpfile();

	argv[argc++] = "compare";
	argv[argc++] = "-o";
	argv[argc++] = (char *)out_path;
	for (int i = 0; i < MAX_ARGS && c->args[i]; i++) {
		const char *a = c->args[i];

		if (!strcmp(a, "@@")) {
			a = "--";
		} else if (a[0] == '@') {
			char rel[64];

			snprintf(rel, sizeof(rel), "compare/rounds/slow-%s.json", a + 1);
			snprintf(paths[i], sizeof(paths[i]), "%s", nb_test_fixture(rel));
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

int main(void)
{
	char dir[] = "/tmp/nb-compare-argv-XXXXXX", out_path[1100], odd[1100], cwd[4096];
	char *reference = NULL;
	char *fixture;

	CHECK(mkdtemp(dir) != NULL);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	/* a report whose name begins with '-': slow-A1.json under the name -x.json, in the test's directory */
	snprintf(odd, sizeof(odd), "%s/-x.json", dir);
	fixture = slurp(nb_test_fixture("compare/rounds/slow-A1.json"));
	CHECK(fixture != NULL);
	{
		FILE *f = fopen(odd, "w");

		CHECK(f && fixture && fputs(fixture, f) >= 0);
		if (f)
			fclose(f);
	}
	free(fixture);
	CHECK(chdir(dir) == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct argv_case *c = &cases[i];
		char err_text[4096];
		char *out;
		int rc;

		unlink(out_path);
		rc = run(c, out_path, err_text, sizeof(err_text));
		CHECK_MSG(rc == c->rc, "%s: exit %d, expected %d (stderr: %s)", c->what, rc, c->rc, err_text);
		if (c->stderr_has)
			CHECK_MSG(strstr(err_text, c->stderr_has) != NULL, "%s: stderr \"%s\"", c->what, err_text);
		else
			CHECK_MSG(!err_text[0], "%s: unexpected stderr \"%s\"", c->what, err_text);
		out = slurp(out_path);
		if (i == 0) {
			CHECK_MSG(out && !strncmp(out, "{\"schema\":\"nicbench-compare/1\"", 30), "%s: not compare's JSON",
				  c->what);
			reference = out;
			continue;
		}
		if (c->same_as_first)
			CHECK_MSG(out && reference && !strcmp(out, reference), "%s: the output differs from '%s'", c->what,
				  cases[0].what);
		free(out);
	}
	free(reference);
	CHECK(chdir(cwd) == 0);
	unlink(out_path);
	unlink(odd);
	rmdir(dir);
	return nb_test_done("test_compare_argv");
}
