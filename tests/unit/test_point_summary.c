// SPDX-License-Identifier: MIT
/* nb_point_summarize: a point's runs -> per-metric statistics over the ok runs, in the order
 * the metrics first appear, the flags, and the bottleneck, with the diagnostic repetition's
 * metrics as a fallback and an incomplete point judged on its finished runs. */
#include "nb_test.h"
#include "result/result.h"

static void put(struct nb_metric_set *m, const char *name, double v)
{
	CHECK(nb_metrics_put(m, name, v) == 0);
}

int main(void)
{
	static struct nb_point_summary s;
	struct nb_metric_set sets[4] = { 0 }, diag = { 0 };
	struct nb_summary_run runs[4] = {
		{ true, &sets[0] }, { false, &sets[1] }, { true, &sets[2] }, { true, &sets[3] },
	};
	struct nb_summary_input in = { .nruns = 4, .runs = runs, .tx = true, .status = NB_POINT_OK, .cpus = 2,
				       .window_s = 5 };
	const struct nb_metric_summary *m;

	/* run 0: throughput and the sender's CPU; run 1 failed (its figures do not count); run 2
	 * adds cpu_other_pct; run 3 lacks throughput */
	put(&sets[0], "throughput_bps", 9e8);
	put(&sets[0], "iperf_host_cpu_pct", 95);
	put(&sets[1], "throughput_bps", 1);
	put(&sets[1], "only_failed", 1);
	put(&sets[2], "throughput_bps", 1e9);
	put(&sets[2], "iperf_host_cpu_pct", 91);
	put(&sets[2], "cpu_other_pct", 12);
	put(&sets[3], "iperf_host_cpu_pct", 50);
	put(&sets[3], "cpu_other_pct", 3);
	put(&diag, "napi_polls_per_s", 1000);

	nb_point_summarize(&in, &s);
	CHECK(s.ok_runs == 3);
	CHECK(s.nmetrics == 3);
	CHECK_STR(s.metrics[0].name, "throughput_bps");
	CHECK_STR(s.metrics[1].name, "iperf_host_cpu_pct");
	CHECK_STR(s.metrics[2].name, "cpu_other_pct");
	CHECK(nb_point_summary_get(&s, "only_failed") == NULL);
	m = nb_point_summary_get(&s, "throughput_bps");
	CHECK(m && m->st.n == 2);
	CHECK(m && m->values[0] == 9e8 && m->values[1] == 1e9);
	CHECK(m && m->st.median == 9.5e8 && m->st.min == 9e8 && m->st.max == 1e9);
	m = nb_point_summary_get(&s, "iperf_host_cpu_pct");
	CHECK(m && m->st.n == 3 && m->st.median == 91);
	CHECK(s.disturbed_runs == 1);
	CHECK(s.other_pct == 12);
	CHECK(s.sender_bound);         /* median 91 >= 90 on a TX point */
	CHECK(!s.peer_bound);
	CHECK(s.bottleneck.code != NB_BN_NO_DATA);

	/* the same runs on a receiving point are not sender-bound */
	in.tx = false;
	nb_point_summarize(&in, &s);
	CHECK(!s.sender_bound);

	/* a failed point is not judged; an incomplete one with throughput is, one without is not */
	in.status = NB_POINT_FAILED;
	nb_point_summarize(&in, &s);
	CHECK(s.bottleneck.code == NB_BN_NO_DATA);
	in.status = NB_POINT_INCOMPLETE;
	nb_point_summarize(&in, &s);
	CHECK(s.bottleneck.code != NB_BN_NO_DATA);
	runs[0].ok = runs[2].ok = false;
	nb_point_summarize(&in, &s);
	CHECK(s.ok_runs == 1);
	CHECK(nb_point_summary_get(&s, "throughput_bps") == NULL);
	CHECK(s.bottleneck.code == NB_BN_NO_DATA);
	CHECK(isnan(s.other_pct) == false && s.other_pct == 3);

	/* no ok run: nothing summarised, other_pct absent */
	runs[3].ok = false;
	in.status = NB_POINT_OK;
	in.diag = &diag;
	nb_point_summarize(&in, &s);
	CHECK(s.ok_runs == 0 && s.nmetrics == 0);
	CHECK(isnan(s.other_pct));
	CHECK(s.disturbed_runs == 0);
	return nb_test_done("point_summary");
}
