// SPDX-License-Identifier: MIT
/* nicbench report: one report (optionally against a base) -> an HTML page, text, Markdown or KCIDB JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "kit/options.h"
#include "render/render.h"

struct report_cli {
	const char *path, *base_path, *output;
	const struct nb_render_format *format;
	struct nb_kcidb_opts kcidb;
};

static int parse_format(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	struct report_cli *cli = obj;

	(void)o;
	return nb_render_format_parse(NB_RENDER_REPORT, text, "", &cli->format, err);
}

static int parse_origin(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)o;
	if (nb_kcidb_origin_check(text, err))
		return -EINVAL;
	((struct report_cli *)obj)->kcidb.origin = text;
	return 0;
}

static int parse_report_url(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)o;
	if (nb_kcidb_report_url_check(text, err))
		return -EINVAL;
	((struct report_cli *)obj)->kcidb.report_url = text;
	return 0;
}

static int parse_commit(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)o;
	if (nb_kcidb_commit_check(text, err))
		return -EINVAL;
	((struct report_cli *)obj)->kcidb.commit = text;
	return 0;
}

#define REPORT_FIELD(member) NB_OPT_FIELD(struct report_cli, member)

/* The option rows (kit/options.h), as run's: --format's line in --help is the format table's own. */
static const struct nb_opt report_rows[] = {
	{ .name = "format", .short_name = 'f', .type = NB_OPT_CUSTOM, .flags = NB_OPT_HIDDEN, .metavar = "FMT",
	  .parse = parse_format, .help = "the output format" },
	{ .name = "output", .short_name = 'o', .type = NB_OPT_ARG, .offset = REPORT_FIELD(output), .metavar = "FILE",
	  .help = "write there instead of stdout" },
	{ .name = "base", .short_name = 'b', .type = NB_OPT_ARG, .offset = REPORT_FIELD(base_path), .metavar = "BASE",
	  .help = "a base report to compare against" },
	{ .name = "origin", .type = NB_OPT_CUSTOM, .metavar = "NAME", .parse = parse_origin,
	  .help = "kcidb: the submitting CI system ([a-z0-9_]+, default nicbench)" },
	{ .name = "build-id", .type = NB_OPT_ARG, .offset = REPORT_FIELD(kcidb.build_id), .metavar = "ID",
	  .help = "kcidb: the farm's build id (ORIGIN:...) the tests belong to; without it a checkout and a\n"
		  "build named after the kernel are added",
	  .brief = "kcidb: the farm's build id (ORIGIN:...) the tests belong to" },
	{ .name = "report-url", .type = NB_OPT_CUSTOM, .metavar = "URL", .parse = parse_report_url,
	  .help = "kcidb: where the report is published: each test's output_files" },
	{ .name = "commit", .type = NB_OPT_CUSTOM, .metavar = "HASH", .parse = parse_commit,
	  .help = "kcidb: the measured kernel's git commit (a bisect's first bad one): named by the\n"
		  "regression issues; 40 hex digits also fill the checkout",
	  .brief = "kcidb: the measured kernel's git commit, named by the regression issues" },
};

static const struct nb_opt_table report_table = { .command = "report", .rows = report_rows,
						  .nrows = (int)(sizeof(report_rows) / sizeof(report_rows[0])) };

static void report_usage(FILE *out)
{
	fputs("usage: nicbench report [OPTIONS] REPORT.json\n"
	      "\n"
	      "Show one report: each point's throughput, CPU and bottleneck, the settings on the Pareto\n"
	      "front, the best setting across tests; with --base, the compare view on top.\n"
	      "\n"
	      "options:\n"
	      "  -f, --format FMT        ",
	      out);
	nb_render_format_help(out, NB_RENDER_REPORT, 26, 88);
	nb_opts_help(out, &report_table, "output", "commit");
	fputs("  -h, --help              this help\n"
	      "\n"
	      "exit codes: 0 written; 2 usage or input error (unreadable or invalid report, bad option).\n"
	      "A report does not gate: nicbench compare does. The rules and the page: docs/report.md,\n"
	      "docs/bottleneck.md, man nicbench.\n",
	      out);
}

/* The parse convention of every subcommand (options.h): 0 go on; 1 --help asked for; -EINVAL
 * with the message in err. */
static int parse_cli(struct report_cli *cli, int argc, char **argv, struct nb_err *err)
{
	int pos = 0, rc;

	memset(cli, 0, sizeof(*cli));
	cli->kcidb.origin = "nicbench";
	cli->format = nb_render_format_default();
	rc = nb_opts_parse(&report_table, argc, argv, cli, &pos, err);
	if (rc)
		return rc;
	if (argc - pos != 1)
		return nb_err_set(err, -EINVAL, "expected one report, REPORT.json (try 'nicbench report --help')");
	cli->path = argv[pos];
	if (cli->kcidb.build_id && nb_kcidb_build_id_check(cli->kcidb.build_id, err))
		return -EINVAL;
	return 0;
}

static int write_output(const struct report_cli *cli, const struct nb_render_job *job)
{
	FILE *out = cli->output ? fopen(cli->output, "w") : stdout;
	int ret;

	if (!out) {
		fprintf(stderr, "nicbench report: open output %s: %s\n", cli->output, strerror(errno));
		return -errno;
	}
	ret = nb_render(out, cli->format, NB_RENDER_REPORT, job);
	if (fflush(out) && !ret)
		ret = -errno;
	if (cli->output && fclose(out) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "nicbench report: write %s: %s\n", cli->output ? cli->output : "stdout", strerror(-ret));
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli cli;
	struct nb_cmp_report rep = { 0 }, base = { 0 };
	struct nb_cmp_result result = { 0 };
	struct nb_cmp_options opt;
	struct nb_rv_extra extra = { 0 };
	struct nb_render_job job = { 0 };
	struct nb_err err = { 0 };
	int rc = parse_cli(&cli, argc, argv, &err);

	if (nb_opts_done(rc, "report", &err, report_usage, &rc))
		return rc;
	rc = NB_EXIT_USAGE;
	nb_cmp_options_init(&opt);
	if (cli.base_path ? nb_cmp_reports_load(cli.base_path, cli.path, &base, &rep, &err)
			  : nb_cmp_report_load(cli.path, &rep, &err)) {
		fprintf(stderr, "nicbench report: %s\n", err.msg);
		goto out;
	}
	if (cli.base_path && nb_cmp_run(&base, &rep, &opt, &result, &err)) {
		fprintf(stderr, "nicbench report: compare %s with %s: %s\n", cli.base_path, cli.path, err.msg);
		goto out;
	}
	/* The loader above validated the file; the extras (environment, series) come from the same text. */
	if (nb_rv_extra_load(cli.path, &extra, &err)) {
		fprintf(stderr, "nicbench report: %s\n", err.msg);
		goto out;
	}
	job.in.rep = &rep;
	job.in.extra = &extra;
	job.in.cmp = cli.base_path ? &result : NULL;
	job.kcidb = cli.kcidb;
	if (!write_output(&cli, &job))
		rc = NB_EXIT_OK;
out:
	nb_rv_extra_free(&extra);
	nb_cmp_result_free(&result);
	nb_cmp_report_free(&rep);
	nb_cmp_report_free(&base);
	return rc;
}
