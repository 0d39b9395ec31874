// SPDX-License-Identifier: MIT
/* nicbench report: one report (optionally against a base) -> an HTML page, text, Markdown or KCIDB JSON. */
#include <errno.h>
#include <getopt.h>
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

static void report_usage(FILE *out)
{
	fputs("usage: nicbench report [OPTIONS] REPORT.json\n"
	      "\n"
	      "Show one report: each point's throughput, CPU and bottleneck, the settings on the Pareto\n"
	      "front, the best setting across tests; with --base, the compare view on top.\n"
	      "\n"
	      "options:\n"
	      "  -f, --format FMT     ",
	      out);
	nb_render_format_help(out, NB_RENDER_REPORT, 23, 88);
	fputs("  -o, --output FILE    write there instead of stdout\n"
	      "  -b, --base BASE      a base report to compare against\n"
	      "      --origin NAME    kcidb: the submitting CI system ([a-z0-9_]+, default nicbench)\n"
	      "      --build-id ID    kcidb: the farm's build id (ORIGIN:...) the tests belong to;\n"
	      "                       without it a checkout and a build named after the kernel are added\n"
	      "      --report-url URL kcidb: where the report is published: each test's output_files\n"
	      "      --commit HASH    kcidb: the measured kernel's git commit (a bisect's first bad one):\n"
	      "                       named by the regression issues; 40 hex digits also fill the checkout\n"
	      "  -h, --help           this help\n"
	      "\n"
	      "exit codes: 0 written; 2 usage or input error (unreadable or invalid report, bad option).\n"
	      "A report does not gate: nicbench compare does. The rules and the page: docs/report.md,\n"
	      "docs/bottleneck.md, man nicbench.\n",
	      out);
}

static int usage_error(struct nb_err *err, const char *msg, const char *arg)
{
	char why[sizeof(err->msg)];

	snprintf(why, sizeof(why), "%s", msg);  /* msg may be err->msg itself */
	return nb_err_set(err, -EINVAL, "%s%s%s (try 'nicbench report --help')", why, arg ? ": " : "", arg ? arg : "");
}

static int parse_format(const char *s, struct report_cli *cli, struct nb_err *err)
{
	char names[128], msg[160];

	cli->format = nb_render_format_find(NB_RENDER_REPORT, s);
	if (cli->format)
		return 0;
	snprintf(msg, sizeof(msg), "unknown format (%s)", nb_render_format_names(NB_RENDER_REPORT, names, sizeof(names)));
	return usage_error(err, msg, s);
}

enum { OPT_ORIGIN = 256, OPT_BUILD_ID, OPT_REPORT_URL, OPT_COMMIT };

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "base", required_argument, NULL, 'b' },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "build-id", required_argument, NULL, OPT_BUILD_ID },
	{ "report-url", required_argument, NULL, OPT_REPORT_URL },
	{ "commit", required_argument, NULL, OPT_COMMIT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The parse convention of every subcommand (options.h): 0 go on; 1 --help asked for; -EINVAL
 * with the message in err. */
static int parse_cli(struct report_cli *cli, int argc, char **argv, struct nb_err *err)
{
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->kcidb.origin = "nicbench";
	cli->format = nb_render_format_default();
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "f:o:b:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_format(optarg, cli, err))
				return -EINVAL;
			break;
		case 'o':
			cli->output = optarg;
			break;
		case 'b':
			cli->base_path = optarg;
			break;
		case OPT_ORIGIN:
			if (nb_kcidb_origin_check(optarg, err))
				return usage_error(err, err->msg, NULL);
			cli->kcidb.origin = optarg;
			break;
		case OPT_BUILD_ID:
			cli->kcidb.build_id = optarg;
			break;
		case OPT_REPORT_URL:
			if (nb_kcidb_report_url_check(optarg, err))
				return usage_error(err, err->msg, NULL);
			cli->kcidb.report_url = optarg;
			break;
		case OPT_COMMIT:
			if (nb_kcidb_commit_check(optarg, err))
				return usage_error(err, err->msg, NULL);
			cli->kcidb.commit = optarg;
			break;
		case 'h':
			return 1;
		default:
			return usage_error(err, "bad option", NULL);
		}
	}
	if (argc - optind != 1)
		return usage_error(err, "expected one report, REPORT.json", NULL);
	cli->path = argv[optind];
	if (cli->kcidb.build_id && nb_kcidb_build_id_check(cli->kcidb.build_id, err))
		return usage_error(err, err->msg, NULL);
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
