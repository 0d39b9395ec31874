// SPDX-License-Identifier: MIT
/* nicbench compare: two loaded reports -> per point and metric verdicts (pure, no I/O). */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_judge.h"
#include "compare_stats.h"

const char *nb_cmp_verdict_name(enum nb_cmp_verdict v)
{
	static const char *const names[] = {
		[NB_CMP_UNCHANGED] = "unchanged", [NB_CMP_IMPROVED] = "improved",
		[NB_CMP_REGRESSED] = "regressed", [NB_CMP_INCONCLUSIVE] = "inconclusive",
		[NB_CMP_NEW] = "new",             [NB_CMP_MISSING] = "missing",
		[NB_CMP_FIXED] = "fixed",         [NB_CMP_BROKEN] = "broken",
		[NB_CMP_CHANGED] = "changed",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "inconclusive";
}

const char *nb_cmp_overall_name(enum nb_cmp_overall v)
{
	switch (v) {
	case NB_CMP_PASS:
		return "pass";
	case NB_CMP_REGRESSION:
		return "regression";
	case NB_CMP_OVERALL_MISSING:
		return "missing";
	default:
		return "inconclusive";
	}
}

/* Per-run efficiency values, written into buf (capacity cap); returns the count. */
static int efficiency_values(const struct nb_cmp_point *p, int cpus, double *buf, int cap)
{
	int n = 0;

	if (!p || cpus <= 0)
		return 0;
	for (int i = 0; i < p->n_pairs && n < cap; i++) {
		double cpu_seconds = p->pair_cpu_busy_pct[i] * cpus / 100;

		/* No busy CPU at all is a broken sample, not infinite efficiency. */
		if (cpu_seconds > 0)
			buf[n++] = p->pair_throughput_bps[i] / cpu_seconds;
	}
	return n;
}

#define EFFICIENCY_MAX_RUNS 256

static struct side efficiency_side(const struct nb_cmp_point *p, int cpus, double *buf)
{
	struct side s = { 0 };

	s.n = efficiency_values(p, cpus, buf, EFFICIENCY_MAX_RUNS);
	if (s.n > 0) {
		s.present = true;
		s.values = buf;
		s.median = nb_stats_median(buf, s.n);
		s.paired = p->pairs_paired < s.n ? p->pairs_paired : s.n;
	}
	return s;
}

static enum nb_cmp_verdict status_verdict(const struct nb_cmp_point *b, const struct nb_cmp_point *n)
{
	bool b_ok = b->status == NB_CMP_STATUS_OK, n_ok = n->status == NB_CMP_STATUS_OK;

	if (b_ok && n_ok)
		return NB_CMP_UNCHANGED;
	if (b->status == NB_CMP_STATUS_UNSUPPORTED && n->status == NB_CMP_STATUS_UNSUPPORTED)
		return NB_CMP_UNCHANGED;
	if (b->status == NB_CMP_STATUS_UNSUPPORTED && n_ok)
		return NB_CMP_NEW;
	if (b_ok && n->status == NB_CMP_STATUS_UNSUPPORTED)
		return NB_CMP_MISSING;
	if (n_ok)
		return NB_CMP_FIXED;
	if (b_ok)
		return NB_CMP_BROKEN;
	return NB_CMP_INCONCLUSIVE; /* failed on both kernels: nothing to compare */
}

/* Worst first: the order in which a gated metric decides its point's verdict. */
static int severity(enum nb_cmp_verdict v)
{
	switch (v) {
	case NB_CMP_REGRESSED:
		return 4;
	case NB_CMP_INCONCLUSIVE:
	case NB_CMP_MISSING:
		return 3;
	case NB_CMP_IMPROVED:
		return 2;
	default:
		return 1;
	}
}

/* A gated metric that BASE measured and NEW did not is "missing": the gate never saw
 * it (a broken sampler, a lost counter), which fails like a regression unless
 * --missing-ok asks for the old "inconclusive". */
static enum nb_cmp_verdict point_verdict_from_metrics(const struct nb_cmp_point_result *pr,
						      const struct nb_cmp_options *opt)
{
	enum nb_cmp_verdict worst = NB_CMP_UNCHANGED;
	bool missing = false;

	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (m->gated && severity(m->verdict) > severity(worst))
			worst = m->verdict == NB_CMP_MISSING ? NB_CMP_INCONCLUSIVE : m->verdict;
		missing |= m->gated && m->verdict == NB_CMP_MISSING;
	}
	if (missing && !opt->missing_ok && worst != NB_CMP_REGRESSED)
		return NB_CMP_MISSING;
	return worst;
}

