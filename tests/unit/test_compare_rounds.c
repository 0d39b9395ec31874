// SPDX-License-Identifier: MIT
/* compare over rounds on recorded series (tests/fixtures/compare/rounds, record.sh made them on
 * the veth bed): an A/A set, the same set with a host mode on whole pairs or on one round, and
 * a set whose B rounds ran under a 60% rate limit. Plus the pairing's edges and the statistic. */
#include <errno.h>

#include "compare/compare.h"
#include "compare/compare_rounds.h"
#include "compare/compare_stats.h"
#include "nb_test.h"

#define ROUNDS 5

/* The host's fast mode (bench/host-modes: 9.2 -> 15 Gbit/s, about x1.6) on one report. */
#define HOST_MODE 1.6

static void scale_throughput(struct nb_cmp_report *rep, double factor)
{
	for (int p = 0; p < rep->n_points; p++) {
		struct nb_cmp_point *pt = &rep->points[p];

		for (int i = 0; i < pt->n_metrics; i++) {
			struct nb_cmp_samples *s = &pt->metrics[i];

			if (strcmp(s->name, "throughput_bps"))
				continue;
			s->median *= factor;
			for (int v = 0; v < s->n; v++)
				s->values[v] *= factor;
		}
		for (int v = 0; v < pt->n_pairs; v++)
			pt->pair_throughput_bps[v] *= factor;
	}
}

/* Load set SET's rounds (SET-A1.json ...), side B without round `skip_b` (0: none), with factor
 * on A's and B's round i (mode_a[i], mode_b[i]; NULL: none). */
static int load_set(struct nb_cmp_rounds *r, const char *set, int skip_b, const double *mode_a, const double *mode_b)
{
	struct nb_err err = { 0 };

	memset(r, 0, sizeof(*r));
	for (int side = 0; side < 2; side++) {
		for (int i = 1; i <= ROUNDS; i++) {
			char rel[64];
			struct nb_cmp_report rep;
			const double *mode = side ? mode_b : mode_a;

			if (side == NB_CMP_SIDE_B && i == skip_b)
				continue;
			snprintf(rel, sizeof(rel), "compare/rounds/%s-%c%d.json", set, side ? 'B' : 'A', i);
			if (nb_cmp_report_load(nb_test_fixture(rel), &rep, &err)) {
				fprintf(stderr, "%s\n", err.msg);
				return -1;
			}
			if (mode)
				scale_throughput(&rep, mode[i - 1]);
			if (nb_cmp_rounds_add(r, side, &rep, &err))
				return -1;
		}
	}
	return 0;
}

static const struct nb_cmp_metric_result *metric(const struct nb_cmp_result *res, const char *name)
{
	for (int i = 0; i < res->points[0].n_metrics; i++) {
		if (!strcmp(res->points[0].metrics[i].name, name))
			return &res->points[0].metrics[i];
	}
	return NULL;
}

static bool flagged(const struct nb_cmp_metric_result *m)
{
	return m->gated && (m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_IMPROVED);
}

/* Merge and compare; returns the tcp-rx throughput result or NULL. */
static const struct nb_cmp_metric_result *compare_set(struct nb_cmp_rounds *r, struct nb_cmp_options *opt,
						      struct nb_cmp_result *res)
{
	struct nb_err err = { 0 };

	nb_cmp_options_init(opt);
	memset(res, 0, sizeof(*res));
	if (nb_cmp_rounds_merge(r, &err)) {
		fprintf(stderr, "merge: %s\n", err.msg);
		return NULL;
	}
	opt->rounds_paired = r->paired && r->n_paired > 0;
	if (nb_cmp_run(&r->merged[0], &r->merged[1], opt, res, &err)) {
		fprintf(stderr, "run: %s\n", err.msg);
		return NULL;
	}
	res->rounds = r;
	return metric(res, "throughput_bps");
}

static void test_statistic(void)
{
	double down[5] = { -0.5, -0.6, -0.55, -0.52, -0.58 }, mixed[5] = { -0.1, 0.1, -0.05, 0.04, 0.01 };

	CHECK(nb_stats_sign_ci_rank(5, 0.10) == 1);
	CHECK(nb_stats_sign_ci_rank(4, 0.10) == 0);
	CHECK(nb_stats_sign_ci_rank(8, 0.10) == 2);  /* 1 - 2 * 9/256 = 0.93 */
	CHECK(nb_stats_sign_min_pairs(0.10) == 5);
	CHECK(nb_stats_sign_min_pairs(0.05) == 6);
	/* all five pairs one way: 2 of the 32 sign patterns are as extreme */
	CHECK_NEAR(nb_stats_sign_flip_p(down, 5), 2.0 / 32, 1e-12);
	CHECK_NEAR(nb_stats_sign_flip_p(mixed, 5), 1.0, 1e-12); /* sums to 0: every pattern is as far */
	CHECK_NEAR(nb_stats_sign_flip_p(down, 0), 1.0, 0);
}

