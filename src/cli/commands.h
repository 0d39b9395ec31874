// SPDX-License-Identifier: MIT
/* The subcommands that main.c dispatches to; each lives in its own cmd_*.c. */
#ifndef NB_COMMANDS_H
#define NB_COMMANDS_H

/* Exit codes shared by every subcommand: README.md's table, docs/compare.md ("Exit codes") and the
 * man page say the same. compare, ab and bisect use 0, 1, 3 and 4 alike. */
enum nb_exit {
	NB_EXIT_OK = 0,        /* run: every point ran; compare, ab, bisect: decided, no regression */
	NB_EXIT_FAIL = 1,      /* run: some point failed or timed out; compare, ab, bisect: regressed */
	NB_EXIT_USAGE = 2,     /* usage, configuration or input error; nothing was changed */
	NB_EXIT_UNDECIDED = 3, /* not decided yet: more pairs would help */
	NB_EXIT_WITHHELD = 4,  /* a gated verdict withheld because a side was disturbed: more pairs would not */
	NB_EXIT_BOOT = 5,      /* ab, bisect: a boot or run failed twice; every report kept */
	NB_EXIT_INTERRUPTED = 130, /* stopped by SIGINT/SIGTERM: run restored the knobs; ab kept its state */
};

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_knobs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

#endif