static int cmp_mover(const void *pa, const void *pb)
{
	const struct nb_cmp_mover *a = pa, *b = pb;
	double da = fabs(a->change_pts), db = fabs(b->change_pts);

	return (da < db) - (da > db);
}

static double profile_share(const struct nb_cmp_point *p, const char *symbol, bool *found)
{
	for (int i = 0; i < p->n_profile; i++) {
		if (!strcmp(p->profile[i].symbol, symbol)) {
			*found = true;
			return p->profile[i].share_pct;
		}
	}
	*found = false;
	return 0;
}

/* The smallest share a top list shows: a symbol absent from it had less. */
static double list_floor(const struct nb_cmp_point *p)
{
	double least = p->profile[0].share_pct;

	for (int i = 1; i < p->n_profile; i++)
		least = fmin(least, p->profile[i].share_pct);
	return least;
}

/* The move that holds whatever an unlisted share was (between 0 and its list's smallest): 0 when its
 * sign is not known. */
static double sure_move(const struct nb_cmp_mover *m)
{
	double d = m->new_share_pct - m->base_share_pct;

	if (m->new_unlisted)
		return d < 0 ? d : 0; /* new was at most its bound: only a fall is sure */
	if (m->base_unlisted)
		return d > 0 ? d : 0;
	return d;
}

/* The profile symbols whose share moved most. A symbol absent from one side's list is not taken
 * for 0%: its share was below that list's smallest, so only the move that bound makes sure counts
 * (cpsw's perf top: free_unref_page 2.27% before, unlisted after below 0.58%, fell by at least 1.7
 * points, not 2.3 to nothing). */
static void profile_movers(struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *b = pr->base, *n = pr->new;
	struct nb_cmp_mover all[128];
	int count = 0;
	bool found;

	if (!b || !n || !b->n_profile || !n->n_profile)
		return;
	for (int i = 0; i < b->n_profile && count < 128; i++) {
		struct nb_cmp_mover m = { .symbol = b->profile[i].symbol, .base_share_pct = b->profile[i].share_pct };

		m.new_share_pct = profile_share(n, m.symbol, &found);
		if (!found) {
			m.new_unlisted = true;
			m.new_share_pct = list_floor(n);
		}
		m.change_pts = sure_move(&m);
		all[count++] = m;
	}
	for (int i = 0; i < n->n_profile && count < 128; i++) {
		profile_share(b, n->profile[i].symbol, &found);
		if (!found) {
			struct nb_cmp_mover m = { .symbol = n->profile[i].symbol, .new_share_pct = n->profile[i].share_pct,
						  .base_unlisted = true, .base_share_pct = list_floor(b) };

			m.change_pts = sure_move(&m);
			all[count++] = m;
		}
	}
	qsort(all, (size_t)count, sizeof(all[0]), cmp_mover);
	for (int i = 0; i < count && pr->n_movers < NB_CMP_MAX_MOVERS; i++) {
		/* Sampling jitter moves every symbol a little: only real moves are news. */
		if (fabs(all[i].change_pts) < NB_CMP_MOVER_SINGLE_MIN_PTS)
			continue;
		pr->movers[pr->n_movers++] = all[i];
	}
}

/* Reports from one writer list metrics in the same order: try the same index first. */
static const struct nb_cmp_samples *metric_near(const struct nb_cmp_point *p, int hint, const char *name)
{
	if (hint < p->n_metrics && !strcmp(p->metrics[hint].name, name))
		return &p->metrics[hint];
	return nb_cmp_point_metric(p, name);
}

static bool name_listed(const struct nb_cmp_point *p, int upto, const char *name)
{
	for (int i = 0; i < upto; i++) {
		if (!strcmp(p->metrics[i].name, name))
			return true;
	}
	return false;
}

/* The largest cpu_other_pct of any run of the point on either side; NAN when neither has it. */
static double point_other_pct(const struct nb_cmp_point *b, const struct nb_cmp_point *n)
{
	const struct nb_cmp_point *sides[2] = { b, n };
	double worst = NAN;

	for (int i = 0; i < 2; i++) {
		const struct nb_cmp_samples *s = sides[i] ? nb_cmp_point_metric(sides[i], NB_M_CPU_OTHER_PCT) : NULL;

		for (int j = 0; s && j < s->n; j++)
			worst = isnan(worst) ? s->values[j] : fmax(worst, s->values[j]);
		if (s && !s->n)
			worst = isnan(worst) ? s->median : fmax(worst, s->median);
	}
	return worst;
}

