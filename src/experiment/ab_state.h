// SPDX-License-Identifier: MIT
/* An A/B set's state file (WORK/state.json): the kernels, the set's id, the boots that finished
 * with a report, and where the set stands. Written after every boot (a new file renamed over the
 * old), so that a set killed at any moment resumes from the pairs it has. */
#ifndef NB_AB_STATE_H
#define NB_AB_STATE_H

#include <stdbool.h>

#include "ab_schedule.h"
#include "kit/nb_error.h"

#define NB_AB_STATE_SCHEMA "nicbench-ab-state/1"
#define NB_AB_STATE_FILE "state.json"
#define NB_AB_PAIRS_MAX 500 /* compare over rounds reads up to 1000 reports a side */

struct nb_ab_boot_record {
	bool done;       /* the hook exited 0 and left a report with the right round */
	int attempts;    /* hook runs it took (1 or 2), or that failed */
	double wall_s;   /* of the successful attempt */
};

struct nb_ab_state {
	char set[NB_AB_SET_MAX];
	char *kernel[2];  /* owned */
	char *boot;       /* owned: the hook, as last given */
	int max_pairs;    /* as last given */
	bool fixed;       /* the fixed design (ab --pairs; "design" in the file), kept for the set's life */
	const char *status; /* "running", "decided", "regressed", "undecided", "withheld", "boot failed",
			     * "interrupted" (a literal) */
	int exit_code;    /* the last look's, or the set's at its end; -1 before any */
	int looks;        /* verdicts taken (one after each pair) */
	double wall_s;    /* the boots' time, over every invocation */
	struct nb_ab_boot_record boots[2][NB_AB_PAIRS_MAX + 1]; /* [side][pair], pair from 1 */
};

/* A new state for kernels a and b; set may be NULL (then "ab-" and the UTC time). */
int nb_ab_state_init(struct nb_ab_state *s, const char *kernel_a, const char *kernel_b, const char *boot,
		     const char *set, struct nb_err *err);

/* Read dir/state.json: -ENOENT (err left clear) when there is none, -EINVAL when it is not one. */
int nb_ab_state_load(struct nb_ab_state *s, const char *dir, struct nb_err *err);

/* Write dir/state.json through a temporary file and rename (a kill never leaves half a state). */
int nb_ab_state_save(const struct nb_ab_state *s, const char *dir, struct nb_err *err);

/* Pairs 1..n whose two boots are both done, counting from 1 and stopping at the first gap. */
int nb_ab_state_pairs(const struct nb_ab_state *s);

void nb_ab_state_free(struct nb_ab_state *s);

#endif
