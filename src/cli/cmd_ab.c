// SPDX-License-Identifier: MIT
/* nicbench ab: two kernels booted through a hook in alternating pairs until the sequential verdict
 * decides, or for a fixed number of pairs (experiment/ab.h); the command line, the help and the exit
 * code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "experiment/ab.h"
#include "experiment/ab_schedule.h"
#include "experiment/ab_state.h"
#include "experiment/ab_verdict.h"
#include "experiment/boot.h"
#include "gate_options.h"
#include "kit/options.h"

_Static_assert((int)NB_AB_DECIDED == (int)NB_EXIT_OK && (int)NB_AB_REGRESSED == (int)NB_EXIT_FAIL &&
		       (int)NB_AB_UNDECIDED == (int)NB_EXIT_UNDECIDED && (int)NB_AB_WITHHELD == (int)NB_EXIT_WITHHELD &&
		       (int)NB_AB_BOOT_FAILED == (int)NB_EXIT_BOOT && (int)NB_AB_INTERRUPTED == (int)NB_EXIT_INTERRUPTED,
	       "ab's ends are the command's exit codes");

#define AB_MAX_PAIRS_DEFAULT 10

struct ab_cli {
	const char *boot, *work, *set;
	int max_pairs, pairs; /* 0: not given (the two exclude each other) */
	struct nb_cmp_options opt;
};

static int parse_set(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)o;
	if (!nb_ab_set_valid(text))
		return nb_err_set(err, -EINVAL, "--set '%s': 1..%d characters of A-Z a-z 0-9 . _ -", text, NB_AB_SET_MAX - 1);
	((struct ab_cli *)obj)->set = text;
	return 0;
}

#define AB_ROWS 5
static struct nb_opt ab_rows[AB_ROWS + NB_GATE_ROWS] = {
	{ .name = "boot", .type = NB_OPT_ARG, .offset = NB_OPT_FIELD(struct ab_cli, boot), .metavar = "CMD",
	  .help = "the boot hook, run as CMD KERNEL ROUND OUT through /bin/sh\n(exit 0: OUT is the report)",
	  .brief = "the boot hook: CMD KERNEL ROUND OUT through /bin/sh" },
	{ .name = "work", .type = NB_OPT_ARG, .offset = NB_OPT_FIELD(struct ab_cli, work), .metavar = "DIR",
	  .help = "the set's directory: reports, logs, state, verdict (the same DIR resumes)" },
	{ .name = "max-pairs", .type = NB_OPT_INT, .offset = NB_OPT_FIELD(struct ab_cli, max_pairs), .min = 1,
	  .max = NB_AB_PAIRS_MAX, .def = 0, .doc_default = "10", .metavar = "N",
	  .help = "pairs at most; then the set ends undecided (default 10)" },
	{ .name = "pairs", .type = NB_OPT_INT, .offset = NB_OPT_FIELD(struct ab_cli, pairs), .min = 1,
	  .max = NB_AB_PAIRS_MAX, .def = 0, .doc_default = "none", .metavar = "N",
	  .help = "the fixed design: exactly N pairs, no stop before them, then\ncompare's plain verdict over them "
		  "(instead of --max-pairs)",
	  .brief = "fixed design: exactly N pairs, then a plain compare" },
	{ .name = "set", .type = NB_OPT_CUSTOM, .metavar = "ID", .parse = parse_set,
	  .help = "the rounds' set id (default: ab- and the UTC time the set began)" },
};

static const struct nb_opt_table ab_table = { .command = "ab", .rows = ab_rows, .nrows = AB_ROWS + NB_GATE_ROWS };