/* The sides' median steal_pct (% of all CPUs) and the change in a figure the difference can
 * explain. All of it may have fallen on the one CPU the test is bound by, so the machine's CPU
 * count times the difference, in percent of that CPU, and twice that: on the 2-vCPU VM a point
 * of steal cost pinned TCP 2.2% and UDP at its loss limit 4.2% (docs/compare.md, "Host
 * steal"). Nothing when a side lacks it. */
static struct nb_cmp_steal point_steal(const struct cmp_ctx *ctx, const struct nb_cmp_point *b,
				       const struct nb_cmp_point *n)
{
	const struct nb_cmp_samples *sb = b ? nb_cmp_point_metric(b, NB_M_STEAL_PCT) : NULL;
	const struct nb_cmp_samples *sn = n ? nb_cmp_point_metric(n, NB_M_STEAL_PCT) : NULL;
	int cpus = ctx->base->cpus > ctx->new->cpus ? ctx->base->cpus : ctx->new->cpus;
	struct nb_cmp_steal st = { .base_pct = NAN, .new_pct = NAN };

	if (!sb || !sn)
		return st;
	st.base_pct = sb->median;
	st.new_pct = sn->median;
	if (fabs(sn->median - sb->median) >= NB_STEAL_DIFF_PCT)
		st.explains_pct = NB_STEAL_EFFECT * (cpus > 0 ? cpus : 1) * fabs(sn->median - sb->median);
	return st;
}

/* new / base of the point's median throughput_bps; NAN unless both sides have one above 0. */
static double point_throughput_ratio(const struct nb_cmp_point *b, const struct nb_cmp_point *n)
{
	const struct nb_cmp_samples *tb = b ? nb_cmp_point_metric(b, NB_M_THROUGHPUT_BPS) : NULL;
	const struct nb_cmp_samples *tn = n ? nb_cmp_point_metric(n, NB_M_THROUGHPUT_BPS) : NULL;

	if (!tb || !tn || !(tb->median > 0) || !(tn->median > 0))
		return NAN;
	return tn->median / tb->median;
}

static int compare_point(struct cmp_ctx *ctx, const struct nb_cmp_point *b, const struct nb_cmp_point *n,
			 struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *any = b ? b : n;
	enum nb_cmp_verdict sv = b && n ? status_verdict(b, n) : NB_CMP_UNCHANGED;
	int cap = (b ? b->n_metrics : 0) + (n ? n->n_metrics : 0) + 1;
	double eff_b[EFFICIENCY_MAX_RUNS], eff_n[EFFICIENCY_MAX_RUNS];
	struct side sb, sn;

	memset(pr, 0, sizeof(*pr));
	pr->id = any->id;
	pr->base = b;
	pr->new = n;
	{
		const struct nb_cmp_samples *thr = nb_cmp_point_metric(any, NB_M_THROUGHPUT_BPS);

		ctx->has_throughput = thr && (thr->n > 0 || thr->median != 0);
		ctx->throughput_bps = ctx->has_throughput ? thr->median : 0;
	}
	ctx->other_pct = point_other_pct(b, n);
	ctx->steal = point_steal(ctx, b, n);
	ctx->throughput_ratio = point_throughput_ratio(b, n);
	ctx->headline = any->headline;
	if (ctx->pool_used + (size_t)cap > ctx->pool_cap)
		return -ENOMEM; /* nb_cmp_run sized the pool for every metric of both reports */
	pr->metrics = ctx->pool + ctx->pool_used;
	if (!b || !n) {
		/* Only in one report: list what it measured, no verdict per metric beyond that. */
		sv = b ? NB_CMP_MISSING : NB_CMP_NEW;
	}
	for (int i = 0; b && i < b->n_metrics; i++) {
		sb = nb_cmp_side_of(&b->metrics[i]);
		sn = nb_cmp_side_of(n ? metric_near(n, i, b->metrics[i].name) : NULL);
		nb_cmp_judge_metric(ctx, pr->n_metrics, any->test_name, b->metrics[i].name, &sb, &sn, sv,
			     &pr->metrics[pr->n_metrics]);
		pr->n_metrics++;
	}
	for (int i = 0; n && i < n->n_metrics; i++) {
		if (b && (metric_near(b, i, n->metrics[i].name) || name_listed(n, i, n->metrics[i].name)))
			continue;
		sb = nb_cmp_side_of(NULL);
		sn = nb_cmp_side_of(&n->metrics[i]);
		nb_cmp_judge_metric(ctx, pr->n_metrics, any->test_name, n->metrics[i].name, &sb, &sn, sv,
			     &pr->metrics[pr->n_metrics]);
		pr->n_metrics++;
	}
	sb = efficiency_side(b, ctx->base->cpus, eff_b);
	sn = efficiency_side(n, ctx->new->cpus, eff_n);
	if (sb.present || sn.present) {
		nb_cmp_judge_metric(ctx, pr->n_metrics, any->test_name, NB_CMP_EFFICIENCY_METRIC, &sb, &sn, sv,
			     &pr->metrics[pr->n_metrics]);
		pr->n_metrics++;
	}

	ctx->pool_used += (size_t)pr->n_metrics;
	pr->verdict = sv != NB_CMP_UNCHANGED ? sv : point_verdict_from_metrics(pr, ctx->opt);
	if (b && n && b->status == NB_CMP_STATUS_UNSUPPORTED && n->status == NB_CMP_STATUS_UNSUPPORTED)
		pr->verdict = NB_CMP_UNCHANGED;
	profile_movers(pr);
	return 0;
}

