// SPDX-License-Identifier: MIT
/* nicbench compare: two loaded reports -> per point and metric verdicts (pure, no I/O). */
#include "compare.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare_stats.h"

/* The metric table's row, in compare's types: the values are the table's (compare.h). */
static struct nb_cmp_floor cmp_floor(struct nb_metric_floor f)
{
	return (struct nb_cmp_floor){ f.family, (enum nb_cmp_floor_kind)f.kind, f.value, f.unit };
}

static const struct nb_cmp_floor no_floor = { NULL, NB_CMP_FLOOR_NONE, 0, NULL };

struct nb_cmp_floor nb_cmp_metric_floor(const char *name)
{
	return cmp_floor(nb_metric_floor_of(name));
}

int nb_cmp_floor_rows(void)
{
	return nb_metric_rows();
}

const char *nb_cmp_floor_row(int i, char *pattern, size_t len, struct nb_cmp_floor *floor,
			     enum nb_cmp_direction *direction)
{
	const struct nb_metric_def *d = nb_metric_row(i);

	if (!d)
		return NULL;
	snprintf(pattern, len, "%s", d->name);
	*floor = cmp_floor(d->floor);
	*direction = (enum nb_cmp_direction)d->direction;
	return pattern;
}

enum nb_cmp_direction nb_cmp_metric_direction(const char *name)
{
	return (enum nb_cmp_direction)nb_metric_direction_of(name);
}

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

void nb_cmp_options_init(struct nb_cmp_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->min_effect_pct = 5;
	opt->alpha = 0.10;
	opt->min_runs = 3;
	opt->change_cap_pct = 10000;
	nb_cmp_gate_parse(opt, NB_M_THROUGHPUT_BPS "," NB_M_CPU_BUSY_PCT "@*-rx," NB_M_RR_LATENCY_P99_US "@*-rr," NB_M_RR_TRANSACTIONS_PER_S "@*-rr", NULL);
}

static int parse_pct(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_gate_rule(struct nb_cmp_gate_rule *rule, char *tok, struct nb_err *err)
{
	char *eq = strchr(tok, '=');
	char *at = strchr(tok, '@');

	rule->min_effect_pct = -1;
	if (eq) {
		*eq = '\0';
		if (parse_pct(eq + 1, &rule->min_effect_pct))
			return nb_err_set(err, -EINVAL, "parse gate rule \"%s=%s\": \"%s\" is not a percentage", tok,
					  eq + 1, eq + 1);
	}
	if (at && (!eq || at < eq)) {
		*at = '\0';
		snprintf(rule->tests, sizeof(rule->tests), "%s", at + 1);
	}
	if (!*tok || strlen(tok) >= sizeof(rule->metric))
		return nb_err_set(err, -EINVAL, "parse gate rule: metric name \"%s\" is empty or too long", tok);
	snprintf(rule->metric, sizeof(rule->metric), "%s", tok);
	return 0;
}

int nb_cmp_gate_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	char buf[1024];
	char *save = NULL;
	int n = 0;

	if (strlen(spec) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "parse gate \"%.40s...\": longer than %zu characters", spec,
				  sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	if (!strcmp(buf, "none")) {
		opt->n_gate = 0;
		return 0;
	}
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= NB_CMP_MAX_GATE)
			return nb_err_set(err, -EINVAL, "parse gate: more than %d rules", NB_CMP_MAX_GATE);
		int ret = parse_gate_rule(&opt->gate[n], tok, err);

		if (ret)
			return ret;
		n++;
	}
	if (!n)
		return nb_err_set(err, -EINVAL, "parse gate \"%s\": no rule (use \"none\" to gate nothing)", spec);
	opt->n_gate = n;
	return 0;
}

int nb_cmp_effect_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	const char *eq = strchr(spec, '=');
	double pct;

	if (!eq) {
		if (parse_pct(spec, &pct))
			return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": not a percentage", spec);
		opt->min_effect_pct = pct;
		return 0;
	}
	if (eq == spec || (size_t)(eq - spec) >= NB_METRIC_NAME_MAX || parse_pct(eq + 1, &pct))
		return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": expected METRIC=PERCENT", spec);
	for (int i = 0; i < opt->n_effects; i++) {
		if (!strncmp(opt->effects[i].metric, spec, (size_t)(eq - spec)) &&
		    opt->effects[i].metric[eq - spec] == '\0') {
			opt->effects[i].pct = pct;
			return 0;
		}
	}
	if (opt->n_effects >= NB_CMP_MAX_EFFECTS)
		return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": more than %d metrics", spec,
				  NB_CMP_MAX_EFFECTS);
	snprintf(opt->effects[opt->n_effects].metric, NB_METRIC_NAME_MAX, "%.*s", (int)(eq - spec), spec);
	opt->effects[opt->n_effects].pct = pct;
	opt->n_effects++;
	return 0;
}

