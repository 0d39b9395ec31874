// SPDX-License-Identifier: MIT
/* The table `run` prints after a sweep, from the assembled report (`report --format table`). */
#ifndef NB_RUN_TABLE_H
#define NB_RUN_TABLE_H

#include <stdio.h>

#include "kit/nb_error.h"

/* Read the report at path and print its table: one line per point, the notes that explain its
 * flags, the rr points' latency. 0, -EINVAL (not a report), -ENOMEM or -EIO (a write error). */
int nb_render_run_table(FILE *out, const char *path, struct nb_err *err);

#endif
