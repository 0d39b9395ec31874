// SPDX-License-Identifier: MIT
/* nicbench history analyze: stored reports -> series over commits -> change points that clear the
 * metric's minimum effect and floor -> regressions, whether they still hold, and their tables. */
#include "history_analyze.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_rules.h"
#include "compare/compare_stats.h"

/* Everything a result points to, freed at once. */
struct nb_hist_pool {
	void **ptrs;
	int n, cap;
};

static void *pool_keep(struct nb_hist_pool *p, void *ptr)
{
	if (!ptr)
		return NULL;
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		void **grown = realloc(p->ptrs, sizeof(*grown) * (size_t)cap);

		if (!grown) {
			free(ptr);
			return NULL;
		}
		p->ptrs = grown;
		p->cap = cap;
	}
	p->ptrs[p->n++] = ptr;
	return ptr;
}

static void *pool_calloc(struct nb_hist_pool *p, size_t n, size_t size)
{
	return pool_keep(p, calloc(n ? n : 1, size));
}

static const char *pool_strdup(struct nb_hist_pool *p, const char *s)
{
	return pool_keep(p, strdup(s));
}

void nb_hist_options_init(struct nb_hist_options *o)
{
	memset(o, 0, sizeof(*o));
	nb_cp_options_init(&o->cp);
	nb_cmp_options_init(&o->cmp);
	/* Perfherder's rule alerts from 2%; a step that small needs many commits to clear the test */
	o->cmp.min_effect_pct = 2;
	o->ci_alpha = 0.05;
	o->window = 200;
}

const char *nb_hist_kind_name(enum nb_hist_kind k)
{
	switch (k) {
	case NB_HIST_REGRESSION:
		return "regression";
	case NB_HIST_IMPROVEMENT:
		return "improvement";
	default:
		return "shift";
	}
}

/* ---- reading the store ---- */

struct report_info {
	int64_t id;
	const char *board, *commit, *created;
	int rank;           /* the commit's place in its board's history, from 0; -1 outside the window */
};

struct point_info {
	int64_t report_id;
	const char *point, *test_name, *headline;
};

struct loader {
	struct nb_hist_pool *pool;
	const struct nb_hist_options *o;
	struct report_info *reports;
	int n_reports, cap_reports;
	struct point_info *points;
	int n_points, cap_points;
	/* the series being read */
	struct nb_hist_series *series;
	int n_series, cap_series;
	const char *cur_board, *cur_point, *cur_metric;
	bool cur_diagnostic;
	int64_t cur_report;
	double *runs;       /* the current series' run values, report after report */
	int n_runs, cap_runs;
	int report_first;   /* where the current report's runs start in runs */
	double *run_ranks;  /* each run's midrank among the series' runs */
	int cap_run_ranks;
	struct report_median {
		int rank;
		double median;
		int first, n; /* its runs in ld->runs */
		const struct report_info *r;
	} *report_medians;
	int n_rm, cap_rm;
	int n_commits_all;
};

#define GROW(arr, n, cap)                                                                \
	do {                                                                             \
		if ((n) == (cap)) {                                                      \
			int c_ = (cap) ? (cap) * 2 : 64;                                 \
			void *g_ = realloc((arr), sizeof(*(arr)) * (size_t)c_);          \
			if (!g_)                                                         \
				return -ENOMEM;                                          \
			(arr) = g_;                                                      \
			(cap) = c_;                                                      \
		}                                                                        \
	} while (0)

static int on_report(const struct nb_hist_report_row *row, void *arg)
{
	struct loader *ld = arg;
	struct report_info *r;

	GROW(ld->reports, ld->n_reports, ld->cap_reports);
	r = &ld->reports[ld->n_reports];
	r->id = row->id;
	r->board = pool_strdup(ld->pool, row->board);
	r->commit = pool_strdup(ld->pool, row->commit);
	r->created = pool_strdup(ld->pool, row->created);
	r->rank = -1;
	if (!r->board || !r->commit || !r->created)
		return -ENOMEM;
	ld->n_reports++;
	return 0;
}

