// SPDX-License-Identifier: MIT
/* nicbench compare: command line, loading, environment check, rendering and the CI exit code. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "compare/compare.h"
#include "compare/compare_rounds.h"
#include "gate_options.h"
#include "kit/options.h"
#include "render/render.h"

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct compare_cli {
	const char *base_path, *new_path, *output;
	/* compare over rounds: A's reports before '--', B's after (or two directories) */
	bool rounds;
	char **side_paths[2];
	int side_n[2];
	char **args;           /* owned: argv's words a side at a time, for getopt to permute */
	const struct nb_render_format *format;
	enum color_mode color;
	bool strict_env, fail_on_inconclusive, all_metrics;
	bool list_floors;      /* --list-floors: print the table and stop */
	struct nb_cmp_options opt;
};

static int parse_format(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	struct compare_cli *cli = obj;

	(void)o;
	return nb_render_format_parse(NB_RENDER_COMPARE, text, " (try 'nicbench compare --help')", &cli->format, err);
}

static int parse_color(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	struct compare_cli *cli = obj;

	(void)o;
	if (!strcmp(text, "auto"))
		cli->color = COLOR_AUTO;
	else if (!strcmp(text, "always"))
		cli->color = COLOR_ALWAYS;
	else if (!strcmp(text, "never"))
		cli->color = COLOR_NEVER;
	else
		return nb_err_set(err, -EINVAL, "--color '%s': auto, always or never", text);
	return 0;
}

#define CLI_FIELD(member) NB_OPT_FIELD(struct compare_cli, member)
#define COMPARE_ROWS 10

/* The option rows (kit/options.h), as run's; the gate's rows, shared with ab and bisect
 * (gate_options.c), follow them. --format's help line is the format table's own. */
static struct nb_opt compare_rows[COMPARE_ROWS + NB_GATE_ROWS] = {
	{ .name = "format", .short_name = 'f', .type = NB_OPT_CUSTOM, .flags = NB_OPT_HIDDEN, .metavar = "FMT",
	  .parse = parse_format, .help = "the output format" },
	{ .name = "output", .short_name = 'o', .type = NB_OPT_ARG, .offset = CLI_FIELD(output), .metavar = "FILE",
	  .help = "write there instead of stdout" },
	{ .name = "list-floors", .type = NB_OPT_FLAG, .offset = CLI_FIELD(list_floors),
	  .help = "print every metric family's direction and floor, and exit" },
	{ .name = "strict-env", .type = NB_OPT_FLAG, .offset = CLI_FIELD(strict_env),
	  .help = "reports that differ in anything but the kernel are an error" },
	{ .name = "fail-on-inconclusive", .type = NB_OPT_FLAG, .offset = CLI_FIELD(fail_on_inconclusive),
	  .help = "exit 3 when nothing regressed but a gated metric is inconclusive",
	  .brief = "exit 3 when a gated metric is inconclusive" },
	{ .name = "sequential", .type = NB_OPT_FLAG, .offset = CLI_FIELD(opt.sequential),
	  .help = "rounds: the always-valid verdict a loop can stop on (exit 3: undecided)",
	  .brief = "rounds: the verdict a loop can stop on (3: undecided)" },
	{ .name = "alpha-split", .type = NB_OPT_FLAG, .offset = CLI_FIELD(opt.alpha_split),
	  .help = "--sequential: share alpha among the gated metrics, so that the gate as a whole errs at\n"
		  "alpha (nicbench ab and bisect do)",
	  .brief = "--sequential: share alpha among the gated metrics" },
	{ .name = "verbose", .short_name = 'v', .type = NB_OPT_FLAG, .offset = CLI_FIELD(all_metrics),
	  .help = "text: list every metric, not only the gated and the changed ones",
	  .brief = "text: list every metric" },
	{ .name = "all-metrics", .type = NB_OPT_FLAG, .flags = NB_OPT_HELP_JOIN, .offset = CLI_FIELD(all_metrics),
	  .help = "the same as --verbose" },
	{ .name = "color", .type = NB_OPT_CUSTOM, .metavar = "WHEN", .parse = parse_color,
	  .help = "auto (default: on a terminal), always, never" },
};

static const struct nb_opt_table compare_table = { .command = "compare", .rows = compare_rows,
						   .nrows = COMPARE_ROWS + NB_GATE_ROWS };