static void test_aa_and_host_modes(void)
{
	const double pairs_mode[ROUNDS] = { 1, HOST_MODE, 1, HOST_MODE, 1 };
	const double one_round[ROUNDS] = { 1, HOST_MODE, 1, 1, 1 };
	struct nb_cmp_rounds r;
	struct nb_cmp_options opt;
	struct nb_cmp_result res;
	const struct nb_cmp_metric_result *m;
	double aa_change = NAN;

	CHECK(!load_set(&r, "aa", 0, NULL, NULL));
	m = compare_set(&r, &opt, &res);
	CHECK(m && m->gated && !flagged(m) && m->n_pairs == ROUNDS);
	CHECK(r.paired && r.n_paired == ROUNDS && r.n_notes == 0);
	CHECK(nb_cmp_exit_status(&res, false) == NB_CMP_EXIT_OK);
	if (m)
		aa_change = m->change_pct;
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);

	/* a mode that shifts both rounds of a pair cancels in the pair's ratio: the same change */
	CHECK(!load_set(&r, "aa", 0, pairs_mode, pairs_mode));
	m = compare_set(&r, &opt, &res);
	CHECK(m && !flagged(m));
	CHECK(m && fabs(m->change_pct - aa_change) < 1e-6);
	/* the sides' medians took the mode in: pooled, the shifted rounds are most of the spread */
	CHECK(m && m->base > 1.05 * 14e9);
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);

	/* a mode that lasts one round (B2 alone, x1.6) is one pair of five: no flag */
	CHECK(!load_set(&r, "aa", 0, NULL, one_round));
	m = compare_set(&r, &opt, &res);
	CHECK(m && !flagged(m));
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);
}

static void test_slowdown(void)
{
	const double a_fast[ROUNDS] = { HOST_MODE, 1, HOST_MODE, 1, 1 };
	struct nb_cmp_rounds r;
	struct nb_cmp_options opt;
	struct nb_cmp_result res;
	const struct nb_cmp_metric_result *m;

	/* B slower in every pair (the rate limit): regressed, exit 1 */
	CHECK(!load_set(&r, "slow", 0, NULL, NULL));
	m = compare_set(&r, &opt, &res);
	CHECK(m && m->verdict == NB_CMP_REGRESSED && m->has_ci && m->ci_hi_pct < -20);
	CHECK(nb_cmp_exit_status(&res, false) == NB_CMP_EXIT_FAIL);
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);

	/* A's rounds in the fast mode twice: B is still slower in every pair */
	CHECK(!load_set(&r, "slow", 0, a_fast, NULL));
	m = compare_set(&r, &opt, &res);
	CHECK(m && m->verdict == NB_CMP_REGRESSED);
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);

	/* B5 lost: A5 stays unpaired, with a note; 4 pairs cannot reach 90%, so no verdict, exit 0 */
	CHECK(!load_set(&r, "slow", 5, NULL, NULL));
	m = compare_set(&r, &opt, &res);
	CHECK(r.paired && r.n_paired == 4 && r.n_notes == 1);
	CHECK_MSG(r.n_notes > 0 && strstr(r.notes[0], "round A 5") && strstr(r.notes[0], "unpaired"), "%s",
		  r.n_notes ? r.notes[0] : "(no note)");
	CHECK(m && m->verdict == NB_CMP_INCONCLUSIVE && m->reason == NB_CMP_REASON_FEW_PAIRS && m->n_pairs == 4);
	CHECK(m && m->n_base == 5 && m->n_new == 4);
	CHECK(nb_cmp_exit_status(&res, false) == NB_CMP_EXIT_OK);
	CHECK(nb_cmp_exit_status(&res, true) == NB_CMP_EXIT_UNDECIDED);
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);
}

