// SPDX-License-Identifier: MIT
/* nicbench bisect: the first candidate kernel that regressed, through the same boot hook as ab
 * (experiment/bisect.h); the command line, the help and the exit code. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "experiment/ab_state.h"
#include "experiment/bisect.h"
#include "experiment/boot.h"
#include "gate_options.h"
#include "kit/options.h"

struct bisect_cli {
	const char *boot, *work;
	int max_pairs, ceiling;
	struct nb_cmp_options opt;
};

#define BISECT_ROWS 4
static struct nb_opt bisect_rows[BISECT_ROWS + NB_GATE_ROWS] = {
	{ .name = "boot", .type = NB_OPT_ARG, .offset = NB_OPT_FIELD(struct bisect_cli, boot), .metavar = "CMD",
	  .help = "the boot hook, as nicbench ab's: CMD KERNEL ROUND OUT" },
	{ .name = "work", .type = NB_OPT_ARG, .offset = NB_OPT_FIELD(struct bisect_cli, work), .metavar = "DIR",
	  .help = "each step's set (DIR/step-N) and bisect.json; the same DIR resumes" },
	{ .name = "max-pairs", .type = NB_OPT_INT, .offset = NB_OPT_FIELD(struct bisect_cli, max_pairs), .min = 1,
	  .max = NB_AB_PAIRS_MAX, .def = 8, .metavar = "N", .help = "a step's pairs before it is extended" },
	{ .name = "ceiling", .type = NB_OPT_INT, .offset = NB_OPT_FIELD(struct bisect_cli, ceiling), .min = 1,
	  .max = NB_AB_PAIRS_MAX, .def = 16, .metavar = "N",
	  .help = "an undecided step doubles its pairs up to this many; still undecided, the bisect\nstops (exit 3)",
	  .brief = "an undecided step doubles its pairs up to N, then exit 3" },
};

static const struct nb_opt_table bisect_table = { .command = "bisect", .rows = bisect_rows,
						  .nrows = BISECT_ROWS + NB_GATE_ROWS };

static void bisect_usage(FILE *out)
{
	fputs("usage: nicbench bisect --boot CMD --work DIR [OPTIONS] GOOD CANDIDATE... BAD\n"
	      "\n"
	      "Find the first candidate kernel (oldest first) that regressed against GOOD. Each step is\n"
	      "an A/B set, as nicbench ab makes it with the same boot hook: the ends first (BAD beside\n"
	      "GOOD: nothing to bisect unless BAD regressed), then the middle candidate beside the\n"
	      "known-good end until the sequential verdict decides. A step that cannot tell goes on with\n"
	      "twice the pairs, up to --ceiling: never a skip. Regressed moves the bad end down to the\n"
	      "candidate, anything decided else moves the good end up.\n"
	      "\n"
	      "options:\n",
	      out);
	nb_gate_usage(out, &bisect_table, "boot", "ceiling", "the gate (as nicbench compare's):");
	fputs("\n"
	      "DIR/bisect.json lists each step (kernels, verdict, pairs, wall time, its set) and the\n"
	      "result; the first bad candidate is printed on stdout.\n"
	      "\n"
	      "exit codes (the same in compare, ab and bisect):\n"
	      "  0 the ends do not differ: nothing regressed, nothing to bisect\n"
	      "  1 regressed: the first bad candidate is named\n"
	      "  2 usage or input error\n"
	      "  3 a step stayed undecided at --ceiling (the range left is printed)\n"
	      "  4 a step's verdict was withheld: a side was disturbed; find the load\n"
	      "  5 a boot failed twice (reports kept)   130 interrupted (rerun resumes)\n"
	      "\n"
	      "example: nicbench bisect --boot ./ab-hook.sh --work bisect-e1000e v6.12 c1 c2 c3 v6.13\n"
	      "(ab-hook.sh as in nicbench ab --help). More: man nicbench, docs/compare.md.\n",
	      out);
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_cli cli = { 0 };
	struct nb_bisect_outcome o;
	struct nb_err err = { 0 };
	int pos = 0, rc;

	nb_gate_rows_add(bisect_rows, BISECT_ROWS, offsetof(struct bisect_cli, opt));
	nb_opts_defaults(&bisect_table, &cli);
	nb_gate_ab_defaults(&cli.opt);
	rc = nb_opts_parse(&bisect_table, argc, argv, &cli, &pos, &err);
	if (!rc && !cli.boot)
		rc = nb_err_set(&err, -EINVAL, "--boot CMD is needed: the hook that boots a kernel and leaves a report "
				"(try 'nicbench bisect --help')");
	if (!rc && !cli.work)
		rc = nb_err_set(&err, -EINVAL, "--work DIR is needed: where the steps' sets go (try 'nicbench bisect --help')");
	if (!rc && argc - pos < 2)
		rc = nb_err_set(&err, -EINVAL, "expected GOOD [CANDIDATE...] BAD: two kernels at least, got %d (try "
				"'nicbench bisect --help')", argc - pos);
	if (!rc && cli.ceiling < cli.max_pairs)
		rc = nb_err_set(&err, -EINVAL, "--ceiling %d is below --max-pairs %d", cli.ceiling, cli.max_pairs);
	if (nb_opts_done(rc, "bisect", &err, bisect_usage, &rc))
		return rc;
	struct nb_bisect_spec spec = { .boot = cli.boot, .kernels = (const char *const *)argv + pos, .n = argc - pos,
				       .work = cli.work, .max_pairs = cli.max_pairs, .ceiling = cli.ceiling,
				       .cmp = cli.opt };

	if (nb_boot_signals_install(&err) || nb_bisect_run(&spec, &o, &err)) {
		fprintf(stderr, "nicbench bisect: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	switch (o.exit_code) {
	case NB_AB_REGRESSED:
		printf("%s\n", spec.kernels[o.first_bad]);
		fprintf(stderr, "nicbench bisect: first bad: %s (%d steps, %.0f s); %s/%s\n", spec.kernels[o.first_bad],
			o.steps, o.wall_s, cli.work, NB_BISECT_FILE);
		break;
	case NB_AB_DECIDED:
		fprintf(stderr, "nicbench bisect: %s does not differ from %s: nothing to bisect\n", spec.kernels[spec.n - 1],
			spec.kernels[0]);
		break;
	default:
		fprintf(stderr, "nicbench bisect: stopped at step %d (exit %d); the first bad lies in %s..%s; %s/%s\n",
			o.steps, o.exit_code, spec.kernels[o.good + 1 <= o.bad ? o.good + 1 : o.bad], spec.kernels[o.bad],
			cli.work, NB_BISECT_FILE);
	}
	return o.exit_code;
}
