// SPDX-License-Identifier: MIT
/* nicbench entry point: the subcommand table and nothing else. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nic/nb_genl.h"

struct nb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct nb_command commands[] = {
	{ "run",     cmd_run,     "sweep the knob matrix across TCP/UDP x TX/RX and write a JSON report" },
	{ "plan",    cmd_plan,    "print the ordered test points and the estimated time; runs nothing" },
	{ "compare", cmd_compare, "compare two reports with noise-aware verdicts and a CI exit code" },
	{ "knobs",   cmd_knobs,   "show an interface's knobs, or restore them from a journal" },
	{ "serve",   cmd_serve,   "the peer side: a supervised iperf3 server that reports its own CPU use" },
	{ "report",  cmd_report,  "show a report as HTML, text, Markdown or KCIDB, with a bottleneck per point" },
	{ "history", cmd_history, "keep reports over commits; find change points and the regressions that hold" },
	{ "submit",  cmd_submit,  "send a KCIDB file to KernelCI's REST API and wait until it is processed" },
	{ "ab",      cmd_ab,      "boot two kernels through a hook in alternating pairs until the verdict decides" },
	{ "bisect",  cmd_bisect,  "find the first candidate kernel that regressed, one A/B set a step" },
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: nicbench COMMAND [OPTIONS]\n"
		"\n"
		"Benchmark and regression suite for Linux NIC drivers: sweep NAPI and coalescing knobs\n"
		"across iperf3 and latency tests, write a JSON report, compare two with a CI exit code.\n"
		"\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Run 'nicbench COMMAND --help' for a command's options.\n"
		"  nicbench --version    print the version\n"
		"\n"
		"exit codes: 0 success, or decided with no regression; 1 some point failed/timed out\n"
		"            (run) or regressed (compare, ab, bisect); 2 usage, configuration or input\n"
		"            error; 3 undecided: more pairs would help; 4 withheld: a side was disturbed;\n"
		"            5 a boot failed (ab, bisect); 130 interrupted (knobs restored, state kept)\n"
		"The manual: man nicbench; the guides: docs/ (README.md lists them).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return NB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("nicbench %s\nnetlink: %s\n", NICBENCH_VERSION, nb_genl_paths());
		return NB_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "nicbench: unknown command '%s' (try 'nicbench --help')\n", argv[1]);
	return NB_EXIT_USAGE;
}
