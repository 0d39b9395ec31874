// SPDX-License-Identifier: MIT
/* Runs the plan: the run's set-up (journal, record, sampler, tracing, capture, the local peer),
 * points in sequence or in interleaved rounds, each point's knobs applied and journalled, its
 * repetitions (repetition.c), diagnostics and record, and the restore on every path out. */
#include "runner.h"
#include "kit/metric_table.h"
#include "run/sweep_state.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/adaptive.h"
#include "sampling/capture.h"
#include "cpu_sampler.h"
#include "knobs/journal.h"
#include "napi_knobs.h"
#include "sampling/napi_trace.h"
#include "kit/nb_print.h"
#include "kit/nb_time.h"
#include "nic/qstats.h"
#include "sampling/run_counters.h"
#include "run/rounds.h"


/* ---- knobs ---- */

/* Apply one point's knobs; the journal learns each original before its first change. */
static void apply_point_knobs(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr)
{
	struct nb_err napi_err = { 0 };

	for (int k = 0; k < p->nknobs; k++) {
		const struct nb_knob_setting *want = &p->knobs[k];
		struct nb_knob_setting *got = &pr->readback[pr->nknobs];
		enum nb_knob_via via = NB_VIA_ANY;
		struct nb_err err = { 0 };
		int rc;

		snprintf(got->name, sizeof(got->name), "%s", want->name);
		if (nb_knob_find(want->name) < 0) {
			/* not a row of the knob table: the traffic child's own knob (traffic_cpu, the one
			 * other name config accepts), applied by its client (traffic_run) */
			snprintf(got->value, sizeof(got->value), "%s", want->value);
			pr->nknobs++;
			continue;
		}
		rc = nb_journal_remember_current(rn->journal, want->name, &err);
		if (rc == 0)
			rc = nb_knob_apply_via(&rn->target, want->name, want->value, got->value, sizeof(got->value), &via,
					       &err);
		if (rc < 0) {
			pr->status = nb_knob_unsupported(rc) ? NB_POINT_UNSUPPORTED : NB_POINT_FAILED;
			snprintf(pr->error, sizeof(pr->error), "%s", err.msg);
			return;
		}
		snprintf(pr->knob_via[pr->nknobs], sizeof(pr->knob_via[0]), "%s", nb_knob_via_name(via));
		pr->nknobs++;
	}
	nb_runner_mtu_point(rn, p, pr);  /* the peer follows the mtu knob */
	nb_runner_udp_length(rn, p, pr);
	if (pr->status != NB_POINT_OK)
		return;
	/* the NAPIs as the point leaves them: per-NAPI values read back, IRQ, thread CPU */
	pr->napis = malloc(sizeof(*pr->napis));
	if (pr->napis && nb_napi_table_read(&rn->target, pr->napis, &napi_err) < 0) {
		nb_point_result_note(pr, "napi table missing: %s", napi_err.msg);
		free(pr->napis);
		pr->napis = NULL;
	}
}

/* ---- progress ---- */

static void format_duration(double s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	if (s >= 3600)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
	else if (s >= 60)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
	else
		snprintf(buf, len, "%ds", (int)s);
}

static void progress(struct runner *rn, const struct nb_point *p, int rep, const struct nb_run_record *run,
		     double remaining_estimate)
{
	const struct nb_runner_opts *o = rn->o;
	char eta[32], figure[96] = "";
	double tput, busy;

	if (!o->progress)
		return;
	format_duration(remaining_estimate, eta, sizeof(eta));
	if (run->status != NB_RUN_OK)
		snprintf(figure, sizeof(figure), "%s", nb_run_status_name(run->status));
	else if (nb_metrics_get(&run->metrics, NB_M_THROUGHPUT_BPS, &tput))
		snprintf(figure, sizeof(figure), "%.1f Mbit/s", tput / 1e6);
	else if (nb_metrics_get(&run->metrics, NB_M_RR_TRANSACTIONS_PER_S, &tput)) {
		double p50 = NAN, p99 = NAN;

		nb_metrics_get(&run->metrics, NB_M_RR_LATENCY_P50_US, &p50);
		nb_metrics_get(&run->metrics, NB_M_RR_LATENCY_P99_US, &p99);
		snprintf(figure, sizeof(figure), "%.0f trans/s, p50 %.1f us, p99 %.1f us", tput, p50, p99);
	}
	if (run->status == NB_RUN_OK && nb_metrics_get(&run->metrics, NB_M_CPU_BUSY_PCT, &busy)) {
		size_t used = strlen(figure);

		snprintf(figure + used, sizeof(figure) - used, ", busy %.1f%%", busy);
	}
	if (o->cfg->reps_auto)
		fprintf(o->progress, "%s[%d/%d] %s rep %d (auto %d-%d): %s | ETA <= %s%s",
			o->progress_tty ? "\r\033[K" : "", p->index + 1, o->plan->npoints, p->id, rep + 1,
			o->cfg->reps_min, o->cfg->repetitions, figure, eta, o->progress_tty ? "" : "\n");
	else
		fprintf(o->progress, "%s[%d/%d] %s rep %d/%d: %s | ETA %s%s", o->progress_tty ? "\r\033[K" : "",
			p->index + 1, o->plan->npoints, p->id, rep + 1, o->cfg->repetitions, figure, eta,
			o->progress_tty ? "" : "\n");
	if (run->status != NB_RUN_OK)
		fprintf(o->progress, "%s  %s\n", o->progress_tty ? "\n" : "", run->error);
	fflush(o->progress);
}

