// SPDX-License-Identifier: MIT
/* The stopping rule of --repetitions auto on recorded series, the median's interval, a point's
 * precision from its runs' JSON, round orders, and the repetitions settings. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/adaptive.h"
#include "kit/stats.h"
#include "config/config.h"
#include "nb_test.h"
#include "config/plan.h"
#include "report/report.h"
#include "report/report_precision.h"
#include "run/rounds.h"

static void test_median_ci(void)
{
	static const double three[] = { 10, 11, 12 };
	static const double same[] = { 5, 5, 5, 5 };
	double lo, hi;

	/* s = 1, n = 3: t(0.95, 2) 2.920 x sqrt(1.346) / sqrt(3) = 1.956 (sqrt(pi / 2) would give 2.113) */
	CHECK(nb_stats_median_ci(three, 3, 0.10, &lo, &hi));
	CHECK_NEAR(lo, 11 - 1.956, 0.01);
	CHECK_NEAR(hi, 11 + 1.956, 0.01);
	/* t(0.975, 2) = 4.303: a 95% interval is wider */
	CHECK(nb_stats_median_ci(three, 3, 0.05, &lo, &hi));
	/* the t approximation is within 1% at 2 degrees of freedom and 95% */
	CHECK_NEAR(hi - 11, 4.303 * 1.1602 / 1.7321, 0.03);
	CHECK(nb_stats_median_ci(same, 4, 0.10, &lo, &hi) && lo == 5 && hi == 5);
	CHECK(!nb_stats_median_ci(three, 1, 0.10, &lo, &hi));
}

/* Normal values from splitmix64 and Box-Muller: a fixed seed, so the check is repeatable. */
static double normal_draw(uint64_t *state)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		u[i] = ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* The small-sample factor of the median's standard error against simulation: n Var(median)
 * of normal samples matches the table (and not pi/2, which overstates it most at even n), and
 * the 90% interval built on it covers the true median about 90% of the time, where pi/2 made
 * it cover more and so stop later than the precision asked for. */
static void test_median_se_factor(void)
{
	static const int sizes[] = { 3, 4, 5, 10, 20 };
	uint64_t state = 17;

	CHECK(isnan(nb_stats_median_se_factor(1)));
	CHECK_NEAR(nb_stats_median_se_factor(2), 1.0, 1e-9);  /* two values: the median is the mean */
	CHECK_NEAR(nb_stats_median_se_factor(40), sqrt(M_PI / 2), 1e-9);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int n = sizes[k], draws = 20000, covered = 0, covered_pi2 = 0, computed = 0;
		double sq = 0, v[20], factor = nb_stats_median_se_factor(n), lo, hi;

		for (int d = 0; d < draws; d++) {
			for (int i = 0; i < n; i++)
				v[i] = normal_draw(&state);
			double m = nb_stats_median(v, n);

			sq += m * m;
			computed += nb_stats_median_ci(v, n, 0.10, &lo, &hi);
			covered += lo <= 0 && 0 <= hi;
			covered_pi2 += fabs(m) <= (hi - lo) / 2 * sqrt(M_PI / 2) / factor;
		}
		CHECK(computed == draws);
		/* 20000 draws: the variance is known to ~1%, so 4% tells the table from a wrong one */
		CHECK_MSG(fabs(n * sq / draws / (factor * factor) - 1) < 0.04, "n %d: n Var(median) %.4f, table %.4f", n,
			  n * sq / draws, factor * factor);
		CHECK_MSG(fabs((double)covered / draws - 0.905) < 0.025, "n %d: the 90%% interval covered %.3f", n,
			  (double)covered / draws);
		/* measured at 4 runs: 0.909 with the table, 0.934 with pi/2 */
		if (n == 4)
			CHECK_MSG(covered_pi2 - covered > draws / 67, "n 4: pi/2 covered %.3f, the table %.3f",
				  (double)covered_pi2 / draws, (double)covered / draws);
	}
}

/* Replay one recorded series a run at a time: the runs the rule takes and its last state. */
static int replay(const struct nb_adaptive_rule *rule, const double *series, int n, enum nb_adaptive_state *state)
{
	struct nb_adaptive_interval iv;

	for (int taken = 1; taken <= n; taken++) {
		nb_adaptive_interval("throughput_bps", series, taken, rule->precision_pct, &iv);
		*state = nb_adaptive_decide(rule, taken, &iv, 1);
		if (*state != NB_ADAPTIVE_MORE)
			return taken;
	}
	return n;
}