static void compare_usage(FILE *out)
{
	fputs("usage: nicbench compare [OPTIONS] BASE.json NEW.json\n"
	      "       nicbench compare [OPTIONS] A1.json A2.json... -- B1.json B2.json...   (rounds)\n"
	      "\n"
	      "Match the points of two reports by id and give every metric a noise-aware verdict\n"
	      "(improved, regressed, unchanged, inconclusive, ...) and the exit code a CI gates on.\n"
	      "Rounds (run --round; a directory stands for its *.json): kernel A's reports against\n"
	      "B's, paired by round index; a verdict rests on the pairs, a sign interval that needs\n"
	      "5 pairs at alpha 0.10 (at 5: every pair beyond the minimum effect, the same way).\n"
	      "\n"
	      "Options may come anywhere, also after the '--' that parts the sides; a report whose\n"
	      "name begins with '-' is named with its directory: ./-x.json.\n"
	      "\n"
	      "options:\n"
	      "  -f, --format FMT        ",
	      out);
	nb_render_format_help(out, NB_RENDER_COMPARE, 26, 88);
	nb_gate_usage(out, &compare_table, "output", "color", "the gate (nicbench ab and bisect take the same):");
	fputs("\n"
	      "The default gate: throughput_bps,cpu_busy_pct@*-rx,rr_latency_p99_us@*-rr,\n"
	      "rr_transactions_per_s@*-rr, and each point's headline metric (a flood point's packet rate).\n"
	      "Floor families for --floor NAME=V: cpu, core, loss, drops, latency, jitter, rates, bits,\n"
	      "... (--list-floors).\n"
	      "\n"
	      "exit codes (the same in compare, ab and bisect):\n"
	      "  0 decided, no regression      1 regressed (or a gated metric or point missing from NEW)\n"
	      "  2 usage or input error        3 undecided: more pairs would help (--sequential, or\n"
	      "                                  --fail-on-inconclusive)\n"
	      "  4 withheld: a side was disturbed (foreign load, host steal); more pairs would not:\n"
	      "    find the load (--allow-disturbed: 0)\n"
	      "git bisect run: map 2, 3 and 4 to 125 (skip), or let nicbench bisect do it. The method\n"
	      "(medians, the Mann-Whitney interval, floors, foreign load, host steal) and a recipe:\n"
	      "man nicbench, docs/compare.md.\n",
	      out);
}

