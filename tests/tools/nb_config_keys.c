// SPDX-License-Identifier: MIT
/* Prints configs/README.md's key table from the settings rows (src/config/config_table.c):
 * `build/nb_config_keys` after a change to the rows, pasted between the README's markers. */
#include <stdio.h>

#include "config/config.h"

int main(void)
{
	nb_opts_markdown(stdout, &nb_config_table);
	return 0;
}