static int on_point(const struct nb_hist_point_row *row, void *arg)
{
	struct loader *ld = arg;
	struct point_info *p;

	GROW(ld->points, ld->n_points, ld->cap_points);
	p = &ld->points[ld->n_points];
	p->report_id = row->report_id;
	p->point = pool_strdup(ld->pool, row->point);
	p->test_name = pool_strdup(ld->pool, row->test_name);
	p->headline = pool_strdup(ld->pool, row->headline);
	if (!p->point || !p->test_name || !p->headline)
		return -ENOMEM;
	ld->n_points++;
	return 0;
}

static struct report_info *find_report(struct loader *ld, int64_t id)
{
	int lo = 0, hi = ld->n_reports - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (ld->reports[mid].id == id)
			return &ld->reports[mid];
		if (ld->reports[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* A commit's first appearance: its board's history is ordered by it. */
struct first_seen {
	const char *board, *commit, *created;
	int64_t id;
};

static int cmp_first_seen(const void *a, const void *b)
{
	const struct first_seen *x = a, *y = b;
	int c = strcmp(x->board, y->board);

	if (c)
		return c;
	c = strcmp(x->created, y->created);
	if (c)
		return c;
	return (x->id > y->id) - (x->id < y->id);
}

/* Each report's commit rank within its board: commits in order of their first report (its created
 * time, then the order of adding); the newest `window` commits of each board are kept. */
static int rank_commits(struct loader *ld)
{
	struct first_seen *fs = calloc((size_t)(ld->n_reports ? ld->n_reports : 1), sizeof(*fs));
	int n = 0;

	if (!fs)
		return -ENOMEM;
	for (int i = 0; i < ld->n_reports; i++) {
		struct report_info *r = &ld->reports[i];
		int j;

		if (ld->o->board && strcmp(ld->o->board, r->board))
			continue;
		for (j = 0; j < n; j++) {
			if (!strcmp(fs[j].board, r->board) && !strcmp(fs[j].commit, r->commit))
				break;
		}
		if (j == n)
			fs[n++] = (struct first_seen){ r->board, r->commit, r->created, r->id };
		else if (strcmp(r->created, fs[j].created) < 0)
			fs[j].created = r->created;
	}
	qsort(fs, (size_t)n, sizeof(*fs), cmp_first_seen);
	for (int start = 0; start < n;) {
		int end = start, skip;

		while (end < n && !strcmp(fs[end].board, fs[start].board))
			end++;
		skip = ld->o->window > 0 && end - start > ld->o->window ? end - start - ld->o->window : 0;
		for (int i = 0; i < ld->n_reports; i++) {
			struct report_info *r = &ld->reports[i];

			if (strcmp(r->board, fs[start].board))
				continue;
			for (int j = start + skip; j < end; j++) {
				if (!strcmp(fs[j].commit, r->commit))
					r->rank = j - start - skip;
			}
		}
		ld->n_commits_all += end - start - skip;
		start = end;
	}
	free(fs);
	return 0;
}


/* The current report's runs -> one median for its commit; the runs stay for the series' ranks. */
static int flush_report(struct loader *ld)
{
	struct report_info *r = find_report(ld, ld->cur_report);
	int n = ld->n_runs - ld->report_first;

	if (n > 0 && r && r->rank >= 0) {
		GROW(ld->report_medians, ld->n_rm, ld->cap_rm);
		ld->report_medians[ld->n_rm] = (struct report_median){
			.rank = r->rank,
			.median = nb_stats_median(ld->runs + ld->report_first, n),
			.first = ld->report_first,
			.n = n,
			.r = r,
		};
		ld->n_rm++;
	} else {
		ld->n_runs = ld->report_first; /* outside the window: its runs are not the series' */
	}
	ld->report_first = ld->n_runs;
	return 0;
}

/* Each commit's score for the test: the mean rank of its runs among all the series' runs (the
 * median over its reports of each report's mean rank, as for its value). Every run counts, and the
 * ranks keep both a bimodal run-to-run noise and one wild run from weighing much: bench/history-sim
 * measures this against the commit's median or mean alone. */
static int rank_scores(struct loader *ld, struct nb_hist_series *s)
{
	int ret;

	if (ld->n_runs > ld->cap_run_ranks) {
		double *g = realloc(ld->run_ranks, sizeof(*g) * (size_t)ld->n_runs);

		if (!g)
			return -ENOMEM;
		ld->run_ranks = g;
		ld->cap_run_ranks = ld->n_runs;
	}
	ret = nb_cp_midranks(ld->runs, ld->n_runs, ld->run_ranks);
	if (ret)
		return ret;
	s->unit_scores = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->unit_scores));
	s->unit_starts = pool_calloc(ld->pool, (size_t)s->n + 1, sizeof(*s->unit_starts));
	if (!s->unit_scores || !s->unit_starts)
		return -ENOMEM;
	for (int i = 0, n = 0; i < ld->n_rm; n++) {
		double mean_rank[256];
		int j = i, k = 0;

		for (; j < ld->n_rm && ld->report_medians[j].rank == ld->report_medians[i].rank; j++) {
			const struct report_median *rm = &ld->report_medians[j];
			double sum = 0;

			for (int t = 0; t < rm->n; t++)
				sum += ld->run_ranks[rm->first + t];
			s->unit_scores[j] = sum / rm->n;
			if (k < 256)
				mean_rank[k++] = sum / rm->n;
		}
		s->unit_starts[n] = i;
		s->scores[n] = nb_stats_median(mean_rank, k);
		i = j;
	}
	s->unit_starts[s->n] = ld->n_rm;
	return 0;
}

/* Insertion sort by rank, stable: the reports come in added order, and most series arrive sorted. */
static void sort_by_rank(struct report_median *v, int n)
{
	for (int i = 1; i < n; i++) {
		struct report_median t = v[i];
		int j = i;

		while (j > 0 && v[j - 1].rank > t.rank) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
}

/* The current series' report medians -> one value per commit (the median over its reports, each
 * report or round one unit of evidence). */
static int flush_series(struct loader *ld)
{
	struct nb_hist_series *s;
	int n = 0, ret;

	if (flush_report(ld))
		return -ENOMEM;
	if (!ld->n_rm) {
		ld->n_runs = ld->report_first = 0;
		return 0;
	}
	sort_by_rank(ld->report_medians, ld->n_rm);
	GROW(ld->series, ld->n_series, ld->cap_series);
	s = &ld->series[ld->n_series];
	memset(s, 0, sizeof(*s));
	s->board = ld->cur_board;
	s->point = ld->cur_point;
	s->metric = ld->cur_metric;
	s->direction = ld->cur_diagnostic ? NB_CMP_NEUTRAL : nb_cmp_metric_direction(s->metric);
	s->commits = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->commits));
	s->times = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->times));
	s->values = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->values));
	s->scores = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->scores));
	s->reports = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->reports));
	s->ranks = pool_calloc(ld->pool, (size_t)ld->n_rm, sizeof(*s->ranks));
	if (!s->commits || !s->times || !s->values || !s->scores || !s->reports || !s->ranks)
		return -ENOMEM;
	for (int i = 0; i < ld->n_rm;) {
		int j = i;
		double med[256];
		int k = 0;
		/* the commit's first report (added order: report_medians is sorted stably by rank) */
		const struct report_info *r = ld->report_medians[i].r;

		while (j < ld->n_rm && ld->report_medians[j].rank == ld->report_medians[i].rank) {
			if (k < 256)
				med[k++] = ld->report_medians[j].median;
			j++;
		}
		s->ranks[n] = ld->report_medians[i].rank;
		s->values[n] = nb_stats_median(med, k);
		s->reports[n] = j - i;
		s->commits[n] = r ? r->commit : "";
		s->times[n] = r ? r->created : "";
		n++;
		i = j;
	}
	s->n = n;
	ret = rank_scores(ld, s);
	if (ret)
		return ret;
	ld->n_rm = 0;
	ld->n_runs = ld->report_first = 0;
	ld->n_series++;
	return 0;
}