static int cmp_point_ptr(const void *pa, const void *pb)
{
	const struct nb_cmp_point *a = *(const struct nb_cmp_point *const *)pa;
	const struct nb_cmp_point *b = *(const struct nb_cmp_point *const *)pb;

	return strcmp(a->id, b->id);
}

/* A repeated id makes matching ambiguous. The message names the first repeat in
 * sorted order, so that it does not depend on how the points were indexed. */
static int duplicate_id_error(const struct nb_cmp_report *rep, struct nb_err *err)
{
	const struct nb_cmp_point **idx = malloc(sizeof(*idx) * (size_t)rep->n_points);
	int ret = 0;

	if (!idx)
		return nb_err_set(err, -ENOMEM, "index points of %s: out of memory", rep->path);
	for (int i = 0; i < rep->n_points; i++)
		idx[i] = &rep->points[i];
	qsort(idx, (size_t)rep->n_points, sizeof(*idx), cmp_point_ptr);
	for (int i = 1; i < rep->n_points && !ret; i++) {
		if (!strcmp(idx[i - 1]->id, idx[i]->id))
			ret = nb_err_set(err, -EINVAL, "index points of %s: point id \"%s\" appears twice", rep->path,
					 idx[i]->id);
	}
	free(idx);
	return ret;
}

/* Points by id in an open-addressing hash table: sorting a thousand long ids, which
 * share their first few dozen characters, was a sixth of the statistics' time. */
struct point_index {
	const struct nb_cmp_point **slot; /* NULL: empty */
	size_t mask;
};

/* Eight bytes per step: ids are long ("tcp-rx/threaded=1/gro_flush_timeout=20000/..."). */
static size_t id_hash(const char *id)
{
	size_t len = strlen(id);
	uint64_t h = len, w;

	for (; len >= 8; id += 8, len -= 8) {
		memcpy(&w, id, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, id, len);
	h = (h ^ w) * 0x9e3779b97f4a7c15u;
	return (size_t)(h ^ (h >> 32));
}

/* The slot that holds id, or the empty slot where it would go. */
static const struct nb_cmp_point **index_slot(const struct point_index *idx, const char *id)
{
	size_t i = id_hash(id) & idx->mask;

	while (idx->slot[i] && strcmp(idx->slot[i]->id, id))
		i = (i + 1) & idx->mask;
	return &idx->slot[i];
}

static int index_points(const struct nb_cmp_report *rep, struct point_index *idx, struct nb_err *err)
{
	size_t size = 16;

	while (size < 2 * (size_t)rep->n_points) /* at most half full: short probes */
		size *= 2;
	idx->mask = size - 1;
	idx->slot = calloc(size, sizeof(*idx->slot));
	if (!idx->slot)
		return nb_err_set(err, -ENOMEM, "index points of %s: out of memory", rep->path);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point **slot = index_slot(idx, rep->points[i].id);

		if (*slot)
			return duplicate_id_error(rep, err);
		*slot = &rep->points[i];
	}
	return 0;
}