/* The veth test bed's recorded sweep (tests/fixtures/report/veth-sweep.json, 3 runs a point):
 * at 2% no point is known after its 3 runs (the test bed's noise is 2-40%), at 40% the quiet
 * ones are, and the rule's answer matches the interval computed from the report's values. */
static void test_rule_on_recorded_sweep(void)
{
	json_error_t jerr;
	json_t *report = json_load_file(nb_test_fixture("report/veth-sweep.json"), 0, &jerr);
	struct nb_adaptive_rule strict = { 3, 10, 2.0 }, loose = { 3, 10, 40.0 };
	int points = 0, known_loose = 0;
	size_t i;
	json_t *point;

	CHECK_MSG(report != NULL, "veth-sweep.json: %s", jerr.text);
	if (!report)
		return;
	json_array_foreach(json_object_get(report, "results"), i, point) {
		json_t *values = json_object_get(json_object_get(json_object_get(point, "metrics"), "throughput_bps"),
						 "values");
		double series[NB_MAX_REPETITIONS];
		enum nb_adaptive_state state;
		struct nb_adaptive_interval iv;
		int n = 0, taken;

		for (size_t k = 0; k < json_array_size(values) && n < NB_MAX_REPETITIONS; k++)
			series[n++] = json_number_value(json_array_get(values, k));
		if (n != 3)
			continue;
		points++;
		taken = replay(&strict, series, n, &state);
		CHECK_MSG(state == NB_ADAPTIVE_MORE && taken == 3, "%s: %s after %d runs at 2%%",
			  json_string_value(json_object_get(point, "id")), nb_adaptive_state_name(state), taken);
		nb_adaptive_interval("throughput_bps", series, n, loose.precision_pct, &iv);
		taken = replay(&loose, series, n, &state);
		CHECK(state == (iv.met ? NB_ADAPTIVE_PRECISE : NB_ADAPTIVE_MORE));
		CHECK(iv.lo < iv.median && iv.median < iv.hi);
		known_loose += state == NB_ADAPTIVE_PRECISE;
	}
	CHECK_MSG(points == 16, "%d points with 3 runs", points);
	/* the fixture has both kinds at 40%: quiet points (tcp-tx at threaded=0, 4-5% spread) and
	 * noisy ones (udp-rx 589 -> 1109 Mbit/s) */
	CHECK_MSG(known_loose > 0 && known_loose < points, "%d of %d known at 40%%", known_loose, points);
	json_decref(report);
}

/* Constructed series at the test bed's scale (tcp-rx, Mbit/s): a flat one, as behind a rate
 * limit, stops at the minimum; one swinging by +-8% (starting with veth-sweep.json's tcp-rx runs)
 * runs to the maximum. */
static void test_rule_stops(void)
{
	static const double limited[] = { 3497.1, 3501.9, 3499.4, 3498.8 };
	static const double drifting[] = { 4441.5, 4664.1, 4374.3, 4820.0, 4101.7, 4590.2, 4233.8, 4711.9, 4388.0, 4602.4 };
	struct nb_adaptive_rule rule = { 3, 10, 2.0 };
	enum nb_adaptive_state state;
	struct nb_adaptive_interval iv[2];

	CHECK(replay(&rule, limited, 4, &state) == 3 && state == NB_ADAPTIVE_PRECISE);
	CHECK(replay(&rule, drifting, 10, &state) == 10 && state == NB_ADAPTIVE_EXHAUSTED);
	/* below the minimum nothing stops, however flat */
	rule.min_runs = 4;
	CHECK(replay(&rule, limited, 4, &state) == 4 && state == NB_ADAPTIVE_PRECISE);
	/* two watched metrics: both must be met; a metric no run had is not watched */
	rule.min_runs = 3;
	nb_adaptive_interval("throughput_bps", limited, 3, 2.0, &iv[0]);
	nb_adaptive_interval("cpu_busy_pct", drifting, 3, 2.0, &iv[1]);
	CHECK(nb_adaptive_decide(&rule, 3, iv, 2) == NB_ADAPTIVE_MORE);
	nb_adaptive_interval("cpu_busy_pct", NULL, 0, 2.0, &iv[1]);
	CHECK(nb_adaptive_decide(&rule, 3, iv, 2) == NB_ADAPTIVE_PRECISE);
	/* disturbed or failed runs count against the maximum but are no data: 3 clean of 10 taken */
	CHECK(nb_adaptive_decide(&rule, 10, iv, 1) == NB_ADAPTIVE_PRECISE);
	nb_adaptive_interval("throughput_bps", limited, 2, 2.0, &iv[0]);
	CHECK(nb_adaptive_decide(&rule, 10, iv, 1) == NB_ADAPTIVE_EXHAUSTED);
	CHECK(nb_adaptive_decide(&rule, 9, iv, 1) == NB_ADAPTIVE_MORE);
	/* a zero median has no relative interval */
	nb_adaptive_interval("throughput_bps", (const double[]){ 0, 0, 0 }, 3, 2.0, &iv[0]);
	CHECK(!iv[0].met && iv[0].half_width_pct > 1e300);
}

