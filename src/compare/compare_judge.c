// SPDX-License-Identifier: MIT
/* nicbench compare: one metric of one point judged: the interval of the change, the floors, the
 * runs' spread, foreign load, steal and throughput (pure, no I/O). */
#include "compare_judge.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_rules.h"
#include "compare_stats.h"
#include "kit/metric_table.h"

static void traits_fill(struct metric_traits *t, const struct nb_cmp_options *opt, const char *name)
{
	t->name = name;
	t->direction = nb_cmp_metric_direction(name);
	t->min_effect_pct = nb_cmp_effective_min_effect(opt, name);
	t->floor = nb_cmp_effective_floor(opt, name);
	{
		const struct nb_metric_def *row = nb_metric_lookup(name);
		unsigned flags = row ? row->flags : 0;

		t->counts_losses = flags & NB_METRIC_COUNTS_LOSSES;
		t->follows_work = flags & NB_METRIC_FOLLOWS_WORK;
		t->host_state = flags & NB_METRIC_HOST_STATE;
	}
	t->gate_named = false;
	for (int i = 0; i < opt->n_gate && !t->gate_named; i++)
		t->gate_named = !strcmp(opt->gate[i].metric, name) || !strcmp(opt->gate[i].metric, NB_CMP_GATE_HEADLINE);
}

/* Gated when a rule names the metric and its glob matches the test; a rule's own
 * threshold beats --min-effect. Neutral metrics have no "worse" to gate on. */
static void apply_gate(const struct nb_cmp_options *opt, const char *test_name, const char *headline,
		       const struct metric_traits *t, struct nb_cmp_metric_result *m)
{
	m->min_effect_pct = t->min_effect_pct;
	m->gated = false;
	if (t->direction == NB_CMP_NEUTRAL || !t->gate_named)
		return;
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *rule = &opt->gate[i];

		bool headline_rule = !strcmp(rule->metric, NB_CMP_GATE_HEADLINE);

		if (headline_rule ? !headline || strcmp(headline, t->name) : strcmp(rule->metric, t->name))
			continue;
		if (rule->tests[0] && fnmatch(rule->tests, test_name, 0))
			continue;
		m->gated = true;
		if (rule->min_effect_pct >= 0)
			m->min_effect_pct = rule->min_effect_pct;
		return;
	}
}

/* The traits of metric `name`, the pos-th of its point. A report keeps one copy of
 * each name, so the same pointer is the usual hit. */
static const struct metric_traits *metric_traits(struct cmp_ctx *ctx, int pos, const char *name)
{
	struct metric_traits *t = &ctx->traits[pos % TRAITS_SLOTS];

	if (t->name != name && (!t->name || strcmp(t->name, name)))
		traits_fill(t, ctx->opt, name);
	return t;
}

void nb_cmp_ctx_free(struct cmp_ctx *ctx)
{
	if (!ctx)
		return;
	for (int i = 0; i <= RANK_CACHE_RUNS; i++) {
		for (int j = 0; j <= RANK_CACHE_RUNS; j++)
			free(ctx->u_counts[i][j]);
	}
	free(ctx);
}

/* Mann-Whitney p: the cached exact distribution when no value repeats (real-valued
 * measurements), the tie-aware computation otherwise. */
static double mann_whitney_p(struct cmp_ctx *ctx, const double *b, int nb, const double *n, int nn)
{
	double **counts;
	bool ties;
	long u2;

	if (nb > RANK_CACHE_RUNS || nn > RANK_CACHE_RUNS)
		return nb_stats_mann_whitney_p(b, nb, n, nn);
	u2 = nb_stats_mann_whitney_u2(b, nb, n, nn, &ties);
	if (ties)
		return nb_stats_mann_whitney_p(b, nb, n, nn);
	counts = &ctx->u_counts[nb][nn];
	if (!*counts) {
		*counts = malloc(sizeof(double) * ((size_t)nb * (size_t)nn + 1));
		if (!*counts || nb_stats_u_distribution(nb, nn, *counts)) {
			free(*counts);
			*counts = NULL;
			return nb_stats_mann_whitney_p(b, nb, n, nn);
		}
	}
	return nb_stats_u_p_value(*counts, nb, nn, u2);
}

