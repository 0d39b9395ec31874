// SPDX-License-Identifier: MIT
/* The schedule of an A/B set: which side boots first in a pair, what each boot's round is called
 * and where its report goes. Pure functions; ab.c walks them. */
#ifndef NB_AB_SCHEDULE_H
#define NB_AB_SCHEDULE_H

#include <stddef.h>

#define NB_AB_SET_MAX 64  /* a set id: 1..63 of A-Z a-z 0-9 . _ - (run --round's rule) */

/* The side (0: A, 1: B) that boots at position pos (0, 1) of pair i (1-based): A B in odd pairs,
 * B A in even ones, so that a drift of the board over a set lands on both sides alike. */
int nb_ab_side_at(int pair, int pos);

/* 'A' or 'B'. */
char nb_ab_side_name(int side);

/* The round run --round takes: "A:3/10:SET". */
int nb_ab_round_name(char *buf, size_t len, int side, int pair, int of, const char *set);

/* A boot's report, relative to the work directory: "A/3.json" (a side's directory is what
 * `nicbench compare WORK/A WORK/B` reads). */
int nb_ab_report_name(char *buf, size_t len, int side, int pair);

/* A boot's log: "log/A.3.try1.log". */
int nb_ab_log_name(char *buf, size_t len, int side, int pair, int attempt);

/* Is s a set id run --round accepts? */
int nb_ab_set_valid(const char *s);

#endif