static void ab_usage(FILE *out)
{
	fputs("usage: nicbench ab --boot CMD --work DIR [OPTIONS] KERNEL_A KERNEL_B\n"
	      "\n"
	      "Measure kernel B against kernel A on a board, a lab or a farm, in pairs of boots in\n"
	      "alternating order (A B, B A, ...), and stop as soon as the sequential verdict decides\n"
	      "every gated metric (or at --max-pairs). For each boot nicbench runs\n"
	      "    CMD KERNEL ROUND OUT\n"
	      "through /bin/sh: the hook boots KERNEL however your board does it, runs there\n"
	      "    nicbench run ... --round ROUND -o OUT\n"
	      "and leaves the report at OUT (copied back), exiting 0. A boot that fails is tried once\n"
	      "more; failing again, the set stops (exit 5), every report kept. Killed or stopped, the\n"
	      "same command with the same --work goes on from the pairs it has.\n"
	      "With --pairs N (the fixed design) it takes exactly N pairs in the same order, looking\n"
	      "at none before the last, and ends with the plain verdict of\n"
	      "    nicbench compare --fail-on-inconclusive [gate] DIR/A DIR/B\n"
	      "(a gated metric still inconclusive: exit 3).\n"
	      "\n"
	      "options:\n",
	      out);
	nb_opts_help(out, &ab_table, "boot", "set");
	fputs("the gate (as nicbench compare's):\n", out);
	nb_gate_help(out, &ab_table);
	fputs("  -h, --help              this help\n"
	      "\n"
	      "DIR holds A/I.json and B/I.json (nicbench compare DIR/A DIR/B reads them), log/ (each\n"
	      "boot's output), failed/ (reports of failed boots), state.json, and at the end the\n"
	      "verdict: verdict.txt (also on stdout) and verdict.json.\n"
	      "\n"
	      "exit codes (the same in compare, ab and bisect):\n"
	      "  0 decided, no regression        1 regressed\n"
	      "  2 usage or input error          3 undecided at --max-pairs (or inconclusive after\n"
	      "                                    --pairs): more pairs would help (rerun with a larger\n"
	      "                                    --max-pairs or --pairs: the set extends)\n"
	      "  4 withheld: a side was disturbed (foreign load, host steal): more pairs would not;\n"
	      "    find the load\n"
	      "  5 a boot failed twice (reports kept)   130 interrupted (state kept; rerun resumes)\n"
	      "\n"
	      "example hook (ab-hook.sh; a board reached by ssh, its kernels beside it in /boot):\n"
	      "    #!/bin/sh -e\n"
	      "    kernel=$1 round=$2 out=$3 board=root@board\n"
	      "    ssh $board \"kexec -l /boot/vmlinuz-$kernel --reuse-cmdline && systemctl kexec\" || true\n"
	      "    sleep 20; until ssh -o ConnectTimeout=5 $board true; do sleep 5; done\n"
	      "    ssh $board nicbench run -i eth0 --peer 192.0.2.1 --round $round -o /tmp/r.json\n"
	      "    scp $board:/tmp/r.json \"$out\"\n"
	      "then: nicbench ab --boot ./ab-hook.sh --work ab-6.12 6.12.0 6.12.1\n"
	      "More: man nicbench, docs/compare.md (\"nicbench ab\").\n",
	      out);
}

int cmd_ab(int argc, char **argv)
{
	struct ab_cli cli = { 0 };
	struct nb_ab_spec spec = { 0 };
	struct nb_ab_outcome outcome;
	struct nb_err err = { 0 };
	char path[4096];
	int pos = 0, rc;

	nb_gate_rows_add(ab_rows, AB_ROWS, offsetof(struct ab_cli, opt));
	nb_opts_defaults(&ab_table, &cli);
	nb_gate_ab_defaults(&cli.opt);
	rc = nb_opts_parse(&ab_table, argc, argv, &cli, &pos, &err);
	if (!rc && !cli.boot)
		rc = nb_err_set(&err, -EINVAL, "--boot CMD is needed: the hook that boots a kernel and leaves a report "
				"(try 'nicbench ab --help')");
	if (!rc && !cli.work)
		rc = nb_err_set(&err, -EINVAL, "--work DIR is needed: where the set's reports and state go (try "
				"'nicbench ab --help')");
	if (!rc && cli.pairs && cli.max_pairs)
		rc = nb_err_set(&err, -EINVAL, "--pairs and --max-pairs exclude each other: --pairs N takes exactly N pairs "
				"(the fixed design), --max-pairs N stops once decided (try 'nicbench ab --help')");
	if (!rc && argc - pos != 2)
		rc = nb_err_set(&err, -EINVAL, "expected two kernels, KERNEL_A and KERNEL_B, got %d (try 'nicbench ab "
				"--help')", argc - pos);
	if (nb_opts_done(rc, "ab", &err, ab_usage, &rc))
		return rc;
	spec = (struct nb_ab_spec){ .boot = cli.boot, .kernel = { argv[pos], argv[pos + 1] }, .work = cli.work,
				    .max_pairs = cli.pairs ? cli.pairs : cli.max_pairs ? cli.max_pairs : AB_MAX_PAIRS_DEFAULT,
				    .fixed = cli.pairs > 0, .set = cli.set, .cmp = cli.opt, .who = "ab" };
	if (nb_boot_signals_install(&err) || nb_ab_run(&spec, &outcome, &err)) {
		fprintf(stderr, "nicbench ab: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/%s", cli.work, NB_AB_VERDICT_TEXT);
	if (outcome.exit_code <= NB_AB_WITHHELD) {
		FILE *f = fopen(path, "r");
		char buf[4096];
		size_t n;

		while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
		if (f)
			fclose(f);
	}
	fprintf(stderr, "nicbench ab: %s after %d pair%s (%d boots now, %.0f s); exit %d; %s\n", outcome.status,
		outcome.pairs, outcome.pairs == 1 ? "" : "s", outcome.boots, outcome.wall_s, outcome.exit_code,
		outcome.exit_code <= NB_AB_WITHHELD ? path : cli.work);
	return outcome.exit_code;
}