static long ci_rank(struct cmp_ctx *ctx, int nb, int nn)
{
	long k;

	if (nb > RANK_CACHE_RUNS || nn > RANK_CACHE_RUNS)
		return nb_stats_shift_ci_rank(nb, nn, ctx->opt->alpha);
	if (!ctx->rank_cache[nb][nn])
		ctx->rank_cache[nb][nn] = nb_stats_shift_ci_rank(nb, nn, ctx->opt->alpha) + 1;
	k = ctx->rank_cache[nb][nn] - 1;
	return k;
}

struct side nb_cmp_side_of(const struct nb_cmp_samples *s)
{
	if (!s)
		return (struct side){ 0 };
	return (struct side){ true, s->median, s->n, s->values, s->diagnostic, s->paired };
}

/* A shift in units of the base median, in percent, bounded like the change itself: at
 * -100% below, as no metric compare reads goes below zero. An interval end under -100% only
 * says that some base run lay above the base median (a collapse to near zero from a spread
 * base); printed, it looked like a measurement below zero. */
static double shift_pct(double shift, double base_median, double cap)
{
	double pct;

	if (base_median == 0)
		return shift > 0 ? cap : shift < 0 ? -100 : 0;
	pct = shift / fabs(base_median) * 100;
	return pct > cap ? cap : pct < -100 ? -100 : pct;
}

/* The floor in the metric's unit for this point; false when it has none. */
static bool resolve_floor(const struct cmp_ctx *ctx, const struct metric_traits *t, double *floor)
{
	switch (t->floor.kind) {
	case NB_CMP_FLOOR_ABS:
		*floor = t->floor.value;
		return true;
	case NB_CMP_FLOOR_BITS_SHARE:
	case NB_CMP_FLOOR_BYTES_SHARE:
		if (!ctx->has_throughput)
			return false; /* no throughput to take a share of: the relative rules alone */
		*floor = t->floor.value / 100 * fabs(ctx->throughput_bps) /
			 (t->floor.kind == NB_CMP_FLOOR_BYTES_SHARE ? 8 : 1);
		return true;
	default:
		return false;
	}
}

/* How far apart one side's runs lie: their range, or from five runs on the range without the
 * highest and the lowest run (the one odd run that the rank test shrugs off). */
static double run_spread(const struct side *s)
{
	double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
	int trim = s->n >= 5;

	if (s->n < 2)
		return 0;
	for (int i = 0; i < s->n; i++) {
		double v = s->values[i];

		if (v < lo[0]) {
			lo[1] = lo[0];
			lo[0] = v;
		} else if (v < lo[1]) {
			lo[1] = v;
		}
		if (v > hi[0]) {
			hi[1] = hi[0];
			hi[0] = v;
		} else if (v > hi[1]) {
			hi[1] = v;
		}
	}
	return hi[trim] - lo[trim];
}

double nb_cmp_spread_factor(int runs)
{
	/* bench/noise-rule-sim: normal runs, 20000 A/A draws per run count; the rate of chance
	 * passes is 0.8% at every entry. From 5 runs a side's spread leaves out its highest and
	 * lowest run, which is why 5 needs more than 4. */
	static const double factor[] = { [3] = 1.0, [4] = 0.45, [5] = 1.0, [6] = 0.6, [7] = 0.45, [8] = 0.35,
					 [9] = 0.3, [10] = 0.25 };

	if (runs < 3)
		return factor[3];
	return runs < (int)(sizeof(factor) / sizeof(factor[0])) ? factor[runs] : factor[10];
}

#define SPREAD_MAX_RUNS 256 /* more runs a side: the spread rule in the metric's unit */

/* The gap between the sides (the inner end of the interval of the shift, `lo` up or `-hi`
 * down) against the larger side's spread of runs. In ratios when every run of both sides lies
 * above zero: the change is judged in percent, and a latency or a rate that moves far spreads
 * in proportion (p99 402 -> 1561 us, five runs each, all new above all base, whose new side
 * spread by 987 us: in microseconds the gap did not clear it, in ratios by far). Not for the
 * metrics that count losses (below). */