static const struct nb_cmp_point *find_point(const struct point_index *idx, const char *id)
{
	return *index_slot(idx, id);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void check_env(struct nb_cmp_result *r)
{
	const struct nb_cmp_report *b = r->base, *n = r->new;

	for (int i = 0; i < b->n_env && i < n->n_env; i++) {
		if (same_text(b->env[i].value, n->env[i].value))
			continue;
		r->env_diffs[r->n_env_diffs++] =
			(struct nb_cmp_env_diff){ b->env[i].key, b->env[i].value, n->env[i].value };
	}
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (pr->base && pr->new && !same_text(pr->base->test_json, pr->new->test_json)) {
			if (!r->test_diff_id)
				r->test_diff_id = pr->id;
			r->n_test_diffs++;
		}
	}
}

/* The worst point's median cpu_other_pct; NAN when no point has it (reports before it). */
static double worst_other(const struct nb_cmp_report *rep)
{
	double worst = NAN;

	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_samples *s = nb_cmp_point_metric(&rep->points[i], NB_M_CPU_OTHER_PCT);

		if (s && s->n > 0 && !(s->median <= worst))
			worst = s->median;
	}
	return worst;
}

/* Foreign load on one side only (another program took a CPU) moves every figure: warn when
 * either side reached NB_FOREIGN_LOAD_PCT and the two differ by half of it or more. */
static void check_foreign_load(struct nb_cmp_result *r)
{
	double b = worst_other(r->base), n = worst_other(r->new);

	r->other_base_pct = b;
	r->other_new_pct = n;
	if (isnan(b) && isnan(n))
		return;
	if (isnan(b) || isnan(n))
		r->other_differs = (isnan(b) ? n : b) >= NB_FOREIGN_LOAD_PCT;
	else
		r->other_differs = fmax(b, n) >= NB_FOREIGN_LOAD_PCT && fabs(b - n) >= NB_FOREIGN_LOAD_PCT / 2;
}

/* A point of BASE missing from NEW (not run, or unsupported now) is a measurement the
 * gate lost, like a missing gated metric. */
static void tally(struct nb_cmp_result *r)
{
	bool regression = false, inconclusive = false, missing = false;

	for (int i = 0; i < r->n_points; i++) {
		enum nb_cmp_verdict v = r->points[i].verdict;

		r->count[v]++;
		regression |= v == NB_CMP_REGRESSED || v == NB_CMP_BROKEN;
		inconclusive |= v == NB_CMP_INCONCLUSIVE || (v == NB_CMP_MISSING && r->opt->missing_ok);
		missing |= v == NB_CMP_MISSING && !r->opt->missing_ok;
	}
	r->verdict = regression	  ? NB_CMP_REGRESSION
		     : missing	  ? NB_CMP_OVERALL_MISSING
		     : inconclusive ? NB_CMP_OVERALL_INCONCLUSIVE
				    : NB_CMP_PASS;
}

/* Metric results a report can contribute: its metrics, plus efficiency per point. */
static size_t metric_slots(const struct nb_cmp_report *rep)
{
	size_t n = 1;

	for (int i = 0; i < rep->n_points; i++)
		n += (size_t)rep->points[i].n_metrics + 1;
	return n;
}

/* Every point of both reports, judged into out->points (from the first; the pool from its start). */
static int judge_points(struct cmp_ctx *ctx, const struct point_index *new_idx, bool *matched,
			struct nb_cmp_result *out)
{
	const struct nb_cmp_report *base = ctx->base, *new = ctx->new;
	int ret = 0;

	out->n_points = 0;
	ctx->pool_used = 0;
	memset(matched, 0, sizeof(*matched) * ((size_t)new->n_points + 1));
	for (int i = 0; i < base->n_points; i++) {
		const struct nb_cmp_point *n = find_point(new_idx, base->points[i].id);

		if (n)
			matched[n - new->points] = true;
		ret = compare_point(ctx, &base->points[i], n, &out->points[out->n_points++]);
		if (ret)
			return ret;
	}
	for (int i = 0; !ret && i < new->n_points; i++) {
		if (!matched[i])
			ret = compare_point(ctx, NULL, &new->points[i], &out->points[out->n_points++]);
	}
	return ret;
}

/* The gated metrics the sequential verdict judged, over every point. */
static int seq_gated(const struct nb_cmp_result *r)
{
	int k = 0;

	for (int i = 0; i < r->n_points; i++) {
		for (int j = 0; j < r->points[i].n_metrics; j++) {
			const struct nb_cmp_metric_result *m = &r->points[i].metrics[j];

			k += m->gated && m->seq.state != NB_SEQ_NONE;
		}
	}
	return k;
}