static int on_sample(const struct nb_hist_sample *smp, void *arg)
{
	struct loader *ld = arg;
	bool same = ld->cur_metric && !strcmp(ld->cur_board, smp->board) && !strcmp(ld->cur_point, smp->point) &&
		    !strcmp(ld->cur_metric, smp->metric);
	int ret;

	if (!same) {
		ret = flush_series(ld);
		if (ret)
			return ret;
		if (!ld->cur_board || strcmp(ld->cur_board, smp->board))
			ld->cur_board = pool_strdup(ld->pool, smp->board);
		if (!ld->cur_point || strcmp(ld->cur_point, smp->point))
			ld->cur_point = pool_strdup(ld->pool, smp->point);
		ld->cur_metric = pool_strdup(ld->pool, smp->metric);
		if (!ld->cur_board || !ld->cur_point || !ld->cur_metric)
			return -ENOMEM;
		ld->cur_report = smp->report_id;
		ld->cur_diagnostic = smp->diagnostic;
	} else if (smp->report_id != ld->cur_report) {
		ret = flush_report(ld);
		if (ret)
			return ret;
		ld->cur_report = smp->report_id;
	}
	if (!isfinite(smp->value))
		return 0;
	GROW(ld->runs, ld->n_runs, ld->cap_runs);
	ld->runs[ld->n_runs++] = smp->value;
	return 0;
}

