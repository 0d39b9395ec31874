// SPDX-License-Identifier: MIT
/* Round orders for --interleave: plan order, or Fisher-Yates over splitmix64 (--shuffle SEED). */
#include "rounds.h"

void nb_rounds_init(struct nb_rounds *r, bool shuffle, uint64_t seed)
{
	r->shuffle = shuffle;
	r->state = seed;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void nb_rounds_next_order(struct nb_rounds *r, int n, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	if (!r->shuffle)
		return;
	for (int i = n - 1; i > 0; i--) {
		/* the modulo bias is below 2^-50 for any plan size: not worth a rejection loop */
		int j = (int)(splitmix64(&r->state) % (uint64_t)(i + 1));
		int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}
