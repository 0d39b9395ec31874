// SPDX-License-Identifier: MIT
/* The order of an interleaved sweep's rounds (pure): plan order, or a shuffle drawn from a seed
 * that the report records, so a sweep's order can be told and repeated. */
#ifndef NB_ROUNDS_H
#define NB_ROUNDS_H

#include <stdbool.h>
#include <stdint.h>

struct nb_rounds {
	bool shuffle;
	uint64_t state;  /* splitmix64, from the seed */
};

void nb_rounds_init(struct nb_rounds *r, bool shuffle, uint64_t seed);
/* The next round's order of the points 0..n-1 into order[n]: each round a new draw. */
void nb_rounds_next_order(struct nb_rounds *r, int n, int *order);

#endif