/* ---- judging one series ---- */

/* The point's test name and headline from its newest report. */
static void series_point(const struct loader *ld, struct nb_hist_series *s)
{
	int64_t best = -1;

	s->test_name = s->headline = "";
	for (int i = 0; i < ld->n_points; i++) {
		const struct point_info *p = &ld->points[i];
		const struct report_info *r;

		if (p->report_id < best || strcmp(p->point, s->point))
			continue;
		r = find_report((struct loader *)ld, p->report_id);
		if (!r || strcmp(r->board, s->board))
			continue;
		best = p->report_id;
		s->test_name = p->test_name;
		s->headline = p->headline;
	}
}

/* compare's gate rules (compare_judge.c's apply_gate reads them the same way): the first rule that
 * names the metric (or "headline", the point's headline) and whose glob matches the test. */
static bool series_gate(const struct nb_cmp_options *opt, const struct nb_hist_series *s, double *min_effect)
{
	*min_effect = nb_cmp_effective_min_effect(opt, s->metric);
	if (s->direction == NB_CMP_NEUTRAL)
		return false;
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *rule = &opt->gate[i];
		bool headline_rule = !strcmp(rule->metric, NB_CMP_GATE_HEADLINE);

		if (headline_rule ? strcmp(s->headline, s->metric) : strcmp(rule->metric, s->metric))
			continue;
		if (rule->tests[0] && fnmatch(rule->tests, s->test_name, 0))
			continue;
		if (rule->min_effect_pct >= 0)
			*min_effect = rule->min_effect_pct;
		return true;
	}
	return false;
}

static const struct nb_hist_series *find_series(const struct nb_hist_result *r, const char *board, const char *point,
						const char *metric)
{
	for (int i = 0; i < r->n_series; i++) {
		const struct nb_hist_series *s = &r->series[i];

		if (!strcmp(s->metric, metric) && !strcmp(s->point, point) && !strcmp(s->board, board))
			return s;
	}
	return NULL;
}

/* The metric's floor at this point, in its unit (compare's floors; a share floor takes the point's
 * throughput over the window). */
static double series_floor(const struct nb_hist_result *res, const struct nb_hist_options *o,
			   const struct nb_hist_series *s)
{
	struct nb_cmp_floor f = nb_cmp_effective_floor(&o->cmp, s->metric);
	const struct nb_hist_series *tput;

	switch (f.kind) {
	case NB_CMP_FLOOR_ABS:
		return f.value;
	case NB_CMP_FLOOR_BITS_SHARE:
	case NB_CMP_FLOOR_BYTES_SHARE:
		tput = find_series(res, s->board, s->point, NB_M_THROUGHPUT_BPS);
		if (!tput || !tput->n)
			return 0;
		return f.value / 100 * fabs(nb_stats_median(tput->values, tput->n)) /
		       (f.kind == NB_CMP_FLOOR_BYTES_SHARE ? 8 : 1);
	default:
		return 0;
	}
}

/* Does a move from before to after clear the minimum effect and the floor? */
static bool clears(double before, double after, double min_effect, double floor)
{
	bool capped;
	double pct = nb_stats_change_pct(before, after, 10000, &capped);

	return fabs(pct) >= min_effect && fabs(after - before) > floor;
}

static double seg_median(const struct nb_hist_series *s, int lo, int hi)
{
	return nb_stats_median(s->values + lo, hi - lo);
}

