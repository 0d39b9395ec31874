// SPDX-License-Identifier: MIT
/* An A/B set of boots run to a verdict: the loop nicbench ab (and each step of nicbench bisect)
 * runs. Pairs of boots in alternating order, the sequential verdict after each pair, the stop
 * (decided, withheld, or the maximum of pairs), a failed boot retried once, and a state file that
 * lets the same call resume a set that was killed (docs/compare.md, "nicbench ab"). The fixed
 * design (ab --pairs) takes its pairs without a look between them and ends with a plain compare. */
#ifndef NB_AB_H
#define NB_AB_H

#include <stdbool.h>

#include "compare/compare.h"
#include "kit/nb_error.h"

/* The set's end, as exit codes: compare's 0, 1, 3 and 4 (enum nb_cmp_exit) and two of its own;
 * the command's exit codes are these (cli/commands.h). */
enum nb_ab_exit {
	NB_AB_DECIDED = NB_CMP_EXIT_OK,
	NB_AB_REGRESSED = NB_CMP_EXIT_FAIL,
	NB_AB_UNDECIDED = NB_CMP_EXIT_UNDECIDED,
	NB_AB_WITHHELD = NB_CMP_EXIT_WITHHELD,
	NB_AB_BOOT_FAILED = 5,
	NB_AB_INTERRUPTED = 130,
};

struct nb_ab_spec {
	const char *boot;       /* the hook: `BOOT KERNEL ROUND OUT` through /bin/sh */
	const char *kernel[2];  /* A, B: words the hook understands */
	const char *work;       /* the set's directory: A/, B/, log/, failed/, state.json, verdict.* */
	int max_pairs;          /* stop undecided here; a larger value later extends the set */
	bool fixed;             /* exactly max_pairs pairs, no stop before them, and at the end compare's
				 * plain verdict, not the sequential one (ab --pairs) */
	const char *set;        /* the rounds' set id; NULL: the state's, or a new one */
	struct nb_cmp_options cmp; /* the gate (the sequential verdict is switched on by the look) */
	const char *who;        /* what progress lines begin with: "ab", "bisect step 2" */
};

struct nb_ab_outcome {
	int exit_code;   /* enum nb_ab_exit: 0 decided, 1 regressed, 3 undecided, 4 withheld, 5 a boot failed,
			  * 130 interrupted */
	int pairs;       /* the pairs the verdict rests on */
	int boots;       /* hook runs that gave a report in this call */
	double wall_s;   /* this call's time */
	const char *status; /* the state's status */
};

/* Run (or resume) the set. Returns 0 when it ended with an outcome (out->exit_code), -errno with
 * err for a usage or input error: a work directory of other kernels, a state file that does not
 * read, a report that does not load after the hook said it was ready twice... (exit 2). */
int nb_ab_run(const struct nb_ab_spec *spec, struct nb_ab_outcome *out, struct nb_err *err);

#endif