/* ---- the sweep ---- */

/* reports/demo.json -> reports/demo.p3.pcap for the third point */
static void capture_path(const char *report, int index, char *buf, size_t len)
{
	const char *dot = strrchr(report, '.');
	const char *slash = strrchr(report, '/');
	int stem = (dot && (!slash || dot > slash)) ? (int)(dot - report) : (int)strlen(report);

	snprintf(buf, len, "%.*s.p%d.pcap", stem, report, index + 1);
}

/* A run is recorded (appended and fsync'd) as soon as it ends; its raw iperf JSON and samples
 * are then freed, so what the point holds in memory is its metrics alone. */
static int record_run(struct runner *rn, struct nb_point_result *pr, int rep, struct nb_err *err)
{
	struct nb_run_record *run = &pr->runs[rep];
	int rc = nb_report_add_run(rn->report, pr, rep, err);

	nb_run_record_release(run);
	return rc;
}

/*
 * Tracepoints cost 4-6 % of tcp-rx throughput on the development VM, tracepoints + profile 8-13 %
 * (bench/trace-cost): more than the gate resolves. So the measured repetitions run with
 * the /proc sampler alone, and the tracepoints and the profile get one extra repetition after
 * them, recorded apart ("diagnostics" per point) and never in the medians.
 */
static int run_diagnostics(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr,
			   struct nb_err *err)
{
	struct nb_run_record diag;
	int rc;

	if (!rn->trace || nb_trace_unavailable_reason(rn->trace))
		return 0;
	if (!nb_sleep_unless_stopped(rn->o->cfg->settle_s))
		return 0;
	nb_repetition_run(rn, p, &diag, pr, false, true);
	if (nb_runner_stop_signal()) {
		nb_run_record_release(&diag);
		return 0;
	}
	if (rn->o->progress)
		fprintf(rn->o->progress, "%s[%d/%d] %s diagnostics (tracepoints%s): %s%s",
			rn->o->progress_tty ? "\r\033[K" : "", p->index + 1, rn->o->plan->npoints, p->id,
			rn->o->cfg->profile ? " + profile" : "", diag.status == NB_RUN_OK ? "ok" : diag.error,
			rn->o->progress_tty ? "" : "\n");
	rc = nb_report_add_diagnostics(rn->report, pr, &diag, err);
	if (diag.status == NB_RUN_OK) {
		pr->has_diag = true;
		pr->diag_metrics = diag.metrics;
	}
	nb_run_record_release(&diag);
	return rc;
}

/* Where a point stands in the sweep. Sequential: one point at a time to its end; interleaved:
 * every point one repetition per round. */
struct point_state {
	struct nb_point_result *pr;  /* from its start to its end (~24 KB: not kept for every point) */
	bool started;  /* knobs applied once and the point begun in the record */
	bool done;     /* no more repetitions: enough of them, precise, failed or unsupported */
	bool ended;    /* its end is in the record */
};

static void point_state_release(struct point_state *ps)
{
	if (!ps->pr)
		return;
	nb_point_result_release(ps->pr);
	free(ps->pr);
	ps->pr = NULL;
}

