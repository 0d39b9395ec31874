// SPDX-License-Identifier: MIT
/* A look at an A/B set: compare over the rounds it has, in-process (compare/), with the sequential
 * verdict or (the fixed design) the plain one, and at the end compare's verdict as text and JSON in
 * the work directory. */
#ifndef NB_AB_VERDICT_H
#define NB_AB_VERDICT_H

#include <stdbool.h>

#include "ab_state.h"
#include "compare/compare.h"
#include "kit/nb_error.h"

#define NB_AB_VERDICT_TEXT "verdict.txt"
#define NB_AB_VERDICT_JSON "verdict.json"

/* Compare pairs 1..pairs of the set in dir (its A/ and B/ reports) under opt: with opt->sequential
 * the sequential verdict (valid however often it looks), else the plain one of `nicbench compare
 * DIR/A DIR/B`. *exit_code: compare's (enum nb_cmp_exit); the plain verdict's as with
 * --fail-on-inconclusive (a gated metric left inconclusive is undecided, 3). With
 * write_files, dir/verdict.txt and dir/verdict.json get the verdict and the rounds' notes go to
 * stderr. Returns 0, or -errno with err (a report that does not load, rounds that do not pair). */
int nb_ab_look(const char *dir, int pairs, const struct nb_cmp_options *opt, bool write_files, int *exit_code,
	       struct nb_err *err);

#endif
