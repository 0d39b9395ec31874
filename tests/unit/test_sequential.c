// SPDX-License-Identifier: MIT
/* compare --sequential: the confidence sequence on table-driven pairs, its error rate under
 * repeated looks on simulated A/A pairs, and compare over the recorded rounds (fixtures). */
#include <errno.h>
#include <stdint.h>

#include "compare/compare.h"
#include "compare/compare_rounds.h"
#include "compare/sequential.h"
#include "nb_test.h"

#define MAX_PAIRS 64

struct seq_case {
	const char *what;
	int n;
	double ratio[MAX_PAIRS];   /* B / A of each pair */
	double effect, floor;      /* floor < 0: none */
	double base;               /* A's value (the differences: base * (ratio - 1)) */
	enum nb_seq_state want;
	int most_more;             /* undecided: more_pairs at most this (-1: any, also "too many") */
};

static const struct seq_case cases[] = {
	{ "A/A-like, 5 pairs", 5, { 1.02, 0.97, 1.01, 0.99, 1.03 }, 5, -1, 1e10, NB_SEQ_UNCHANGED, 0 },
	{ "A/A-like, 3 pairs: too early", 3, { 1.02, 0.97, 1.01 }, 5, -1, 1e10, NB_SEQ_UNDECIDED, 5 },
	{ "one pair: unbounded", 1, { 0.7 }, 5, -1, 1e10, NB_SEQ_UNDECIDED, 2 },
	{ "two pairs: unbounded", 2, { 0.7, 0.69 }, 5, -1, 1e10, NB_SEQ_UNDECIDED, 1 },
	{ "30% slower, 3 pairs", 3, { 0.70, 0.72, 0.68 }, 5, -1, 1e10, NB_SEQ_DOWN, 0 },
	{ "30% faster, 3 pairs", 3, { 1.30, 1.33, 1.28 }, 5, -1, 1e10, NB_SEQ_UP, 0 },
	{ "30% slower, host mode in one pair", 4, { 0.70, 1.15, 0.68, 0.71 }, 5, -1, 1e10, NB_SEQ_UNDECIDED, -1 },
	{ "huge variance", 5, { 0.5, 1.7, 0.8, 1.4, 0.6 }, 5, -1, 1e10, NB_SEQ_UNDECIDED, -1 },
	{ "3% change at a 5% effect: never a change", 8, { 1.03, 1.035, 1.025, 1.03, 1.028, 1.032, 1.03, 1.031 }, 5, -1,
	  1e10, NB_SEQ_UNCHANGED, 0 },
	/* 40% of a CPU share of 2%: beyond the effect, not beyond a floor of 1 percentage point */
	{ "within the floor", 5, { 1.4, 1.35, 1.45, 1.4, 1.38 }, 5, 1, 2, NB_SEQ_UNCHANGED, 0 },
	{ "beyond effect, not floor", 5, { 1.4, 1.1, 1.7, 1.3, 1.5 }, 5, 1, 2, NB_SEQ_UNDECIDED, -1 },
};

static void test_cases(void)
{
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct seq_case *t = &cases[c];
		double lr[MAX_PAIRS], diff[MAX_PAIRS];
		struct nb_seq_rule rule = { 0.10, t->effect, t->floor >= 0, t->floor >= 0 ? t->floor : 0 };
		struct nb_seq_metric s;

		for (int i = 0; i < t->n; i++) {
			lr[i] = log(t->ratio[i]);
			diff[i] = t->base * (t->ratio[i] - 1);
		}
		s = nb_seq_decide(lr, diff, t->n, t->base, &rule);
		CHECK_MSG(s.state == t->want, "%s: state %d, want %d (%.1f%%..%.1f%%)", t->what, s.state, t->want,
			  s.lo_pct, s.hi_pct);
		CHECK_MSG(s.n_pairs == t->n, "%s", t->what);
		if (t->want == NB_SEQ_UNDECIDED && t->most_more > 0)
			CHECK_MSG(s.more_pairs >= 1 && s.more_pairs <= t->most_more, "%s: more_pairs %d", t->what,
				  s.more_pairs);
		if (t->want == NB_SEQ_UNDECIDED)
			CHECK_MSG(s.more_pairs != 0, "%s: an undecided metric with 0 more pairs", t->what);
		if (t->want == NB_SEQ_UNCHANGED)
			CHECK_MSG(s.rules_out_pct > 0 && s.bounded, "%s", t->what);
	}
}