/* tcp-rx on the veth test bed (2 vCPUs, Mbit/s, 1 s runs, clean: no foreign load), recorded
 * for issue 17: runs of one setting spread by 10-17% (the connection's placement on the two
 * CPUs, run to run; 3 s runs and two streams spread as much). Auto's 2% is out of reach even
 * at 10 runs (+-7-12%), so it runs to the maximum. At 10% three stop at 3 runs and the widest
 * (17%) runs to 10; the last one stops at 3 because its first three agree within 4%, though
 * its 10 runs give +-10%: the price of stopping after few runs. */
static void test_rule_on_veth_series(void)
{
	static const double series[][10] = {
		{ 6417.6, 6686.7, 6060.1, 5236.4, 6336.2, 7035.3, 6498.1, 7631, 5846.4, 7058.4 },
		{ 5855.2, 6043.2, 6097.6, 6756.7, 6328.4, 7431.6, 6047.1, 6810.7, 6192.7, 4884.8 },
		{ 6161.4, 4656.9, 6475.3, 6768.5, 6288.6, 4622.3, 6658.3, 8084, 7416.8, 5696.4 },
		{ 5684.5, 5760, 5579.2, 5789.5, 5410.5, 6243.3, 6395.1, 6279.9, 8152.8, 5081.8 },
	};
	static const int runs_at_10[] = { 3, 3, 10, 3 };
	struct nb_adaptive_rule strict = { 3, 10, 2.0 }, reachable = { 3, 10, 10.0 };
	enum nb_adaptive_state state;
	struct nb_adaptive_interval iv;

	for (size_t i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		int taken = replay(&strict, series[i], 10, &state);

		nb_adaptive_interval("throughput_bps", series[i], 10, 2.0, &iv);
		CHECK_MSG(taken == 10 && state == NB_ADAPTIVE_EXHAUSTED && iv.half_width_pct > 4,
			  "series %zu: %s after %d runs at 2%%, +-%.1f%% at 10", i, nb_adaptive_state_name(state), taken,
			  iv.half_width_pct);
		taken = replay(&reachable, series[i], 10, &state);
		CHECK_MSG(taken == runs_at_10[i] && (state == NB_ADAPTIVE_PRECISE) == (taken < 10),
			  "series %zu: %s after %d runs at 10%%", i, nb_adaptive_state_name(state), taken);
	}
}

