/* PLACEHOLDER: nicbench run is being written; this stub only keeps the build linking. */
#include <stdio.h>

#include "commands.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nicbench run: not implemented yet\n");
	return NB_EXIT_USAGE;
}