/* The same pairs, the differences alone (a metric whose values may be 0): a 30% fall decides. */
static void test_differences_only(void)
{
	double diff[4] = { -30, -31, -29, -30.5 };
	struct nb_seq_rule rule = { 0.10, 5, false, 0 };
	struct nb_seq_metric s = nb_seq_decide(NULL, diff, 4, 100, &rule);

	CHECK(s.state == NB_SEQ_DOWN);
	CHECK(s.hi_pct < -25 && s.lo_pct > -35);
}

/* A rate limit on B under a host whose speed swings A's throughput eightfold: every pair is down 75-97%, so
 * the ratio's sequence lies far below the effect, while the differences B - A spread with A's level. The
 * floor (here none, as throughput's) is held against the ratio's bounds, and the fall decides. */
static void test_swinging_base(void)
{
	const double a[5] = { 300, 60, 400, 80, 250 }, b[5] = { 15, 12, 12, 20, 15 };
	double lr[5], diff[5];
	struct nb_seq_rule rule = { 0.05, 5, false, 0 };
	struct nb_seq_metric s;

	for (int i = 0; i < 5; i++) {
		lr[i] = log(b[i] / a[i]);
		diff[i] = b[i] - a[i];
	}
	s = nb_seq_decide(lr, diff, 5, 250, &rule);
	CHECK_MSG(s.state == NB_SEQ_DOWN, "state %d (%.1f%%..%.1f%%, B - A %.1f..%.1f)", s.state, s.lo_pct, s.hi_pct,
		  s.diff_lo, s.diff_hi);
	CHECK(s.diff_hi < 0);
}

static void test_halfwidth(void)
{
	CHECK(isinf(nb_seq_halfwidth(1, 1, 0.10)));
	CHECK(isinf(nb_seq_halfwidth(2, 1, 0.10)));
	CHECK(isfinite(nb_seq_halfwidth(3, 1, 0.10)));
	CHECK(nb_seq_halfwidth(3, 0, 0.10) == 0);
	/* at the same spread per pair, more pairs narrow it, and a smaller alpha widens it */
	for (int n = 3; n < 100; n++)
		CHECK(nb_seq_halfwidth(n + 1, n, 0.10) < nb_seq_halfwidth(n, n - 1, 0.10));
	CHECK(nb_seq_halfwidth(10, 9, 0.01) > nb_seq_halfwidth(10, 9, 0.10));
	CHECK(isinf(nb_seq_halfwidth(5, 1, 0)) && isinf(nb_seq_halfwidth(5, -1, 0.1)));
}

/* xorshift64* and Box-Muller: normal and heavy-tailed (a x1.7 host mode in one round of a pair,
 * a fifth of the time) pairs, reproducible. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 0x2545f4914f6cdd1dULL) >> 11) * 0x1.0p-53;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static double aa_pair(bool heavy)
{
	double x = 0.04 * normal();

	if (heavy && uniform() < 0.2)
		x += uniform() < 0.5 ? log(1.7) : -log(1.7);
	return x;
}

/* Looking after every pair up to 60 must not raise the error above alpha (Ville): A/A sets,
 * a wrong decision is any decided change; the simulated rate stays well below 10%. */
static void test_repeated_looks(void)
{
	for (int heavy = 0; heavy < 2; heavy++) {
		int sets = 2000, wrong = 0;

		for (int s = 0; s < sets; s++) {
			double lr[60], diff[60];
			struct nb_seq_rule rule = { 0.10, 5, false, 0 };

			for (int n = 1; n <= 60; n++) {
				struct nb_seq_metric st;

				lr[n - 1] = aa_pair(heavy);
				diff[n - 1] = 1e9 * (exp(lr[n - 1]) - 1);
				st = nb_seq_decide(lr, diff, n, 1e9, &rule);
				if (st.state == NB_SEQ_UP || st.state == NB_SEQ_DOWN) {
					wrong++;
					break;
				}
				if (st.state == NB_SEQ_UNCHANGED)
					break; /* the loop stops */
			}
		}
		CHECK_MSG(wrong <= sets / 10, "%s A/A: %d of %d sets flagged", heavy ? "heavy-tailed" : "normal", wrong,
			  sets);
	}
}

/* compare --sequential over the recorded rounds: the slowed set decides in 3 pairs, the A/A set
 * never flags. */