/* Seconds left at most: every unfinished point up to its maximum (auto) or its repetitions. */
static double remaining_estimate(const struct runner *rn, const struct point_state *st)
{
	const struct nb_config *cfg = rn->o->cfg;
	double left = 0;

	for (int i = 0; i < rn->o->plan->npoints; i++) {
		const struct nb_point *p = &rn->o->plan->points[i];

		if (st[i].done)
			continue;
		left += nb_run_estimate_s(cfg, p) * (cfg->repetitions - (st[i].pr ? st[i].pr->nruns : 0) +
						     (rn->trace ? 1 : 0));
	}
	return left;
}

/* Who the local peer is, once per point (a server restarted between points is found again);
 * said in the run's first lines and again when it changes. */
static void find_peer(struct runner *rn, int tries)
{
	const struct nb_config *cfg = rn->o->cfg;
	struct nb_peer_local was = rn->peer;

	for (int i = 0; i < tries; i++) {
		if (nb_peer_local_find(rn->o->paths, cfg->peer_host, cfg->peer_port, &rn->peer) < 0)
			snprintf(rn->peer.how, sizeof(rn->peer.how), "not looked for: out of memory");
		/* nicbench serve listens again only once its last test's child is gone */
		if (rn->peer.found || i + 1 == tries)
			break;
		poll(NULL, 0, 100);
	}
	/* between two tests a server may not listen: the one found before, while it lives, still is */
	if (!rn->peer.found && was.found && was.npids > 0 && kill(was.pids[0], 0) == 0)
		rn->peer = was;
	if (rn->peer_said && was.found == rn->peer.found && was.npids == rn->peer.npids &&
	    !memcmp(was.pids, rn->peer.pids, sizeof(was.pids)))
		return;
	if (!rn->peer_said)
		nb_report_set_peer_local(rn->report, &rn->peer, cfg->peer_local);
	rn->peer_said = true;
	if (!rn->o->progress)
		return;
	if (rn->peer.found)
		fprintf(rn->o->progress, "%snicbench run: local peer: %s; its CPU is the test's, not foreign load\n",
			rn->o->progress_tty ? "\r\033[K" : "", rn->peer.how);
	else
		fprintf(rn->o->progress, "%snicbench run: local peer: %s%s\n", rn->o->progress_tty ? "\r\033[K" : "",
			rn->peer.how,
			cfg->peer_local ? "; --peer-local: iperf3 processes by name and iperf3's own CPU figure are the "
					  "test's" : "");
}

/* Its knobs applied, the point is ready for repetitions: returns false when it cannot run. */
static bool start_point(struct runner *rn, const struct nb_point *p, struct point_state *ps, double *knob_s,
			struct nb_err *rerr, int *rc)
{
	const struct nb_config *cfg = rn->o->cfg;
	struct nb_point_result *pr = calloc(1, sizeof(*pr));
	double t0 = nb_monotonic_s();

	if (!pr) {
		*rc = nb_err_set(rerr, -ENOMEM, "start point %s: out of memory", p->id);
		ps->done = true;
		return false;
	}
	ps->pr = pr;
	pr->point = p;
	ps->started = true;
	find_peer(rn, 1);
	nb_counters_log_skip(rn->counters);
	apply_point_knobs(rn, p, pr);
	*knob_s += nb_monotonic_s() - t0;
	if (pr->status == NB_POINT_UNSUPPORTED || pr->status == NB_POINT_FAILED) {
		if (rn->o->progress)
			fprintf(rn->o->progress, "%s[%d/%d] %s: %s: %s\n", rn->o->progress_tty ? "\r\033[K" : "",
				p->index + 1, rn->o->plan->npoints, p->id, nb_point_status_name(pr->status), pr->error);
		ps->done = true;
		return false;
	}
	if (cfg->capture_packets > 0 && rn->capture)
		capture_path(rn->o->report_path, p->index, pr->capture_file, sizeof(pr->capture_file));
	if (rn->trace && nb_trace_unavailable_reason(rn->trace)) {
		snprintf(pr->trace_note, sizeof(pr->trace_note), "%s", nb_trace_unavailable_reason(rn->trace));
	} else if (rn->trace) {
		const char *profile = nb_trace_profile_unavailable_reason(rn->trace);
		const char *stacks = rn->o->cfg->profile_stacks && rn->o->cfg->profile && !profile
					     ? nb_trace_stacks_unavailable_reason(rn->trace)
					     : NULL;
		const char *notes = nb_trace_notes(rn->trace);
		const char *pp = nb_trace_pp_unavailable_reason(rn->trace);

		snprintf(pr->trace_detail, sizeof(pr->trace_detail), "%s%s%s%s%s%s", profile ? "profile: " : "",
			 profile ? profile : "", stacks ? "profile stacks: " : "", stacks ? stacks : "",
			 (profile || stacks) && notes ? "; " : "", notes ? notes : "");
		/* said in the report's text when no page_pool counter came from elsewhere either */
		if (pp)
			nb_appendf(pr->trace_detail, sizeof(pr->trace_detail), "%spage_pool tracepoints: %s",
				   pr->trace_detail[0] ? "; " : "", pp);
	}
	pr->runs = calloc((size_t)cfg->repetitions, sizeof(*pr->runs));
	if (!pr->runs) {
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "allocate %d runs: out of memory", cfg->repetitions);
		ps->done = true;
		return false;
	}
	*rc = nb_report_begin_point(rn->report, pr, rerr);
	return *rc == 0;
}