int nb_cmp_run(const struct nb_cmp_report *base, const struct nb_cmp_report *new, const struct nb_cmp_options *opt,
	       struct nb_cmp_result *out, struct nb_err *err)
{
	struct point_index base_idx = { 0 }, new_idx = { 0 };
	bool *matched = NULL;
	struct cmp_ctx *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return nb_err_set(err, -ENOMEM, "compare %s with %s: out of memory", base->path, new->path);
	ctx->opt = opt;
	ctx->base = base;
	ctx->new = new;

	memset(out, 0, sizeof(*out));
	out->base = base;
	out->new = new;
	out->opt = opt;
	ret = index_points(base, &base_idx, err);
	if (!ret)
		ret = index_points(new, &new_idx, err);
	if (ret)
		goto out;
	out->points = calloc((size_t)base->n_points + (size_t)new->n_points, sizeof(*out->points));
	matched = calloc((size_t)new->n_points + 1, sizeof(*matched));
	ctx->pool_cap = metric_slots(base) + metric_slots(new);
	/* Not calloc: judge_metric fills every slot it uses, and most of the bound stays unused. */
	ctx->pool = out->metric_pool = malloc(sizeof(*ctx->pool) * ctx->pool_cap);
	if (!out->points || !matched || !ctx->pool) {
		ret = nb_err_set(err, -ENOMEM, "compare %s with %s: out of memory", base->path, new->path);
		goto out;
	}
	ctx->seq_alpha = opt->alpha;
	ret = judge_points(ctx, &new_idx, matched, out);
	out->seq_gated = seq_gated(out);
	out->seq_alpha = opt->alpha;
	/* The gate fails when any gated metric's sequence says "worse": with k of them each at alpha,
	 * that errs at up to k x alpha. Which metrics the gate holds does not depend on alpha, so the
	 * first pass counts them and the second judges each at alpha / k. */
	if (!ret && opt->sequential && opt->alpha_split && out->seq_gated > 1) {
		ctx->seq_alpha = opt->alpha / out->seq_gated;
		out->seq_alpha = ctx->seq_alpha;
		ret = judge_points(ctx, &new_idx, matched, out);
	}
	if (ret) {
		nb_err_set(err, ret, "compare %s with %s: out of memory", base->path, new->path);
		goto out;
	}
	check_env(out);
	check_foreign_load(out);
	tally(out);
out:
	free(base_idx.slot);
	free(new_idx.slot);
	free(matched);
	nb_cmp_ctx_free(ctx);
	if (ret)
		nb_cmp_result_free(out);
	return ret;
}

void nb_cmp_result_free(struct nb_cmp_result *r)
{
	if (!r)
		return;
	free(r->metric_pool);
	free(r->points);
	r->metric_pool = NULL;
	r->points = NULL;
	r->n_points = 0;
}

/* ---- the exit status ---- */

bool nb_cmp_withheld_disturbed(const struct nb_cmp_metric_result *m)
{
	return m->gated && m->verdict == NB_CMP_INCONCLUSIVE &&
	       (m->reason == NB_CMP_REASON_DISTURBED || m->reason == NB_CMP_REASON_STEAL);
}

int nb_cmp_disturbed_points(const struct nb_cmp_result *r)
{
	int n = 0;

	for (int i = 0; i < r->n_points; i++) {
		bool any = false;

		for (int j = 0; j < r->points[i].n_metrics && !any; j++)
			any = nb_cmp_withheld_disturbed(&r->points[i].metrics[j]);
		n += any;
	}
	return n;
}

enum nb_cmp_exit nb_cmp_exit_status(const struct nb_cmp_result *r, bool fail_on_inconclusive)
{
	if (r->verdict == NB_CMP_REGRESSION || r->verdict == NB_CMP_OVERALL_MISSING)
		return NB_CMP_EXIT_FAIL;
	/* before "undecided": a disturbed round stays in the set, so more pairs cannot undo it */
	if (!r->opt->allow_disturbed && nb_cmp_disturbed_points(r) > 0)
		return NB_CMP_EXIT_WITHHELD;
	if (r->opt->sequential && nb_seq_undecided(r) > 0)
		return NB_CMP_EXIT_UNDECIDED;
	if (r->verdict == NB_CMP_OVERALL_INCONCLUSIVE && fail_on_inconclusive)
		return NB_CMP_EXIT_UNDECIDED;
	return NB_CMP_EXIT_OK;
}
