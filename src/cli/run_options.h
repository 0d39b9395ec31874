// SPDX-License-Identifier: MIT
/* The options `run` and `plan` share: parse argv into a config (file first, flags on top). */
#ifndef NB_RUN_OPTIONS_H
#define NB_RUN_OPTIONS_H

#include <stdio.h>

#include "config/config.h"

/* Parse argv (argv[0] is the subcommand). Returns 0, 1 when --help was printed, or
 * -EINVAL with the message in err. */
int nb_run_options_parse(int argc, char **argv, struct nb_config *cfg, struct nb_err *err);
void nb_run_options_usage(const char *command, FILE *out);

#endif
