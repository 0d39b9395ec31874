/* PLACEHOLDER: nicbench compare is being written; this stub only keeps the build linking. */
#include <stdio.h>

#include "commands.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nicbench compare: not implemented yet\n");
	return NB_EXIT_USAGE;
}
