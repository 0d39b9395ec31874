/* PLACEHOLDER: nicbench plan is being written; this stub only keeps the build linking. */
#include <stdio.h>

#include "commands.h"

int cmd_plan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nicbench plan: not implemented yet\n");
	return NB_EXIT_USAGE;
}