static int judge_series(struct nb_hist_result *res, struct nb_hist_pool *pool, const struct nb_hist_options *o,
			struct nb_hist_series *s)
{
	struct nb_cp cps[64];
	struct nb_cp_options cpo = o->cp;
	double min_effect;
	int n, last_lo;

	s->gated = series_gate(&o->cmp, s, &min_effect);
	s->floor = series_floor(res, o, s);
	/* each series its own permutations, whatever the order of the others */
	for (const char *p = s->metric; *p; p++)
		cpo.seed = (cpo.seed ^ (unsigned char)*p) * 1099511628211ULL;
	for (const char *p = s->point; *p; p++)
		cpo.seed = (cpo.seed ^ (unsigned char)*p) * 1099511628211ULL;
	if (o->unit_report)
		n = nb_cp_find_units(s->unit_scores, s->unit_starts, s->n, &cpo, cps, (int)(sizeof(cps) / sizeof(cps[0])));
	else
		n = nb_cp_find(s->scores, s->n, &cpo, cps, (int)(sizeof(cps) / sizeof(cps[0])));
	if (n < 0)
		return n;
	n = nb_cp_keep_effective(s->values, s->n, cps, n, min_effect, s->floor);
	if (!n)
		return 0;
	s->changes = pool_calloc(pool, (size_t)n, sizeof(*s->changes));
	if (!s->changes)
		return -ENOMEM;
	last_lo = cps[n - 1].index;
	for (int j = 0; j < n; j++) {
		struct nb_hist_change *c = &s->changes[j];
		int lo = j ? cps[j - 1].index : 0, at = cps[j].index, hi = j + 1 < n ? cps[j + 1].index : s->n;
		double lo_shift, hi_shift, newest;
		bool capped, worse;

		c->index = at;
		c->good = s->commits[at - 1];
		c->bad = s->commits[at];
		c->first = s->commits[lo];
		c->last = s->commits[hi - 1];
		c->newest = s->commits[s->n - 1];
		c->p_value = cps[j].p_value;
		c->before = seg_median(s, lo, at);
		c->after = seg_median(s, at, hi);
		c->change_pct = nb_stats_change_pct(c->before, c->after, 10000, &capped);
		if (nb_stats_shift_ci(s->values + lo, at - lo, s->values + at, hi - at, o->ci_alpha, &lo_shift,
				      &hi_shift) && c->before != 0) {
			c->has_ci = true;
			c->ci_lo_pct = lo_shift / fabs(c->before) * 100;
			c->ci_hi_pct = hi_shift / fabs(c->before) * 100;
		}
		worse = s->direction == NB_CMP_HIGHER_BETTER ? c->after < c->before : c->after > c->before;
		c->kind = s->direction == NB_CMP_NEUTRAL ? NB_HIST_SHIFT : worse ? NB_HIST_REGRESSION : NB_HIST_IMPROVEMENT;
		c->gated = s->gated;
		newest = seg_median(s, last_lo, s->n);
		c->newest_pct = nb_stats_change_pct(c->before, newest, 10000, &capped);
		if (c->kind == NB_HIST_REGRESSION) {
			bool still_worse = s->direction == NB_CMP_HIGHER_BETTER ? newest < c->before : newest > c->before;

			c->still = still_worse && clears(c->before, newest, min_effect, s->floor);
		}
		if (c->kind == NB_HIST_REGRESSION && c->gated && c->still)
			res->n_regressions++;
	}
	s->n_changes = n;
	return 0;
}

/* ---- the maintainer's table ---- */

static void mean_sd(const double *v, int n, double *mean, double *sd_pct)
{
	struct nb_stats st;

	nb_stats_compute(v, n, &st);
	*mean = st.mean;
	*sd_pct = st.mean != 0 ? st.stddev / fabs(st.mean) * 100 : 0;
}