static int load_rounds(struct nb_cmp_rounds *r, const char *set, int pairs)
{
	struct nb_err err = { 0 };

	memset(r, 0, sizeof(*r));
	for (int side = 0; side < 2; side++) {
		for (int i = 1; i <= pairs; i++) {
			char rel[64];
			struct nb_cmp_report rep;

			snprintf(rel, sizeof(rel), "compare/rounds/%s-%c%d.json", set, side ? 'B' : 'A', i);
			if (nb_cmp_report_load(nb_test_fixture(rel), &rep, &err) || nb_cmp_rounds_add(r, side, &rep, &err)) {
				fprintf(stderr, "%s\n", err.msg);
				return -1;
			}
		}
	}
	return nb_cmp_rounds_merge(r, &err);
}

static const struct nb_cmp_metric_result *metric(const struct nb_cmp_result *res, const char *name)
{
	for (int i = 0; i < res->points[0].n_metrics; i++) {
		if (!strcmp(res->points[0].metrics[i].name, name))
			return &res->points[0].metrics[i];
	}
	return NULL;
}

static void test_compare_rounds(void)
{
	struct {
		const char *set;
		int pairs;
		enum nb_seq_state throughput;
		enum nb_cmp_verdict verdict;
	} runs[] = {
		{ "slow", 3, NB_SEQ_DOWN, NB_CMP_REGRESSED },
		{ "slow", 5, NB_SEQ_DOWN, NB_CMP_REGRESSED },
		{ "slow", 2, NB_SEQ_UNDECIDED, NB_CMP_INCONCLUSIVE },
		{ "aa", 5, NB_SEQ_UNDECIDED, NB_CMP_INCONCLUSIVE },
		{ "aa", 3, NB_SEQ_UNDECIDED, NB_CMP_INCONCLUSIVE },
	};

	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct nb_cmp_rounds r;
		struct nb_cmp_options opt;
		struct nb_cmp_result res = { 0 };
		struct nb_err err = { 0 };
		const struct nb_cmp_metric_result *m, *cpu;

		CHECK(!load_rounds(&r, runs[i].set, runs[i].pairs));
		nb_cmp_options_init(&opt);
		opt.rounds_paired = r.paired && r.n_paired > 0;
		opt.sequential = true;
		CHECK(!nb_cmp_run(&r.merged[0], &r.merged[1], &opt, &res, &err));
		res.rounds = &r;
		m = metric(&res, "throughput_bps");
		cpu = metric(&res, "cpu_busy_pct");
		CHECK_MSG(m && m->seq.state == runs[i].throughput && m->verdict == runs[i].verdict,
			  "%s %d pairs: state %d verdict %d", runs[i].set, runs[i].pairs, m ? (int)m->seq.state : -1,
			  m ? (int)m->verdict : -1);
		CHECK(m && m->seq.n_pairs == runs[i].pairs);
		/* nothing gated flagged on A/A; an undecided metric says how many more pairs */
		if (!strcmp(runs[i].set, "aa")) {
			CHECK(cpu && cpu->verdict != NB_CMP_REGRESSED && cpu->verdict != NB_CMP_IMPROVED);
			CHECK(m && m->seq.more_pairs > 0);
		}
		CHECK(nb_seq_undecided(&res) == (m && m->seq.state == NB_SEQ_UNDECIDED) +
						    (cpu && cpu->gated && cpu->seq.state == NB_SEQ_UNDECIDED));
		/* without the option, the fixed verdict and no sequential state */
		nb_cmp_result_free(&res);
		opt.sequential = false;
		CHECK(!nb_cmp_run(&r.merged[0], &r.merged[1], &opt, &res, &err));
		m = metric(&res, "throughput_bps");
		CHECK(m && m->seq.state == NB_SEQ_NONE);
		nb_cmp_result_free(&res);
		nb_cmp_rounds_free(&r);
	}
}

/* --alpha-split: k gated metrics judged sequentially each get alpha / k, so that the gate as a whole
 * errs at alpha. On the recorded slowed set the default gate holds throughput_bps and cpu_busy_pct
 * (tcp-rx): each is judged at 0.05, its sequence wider than at 0.10, and the verdict still decided. */
