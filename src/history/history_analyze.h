// SPDX-License-Identifier: MIT
/* nicbench history analyze: the stored reports as series (board, point, metric) over commits, their
 * change points, which of them are gated regressions that still hold, and for each regression the
 * point's before/after table and profile movers. Plain structs; src/render/history*.c show them. */
#ifndef NB_HISTORY_ANALYZE_H
#define NB_HISTORY_ANALYZE_H

#include <stdbool.h>

#include "compare/compare.h"
#include "history/changepoint.h"
#include "history/history_store.h"
#include "kit/nb_error.h"

struct nb_hist_options {
	struct nb_cp_options cp;
	struct nb_cmp_options cmp; /* the gate, --min-effect and --floor, parsed as compare parses them */
	double ci_alpha;           /* the change's interval: 1 - ci_alpha (0.05: 95%) */
	int window;                /* the newest this many commits of each board (0: all) */
	const char *board;         /* only this board (NULL: every board) */
	const char *metrics;       /* comma-separated names to analyze (NULL: every metric with a direction) */
	bool unit_report;          /* the permutations shuffle reports, not commits (--unit report) */
};

/* E-Divisive defaults (changepoint.h), compare's gate and floors, min effect 2%, 95% interval,
 * window 200 commits. */
void nb_hist_options_init(struct nb_hist_options *o);

enum nb_hist_kind {
	NB_HIST_REGRESSION,  /* worse in the metric's direction */
	NB_HIST_IMPROVEMENT,
	NB_HIST_SHIFT,       /* a metric without a direction moved */
};

/* One row of the maintainer's table: a metric of the point over the two segments of a change. */
struct nb_hist_row {
	const char *metric;
	int n_before, n_after;             /* commits with the metric on each side */
	double before, after;              /* means over the commits */
	double before_sd_pct, after_sd_pct; /* their standard deviation, % of the mean (0-day's %stddev) */
	double change_pct;
	bool has_change;
};

struct nb_hist_mover {
	const char *symbol;
	double before_pct, after_pct;      /* mean share of busy samples over each side's commits */
};

#define NB_HIST_MAX_MOVERS 8

struct nb_hist_change {
	int index;                  /* in the series' commits: the first bad one */
	const char *good, *bad;     /* the last good and the first bad commit */
	const char *first, *last;   /* the first commit of the segment before, the last of the one after */
	double before, after;       /* medians of the two segments' commit values */
	double change_pct;          /* after against before, % */
	bool has_ci;
	double ci_lo_pct, ci_hi_pct; /* (1 - ci_alpha) interval of the shift (Hodges-Lehmann), % of before */
	double p_value;
	enum nb_hist_kind kind;
	bool gated;                 /* the series is gated (the gate rules name the metric for the point) */
	bool still;                 /* a regression: the newest segment is still worse than before it */
	double newest_pct;          /* the newest segment's median against before, % */
	const char *newest;         /* the newest commit */
	/* regressions only: every metric of the point before and after, and the profile's movers */
	int n_rows;
	struct nb_hist_row *rows;
	int n_movers;
	struct nb_hist_mover movers[NB_HIST_MAX_MOVERS];
};

struct nb_hist_series {
	const char *board, *point, *metric;
	const char *test_name, *headline;
	enum nb_cmp_direction direction;
	bool gated;
	int n;                      /* commits with a value */
	const char **commits;
	const char **times;         /* the first report's "created" of each commit */
	double *values;             /* per commit: the median over its reports of each report's median */
	double *scores;             /* per commit: what the test judges, its runs' mean rank among the series' */
	double *unit_scores;        /* per report, in commit order: its runs' mean rank (--unit report) */
	int *unit_starts;           /* commit i's reports: unit_scores[unit_starts[i] .. unit_starts[i + 1]) */
	int *reports;               /* per commit: how many reports (rounds) it has */
	int *ranks;                 /* per commit: its place in the board's history (the window's from 0) */
	double floor;               /* the metric's floor at this point, in its unit (0: none) */
	int n_changes;
	struct nb_hist_change *changes;
};

struct nb_hist_result {
	const struct nb_hist_options *opt;
	const char *db_path;
	int n_reports, n_boards, n_commits;
	int n_series;
	struct nb_hist_series *series;
	int n_regressions;          /* gated regressions that still hold: exit 1 */
	struct nb_hist_pool *pool;  /* owns the strings and arrays above */
};

/* Read every stored report and analyze each series. 0 or -errno with err filled. */
int nb_hist_analyze(struct nb_hist_db *db, const struct nb_hist_options *o, struct nb_hist_result *out,
		    struct nb_err *err);
void nb_hist_result_free(struct nb_hist_result *r);

const char *nb_hist_kind_name(enum nb_hist_kind k);

#endif