/* An interleaved point's knobs again, at a later visit (the journal already has the originals).
 * The readback of the first visit stays the point's; a knob that no longer applies fails it. */
static void reapply_point_knobs(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr)
{
	struct nb_point_result *again = calloc(1, sizeof(*again));

	if (!again) {
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "apply knobs again: out of memory");
		return;
	}
	apply_point_knobs(rn, p, again);
	if (again->status == NB_POINT_UNSUPPORTED || again->status == NB_POINT_FAILED) {
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "apply knobs again (interleaved): %.470s", again->error);
	}
	free(again->napis);
	free(again);
}

/* Watched metrics of the clean runs (ok, no foreign load) into the rule: is the point done? */
static bool point_is_done(const struct nb_config *cfg, const struct nb_point_result *pr)
{
	const char *names[NB_ADAPTIVE_MAX_WATCHED];
	struct nb_adaptive_interval iv[NB_ADAPTIVE_MAX_WATCHED];
	struct nb_adaptive_rule rule;
	int nw = nb_adaptive_watched(pr->point->test->dir, names);
	double values[NB_MAX_REPETITIONS];

	if (!cfg->reps_auto)
		return pr->nruns >= cfg->repetitions;
	/* a failed run fails the point whatever follows: more runs would not change that */
	if (pr->nruns > 0 && pr->runs[pr->nruns - 1].status != NB_RUN_OK)
		return true;
	nb_adaptive_rule_from_config(cfg, &rule);
	for (int w = 0; w < nw; w++) {
		int n = 0;

		for (int i = 0; i < pr->nruns; i++) {
			const struct nb_run_record *run = &pr->runs[i];
			double v, other;

			if (run->status != NB_RUN_OK || !nb_metrics_get(&run->metrics, names[w], &v))
				continue;
			if (nb_metrics_get(&run->metrics, NB_M_CPU_OTHER_PCT, &other) && other >= NB_FOREIGN_LOAD_PCT)
				continue; /* disturbed by foreign load: a reason to repeat, not data */
			values[n++] = v;
		}
		nb_adaptive_interval(names[w], values, n, rule.precision_pct, &iv[w]);
	}
	return nb_adaptive_decide(&rule, pr->nruns, iv, nw) != NB_ADAPTIVE_MORE;
}

/* One repetition of a started point: settle, run, record, and the rule's answer. round: the
 * interleaved round it belongs to (1-based), 0 in a sequential sweep. */
static int point_repetition(struct runner *rn, struct point_state *st, int index, int round, struct nb_err *rerr)
{
	struct point_state *ps = &st[index];
	struct nb_point_result *pr = ps->pr;
	const struct nb_point *p = pr->point;
	struct nb_err err = { 0 };
	int rep = pr->nruns;

	/* threaded=1 creates napi/ threads; find them before sampling */
	if (nb_sampler_rescan(rn->sampler, &err) < 0)
		nb_point_result_note(pr, "napi thread metrics missing: %s", err.msg);
	/* settle: let the previous test's server clean up and the knobs take hold */
	if (!nb_sleep_unless_stopped(rn->o->cfg->settle_s))
		return 0;
	nb_repetition_run(rn, p, &pr->runs[rep], pr, rep == 0 && pr->capture_file[0], false);
	pr->runs[rep].round = round;
	pr->nruns++;
	nb_counters_log_collect(rn->counters, &pr->kernel_log);
	/* the repetition a signal cut short is not a measurement: it is not recorded */
	if (nb_runner_stop_signal())
		return 0;
	ps->done = point_is_done(rn->o->cfg, pr);
	progress(rn, p, rep, &pr->runs[rep], remaining_estimate(rn, st));
	return record_run(rn, pr, rep, rerr);
}

