// SPDX-License-Identifier: MIT
/* compare's gate options as table rows (kit/options.h): --gate, --min-effect, --floor, --alpha,
 * --min-runs, --missing-ok, --allow-disturbed. compare, ab and bisect put them in their own tables,
 * so a gate is spelt, checked and documented the same way in all three. */
#ifndef NB_GATE_OPTIONS_H
#define NB_GATE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "compare/compare.h"
#include "kit/options.h"

#define NB_GATE_ROWS 7

/* Copy the gate rows into rows[at..at+NB_GATE_ROWS) of a command's table; opt_offset is where the
 * command's struct nb_cmp_options sits inside the object its table parses into. Returns the rows
 * now in the table. */
int nb_gate_rows_add(struct nb_opt *rows, int at, size_t opt_offset);

/* The options ab and bisect start from: compare's, whose default gate they share. (The gate of
 * CPU time per unit of work joins it here, so that ab and bisect gate cost as well as throughput.) */
void nb_gate_ab_defaults(struct nb_cmp_options *opt);

/* The gate rows' --help lines, under a heading the caller prints. */
void nb_gate_help(FILE *out, const struct nb_opt_table *t);
/* The options part of a gated command's --help: its own rows first..last, the gate's heading and rows,
 * and -h. */
void nb_gate_usage(FILE *out, const struct nb_opt_table *t, const char *first, const char *last,
		   const char *gate_heading);

#endif