/* Every metric of the change's point, over the same commits as the change's two segments. */
static int change_rows(struct nb_hist_result *res, struct nb_hist_pool *pool, const struct nb_hist_series *s,
		       int j, struct nb_hist_change *c)
{
	int lo_rank = s->ranks[j ? s->changes[j - 1].index : 0], at_rank = s->ranks[c->index];
	int hi_rank = j + 1 < s->n_changes ? s->ranks[s->changes[j + 1].index] : 1 << 30;
	double *before = pool_calloc(pool, (size_t)res->n_commits + 1, sizeof(double));
	double *after = pool_calloc(pool, (size_t)res->n_commits + 1, sizeof(double));
	int n = 0;

	c->rows = pool_calloc(pool, (size_t)res->n_series, sizeof(*c->rows));
	if (!c->rows || !before || !after)
		return -ENOMEM;
	for (int i = 0; i < res->n_series; i++) {
		const struct nb_hist_series *t = &res->series[i];
		struct nb_hist_row *row = &c->rows[n];
		bool capped;

		if (strcmp(t->point, s->point) || strcmp(t->board, s->board))
			continue;
		row->metric = t->metric;
		for (int k = 0; k < t->n; k++) {
			if (t->ranks[k] >= lo_rank && t->ranks[k] < at_rank && row->n_before <= res->n_commits)
				before[row->n_before++] = t->values[k];
			else if (t->ranks[k] >= at_rank && t->ranks[k] < hi_rank && row->n_after <= res->n_commits)
				after[row->n_after++] = t->values[k];
		}
		mean_sd(before, row->n_before, &row->before, &row->before_sd_pct);
		mean_sd(after, row->n_after, &row->after, &row->after_sd_pct);
		row->has_change = row->n_before && row->n_after;
		if (row->has_change)
			row->change_pct = nb_stats_change_pct(row->before, row->after, 10000, &capped);
		n++;
	}
	c->n_rows = n;
	return 0;
}

struct mover_acc {
	const char *symbol;
	double sum_before, sum_after;
	int n_before, n_after;
};

struct movers_ctx {
	struct loader *ld;
	const struct nb_hist_series *s;
	int lo_rank, at_rank, hi_rank;
	int n_before, n_after;       /* reports on each side with a profile */
	int64_t last_before, last_after;
	struct mover_acc acc[512];
	int n;
};

static int on_profile(const struct nb_hist_profile_row *p, void *arg)
{
	struct movers_ctx *m = arg;
	const struct report_info *r;
	bool before;
	int i;

	if (strcmp(p->point, m->s->point))
		return 0;
	r = find_report(m->ld, p->report_id);
	if (!r || r->rank < m->lo_rank || r->rank >= m->hi_rank || strcmp(r->board, m->s->board))
		return 0;
	before = r->rank < m->at_rank;
	if (before && m->last_before != p->report_id) {
		m->n_before++;
		m->last_before = p->report_id;
	} else if (!before && m->last_after != p->report_id) {
		m->n_after++;
		m->last_after = p->report_id;
	}
	for (i = 0; i < m->n && strcmp(m->acc[i].symbol, p->symbol); i++)
		;
	if (i == m->n) {
		if (m->n == (int)(sizeof(m->acc) / sizeof(m->acc[0])))
			return 0;
		m->acc[i].symbol = pool_strdup(m->ld->pool, p->symbol);
		if (!m->acc[i].symbol)
			return -ENOMEM;
		m->n++;
	}
	if (before)
		m->acc[i].sum_before += p->share_pct;
	else
		m->acc[i].sum_after += p->share_pct;
	return 0;
}

/* A profile share moves by at least this many points to be named (compare's single-report floor). */
#define HIST_MOVER_MIN_PTS NB_CMP_MOVER_SINGLE_MIN_PTS