static int floor_override_parse(struct nb_cmp_options *opt, const char *tok, struct nb_err *err)
{
	const char *eq = strchr(tok, '=');
	size_t nlen = eq ? (size_t)(eq - tok) : 0;
	double v;
	int i;

	if (!eq || !nlen || nlen >= NB_METRIC_NAME_MAX || parse_pct(eq + 1, &v))
		return nb_err_set(err, -EINVAL,
				  "parse floor \"%s\": expected METRIC=VALUE or FAMILY=VALUE with VALUE >= 0, or none", tok);
	for (i = 0; i < opt->n_floors; i++) {
		if (!strncmp(opt->floors[i].name, tok, nlen) && !opt->floors[i].name[nlen])
			break;
	}
	if (i == opt->n_floors) {
		if (opt->n_floors >= NB_CMP_MAX_FLOORS)
			return nb_err_set(err, -EINVAL, "parse floor \"%s\": more than %d floors", tok, NB_CMP_MAX_FLOORS);
		opt->n_floors++;
	}
	snprintf(opt->floors[i].name, sizeof(opt->floors[i].name), "%.*s", (int)nlen, tok);
	opt->floors[i].value = v;
	return 0;
}

int nb_cmp_floor_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	char buf[1024];
	char *save = NULL;
	int ret = 0, n = 0;

	if (!strcmp(spec, "none")) {
		opt->no_floors = true;
		return 0;
	}
	if (strlen(spec) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "parse floor \"%.40s...\": longer than %zu characters", spec,
				  sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save), n++)
		ret = floor_override_parse(opt, tok, err);
	if (!ret && !n)
		ret = nb_err_set(err, -EINVAL, "parse floor \"%s\": expected METRIC=VALUE or FAMILY=VALUE, or none", spec);
	return ret;
}

/* A metric's floor after --floor: the metric's own override, then its family's. */
static struct nb_cmp_floor metric_floor(const struct nb_cmp_options *opt, const char *name)
{
	struct nb_cmp_floor f = nb_cmp_metric_floor(name);
	const struct nb_cmp_floor_override *family = NULL;

	if (opt->no_floors)
		return no_floor;
	for (int i = 0; i < opt->n_floors; i++) {
		if (!strcmp(opt->floors[i].name, name)) {
			if (f.kind == NB_CMP_FLOOR_NONE)
				f.kind = NB_CMP_FLOOR_ABS;
			f.value = opt->floors[i].value;
			return f;
		}
		if (f.family && !strcmp(opt->floors[i].name, f.family))
			family = &opt->floors[i];
	}
	if (family)
		f.value = family->value;
	return f;
}

static double metric_min_effect(const struct nb_cmp_options *opt, const char *name)
{
	for (int i = 0; i < opt->n_effects; i++) {
		if (!strcmp(opt->effects[i].metric, name))
			return opt->effects[i].pct;
	}
	return opt->min_effect_pct;
}

/* What a metric's name decides. The same dozen names come back for every point, in
 * the same order, so they are remembered per position in the point's metric list:
 * one name check instead of every direction and gate rule. */
struct metric_traits {
	const char *name; /* NULL: slot not filled yet */
	enum nb_cmp_direction direction;
	double min_effect_pct; /* --min-effect's; a gate rule may override it */
	bool gate_named;       /* some gate rule names the metric */
	struct nb_cmp_floor floor; /* after --floor */
};

#define TRAITS_SLOTS 64

static void traits_fill(struct metric_traits *t, const struct nb_cmp_options *opt, const char *name)
{
	t->name = name;
	t->direction = nb_cmp_metric_direction(name);
	t->min_effect_pct = metric_min_effect(opt, name);
	t->floor = metric_floor(opt, name);
	t->gate_named = false;
	for (int i = 0; i < opt->n_gate && !t->gate_named; i++)
		t->gate_named = !strcmp(opt->gate[i].metric, name);
}

/* Gated when a rule names the metric and its glob matches the test; a rule's own
 * threshold beats --min-effect. Neutral metrics have no "worse" to gate on. */
static void apply_gate(const struct nb_cmp_options *opt, const char *test_name, const struct metric_traits *t,
		       struct nb_cmp_metric_result *m)
{
	m->min_effect_pct = t->min_effect_pct;
	m->gated = false;
	if (t->direction == NB_CMP_NEUTRAL || !t->gate_named)
		return;
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *rule = &opt->gate[i];

