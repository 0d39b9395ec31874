// SPDX-License-Identifier: MIT
/* The subcommands that main.c dispatches to; each lives in its own cmd_*.c. */
#ifndef NB_COMMANDS_H
#define NB_COMMANDS_H

/* Exit codes shared by every subcommand (documented in --help and the README). */
enum nb_exit {
	NB_EXIT_OK = 0,        /* run: every point ran; compare: no regression */
	NB_EXIT_FAIL = 1,      /* run: some point failed or timed out; compare: regression */
	NB_EXIT_USAGE = 2,     /* usage, configuration or input error; nothing was changed */
	NB_EXIT_INCONCLUSIVE = 3, /* compare --fail-on-inconclusive */
	NB_EXIT_INTERRUPTED = 130, /* run stopped by SIGINT/SIGTERM after restoring the knobs */
};

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_knobs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_submit(int argc, char **argv);

#endif