static int change_movers(struct nb_hist_db *db, struct loader *ld, const struct nb_hist_series *s, int j,
			 struct nb_hist_change *c, struct nb_err *err)
{
	struct movers_ctx *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return -ENOMEM;
	m->ld = ld;
	m->s = s;
	m->lo_rank = s->ranks[j ? s->changes[j - 1].index : 0];
	m->at_rank = s->ranks[c->index];
	m->hi_rank = j + 1 < s->n_changes ? s->ranks[s->changes[j + 1].index] : 1 << 30;
	m->last_before = m->last_after = -1;
	ret = nb_hist_each_profile(db, on_profile, m, err);
	if (!ret && m->n_before && m->n_after) {
		for (int i = 0; i < m->n; i++) {
			double b = m->acc[i].sum_before / m->n_before, a = m->acc[i].sum_after / m->n_after;
			int k;

			if (fabs(a - b) < HIST_MOVER_MIN_PTS)
				continue;
			/* keep the largest moves, in order */
			for (k = c->n_movers; k > 0 && fabs(c->movers[k - 1].after_pct - c->movers[k - 1].before_pct) <
							     fabs(a - b); k--) {
				if (k < NB_HIST_MAX_MOVERS)
					c->movers[k] = c->movers[k - 1];
			}
			if (k < NB_HIST_MAX_MOVERS) {
				c->movers[k] = (struct nb_hist_mover){ m->acc[i].symbol, b, a };
				if (c->n_movers < NB_HIST_MAX_MOVERS)
					c->n_movers++;
			}
		}
	}
	free(m);
	return ret;
}

static bool wanted_metric(const struct nb_hist_options *o, const char *metric)
{
	size_t len = strlen(metric);

	if (!o->metrics)
		return true;
	for (const char *p = o->metrics; (p = strstr(p, metric)); p += len) {
		if ((p == o->metrics || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

int nb_hist_analyze(struct nb_hist_db *db, const struct nb_hist_options *o, struct nb_hist_result *out,
		    struct nb_err *err)
{
	struct loader ld = { .o = o };
	int ret;

	memset(out, 0, sizeof(*out));
	out->opt = o;
	out->pool = calloc(1, sizeof(*out->pool));
	if (!out->pool)
		return nb_err_set(err, -ENOMEM, "analyze history: out of memory");
	ld.pool = out->pool;
	ret = nb_hist_begin(db, err);
	if (ret)
		goto out;
	ret = nb_hist_each_report(db, on_report, &ld, err);
	if (!ret)
		ret = nb_hist_each_point(db, on_point, &ld, err);
	if (!ret)
		ret = rank_commits(&ld);
	if (!ret)
		ret = nb_hist_each_sample(db, on_sample, &ld, err);
	if (!ret)
		ret = flush_series(&ld);
	out->series = ld.series;
	out->n_series = ld.n_series;
	pool_keep(out->pool, ld.series);
	ld.series = NULL;
	out->n_reports = ld.n_reports;
	out->n_commits = ld.n_commits_all;
	for (int i = 0; i < ld.n_reports; i++) {
		int j;

		for (j = 0; j < i && strcmp(ld.reports[j].board, ld.reports[i].board); j++)
			;
		out->n_boards += j == i;
	}
	for (int i = 0; !ret && i < out->n_series; i++) {
		struct nb_hist_series *s = &out->series[i];

		if (i && s->point == out->series[i - 1].point && s->board == out->series[i - 1].board) {
			/* series come sorted by board and point, which are shared strings: same point, same answer */
			s->test_name = out->series[i - 1].test_name;
			s->headline = out->series[i - 1].headline;
		} else {
			series_point(&ld, s);
		}
		if (s->direction != NB_CMP_NEUTRAL && wanted_metric(o, s->metric))
			ret = judge_series(out, out->pool, o, s);
	}
	for (int i = 0; !ret && i < out->n_series; i++) {
		struct nb_hist_series *s = &out->series[i];

		for (int j = 0; !ret && j < s->n_changes; j++) {
			if (s->changes[j].kind != NB_HIST_REGRESSION)
				continue;
			ret = change_rows(out, out->pool, s, j, &s->changes[j]);
			if (!ret)
				ret = change_movers(db, &ld, s, j, &s->changes[j], err);
		}
	}
	nb_hist_rollback(db);
out:
	if (ret == -ENOMEM)
		nb_err_set(err, ret, "analyze history: out of memory");
	free(ld.reports);
	free(ld.points);
	free(ld.runs);
	free(ld.run_ranks);
	free(ld.report_medians);
	free(ld.series);
	if (ret)
		nb_hist_result_free(out);
	return ret;
}

void nb_hist_result_free(struct nb_hist_result *r)
{
	if (!r || !r->pool)
		return;
	for (int i = 0; i < r->pool->n; i++)
		free(r->pool->ptrs[i]);
	free(r->pool->ptrs);
	free(r->pool);
	memset(r, 0, sizeof(*r));
}
