// SPDX-License-Identifier: MIT
/* nicbench compare, inside: the state one comparison carries to each metric, and the judge of one
 * metric of one point (compare_judge.c). compare.c walks the points; this judges what it finds. */
#ifndef NB_COMPARE_JUDGE_H
#define NB_COMPARE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"

/* What a metric's name decides. The same dozen names come back for every point, in
 * the same order, so they are remembered per position in the point's metric list:
 * one name check instead of every direction and gate rule. */
struct metric_traits {
	const char *name; /* NULL: slot not filled yet */
	enum nb_cmp_direction direction;
	double min_effect_pct; /* --min-effect's; a gate rule may override it */
	bool gate_named;       /* some gate rule names the metric */
	struct nb_cmp_floor floor; /* after --floor */
	bool counts_losses, follows_work, host_state; /* the metric row's flags */
};

#define TRAITS_SLOTS 64

/* What one comparison carries down to each metric: the options and the interval
 * ranks already computed per pair of run counts (the same few pairs repeat
 * across thousands of metrics). */
#define RANK_CACHE_RUNS 32

struct cmp_ctx {
	const struct nb_cmp_options *opt;
	const struct nb_cmp_report *base, *new;
	long rank_cache[RANK_CACHE_RUNS + 1][RANK_CACHE_RUNS + 1]; /* k + 1; 0 = not computed */
	double *u_counts[RANK_CACHE_RUNS + 1][RANK_CACHE_RUNS + 1];  /* no-tie null distributions */
	struct nb_cmp_metric_result *pool;  /* one block for the metrics of all points */
	bool has_throughput;                /* the current point's base throughput, for share floors */
	double throughput_bps;
	double other_pct;                   /* the current point's worst cpu_other_pct (point_other_pct) */
	struct nb_cmp_steal steal;          /* the current point's steal_pct per side (point_steal) */
	double throughput_ratio;            /* the current point's median throughput, new / base; NAN */
	const char *headline;               /* the current point's headline metric (gate rule "headline") */
	double seq_alpha;                   /* the sequential verdict's alpha per metric (alpha_split) */
	size_t pool_used, pool_cap;
	struct metric_traits traits[TRAITS_SLOTS];
};

/* A sample set as compare sees it: borrowed values and a median. */
struct side {
	bool present;
	double median;
	int n;
	const double *values;
	bool diagnostic;  /* from the diagnostic repetition: never gated */
	int paired;       /* compare over rounds: leading values that pair with the other side's */
};

/* Free a context and the null distributions it cached. */
void nb_cmp_ctx_free(struct cmp_ctx *ctx);

struct side nb_cmp_side_of(const struct nb_cmp_samples *s);

/* Judge metric `name`, the pos-th of its point in test test_name, into *m; status_verdict is the
 * point's fixed/broken verdict (NB_CMP_UNCHANGED when both sides ran). */
void nb_cmp_judge_metric(struct cmp_ctx *ctx, int pos, const char *test_name, const char *name,
			 const struct side *b, const struct side *n, enum nb_cmp_verdict status_verdict,
			 struct nb_cmp_metric_result *m);

#endif