static int usage_error(struct nb_err *err, const char *msg)
{
	return nb_err_set(err, -EINVAL, "%s (try 'nicbench compare --help')", msg);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Does arg take the next word as its value (a row with a value, by its long or short name)? */
static bool takes_value(const char *arg)
{
	const struct nb_opt *o = NULL;

	if (!strncmp(arg, "--", 2) && !strchr(arg, '='))
		o = nb_opt_by_name(&compare_table, arg + 2);
	else if (arg[0] == '-' && arg[1] && !arg[2])
		for (int i = 0; i < compare_table.nrows && !o; i++)
			o = compare_rows[i].short_name == arg[1] ? &compare_rows[i] : NULL;
	return o && o->type != NB_OPT_FLAG;
}

/* The first "--" at or after argv[from] that is not an option's argument; -1 when none. */
static int separator(int argc, char **argv, int from)
{
	for (int i = from; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i;
		if (takes_value(argv[i]))
			i++;
	}
	return -1;
}

/* The options among argv[1..argc) (argv[0] the command's name), which getopt permutes to the
 * front; *first is where the reports then start. 0, 1 (--help) or -EINVAL. */
static int parse_options(struct compare_cli *cli, int argc, char **argv, int *first, struct nb_err *err)
{
	return nb_opts_parse(&compare_table, argc, argv, cli, first, err);
}

/* The parse convention of every subcommand (options.h): 0 go on; 1 --help (or --list-floors)
 * asked for; -EINVAL with the message in err. The "--" of rounds parts A's reports from B's
 * and ends no options: each side is parsed on its own, so options may stand on either side and
 * a side's reports stay its own. A report named like an option is reached as ./-x.json. */
static int parse_cli(struct compare_cli *cli, int argc, char **argv, struct nb_err *err)
{
	int sep, na, nb, first[2] = { 0, 0 }, ret;
	char **side[2];

	memset(cli, 0, sizeof(*cli));
	nb_gate_rows_add(compare_rows, COMPARE_ROWS, offsetof(struct compare_cli, opt));
	sep = separator(argc, argv, 1);
	na = sep >= 0 ? sep : argc;
	nb = sep >= 0 ? argc - sep : 0;
	nb_cmp_options_init(&cli->opt);
	cli->format = nb_render_format_default();
	if (sep >= 0 && separator(argc, argv, sep + 1) >= 0)
		return usage_error(err, "one '--' only: it parts A's reports from B's (a report named '--' is ./--)");
	/* each side as an argv of its own, led by the command's name: [argv0, A...] [argv0, B...] */
	cli->args = calloc((size_t)argc + 2, sizeof(*cli->args));
	if (!cli->args)
		return nb_err_set(err, -ENOMEM, "parse the command line: %s", strerror(ENOMEM));
	side[0] = cli->args;
	side[1] = cli->args + na;
	memcpy(side[0], argv, (size_t)na * sizeof(*argv));
	if (sep >= 0) {
		side[1][0] = argv[0];
		memcpy(side[1] + 1, argv + sep + 1, (size_t)(nb - 1) * sizeof(*argv));
	}
	for (int s = 0; s < (sep >= 0 ? 2 : 1); s++) {
		ret = parse_options(cli, s ? nb : na, side[s], &first[s], err);
		if (ret)
			return ret;
	}
	if (cli->list_floors)
		return 1; /* the table alone: no reports wanted */
	if (sep >= 0) {
		cli->rounds = true;
		for (int s = 0; s < 2; s++) {
			cli->side_paths[s] = side[s] + first[s];
			cli->side_n[s] = (s ? nb : na) - first[s];
		}
		if (!cli->side_n[0] || !cli->side_n[1])
			return usage_error(err, "compare over rounds wants reports on both sides of '--': A1.json... -- "
					   "B1.json...");
		cli->base_path = cli->side_paths[0][0];
		cli->new_path = cli->side_paths[1][cli->side_n[1] - 1];
		return 0;
	}
	if (na - first[0] != 2)
		return usage_error(err, "expected two reports, BASE.json and NEW.json (or rounds: A1.json... -- B1.json...)");
	cli->base_path = side[0][first[0]];
	cli->new_path = side[0][first[0] + 1];
	/* two directories: a side's rounds each */
	if (is_dir(cli->base_path) || is_dir(cli->new_path)) {
		cli->rounds = true;
		cli->side_paths[0] = side[0] + first[0];
		cli->side_paths[1] = side[0] + first[0] + 1;
		cli->side_n[0] = cli->side_n[1] = 1;
	}
	return 0;
}

/* Warnings go to stderr in every format so JSON/JUnit on stdout stay clean. */
static const char *load_text(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		return "(not measured)";
	snprintf(buf, len, "%.0f%%", pct);
	return buf;
}

static int check_environment(const struct compare_cli *cli, const struct nb_cmp_result *r)
{
	const char *base_path = r->base->path, *new_path = r->new->path;

	const char *level = cli->strict_env ? "error" : "warning";
	char lb[16], ln[16];

	for (int i = 0; i < r->n_env_diffs; i++)
		fprintf(stderr, "nicbench compare: %s: the reports differ in more than the kernel: %s is %s in %s, %s in %s\n",
			level, r->env_diffs[i].key, r->env_diffs[i].base ? r->env_diffs[i].base : "absent",
			base_path, r->env_diffs[i].new ? r->env_diffs[i].new : "absent", new_path);
	if (r->n_test_diffs)
		fprintf(stderr, "nicbench compare: %s: the test settings of %d point(s) differ, e.g. %s\n", level,
			r->n_test_diffs, r->test_diff_id);
	/* not an environment setting, so never an error: a reason to distrust, and rerun */
	if (r->other_differs)
		fprintf(stderr, "nicbench compare: warning: foreign load differs: other programs took up to %s in %s "
			"and up to %s in %s (cpu_other_pct, %% of all CPUs): changes may come from them\n",
			load_text(r->other_base_pct, lb, sizeof(lb)), base_path,
			load_text(r->other_new_pct, ln, sizeof(ln)), new_path);
	/* a side that did not put the board back may have measured the next run's settings */
	if (!strcmp(r->base->restore_status, "failed"))
		fprintf(stderr, "nicbench compare: warning: %s: its run's restore failed (%s): the board was not left as "
			"found\n", base_path, r->base->restore_error[0] ? r->base->restore_error : "no error text");
	if (!strcmp(r->new->restore_status, "failed"))
		fprintf(stderr, "nicbench compare: warning: %s: its run's restore failed (%s): the board was not left as "
			"found\n", new_path, r->new->restore_error[0] ? r->new->restore_error : "no error text");
	return cli->strict_env && (r->n_env_diffs || r->n_test_diffs) ? -EINVAL : 0;
}

/* The page shows the new report's environment and series too; without them it still has the compare view. */
static int render(const struct compare_cli *cli, FILE *out, const struct nb_cmp_result *r)
{
	struct nb_rv_extra extra = { 0 };
	struct nb_err err = { 0 };
	struct nb_render_job job = {
		.in = { .rep = r->new, .cmp = r },
		.text = { .all_metrics = cli->all_metrics,
			  .color = cli->color == COLOR_ALWAYS ||
				   (cli->color == COLOR_AUTO && !cli->output && isatty(fileno(out))) },
		.kcidb = { .origin = "nicbench" },
	};
	int ret;

	if (cli->format->page_extras && !nb_rv_extra_load(cli->new_path, &extra, &err))
		job.in.extra = &extra;
	ret = nb_render(out, cli->format, NB_RENDER_COMPARE, &job);
	nb_rv_extra_free(&extra);
	return ret;
}

static int write_output(const struct compare_cli *cli, const struct nb_cmp_result *r)
{
	FILE *out = cli->output ? fopen(cli->output, "w") : stdout;
	int ret;

	if (!out) {
		fprintf(stderr, "nicbench compare: open output %s: %s\n", cli->output, strerror(errno));
		return -errno;
	}
	ret = render(cli, out, r);
	if (fflush(out) && !ret)
		ret = -errno;
	if (cli->output && fclose(out) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "nicbench compare: write %s: %s\n", cli->output ? cli->output : "stdout", strerror(-ret));
	return ret;
}

static int exit_code(const struct compare_cli *cli, const struct nb_cmp_result *r)
{
	return (int)nb_cmp_exit_status(r, cli->fail_on_inconclusive); /* its values are enum nb_exit's */
}

/* Each side's reports, merged into one report a side (compare_rounds.h); notes to stderr. */
static int load_rounds(struct compare_cli *cli, struct nb_cmp_rounds *rounds, struct nb_err *err)
{
	for (int side = 0; side < 2; side++) {
		if (nb_cmp_rounds_load(rounds, side, cli->side_paths[side], cli->side_n[side], err))
			return -1;
	}
	if (nb_cmp_rounds_merge(rounds, err))
		return -1;
	for (int i = 0; i < rounds->n_notes; i++)
		fprintf(stderr, "nicbench compare: note: %s\n", rounds->notes[i]);
	cli->opt.rounds_paired = rounds->paired && rounds->n_paired > 0;
	if (cli->opt.sequential && !cli->opt.rounds_paired)
		return nb_err_set(err, -EINVAL, "--sequential: the rounds do not pair (run --round on both sides)");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli cli;
	struct nb_cmp_report base = { 0 }, new = { 0 };
	struct nb_cmp_rounds rounds = { 0 };
	struct nb_cmp_result result = { 0 };
	struct nb_err err = { 0 };
	int rc = parse_cli(&cli, argc, argv, &err);

	if (rc == 1 && cli.list_floors) {
		rc = nb_cmp_render_floors(stdout) ? NB_EXIT_USAGE : NB_EXIT_OK;
		goto out;
	}
	if (nb_opts_done(rc, "compare", &err, compare_usage, &rc))
		goto out;
	rc = NB_EXIT_USAGE;
	if (cli.opt.alpha_split && !cli.opt.sequential) {
		fprintf(stderr, "nicbench compare: --alpha-split shares the sequential verdict's alpha: add --sequential "
			"(try 'nicbench compare --help')\n");
		goto out;
	}
	if (cli.opt.sequential && !cli.rounds) {
		fprintf(stderr, "nicbench compare: --sequential wants rounds: A1.json... -- B1.json... (try 'nicbench compare --help')\n");
		goto out;
	}
	if (cli.rounds ? load_rounds(&cli, &rounds, &err) ||
				 nb_cmp_run(&rounds.merged[0], &rounds.merged[1], &cli.opt, &result, &err)
		       : nb_cmp_reports_load(cli.base_path, cli.new_path, &base, &new, &err) ||
				 nb_cmp_run(&base, &new, &cli.opt, &result, &err)) {
		fprintf(stderr, "nicbench compare: %s\n", err.msg);
		goto out;
	}
	result.rounds = cli.rounds ? &rounds : NULL;
	nb_cmp_rounds_movers(&result, result.rounds);
	if (check_environment(&cli, &result) || write_output(&cli, &result))
		goto out;
	rc = exit_code(&cli, &result);
out:
	nb_cmp_result_free(&result);
	nb_cmp_report_free(&new);
	nb_cmp_report_free(&base);
	nb_cmp_rounds_free(&rounds);
	free(cli.args);
	return rc;
}