/* A point with all its repetitions: the diagnostic one (its knobs applied again when the
 * rounds moved on), then its end in the record. After a signal only a point that was done
 * ends (end_done_if_stopped: interleaved points that left the rounds); the others stay
 * incomplete in the record. */
static int end_point(struct runner *rn, struct point_state *ps, bool knobs_current, bool end_done_if_stopped,
		     struct nb_err *rerr)
{
	bool ends;
	struct nb_point_result *pr = ps->pr;
	int rc = 0;

	if (!pr)
		return 0;  /* it never started (out of memory, said already) */
	if (pr->status != NB_POINT_UNSUPPORTED && pr->status != NB_POINT_FAILED && pr->nruns > 0 && !nb_runner_stop_signal()) {
		if (!knobs_current && rn->trace && !nb_trace_unavailable_reason(rn->trace)) {
			reapply_point_knobs(rn, pr->point, pr);
			nb_sampler_rescan(rn->sampler, &(struct nb_err){ 0 });
		}
		if (pr->status != NB_POINT_FAILED)
			rc = run_diagnostics(rn, pr->point, pr, rerr);
	}
	nb_point_result_settle(pr);
	nb_counters_log_collect(rn->counters, &pr->kernel_log);
	/* a point a signal cut short keeps its finished runs in the record: the report
	 * shows it as incomplete */
	ends = !nb_runner_stop_signal() || (end_done_if_stopped && ps->done);
	if (rc == 0 && ends)
		rc = nb_report_add_point(rn->report, pr, rerr);
	ps->ended = rc == 0 && ends;
	return rc;
}

static int run_sequential(struct runner *rn, struct point_state *st, struct nb_err *err)
{
	double knob_s = 0;
	int rc = 0;

	for (int i = 0; rc == 0 && i < rn->o->plan->npoints && !nb_runner_stop_signal(); i++) {
		if (start_point(rn, &rn->o->plan->points[i], &st[i], &knob_s, err, &rc))
			while (rc == 0 && !st[i].done && !nb_runner_stop_signal())
				rc = point_repetition(rn, st, i, 0, err);
		if (rc == 0)
			rc = end_point(rn, &st[i], true, false, err);
		/* what a finished point holds is in the record: memory stays flat over the sweep */
		point_state_release(&st[i]);
	}
	return rc;
}

/*
 * Rounds: every unfinished point gets one repetition per round, in plan order or shuffled, so
 * drift over time (heat, the peer, other load) lands on every setting alike. Applying a
 * point's knobs at every visit is the price: each round records what it cost.
 */
static int run_interleaved(struct runner *rn, struct point_state *st, struct nb_err *err)
{
	const struct nb_config *cfg = rn->o->cfg;
	int npoints = rn->o->plan->npoints, rc = 0;
	int *order = calloc((size_t)npoints, sizeof(*order));
	int *visited = calloc((size_t)npoints, sizeof(*visited));
	struct nb_rounds rounds;
	int last = -1;

	if (!order || !visited) {
		free(order);
		free(visited);
		return nb_err_set(err, -ENOMEM, "plan %d interleaved points: out of memory", npoints);
	}
	nb_rounds_init(&rounds, cfg->shuffle, cfg->shuffle_seed);
	for (int round = 0; rc == 0 && round < cfg->repetitions && !nb_runner_stop_signal(); round++) {
		struct nb_round_info ri = { .round = round + 1, .order = visited };
		double round_start = nb_monotonic_s();
		bool any = false;

		nb_rounds_next_order(&rounds, npoints, order);
		for (int k = 0; rc == 0 && k < npoints && !nb_runner_stop_signal(); k++) {
			int i = order[k];
			struct point_state *ps = &st[i];
			double t0;

			if (ps->done)
				continue;
			any = true;
			if (!ps->started) {
				if (!start_point(rn, &rn->o->plan->points[i], ps, &ri.knob_change_s, err, &rc))
					continue;
			} else if (last != i) {
				t0 = nb_monotonic_s();
				reapply_point_knobs(rn, ps->pr->point, ps->pr);
				ri.knob_change_s += nb_monotonic_s() - t0;
				if (ps->pr->status == NB_POINT_FAILED) {
					ps->done = true;
					continue;
				}
			}
			visited[ri.npoints++] = i;
			last = i;
			rc = point_repetition(rn, st, i, round + 1, err);
		}
		if (!any)
			break;
		ri.seconds = nb_monotonic_s() - round_start;
		if (rc == 0 && ri.npoints > 0)
			rc = nb_report_add_round(rn->report, &ri, err);
	}
	/* in plan order: the diagnostic repetition of each point, then its end */
	for (int i = 0; rc == 0 && i < npoints; i++) {
		if (st[i].started && !st[i].ended) {
			st[i].done = st[i].done || st[i].pr->nruns >= cfg->repetitions;
			rc = end_point(rn, &st[i], last == i, true, err);
			last = -1;
		}
	}
	free(order);
	free(visited);
	return rc;
}