static bool clears_spread(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			  const struct side *n, bool up, double lo, double hi)
{
	double lb[SPREAD_MAX_RUNS], ln[SPREAD_MAX_RUNS], glo, ghi;
	struct side sb = *b, sn = *n;
	bool positive = b->n <= SPREAD_MAX_RUNS && n->n <= SPREAD_MAX_RUNS;

	m->spread_factor = nb_cmp_spread_factor(b->n < n->n ? b->n : n->n);
	/* Counts of lost or dropped packets stay in packets: a run of 0 is common there, and the
	 * scale of one metric should not flip with whether some run happened to lose nothing. */
	positive = positive && !m->counts_losses;
	for (int i = 0; positive && i < b->n; i++)
		positive = b->values[i] > 0;
	for (int i = 0; positive && i < n->n; i++)
		positive = n->values[i] > 0;
	if (!positive)
		return (up ? lo : -hi) > m->spread_factor * m->spread;
	for (int i = 0; i < b->n; i++)
		lb[i] = log(b->values[i]);
	for (int i = 0; i < n->n; i++)
		ln[i] = log(n->values[i]);
	sb.values = lb;
	sn.values = ln;
	m->spread_ratio = true;
	{
		double s = fmax(run_spread(&sb), run_spread(&sn));

		m->spread_pct = (exp(s) - 1) * 100;
		if (!nb_stats_shift_ci_at(lb, b->n, ln, n->n, ci_rank(ctx, b->n, n->n), &glo, &ghi))
			return false;
		return (up ? glo : -ghi) > m->spread_factor * s;
	}
}

/* A change the interval supports, and what may still hold it back: runs on a side that lie
 * further apart than the two sides do, or other programs' load on either side. At three
 * runs a side the 90% interval is the range of the nine differences and p cannot go below
 * 0.10, so any three runs that all lie above three others pass the test: by chance one
 * metric in ten, a dozen in a compare of a hundred metrics. Only a gap wider than the runs'
 * own spread is told from that (docs/compare.md, "Small samples"). */
static void judge_supported(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			    const struct side *n, double lo, double hi)
{
	bool up = lo > 0;

	m->verdict = NB_CMP_INCONCLUSIVE;
	/* Paired rounds need no spread rule: the pairs' interval already counts each pair once,
	 * and a side's spread across rounds is the host's modes, which the pairing cancels. */
	if (!m->n_pairs && !clears_spread(ctx, m, b, n, up, lo, hi)) {
		m->reason = NB_CMP_REASON_NOISY_SPREAD;
		return;
	}
	/* Other programs' CPU moves every figure of the point; the host-state metrics (cpu_other_pct,
	 * steal_pct) say how much and are not held back by it. */
	if (ctx->other_pct >= NB_FOREIGN_LOAD_PCT && !m->host_state) {
		m->reason = NB_CMP_REASON_DISTURBED;
		return;
	}
	/* The host's steal moved between the sides by enough to explain the least change the
	 * interval supports: the VM's host, not the kernel, may have made it. Losses have no
	 * such bound: a receiver that loses its CPU for a moment overflows its buffers. */
	if (ctx->steal.explains_pct > 0 && !m->host_state &&
	    (m->counts_losses || (up ? m->ci_lo_pct : -m->ci_hi_pct) <= ctx->steal.explains_pct)) {
		m->reason = NB_CMP_REASON_STEAL;
		return;
	}
	/* A CPU cost that moved with the throughput, by no more than it, is the same cost per bit
	 * for more (or fewer) bits: bits_per_cpu_second judges the cost itself. */
	if (m->follows_work && isfinite(ctx->throughput_ratio) &&
	    (up ? ctx->throughput_ratio > 1 && 1 + m->ci_lo_pct / 100 <= ctx->throughput_ratio
		: ctx->throughput_ratio < 1 && 1 + m->ci_hi_pct / 100 >= ctx->throughput_ratio)) {
		m->reason = NB_CMP_REASON_FOLLOWS_THROUGHPUT;
		m->throughput_change_pct = 100 * (ctx->throughput_ratio - 1);
		return;
	}
	m->reason = NB_CMP_REASON_SUPPORTED;
	if (m->direction == NB_CMP_NEUTRAL)
		m->verdict = NB_CMP_CHANGED;
	else
		m->verdict = up == (m->direction == NB_CMP_HIGHER_BETTER) ? NB_CMP_IMPROVED : NB_CMP_REGRESSED;
}