static void test_bad_sets(void)
{
	struct nb_cmp_rounds r;
	struct nb_err err = { 0 };
	struct nb_cmp_options opt;
	struct nb_cmp_result res;

	/* a report of side B before '--' */
	CHECK(!load_set(&r, "aa", 0, NULL, NULL));
	r.reports[NB_CMP_SIDE_A][0].round.side = 'B';
	CHECK(nb_cmp_rounds_merge(&r, &err) == -EINVAL && strstr(err.msg, "stands before '--'"));
	nb_cmp_rounds_free(&r);

	/* round A 2 twice */
	CHECK(!load_set(&r, "aa", 0, NULL, NULL));
	r.reports[NB_CMP_SIDE_A][0].round.index = 2;
	CHECK(nb_cmp_rounds_merge(&r, &err) == -EINVAL && strstr(err.msg, "are both round A 2"));
	nb_cmp_rounds_free(&r);

	/* a report without a round: nothing pairs, each round's medians are one sample (Mann-Whitney) */
	CHECK(!load_set(&r, "slow", 0, NULL, NULL));
	r.reports[NB_CMP_SIDE_B][2].round.present = false;
	const struct nb_cmp_metric_result *m = compare_set(&r, &opt, &res);

	CHECK(!r.paired && !opt.rounds_paired && r.n_notes == 1 && strstr(r.notes[0], "names no round"));
	CHECK(m && m->n_pairs == 0 && m->n_base == 5 && m->n_new == 5);
	nb_cmp_result_free(&res);
	nb_cmp_rounds_free(&r);

	/* no report after '--' */
	memset(&r, 0, sizeof(r));
	CHECK(nb_cmp_rounds_merge(&r, &err) == -EINVAL && strstr(err.msg, "no report before '--'"));
	nb_cmp_rounds_free(&r);
}

/* Profiles put on the recorded A/A set's rounds: a lock's share falls by 5-7 points in every
 * pair, a symbol only B has takes 3%, and one jitters by a point either way. */
static void test_round_movers(void)
{
	static const double lock_a[ROUNDS] = { 47, 46, 48, 47, 47 }, lock_b[ROUNDS] = { 41, 40, 41, 42, 40 };
	static const double jit_a[ROUNDS] = { 5, 5, 5, 5, 5 }, jit_b[ROUNDS] = { 6, 4, 6, 4, 7 };
	static struct nb_cmp_profile_entry prof[2][ROUNDS][3];
	struct nb_cmp_rounds r;
	struct nb_cmp_options opt;
	struct nb_cmp_result res;
	const struct nb_cmp_point_result *pr;

	if (load_set(&r, "aa", 0, NULL, NULL))
		return;
	for (int side = 0; side < 2; side++) {
		for (int i = 0; i < r.n[side]; i++) {
			struct nb_cmp_point *pt = &r.reports[side][i].points[0];
			int k = r.reports[side][i].round.index - 1;
			struct nb_cmp_profile_entry *e = prof[side][k];

			e[0] = (struct nb_cmp_profile_entry){ "_raw_spin_unlock_irqrestore", side ? lock_b[k] : lock_a[k] };
			e[1] = (struct nb_cmp_profile_entry){ "jitter", side ? jit_b[k] : jit_a[k] };
			e[2] = (struct nb_cmp_profile_entry){ "page_pool_alloc_pages", 3 };
			pt->profile = e;
			pt->n_profile = side ? 3 : 2;
		}
	}
	if (!compare_set(&r, &opt, &res))
		goto out;
	nb_cmp_rounds_movers(&res, &r);
	pr = &res.points[0];
	CHECK_MSG(pr->n_movers == 2, "%d movers", pr->n_movers);
	if (pr->n_movers == 2) {
		CHECK_STR(pr->movers[0].symbol, "_raw_spin_unlock_irqrestore");
		CHECK(pr->movers[0].n_pairs == ROUNDS);
		CHECK_NEAR(pr->movers[0].base_share_pct, 47, 1e-9);
		CHECK_NEAR(pr->movers[0].new_share_pct, 41, 1e-9);
		CHECK_NEAR(pr->movers[0].change_pts, -6, 1e-9);
		CHECK_NEAR(pr->movers[0].change_lo_pts, -7, 1e-9);
		CHECK_NEAR(pr->movers[0].change_hi_pts, -5, 1e-9);
		CHECK_STR(pr->movers[1].symbol, "page_pool_alloc_pages");
		CHECK_NEAR(pr->movers[1].change_pts, 3, 1e-9);
	}
	nb_cmp_result_free(&res);
out:
	nb_cmp_rounds_free(&r);
}

int main(void)
{
	test_round_movers();
	test_statistic();
	test_aa_and_host_modes();
	test_slowdown();
	test_bad_sets();
	return nb_test_done("compare_rounds");
}