		if (strcmp(rule->metric, t->name))
			continue;
		if (rule->tests[0] && fnmatch(rule->tests, test_name, 0))
			continue;
		m->gated = true;
		if (rule->min_effect_pct >= 0)
			m->min_effect_pct = rule->min_effect_pct;
		return;
	}
}

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
	size_t pool_used, pool_cap;
	struct metric_traits traits[TRAITS_SLOTS];
};

/* The traits of metric `name`, the pos-th of its point. A report keeps one copy of
 * each name, so the same pointer is the usual hit. */
static const struct metric_traits *metric_traits(struct cmp_ctx *ctx, int pos, const char *name)
{
	struct metric_traits *t = &ctx->traits[pos % TRAITS_SLOTS];

	if (t->name != name && (!t->name || strcmp(t->name, name)))
		traits_fill(t, ctx->opt, name);
	return t;
}

static void ctx_free(struct cmp_ctx *ctx)
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

/* A sample set as compare sees it: borrowed values and a median. */
struct side {
	bool present;
	double median;
	int n;
	const double *values;
	bool diagnostic;  /* from the diagnostic repetition: never gated */
	int paired;       /* compare over rounds: leading values that pair with the other side's */
};

static struct side side_of(const struct nb_cmp_samples *s)
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
 * drops and loss families (below). */
static bool clears_spread(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			  const struct side *n, bool up, double lo, double hi)
{
	double lb[SPREAD_MAX_RUNS], ln[SPREAD_MAX_RUNS], glo, ghi;
	struct side sb = *b, sn = *n;
	bool positive = b->n <= SPREAD_MAX_RUNS && n->n <= SPREAD_MAX_RUNS;

	m->spread_factor = nb_cmp_spread_factor(b->n < n->n ? b->n : n->n);
	/* Counts of lost or dropped packets stay in packets: a run of 0 is common there, and the
	 * scale of one metric should not flip with whether some run happened to lose nothing. */
	{
		const char *family = nb_cmp_metric_floor(m->name).family;

		positive = positive && !(family && (!strcmp(family, "drops") || !strcmp(family, "loss")));
	}
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
	/* Other programs' CPU moves every figure of the point; cpu_other_pct itself says how much. */
	if (ctx->other_pct >= NB_FOREIGN_LOAD_PCT && strcmp(m->name, NB_M_CPU_OTHER_PCT)) {
		m->reason = NB_CMP_REASON_DISTURBED;
		return;
	}
	/* The host's steal moved between the sides by enough to explain the least change the
	 * interval supports: the VM's host, not the kernel, may have made it. Losses have no
	 * such bound: a receiver that loses its CPU for a moment overflows its buffers. */
	if (ctx->steal.explains_pct > 0 && strcmp(m->name, NB_M_STEAL_PCT) &&
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
	bool positive = true, up, down;
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
	up = m->ci_lo_pct > effect && lo > floor;
	down = m->ci_hi_pct < -effect && hi < -floor;
	if (!up && !down) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = (m->ci_lo_pct > effect || m->ci_hi_pct < -effect) ? NB_CMP_REASON_NOISY_FLOOR
									   : NB_CMP_REASON_NOISY;
		return;
	}
	judge_supported(ctx, m, b, n, lo, hi);
}

/* The verdict needs the whole (1 - alpha) interval of the change beyond the minimum
 * effect, not just a significant difference: noise that happens to separate two
 * small samples by less than the minimum effect then cannot fail CI. */
static void judge_change(struct cmp_ctx *ctx, struct nb_cmp_metric_result *m, const struct side *b,
			 const struct side *n)
{
	const struct nb_cmp_options *opt = ctx->opt;
	double lo, hi, effect = m->min_effect_pct, floor = m->has_floor ? m->floor : 0;
	bool up, down;

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
	/* The whole interval beyond both the minimum effect and the floor. */
	up = m->ci_lo_pct > effect && lo > floor;
	down = m->ci_hi_pct < -effect && hi < -floor;
	if (!up && !down) {
		m->verdict = NB_CMP_INCONCLUSIVE;
		m->reason = (m->ci_lo_pct > effect || m->ci_hi_pct < -effect) ? NB_CMP_REASON_NOISY_FLOOR
									   : NB_CMP_REASON_NOISY;
		return;
	}
	judge_supported(ctx, m, b, n, lo, hi);
}

/* Judge metric `name` into *m, the pos-th metric of its point. */
static void judge_metric(struct cmp_ctx *ctx, int pos, const char *test_name, const char *name,
			 const struct side *b, const struct side *n, enum nb_cmp_verdict status_verdict,
			 struct nb_cmp_metric_result *m)
{
	const struct nb_cmp_options *opt = ctx->opt;
	const struct metric_traits *t;