static void test_precision_json(void)
{
	json_t *config = json_pack("{s:s, s:f}", "repetitions", "auto:3-6", "precision", 2.0);
	json_t *runs = json_loads("[{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":3497e6,\"cpu_busy_pct\":50}},"
				  "{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":1000e6,\"cpu_busy_pct\":90},"
				  "\"disturbed\":true},"
				  "{\"status\":\"failed\",\"error\":\"x\",\"metrics\":{}},"
				  "{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":3501e6,\"cpu_busy_pct\":50.2}},"
				  "{\"status\":\"ok\",\"metrics\":{\"throughput_bps\":3499e6,\"cpu_busy_pct\":50.1}}]",
				  0, NULL);
	struct nb_precision_summary sum;
	json_t *p = nb_report_precision_json(runs, "rx", config, &sum);

	CHECK(sum.runs == 5 && sum.clean == 3 && sum.met);
	CHECK(json_is_true(json_object_get(p, "auto")));
	CHECK(json_integer_value(json_object_get(p, "min_runs")) == 3);
	CHECK(json_integer_value(json_object_get(p, "max_runs")) == 6);
	CHECK(json_integer_value(json_object_get(json_object_get(json_object_get(p, "intervals"), "cpu_busy_pct"), "n")) == 3);
	CHECK_STR(sum.worst_metric, "cpu_busy_pct");
	json_decref(p);
	/* fixed repetitions: the same figures, the rule min = max = N */
	json_object_set_new(config, "repetitions", json_integer(5));
	p = nb_report_precision_json(runs, "tx", config, &sum);
	CHECK(!json_is_true(json_object_get(p, "auto")) && json_integer_value(json_object_get(p, "min_runs")) == 5);
	CHECK(!sum.met); /* 3 clean runs of the 5 asked for */
	CHECK(json_object_get(json_object_get(p, "intervals"), "cpu_busy_pct") == NULL);
	json_decref(p);
	json_decref(runs);
	json_decref(config);
}

static void test_rounds(void)
{
	struct nb_rounds a, b;
	int oa[7], ob[7], seen[7] = { 0 }, differs = 0;

	nb_rounds_init(&a, false, 0);
	nb_rounds_next_order(&a, 7, oa);
	for (int i = 0; i < 7; i++)
		CHECK(oa[i] == i);
	nb_rounds_init(&a, true, 7);
	nb_rounds_init(&b, true, 7);
	for (int r = 0; r < 5; r++) {
		nb_rounds_next_order(&a, 7, oa);
		nb_rounds_next_order(&b, 7, ob);
		CHECK(memcmp(oa, ob, sizeof(oa)) == 0);
		for (int i = 0; i < 7; i++) {
			seen[oa[i]]++;
			differs += oa[i] != i;
		}
	}
	for (int i = 0; i < 7; i++)
		CHECK(seen[i] == 5);
	CHECK(differs > 0);
}

struct reps_case {
	const char *text;
	int rc, min, max;
	bool is_auto;
};