static int run_plan(struct runner *rn, struct nb_err *err)
{
	int npoints = rn->o->plan->npoints;
	struct point_state *st = calloc((size_t)(npoints > 0 ? npoints : 1), sizeof(*st));
	int rc;

	if (!st)
		return nb_err_set(err, -ENOMEM, "plan %d points: out of memory", npoints);
	rc = rn->o->cfg->interleave ? run_interleaved(rn, st, err) : run_sequential(rn, st, err);
	for (int i = 0; i < npoints; i++)
		point_state_release(&st[i]);
	free(st);
	return rc;
}

/* reports/demo.json -> reports/demo.json.record, made absolute for the journal */
static int record_path(const char *report, char *buf, size_t len)
{
	char cwd[PATH_MAX];
	int n;

	if (report[0] == '/')
		n = snprintf(buf, len, "%s.record", report);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(buf, len, "%s/%s.record", cwd, report);
	else
		return -errno;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* After the journal exists: a run refused for a leftover journal must not touch the record
 * that journal names (the killed run's finished repetitions). */
static int record_open(struct runner *rn, struct nb_err *err)
{
	char path[PATH_MAX];
	int rc = record_path(rn->o->report_path, path, sizeof(path));

	if (rc < 0)
		return nb_err_set(err, rc, "run record for %s: %s", rn->o->report_path, strerror(-rc));
	rc = nb_report_open_record(rn->report, path, rn->o->report_path, err);
	if (rc == 0)
		rc = nb_journal_note_record(rn->journal, path, err);
	return rc;
}

static int runner_open(struct runner *rn, const struct nb_runner_opts *o, struct nb_report *report,
		       struct nb_err *err)
{
	struct nb_sampler_target st = { .paths = o->paths, .iface = o->cfg->iface, .irq_names = o->cfg->irq_names };
	int rc;

	memset(rn, 0, sizeof(*rn));
	rn->o = o;
	rn->report = report;
	rn->target.paths = o->paths;
	rn->target.iface = o->cfg->iface;
	rn->target.irq_names = o->cfg->irq_names;
	rn->series_prev = &rn->series_a;
	rn->series_now = &rn->series_b;
	rn->snap_open = calloc(1, sizeof(struct nb_snapshot));
	rn->snap_now = calloc(1, sizeof(struct nb_snapshot));
	if (!rn->snap_open || !rn->snap_now)
		return nb_err_set(err, -ENOMEM, "allocate sampler snapshots: out of memory");
	rn->qs_open = malloc(sizeof(*rn->qs_open));
	rn->qs_now = malloc(sizeof(*rn->qs_now));
	if (!rn->qs_open || !rn->qs_now)
		return nb_err_set(err, -ENOMEM, "allocate qstats snapshots: out of memory");
	rn->fs_open = nb_foreign_scan_new();
	rn->fs_now = nb_foreign_scan_new();
	if (!rn->fs_open || !rn->fs_now)
		return nb_err_set(err, -ENOMEM, "allocate process scans for foreign load: out of memory");
	rn->counters = nb_counters_new(o->paths, o->cfg->iface);  /* optional: NULL leaves them out */
	/* the first probe, before any window: a device without qstats is not asked again */
	nb_qstats_snapshot(&rn->target, rn->qs_open);
	rn->qs_now->present = false;
	rc = nb_sampler_new(&st, &rn->sampler, err);
	if (rc < 0)
		return rc;
	/* with --round the diagnostic repetition runs in one round of each side (--diagnostics) */
	if (nb_config_diagnostics_here(o->cfg)) {
		struct nb_trace_opts to = { .paths = o->paths, .iface = o->cfg->iface, .profile = o->cfg->profile,
					      .callchains = o->cfg->profile_stacks,
					      .irq_names = o->cfg->irq_names[0] ? o->cfg->irq_names : NULL };

		/* tracing is optional: when it cannot open, its metrics are absent with the reason */
		if (nb_trace_open(&to, &rn->trace, err) < 0) {
			rn->trace = NULL;
			nb_err_clear(err);
		}
	}
	if (o->cfg->promiscuous || o->cfg->capture_packets > 0) {
		rc = nb_capture_open(o->cfg->iface, o->cfg->promiscuous, o->cfg->capture_snaplen, &rn->capture, err);
		if (rc < 0)
			return rc;
	}
	/* before the record's header: the report's "peer" says who the peer was at the start */
	find_peer(rn, 10);
	rc = nb_journal_create(o->journal_path, &rn->target, &rn->journal, err);
	if (rc == 0 && o->changed)
		*o->changed = true;
	if (rc == 0)
		rc = record_open(rn, err);
	return rc;
}

static void runner_close(struct runner *rn)
{
	nb_trace_close(rn->trace);
	nb_capture_close(rn->capture);
	nb_sampler_free(rn->sampler);
	free(rn->snap_open);
	free(rn->snap_now);
	free(rn->qs_open);
	free(rn->qs_now);
	nb_foreign_scan_free(rn->fs_open);
	nb_foreign_scan_free(rn->fs_now);
	nb_counters_free(rn->counters);
}

int nb_runner_run(const struct nb_runner_opts *o, struct nb_report *report, struct nb_err *err)
{
	struct runner rn;
	struct nb_err restore_err = { 0 };
	struct nb_err write_err = { 0 };
	struct nb_err remove_err = { 0 };
	int rc = runner_open(&rn, o, report, err);
	bool recording = rc == 0, restored;

	if (rc < 0 && !rn.journal) {
		runner_close(&rn);
		return rc;
	}
	if (rc == 0)
		rc = run_plan(&rn, err);
	if (o->progress && o->progress_tty)
		fputc('\n', o->progress);
	/* restore on every path out; a restore failure outranks other errors. The journal stays
	 * until the report is durable: a SIGKILL before that leaves the journal naming the
	 * record, and `nicbench knobs restore` writes the report from it. */
	nb_runner_mtu_end(&rn);  /* the peer's MTU back first: it followed the DUT's */
	restored = nb_journal_restore_keep(rn.journal, &restore_err) == 0;
	if (recording && rn.journal) {
		struct nb_err put_err = { 0 };

		if (nb_report_put_restore(report, rn.journal, restored ? 0 : restore_err.code, restore_err.msg, &put_err) < 0 &&
		    o->progress)
			fprintf(o->progress, "nicbench run: record the restore's outcome: %s\n", put_err.msg);
	}
	if (!restored) {
		*err = restore_err;
		rc = restore_err.code;
	} else if (rc == 0 && nb_runner_stop_signal()) {
		rc = nb_err_set(err, -EINTR, "stopped by signal %d; knobs restored", (int)nb_runner_stop_signal());
	}
	/* Once, at the end (knobs first): rewriting the report after every point would make the
	 * bytes written per point grow with the sweep. Until here the record holds the runs. */
	if (recording) {
		if (nb_report_write(report, o->report_path, &write_err) < 0) {
			if (rc == 0) {
				*err = write_err;
				rc = write_err.code;
			} else if (o->progress) {
				fprintf(o->progress, "nicbench run: %s (the run record %s is kept)\n", write_err.msg,
					nb_report_record_path(report));
			}
			/* the journal names the record: `nicbench knobs restore` can try again */
			nb_journal_free(rn.journal);
			rn.journal = NULL;
		} else {
			nb_report_drop_record_file(report);
		}
	}
	if (rn.journal) {
		if (!restored)
			nb_journal_free(rn.journal);
		else if (nb_journal_remove(rn.journal, &remove_err) < 0 && rc == 0) {
			*err = remove_err;
			rc = remove_err.code;
		}
	}
	runner_close(&rn);
	return rc;
}