	memset(m, 0, sizeof(*m));
	m->name = name;
	t = metric_traits(ctx, pos, name);
	m->direction = t->direction;
	apply_gate(opt, test_name, t, m);
	if (b->diagnostic || n->diagnostic)
		m->gated = false;
	m->has_floor = resolve_floor(ctx, t, &m->floor);
	m->floor_family = m->has_floor ? t->floor.family : NULL;
	m->counts_losses = t->floor.family && (!strcmp(t->floor.family, "drops") || !strcmp(t->floor.family, "loss"));
	/* CPU time spent: it grows with the packets handled */
	m->follows_work = t->direction == NB_CMP_LOWER_BETTER && t->floor.family &&
			  (!strcmp(t->floor.family, "cpu") || !strcmp(t->floor.family, "core") ||
			   !strcmp(t->floor.family, "softirq_time"));
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
	double da = fabs(a->new_share_pct - a->base_share_pct), db = fabs(b->new_share_pct - b->base_share_pct);

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

/* The profile symbols whose share moved most; a symbol absent on one side counts as 0%. */
static void profile_movers(struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *b = pr->base, *n = pr->new;
	struct nb_cmp_mover all[128];
	int count = 0;
	bool found;

	if (!b || !n || !b->n_profile || !n->n_profile)
		return;
	for (int i = 0; i < b->n_profile && count < 128; i++)
		all[count++] = (struct nb_cmp_mover){ b->profile[i].symbol, b->profile[i].share_pct,
						      profile_share(n, b->profile[i].symbol, &found) };
	for (int i = 0; i < n->n_profile && count < 128; i++) {
		profile_share(b, n->profile[i].symbol, &found);
		if (!found)
			all[count++] = (struct nb_cmp_mover){ n->profile[i].symbol, 0, n->profile[i].share_pct };
	}
	qsort(all, (size_t)count, sizeof(all[0]), cmp_mover);
	for (int i = 0; i < count && pr->n_movers < NB_CMP_MAX_MOVERS; i++) {
		/* Sampling jitter moves every symbol a little: only real moves are news. */
		if (fabs(all[i].new_share_pct - all[i].base_share_pct) < NB_CMP_MOVER_MIN_PTS)
			break;
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
	if (ctx->pool_used + (size_t)cap > ctx->pool_cap)
		return -ENOMEM; /* nb_cmp_run sized the pool for every metric of both reports */
	pr->metrics = ctx->pool + ctx->pool_used;
	if (!b || !n) {
		/* Only in one report: list what it measured, no verdict per metric beyond that. */
		sv = b ? NB_CMP_MISSING : NB_CMP_NEW;
	}
	for (int i = 0; b && i < b->n_metrics; i++) {
		sb = side_of(&b->metrics[i]);
		sn = side_of(n ? metric_near(n, i, b->metrics[i].name) : NULL);
		judge_metric(ctx, pr->n_metrics, any->test_name, b->metrics[i].name, &sb, &sn, sv,
			     &pr->metrics[pr->n_metrics]);
		pr->n_metrics++;
	}
	for (int i = 0; n && i < n->n_metrics; i++) {
		if (b && (metric_near(b, i, n->metrics[i].name) || name_listed(n, i, n->metrics[i].name)))
			continue;
		sb = side_of(NULL);
		sn = side_of(&n->metrics[i]);
		judge_metric(ctx, pr->n_metrics, any->test_name, n->metrics[i].name, &sb, &sn, sv,
			     &pr->metrics[pr->n_metrics]);
		pr->n_metrics++;
	}
	sb = efficiency_side(b, ctx->base->cpus, eff_b);
	sn = efficiency_side(n, ctx->new->cpus, eff_n);
	if (sb.present || sn.present) {
		judge_metric(ctx, pr->n_metrics, any->test_name, NB_CMP_EFFICIENCY_METRIC, &sb, &sn, sv,
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
	for (int i = 0; i < base->n_points; i++) {
		const struct nb_cmp_point *n = find_point(&new_idx, base->points[i].id);

		if (n)
			matched[n - new->points] = true;
		ret = compare_point(ctx, &base->points[i], n, &out->points[out->n_points++]);
		if (ret)
			break;
	}
	for (int i = 0; !ret && i < new->n_points; i++) {
		if (!matched[i])
			ret = compare_point(ctx, NULL, &new->points[i], &out->points[out->n_points++]);
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
	ctx_free(ctx);
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
	if (!r->opt->allow_disturbed && nb_cmp_disturbed_points(r) > 0)
		return NB_CMP_EXIT_INCONCLUSIVE;
	if (r->verdict == NB_CMP_OVERALL_INCONCLUSIVE && fail_on_inconclusive)
		return NB_CMP_EXIT_INCONCLUSIVE;
	return NB_CMP_EXIT_OK;
}
