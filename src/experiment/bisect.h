// SPDX-License-Identifier: MIT
/* nicbench bisect: the first candidate kernel that regressed, one A/B set (ab.h) a step. The ends
 * are measured first; each step measures a candidate beside the known-good end until the sequential
 * verdict decides; "cannot tell" extends the step's set up to a ceiling of pairs, never a skip. Every
 * step's set stays in WORK/step-N, and WORK/bisect.json says what each step found. */
#ifndef NB_BISECT_H
#define NB_BISECT_H

#include "ab.h"

#define NB_BISECT_FILE "bisect.json"

struct nb_bisect_spec {
	const char *boot;
	const char *const *kernels; /* GOOD, CANDIDATE..., BAD: oldest first */
	int n;                      /* 2 at least */
	const char *work;
	int max_pairs;              /* a step's first maximum */
	int ceiling;                /* an undecided step doubles its maximum up to this */
	struct nb_cmp_options cmp;
};

struct nb_bisect_outcome {
	int exit_code;     /* 1 found (the bad end regressed; first_bad names where), 0 the ends do not differ,
			    * 3 a step undecided at the ceiling, 4 withheld, 5 a boot failed, 130 interrupted */
	int first_bad;     /* index into kernels, -1 when none */
	int good, bad;     /* the range left: the first bad lies in good+1..bad */
	int steps;
	double wall_s;
};

/* Returns 0 with out filled, or -errno with err (usage, input, a step's set that cannot be read). */
int nb_bisect_run(const struct nb_bisect_spec *spec, struct nb_bisect_outcome *out, struct nb_err *err);

#endif