/* The whole interval of the change (ci_*_pct, and lo..hi in the metric's unit) beyond both the
 * minimum effect and the floor decides; otherwise the verdict is inconclusive, and says which. */
static void judge_interval(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			   const struct side *n, double lo, double hi)
{
	double effect = m->min_effect_pct, floor = m->has_floor ? m->floor : 0;
	bool up = m->ci_lo_pct > effect && lo > floor;
	bool down = m->ci_hi_pct < -effect && hi < -floor;

	if (!up && !down) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = (m->ci_lo_pct > effect || m->ci_hi_pct < -effect) ? NB_CMP_REASON_NOISY_FLOOR
									   : NB_CMP_REASON_NOISY;
		return;
	}
	judge_supported(ctx, m, b, n, lo, hi);
}

#define PAIRED_MAX 1024

/* Compare over paired rounds: the unit of evidence is the pair (round i of A, round i of B, made
 * next to each other), and the verdict rests on the n differences within pairs, in ratios when
 * every round lies above zero. A host mode that shifts both rounds of a pair cancels; one that
 * lasts a round counts once, not once a run. The rules are the runs' rules with the sign test's
 * interval: beyond the minimum effect and the floor, then foreign load, steal and throughput. */
static void judge_paired(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			 const struct side *n)
{
	const struct nb_cmp_options *opt = ctx->opt;
	double ratio[PAIRED_MAX], diff[PAIRED_MAX], effect = m->min_effect_pct, floor = m->has_floor ? m->floor : 0;
	int np = b->paired < n->paired ? b->paired : n->paired;
	bool positive = true;
	double mid_diff, lo, hi;
	long k;

	np = np > PAIRED_MAX ? PAIRED_MAX : np;
	if (np < 1)
		return; /* the caller checked: both sides pair */
	m->n_pairs = np;
	for (int i = 0; i < np; i++) {
		diff[i] = n->values[i] - b->values[i];
		positive = positive && b->values[i] > 0 && n->values[i] > 0;
	}
	for (int i = 0; positive && i < np; i++)
		ratio[i] = log(n->values[i] / b->values[i]);
	mid_diff = nb_stats_median(diff, np);
	/* the change is the median pair's, not the ratio of the sides' medians */
	if (positive) {
		double pct = (exp(nb_stats_median(ratio, np)) - 1) * 100;

		m->change_capped = pct > opt->change_cap_pct;
		m->change_pct = m->change_capped ? opt->change_cap_pct : pct;
	} else {
		m->change_pct = shift_pct(mid_diff, b->median, opt->change_cap_pct);
		m->change_capped = m->change_pct >= opt->change_cap_pct;
	}
	if (opt->sequential) {
		/* alpha_split shares alpha among the gated metrics only: the others keep the whole */
		m->alpha = m->gated ? ctx->seq_alpha : opt->alpha;
		if (nb_seq_judge(m, positive ? ratio : NULL, diff, np, b->median, m->alpha))
			judge_supported(ctx, m, b, n, m->seq.diff_lo, m->seq.diff_hi);
		return;
	}
	if (fabs(m->change_pct) <= effect) {
		m->verdict = NB_CMP_UNCHANGED;
		return;
	}
	if (m->has_floor && fabs(mid_diff) <= floor) {
		m->verdict = NB_CMP_UNCHANGED;
		m->reason = NB_CMP_REASON_WITHIN_FLOOR;
		return;
	}
	m->p_value = nb_stats_sign_flip_p(positive ? ratio : diff, np);
	m->has_p = true;
	k = nb_stats_sign_ci_rank(np, opt->alpha);
	if (!k) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = NB_CMP_REASON_FEW_PAIRS;
		return;
	}
	nb_stats_sort(diff, np);
	lo = diff[k - 1];
	hi = diff[np - k];
	if (positive) {
		nb_stats_sort(ratio, np);
		m->ci_lo_pct = fmin((exp(ratio[k - 1]) - 1) * 100, opt->change_cap_pct);
		m->ci_hi_pct = fmin((exp(ratio[np - k]) - 1) * 100, opt->change_cap_pct);
	} else {
		m->ci_lo_pct = shift_pct(lo, b->median, opt->change_cap_pct);
		m->ci_hi_pct = shift_pct(hi, b->median, opt->change_cap_pct);
	}
	m->has_ci = true;
	judge_interval(ctx, m, b, n, lo, hi);
}

