// SPDX-License-Identifier: MIT
/* nicbench compare, inside: what the options make of one metric (compare_rules.c). */
#ifndef NB_COMPARE_RULES_H
#define NB_COMPARE_RULES_H

#include "compare.h"

/* A metric's floor after --floor: the metric's own override, then its family's; none with --floor none. */
struct nb_cmp_floor nb_cmp_effective_floor(const struct nb_cmp_options *opt, const char *name);

/* A metric's minimum effect: its --min-effect METRIC=PCT, else the default. */
double nb_cmp_effective_min_effect(const struct nb_cmp_options *opt, const char *name);

#endif
