// SPDX-License-Identifier: MIT
/* Profile movers over paired rounds: per symbol, the share's move in each pair, its median and
 * range, and only the symbols whose move is the same way in every pair. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/compare_rounds.h"
#include "kit/stats.h"

#define PAIRS_MAX 100
#define SYMBOLS_MAX 256

struct pair_profiles {
	const struct nb_cmp_point *a, *b;
};

static const struct nb_cmp_point *point_of(const struct nb_cmp_report *rep, const char *id)
{
	for (int i = 0; i < rep->n_points; i++) {
		if (!strcmp(rep->points[i].id, id))
			return rep->points[i].n_profile ? &rep->points[i] : NULL;
	}
	return NULL;
}

/* A symbol missing from a top list had less than its last entry: counted as 0, which can only
 * make a move look smaller where it left the list. */
static double share_of(const struct nb_cmp_point *p, const char *symbol)
{
	for (int i = 0; i < p->n_profile; i++) {
		if (!strcmp(p->profile[i].symbol, symbol))
			return p->profile[i].share_pct;
	}
	return 0;
}

static int pairs_of(const struct nb_cmp_rounds *rd, const char *id, struct pair_profiles *out)
{
	int n = 0;

	for (int i = 0; i < rd->n[0] && n < PAIRS_MAX; i++) {
		const struct nb_cmp_report *ra = &rd->reports[0][i];

		for (int k = 0; k < rd->n[1]; k++) {
			const struct nb_cmp_report *rb = &rd->reports[1][k];

			if (rb->round.index != ra->round.index)
				continue;
			out[n].a = point_of(ra, id);
			out[n].b = point_of(rb, id);
			if (out[n].a && out[n].b)
				n++;
			break;
		}
	}
	return n;
}

static int symbols_of(const struct pair_profiles *pairs, int n, const char **out)
{
	int count = 0;

	for (int i = 0; i < n; i++) {
		const struct nb_cmp_point *sides[2] = { pairs[i].a, pairs[i].b };

		for (int s = 0; s < 2; s++) {
			for (int k = 0; k < sides[s]->n_profile && count < SYMBOLS_MAX; k++) {
				const char *sym = sides[s]->profile[k].symbol;
				int j = 0;

				while (j < count && strcmp(out[j], sym))
					j++;
				if (j == count)
					out[count++] = sym;
			}
		}
	}
	return count;
}

static int cmp_move_desc(const void *pa, const void *pb)
{
	const struct nb_cmp_mover *a = pa, *b = pb;
	double x = fabs(a->change_pts), y = fabs(b->change_pts);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->symbol, b->symbol);
}

static void point_movers(struct nb_cmp_point_result *pr, const struct nb_cmp_rounds *rd)
{
	static struct pair_profiles pairs[PAIRS_MAX];
	const char *symbols[SYMBOLS_MAX];
	struct nb_cmp_mover found[SYMBOLS_MAX];
	double a[PAIRS_MAX], b[PAIRS_MAX], d[PAIRS_MAX];
	int n_pairs = pairs_of(rd, pr->id, pairs), n_sym, n_found = 0;

	if (n_pairs < 2)
		return;
	n_sym = symbols_of(pairs, n_pairs, symbols);
	for (int s = 0; s < n_sym; s++) {
		struct nb_cmp_mover m = { .symbol = symbols[s], .n_pairs = n_pairs };

		for (int i = 0; i < n_pairs; i++) {
			a[i] = share_of(pairs[i].a, symbols[s]);
			b[i] = share_of(pairs[i].b, symbols[s]);
			d[i] = b[i] - a[i];
		}
		m.base_share_pct = nb_stats_median(a, n_pairs);
		m.new_share_pct = nb_stats_median(b, n_pairs);
		m.change_pts = nb_stats_median(d, n_pairs);
		m.change_lo_pts = m.change_hi_pts = d[0];
		for (int i = 1; i < n_pairs; i++) {
			m.change_lo_pts = fmin(m.change_lo_pts, d[i]);
			m.change_hi_pts = fmax(m.change_hi_pts, d[i]);
		}
		/* the same way in every pair, and by more than sampling jitter */
		if (fabs(m.change_pts) >= NB_CMP_MOVER_MIN_PTS && (m.change_lo_pts > 0 || m.change_hi_pts < 0))
			found[n_found++] = m;
	}
	qsort(found, (size_t)n_found, sizeof(found[0]), cmp_move_desc);
	pr->n_movers = 0;
	for (int i = 0; i < n_found && pr->n_movers < NB_CMP_MAX_MOVERS; i++)
		pr->movers[pr->n_movers++] = found[i];
}

void nb_cmp_rounds_movers(struct nb_cmp_result *res, const struct nb_cmp_rounds *rd)
{
	if (!rd)
		return;
	for (int i = 0; i < res->n_points; i++)
		point_movers(&res->points[i], rd);
}