static void test_alpha_split(void)
{
	struct nb_cmp_rounds r;
	struct nb_cmp_options opt;
	struct nb_cmp_result plain = { 0 }, split = { 0 };
	struct nb_err err = { 0 };
	const struct nb_cmp_metric_result *mp, *ms;

	CHECK(!load_rounds(&r, "slow", 5));
	nb_cmp_options_init(&opt);
	opt.rounds_paired = r.paired && r.n_paired > 0;
	opt.sequential = true;
	CHECK(!nb_cmp_run(&r.merged[0], &r.merged[1], &opt, &plain, &err));
	opt.alpha_split = true;
	CHECK(!nb_cmp_run(&r.merged[0], &r.merged[1], &opt, &split, &err));
	CHECK_MSG(plain.seq_gated == 2 && plain.seq_alpha == 0.10, "plain: %d gated at %g", plain.seq_gated,
		  plain.seq_alpha);
	CHECK_MSG(split.seq_gated == 2 && fabs(split.seq_alpha - 0.05) < 1e-12, "split: %d gated at %g",
		  split.seq_gated, split.seq_alpha);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "cpu_busy_pct" : "throughput_bps";

		mp = metric(&plain, name);
		ms = metric(&split, name);
		CHECK_MSG(mp && ms && mp->gated && ms->gated && mp->seq.bounded && ms->seq.bounded, "%s", name);
		if (!mp || !ms)
			continue;
		CHECK_MSG(ms->seq.lo_pct < mp->seq.lo_pct && ms->seq.hi_pct > mp->seq.hi_pct,
			  "%s: split %.2f..%.2f%% should contain plain %.2f..%.2f%%", name, ms->seq.lo_pct,
			  ms->seq.hi_pct, mp->seq.lo_pct, mp->seq.hi_pct);
	}
	ms = metric(&split, "throughput_bps");
	CHECK(ms && ms->seq.state == NB_SEQ_DOWN && ms->verdict == NB_CMP_REGRESSED);
	/* a metric that is not gated stays out of the count and keeps its own alpha's interval */
	mp = metric(&plain, NB_M_BITS_PER_CPU_SECOND);
	CHECK(!mp || !mp->gated);
	nb_cmp_result_free(&plain);
	nb_cmp_result_free(&split);

	/* ab's defaults: the headline (here throughput_bps) and the kernel's CPU per packet, which these
	 * older reports lack: one gated metric, judged at the whole alpha */
	nb_cmp_options_ab_init(&opt);
	opt.rounds_paired = r.paired && r.n_paired > 0;
	CHECK(opt.sequential && opt.alpha_split && opt.n_gate == 3);
	CHECK(!strcmp(opt.gate[2].metric, NB_M_KERNEL_CPU_NS_PER_PACKET));
	CHECK(!nb_cmp_run(&r.merged[0], &r.merged[1], &opt, &split, &err));
	CHECK_MSG(split.seq_gated == 1 && split.seq_alpha == opt.alpha, "ab: %d gated at %g", split.seq_gated,
		  split.seq_alpha);
	ms = metric(&split, "cpu_busy_pct");
	CHECK(ms && !ms->gated);
	ms = metric(&split, "throughput_bps");
	CHECK(ms && ms->gated && ms->verdict == NB_CMP_REGRESSED);
	nb_cmp_result_free(&split);
	nb_cmp_rounds_free(&r);
}

/* Two gated metrics of A/A pairs with no minimum effect (any decided change is wrong), looked at
 * after every pair: each at alpha, the gate errs more often than with alpha split between them,
 * which stays below alpha (simulated; the mixture's bound is loose, so both are below 10%). */
static void test_split_family_rate(void)
{
	int sets = 1000, wrong[2] = { 0, 0 };

	rng_state = 0x1234567887654321ULL;
	for (int s = 0; s < sets; s++) {
		double lr[2][30], diff[2][30];
		bool flagged[2] = { false, false };

		for (int n = 1; n <= 30; n++) {
			for (int k = 0; k < 2; k++) {
				lr[k][n - 1] = aa_pair(false);
				diff[k][n - 1] = 1e9 * (exp(lr[k][n - 1]) - 1);
			}
			for (int split = 0; split < 2; split++) {
				struct nb_seq_rule rule = { split ? 0.05 : 0.10, 0, false, 0 };

				for (int k = 0; k < 2 && !flagged[split]; k++) {
					struct nb_seq_metric st = nb_seq_decide(lr[k], diff[k], n, 1e9, &rule);

					flagged[split] = st.state == NB_SEQ_UP || st.state == NB_SEQ_DOWN;
				}
			}
		}
		wrong[0] += flagged[0];
		wrong[1] += flagged[1];
	}
	CHECK_MSG(wrong[1] <= wrong[0] && wrong[1] <= sets / 10, "family error: %d of %d at alpha each, %d split",
		  wrong[0], sets, wrong[1]);
	printf("ok: two A/A metrics over 30 looks: %d of %d sets flagged at alpha each, %d with alpha split\n",
	       wrong[0], sets, wrong[1]);
}

int main(void)
{
	test_halfwidth();
	test_cases();
	test_differences_only();
	test_swinging_base();
	test_repeated_looks();
	test_compare_rounds();
	test_alpha_split();
	test_split_family_rate();
	return nb_test_done("test_sequential");
}