/* The verdict needs the whole (1 - alpha) interval of the change beyond the minimum
 * effect, not just a significant difference: noise that happens to separate two
 * small samples by less than the minimum effect then cannot fail CI. */
static void judge_change(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			 const struct side *n)
{
	const struct nb_cmp_options *opt = ctx->opt;
	double lo, hi, effect = m->min_effect_pct, floor = m->has_floor ? m->floor : 0;

	if (opt->rounds_paired && b->paired > 0 && n->paired > 0) {
		judge_paired(ctx, m, b, n);
		return;
	}
	if (b->n < opt->min_runs || n->n < opt->min_runs) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = NB_CMP_REASON_FEW_RUNS;
		return;
	}
	if (fabs(m->change_pct) <= effect) {
		m->verdict = NB_CMP_UNCHANGED; /* the verdict says why; no statistics needed */
		return;
	}
	/* Inside the floor nothing happened, however wide the interval: a 1.8% share that
	 * became 1.5%, or 0 lost packets that became 3. */
	if (m->has_floor && fabs(n->median - b->median) <= floor) {
		m->verdict = NB_CMP_UNCHANGED;
		m->reason = NB_CMP_REASON_WITHIN_FLOOR;
		return;
	}
	/* Only a change beyond the minimum effect needs its test and interval: most
	 * metrics of most points do not move, and a compare of 1000 points should be quick. */
	m->p_value = mann_whitney_p(ctx, b->values, b->n, n->values, n->n);
	m->has_p = true;
	if (nb_stats_shift_ci_at(b->values, b->n, n->values, n->n, ci_rank(ctx, b->n, n->n), &lo, &hi)) {
		m->ci_lo_pct = shift_pct(lo, b->median, opt->change_cap_pct);
		m->ci_hi_pct = shift_pct(hi, b->median, opt->change_cap_pct);
		m->has_ci = true;
		m->spread = fmax(run_spread(b), run_spread(n));
	}
	if (!m->has_ci) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = NB_CMP_REASON_UNREACHABLE;
		return;
	}
	judge_interval(ctx, m, b, n, lo, hi);
}

/* Judge metric `name` into *m, the pos-th metric of its point. */
void nb_cmp_judge_metric(struct cmp_ctx *ctx, int pos, const char *test_name, const char *name,
			 const struct side *b, const struct side *n, enum nb_cmp_verdict status_verdict,
			 struct nb_cmp_metric_result *m)
{
	const struct nb_cmp_options *opt = ctx->opt;
	const struct metric_traits *t;

	memset(m, 0, sizeof(*m));
	m->name = name;
	m->alpha = opt->alpha;
	t = metric_traits(ctx, pos, name);
	m->direction = t->direction;
	apply_gate(opt, test_name, ctx->headline, t, m);
	if (b->diagnostic || n->diagnostic)
		m->gated = false;
	m->has_floor = resolve_floor(ctx, t, &m->floor);
	m->floor_family = m->has_floor ? t->floor.family : NULL;
	m->counts_losses = t->counts_losses;
	m->follows_work = t->follows_work;
	m->host_state = t->host_state;
	m->has_base = b->present;
	m->has_new = n->present;
	m->base = b->median;
	m->new = n->median;
	m->n_base = b->n;
	m->n_new = n->n;
	m->other_pct = ctx->other_pct;
	m->steal = ctx->steal;
	if (b->present && n->present) {
		m->change_pct = nb_stats_change_pct(b->median, n->median, opt->change_cap_pct, &m->change_capped);
		m->has_change = true;
	}
	if (status_verdict != NB_CMP_UNCHANGED) {
		/* fixed/broken points: the status change is the verdict of every metric */
		m->verdict = status_verdict;
		return;
	}
	if (!b->present || !n->present) {
		m->verdict = b->present ? NB_CMP_MISSING : NB_CMP_NEW;
		m->reason = b->present ? NB_CMP_REASON_ONLY_BASE : NB_CMP_REASON_ONLY_NEW;
		return;
	}
	judge_change(ctx, m, b, n);
}