static void test_repetitions_setting(void)
{
	static const struct reps_case cases[] = {
		{ "5", 0, 0, 5, false },
		{ "auto", 0, NB_AUTO_REPS_MIN, NB_AUTO_REPS_MAX, true },
		{ "auto:2-4", 0, 2, 4, true },
		{ "auto:4-4", 0, 4, 4, true },
		{ "auto:5-2", -EINVAL, 0, 0, false },
		{ "auto:0-3", -EINVAL, 0, 0, false },
		{ "auto:3-101", -EINVAL, 0, 0, false },
		{ "auto:3-", -EINVAL, 0, 0, false },
		{ "auto:3-4x", -EINVAL, 0, 0, false },
		{ "autox", -EINVAL, 0, 0, false },
		{ "0", -EINVAL, 0, 0, false },
		{ "", -EINVAL, 0, 0, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_config *cfg = calloc(1, sizeof(*cfg));
		struct nb_err err = { 0 };
		int rc;

		nb_config_defaults(cfg);
		rc = nb_config_set_repetitions(cfg, cases[i].text, &err);
		CHECK_MSG(rc == cases[i].rc, "'%s': rc %d (%s)", cases[i].text, rc, err.msg);
		if (rc == 0) {
			CHECK(cfg->reps_auto == cases[i].is_auto && cfg->repetitions == cases[i].max);
			CHECK(!cfg->reps_auto || cfg->reps_min == cases[i].min);
		} else {
			CHECK_MSG(strstr(err.msg, cases[i].text) && strstr(err.msg, "auto"), "'%s': %s", cases[i].text, err.msg);
		}
		free(cfg);
	}
}

/* The config file takes what the flags take, and the report's effective config writes the
 * same keys back. */
static void test_config_file_round_trip(void)
{
	static const char text[] = "{\"interface\": \"eth0\", \"peer\": \"192.0.2.1\", \"repetitions\": \"auto:2-7\","
				   " \"precision\": 1.5, \"shuffle\": 42}";
	struct nb_config *cfg = calloc(1, sizeof(*cfg)), *back = calloc(1, sizeof(*back));
	char path[] = "/tmp/nb-test-adaptive-XXXXXX";
	struct nb_err err = { 0 };
	int fd = mkstemp(path);
	char *json;
	FILE *f;

	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	nb_config_defaults(cfg);
	CHECK_MSG(nb_config_load_file(cfg, path, &err) == 0, "%s", err.msg);
	CHECK(cfg->reps_auto && cfg->reps_min == 2 && cfg->repetitions == 7 && cfg->precision_pct == 1.5);
	CHECK(cfg->interleave && cfg->shuffle && cfg->shuffle_seed == 42);
	CHECK(nb_config_validate(cfg, &err) == 0);
	json = nb_config_to_json(cfg);
	{
		json_t *eff = json_loads(json, 0, NULL), *mine = json_object();
		static const char *const keys[] = { "repetitions", "precision", "interleave", "shuffle" };

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			json_object_set(mine, keys[k], json_object_get(eff, keys[k]));
		CHECK(json_dump_file(mine, path, 0) == 0);
		json_decref(mine);
		json_decref(eff);
	}
	free(json);
	nb_config_defaults(back);
	CHECK_MSG(nb_config_load_file(back, path, &err) == 0, "effective config: %s", err.msg);
	CHECK(back->reps_auto && back->reps_min == 2 && back->repetitions == 7 && back->precision_pct == 1.5);
	CHECK(back->interleave && back->shuffle_seed == 42);
	/* bad values name the key and say why */
	f = fopen(path, "w");
	fputs("{\"repetitions\": \"auto:9-3\"}", f);
	fclose(f);
	CHECK(nb_config_load_file(back, path, &err) == -EINVAL && strstr(err.msg, "\"repetitions\"") &&
	      strstr(err.msg, "MIN <= MAX"));
	f = fopen(path, "w");
	fputs("{\"precision\": 0}", f);
	fclose(f);
	CHECK(nb_config_load_file(back, path, &err) == -EINVAL && strstr(err.msg, "\"precision\""));
	/* a seed with "interleave": false contradicts itself, in either key order (the later key
	 * used to win: shuffle then false ran in plan order, without a word) */
	for (int order = 0; order < 2; order++) {
		f = fopen(path, "w");
		fputs(order ? "{\"interleave\": false, \"shuffle\": 7}" : "{\"shuffle\": 7, \"interleave\": false}", f);
		fclose(f);
		nb_config_defaults(back);
		CHECK_MSG(nb_config_load_file(back, path, &err) == -EINVAL && strstr(err.msg, "\"shuffle\"") &&
			  strstr(err.msg, "interleave"), "order %d: %s", order, err.msg);
	}
	f = fopen(path, "w");
	fputs("{\"interleave\": true, \"shuffle\": 7}", f);
	fclose(f);
	nb_config_defaults(back);
	CHECK(nb_config_load_file(back, path, &err) == 0 && back->interleave && back->shuffle_seed == 7);
	unlink(path);
	free(cfg);
	free(back);
}

static void put_run(struct nb_run_record *run, double tput, double other)
{
	memset(run, 0, sizeof(*run));
	run->status = NB_RUN_OK;
	nb_metrics_put(&run->metrics, "throughput_bps", tput);
	nb_metrics_put(&run->metrics, "cpu_busy_pct", 50);
	nb_metrics_put(&run->metrics, "cpu_other_pct", other);
}

/* Interleaved rounds keep both points open in the run record: runs alternate, a round line
 * goes between, one point ends and the other is cut short. The report has each point's runs,
 * in plan order, the rounds, the precision, and a disturbed run left out of the metrics. */
static void test_interleaved_record(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_host_info host = { .hostname = "board", .release = "6.18", .version = "#1", .cpus = 2 };
	struct nb_iface_info iface = { .name = "eth0", .driver = "veth", .mtu = 1500, .speed_mbps = -1 };
	struct nb_err err = { 0 };
	struct nb_report *r = NULL;
	struct nb_point_result pr[2];
	char path[] = "/tmp/nb-test-interleave-XXXXXX";
	struct nb_plan plan;
	json_t *root, *res, *p0, *p1;
	int fd = mkstemp(path);
	static const double tput[2][3] = { { 3497e6, 3501e6, 3499e6 }, { 4441e6, 4664e6, 4374e6 } };

	close(fd);
	nb_config_defaults(cfg);
	snprintf(cfg->iface, sizeof(cfg->iface), "eth0");
	nb_config_set_tests(cfg, "tcp-rx", &err);
	nb_config_add_knob_axis(cfg, "threaded=0,1", &err);
	nb_config_set_repetitions(cfg, "auto:3-4", &err);
	cfg->interleave = cfg->shuffle = true;
	cfg->shuffle_seed = 9;
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(nb_report_new(cfg, &host, &iface, &r, &err) == 0);
	memset(pr, 0, sizeof(pr));
	for (int i = 0; i < 2; i++) {
		pr[i].point = &plan.points[i];
		pr[i].runs = calloc(4, sizeof(*pr[i].runs));
		CHECK(nb_report_begin_point(r, &pr[i], &err) == 0);
	}
	for (int round = 0; round < 4; round++) {
		int order[2] = { 1, 0 };
		struct nb_round_info ri = { .round = round + 1, .npoints = 0, .order = order, .knob_change_s = 0.001,
					    .seconds = 3 };

		for (int k = 0; k < 2; k++) {
			int i = order[k];

			if (round == 3 && i == 1)
				continue; /* point 1 cut short in the last round */
			/* point 0's second run is disturbed by foreign load: repeated, not data */
			put_run(&pr[i].runs[pr[i].nruns], i == 0 && round == 1 ? 1e9 : tput[i][round > 1 ? round - 1 : round],
				i == 0 && round == 1 ? 35 : 1);
			pr[i].nruns++;
			CHECK(nb_report_add_run(r, &pr[i], pr[i].nruns - 1, &err) == 0);
			ri.npoints++;
		}
		CHECK(nb_report_add_round(r, &ri, &err) == 0);
	}
	nb_point_result_settle(&pr[0]);
	CHECK(nb_report_add_point(r, &pr[0], &err) == 0);
	CHECK(nb_report_write(r, path, &err) == 0);
	root = json_load_file(path, 0, NULL);
	CHECK(root != NULL);
	if (root) {
		res = json_object_get(root, "results");
		CHECK(json_array_size(res) == 2);
		p0 = json_array_get(res, 0);
		p1 = json_array_get(res, 1);
		CHECK_STR(json_string_value(json_object_get(p0, "id")), "tcp-rx/threaded=0");
		CHECK_STR(json_string_value(json_object_get(p0, "status")), "ok");
		CHECK(json_array_size(json_object_get(p0, "runs")) == 4);
		/* the disturbed run is in runs, not in the metrics */
		CHECK(json_integer_value(json_object_get(json_object_get(json_object_get(p0, "metrics"), "throughput_bps"),
							 "n")) == 3);
		CHECK(json_is_true(json_object_get(json_object_get(p0, "precision"), "met")));
		CHECK(json_integer_value(json_object_get(json_object_get(p0, "precision"), "clean_runs")) == 3);
		CHECK_STR(json_string_value(json_object_get(p1, "status")), "incomplete");
		CHECK(json_array_size(json_object_get(p1, "runs")) == 3);
		CHECK(strstr(json_string_value(json_object_get(p1, "error")), "auto:3-4") != NULL);
		CHECK(!json_is_true(json_object_get(json_object_get(p1, "precision"), "met")));
		CHECK(json_array_size(json_object_get(root, "rounds")) == 4);
		CHECK(json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(root, "rounds"), 0),
									"order"), 0)) == 1);
		CHECK(json_integer_value(json_object_get(json_object_get(root, "config"), "shuffle")) == 9);
		json_decref(root);
	}
	for (int i = 0; i < 2; i++)
		nb_point_result_release(&pr[i]);
	nb_report_free(r);
	nb_plan_free(&plan);
	unlink(path);
	free(cfg);
}

int main(void)
{
	test_median_ci();
	test_median_se_factor();
	test_rule_on_veth_series();
	test_rule_on_recorded_sweep();
	test_rule_stops();
	test_precision_json();
	test_rounds();
	test_repetitions_setting();
	test_config_file_round_trip();
	test_interleaved_record();
	return nb_test_done("test_adaptive");
}
