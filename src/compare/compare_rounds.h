// SPDX-License-Identifier: MIT
/* compare over rounds: several reports a side (kernel A's rounds, kernel B's rounds) merged
 * into one report a side for nb_cmp_run. A merged metric's values are its round medians, so
 * that a round is one unit of evidence however many runs it holds; rounds with the same index
 * on both sides pair, and their values come first, in the same order on both sides
 * (nb_cmp_samples.paired), for the paired verdict (docs/compare.md, "Rounds"). */
#ifndef NB_COMPARE_ROUNDS_H
#define NB_COMPARE_ROUNDS_H

#include <stdbool.h>

#include "compare_load.h"
#include "kit/nb_error.h"

#define NB_CMP_ROUNDS_MAX 1000 /* reports a side */
#define NB_CMP_ROUNDS_NOTES 8

enum { NB_CMP_SIDE_A, NB_CMP_SIDE_B };

struct nb_cmp_rounds {
	int n[2];                        /* reports (rounds) loaded per side */
	struct nb_cmp_report *reports[2]; /* per side, in round order once merged */
	char label[2][256];              /* "reports/A (5 rounds of A)" */
	bool paired;                     /* every report names its round: pairs by index */
	int n_paired;                    /* round indices found on both sides */
	const char *set;                 /* the first report's set id, "" */
	/* what the text and stderr say beside the verdicts: unpaired rounds, mixed sets, why
	 * nothing paired; one line each */
	int n_notes;
	char notes[NB_CMP_ROUNDS_NOTES][200];
	struct nb_cmp_report merged[2];  /* what nb_cmp_run compares: A as base, B as new */
};

/* Load the reports of one side (NB_CMP_SIDE_A or _B): files, and directories that stand for
 * the *.json files in them (in name order). On error err names the file and why. */
int nb_cmp_rounds_load(struct nb_cmp_rounds *r, int side, char *const *paths, int n, struct nb_err *err);

/* Take a report loaded elsewhere (a unit test's recorded series); the rounds own it after. */
int nb_cmp_rounds_add(struct nb_cmp_rounds *r, int side, struct nb_cmp_report *rep, struct nb_err *err);

/* Order each side by round, pair the rounds and build merged[]. Errors (-EINVAL with err): a
 * side without reports, a report of side B among A's (or the reverse), a round index twice
 * on a side. A round without a partner is a note, not an error. */
int nb_cmp_rounds_merge(struct nb_cmp_rounds *r, struct nb_err *err);

void nb_cmp_rounds_free(struct nb_cmp_rounds *r);

/* Profile movers over paired rounds (they replace the merged reports' movers where at least two
 * pairs have a profile on both sides): a symbol is listed when its share moved at least
 * NB_CMP_MOVER_MIN_PTS (median of the pairs) and the same way in every pair, so that the move
 * beats the pairs' own scatter. */
struct nb_cmp_result;
void nb_cmp_rounds_movers(struct nb_cmp_result *res, const struct nb_cmp_rounds *rd);

#endif
