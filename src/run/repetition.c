// SPDX-License-Identifier: MIT
/* One repetition: the traffic client in a watched child, the sampler (and tracepoints) at the
 * edges of the measured window and every interval inside it, the client's result joined to
 * the window's metrics. */
#include "run/sweep_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iperf_driver.h"
#include "kit/metric_table.h"
#include "kit/nb_time.h"
#include "kit/nic_names.h"
#include "nic/qstats.h"
#include "sampling/capture.h"
#include "sampling/napi_trace.h"
#include "sampling/run_counters.h"
#include "traffic/child_link.h"
#include "traffic/rr_client.h"
#include "traffic/traffic_run.h"

static void sample_append(struct nb_run_record *run, int *cap, double t, const double v[NB_SERIES_FIELDS])
{
	struct nb_sample *s;

	if (run->nsamples == *cap) {
		int ncap = *cap ? *cap * 2 : 64;
		struct nb_sample *grown = realloc(run->samples, (size_t)ncap * sizeof(*grown));

		if (!grown)
			return; /* raw samples are a bonus; the run's metrics do not depend on them */
		run->samples = grown;
		*cap = ncap;
	}
	s = &run->samples[run->nsamples++];
	s->t = t;
	memcpy(s->v, v, sizeof(s->v));
}

static int traffic_cpu(const struct nb_point *p)
{
	const char *cpu = nb_point_knob(p, NB_KNOB_TRAFFIC_CPU);

	return cpu ? atoi(cpu) : -1;
}

struct window {
	double start_marker;   /* the attempt's start, as the child said */
	double opens, closes;  /* start + omit, start + omit + duration */
	double next_sample;
	bool open, closed;
	const char *capture_path;  /* capture this window to a file; NULL: no */
	struct nb_trace *trace;    /* tracepoints + profile in this window (the diagnostic run); NULL: none */
	double self_cpu_open;  /* nicbench's own CPU seconds when the window opened */
	struct nb_metric_set trace_metrics;
	struct nb_profile profile;
	struct nb_point_result *pr;  /* where an optional step that failed is noted */
};

static void window_reset(struct window *w, double start, const struct nb_test_spec *t, int interval_ms)
{
	memset(w, 0, sizeof(*w));
	w->start_marker = start;
	w->opens = start + t->omit_s;
	w->closes = w->opens + t->duration_s;
	w->next_sample = w->opens + interval_ms / 1000.0;
}

/* CPU time of this process (sampler, tracing, the wait loop), not of the traffic child. */
static double self_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void window_open(struct runner *rn, struct window *w)
{
	struct nb_err err = { 0 };
	int peer[NB_MAX_PEER_PIDS], npeer = 0;

	/* the peer's per-test processes exist now that the traffic runs: one /proc walk, before
	 * the window's first snapshot and before nicbench's own CPU is read */
	if (rn->peer.found)
		npeer = nb_peer_tree(rn->o->paths, &rn->peer, peer, NB_MAX_PEER_PIDS);
	nb_sampler_set_peer(rn->sampler, peer, npeer > 0 ? npeer : 0);
	nb_irq_watch_take(&rn->target, &rn->irq_open);
	w->self_cpu_open = self_cpu_s();
	if (w->capture_path && nb_capture_start(rn->capture, w->capture_path, rn->o->cfg->capture_packets, &err) < 0)
		nb_point_result_note(w->pr, "capture missing: %s", err.msg);
	if (nb_sampler_snapshot(rn->sampler, rn->snap_open, &err) < 0)
		nb_point_result_note(w->pr, "some sampled metrics missing: %s", err.msg);
	/* a device without qstats keeps the answer of the first probe: no netlink in the window */
	if (rn->qs_open && !rn->qs_open->never)
		nb_qstats_snapshot(&rn->target, rn->qs_open);
	nb_series_from_snapshot(rn->snap_open, rn->series_prev);
	/* the tracepoints start counting as they return, so the driver's counters are read right
	 * after: the two then cover one window (arming them takes long on a slow board) */
	if (w->trace && nb_trace_begin(w->trace, &err) < 0)
		nb_point_result_note(w->pr, "trace metrics missing: %s", err.msg);
	nb_counters_begin(rn->counters);
	w->open = true;
}

/* The armhf fec guest's traced windows once saw no poll and no IRQ while the same window's
 * /proc/interrupts moved: the tracepoint figures read 0 as if measured. Said beside them. */
static void traced_nothing_note(struct window *w, const struct nb_metric_set *sampled)
{
	double polls = -1, hardirqs = -1, irqs = 0, packets = 0;

	nb_metrics_get(&w->trace_metrics, NB_M_NAPI_POLLS_PER_S, &polls);
	nb_metrics_get(&w->trace_metrics, NB_M_HARDIRQS_PER_S, &hardirqs);
	nb_metrics_get(sampled, NB_M_INTERRUPTS_PER_S, &irqs);
	nb_metrics_get(sampled, NB_M_RX_PACKETS_PER_S, &packets);
	if (polls == 0 && hardirqs == 0 && irqs > 0)
		nb_point_result_note(w->pr, "tracepoints recorded no NAPI poll and no IRQ of the interface while "
				     "/proc/interrupts counted %.0f/s and %.0f packets/s came in: the traced figures "
				     "are not the window's", irqs, packets);
}

/* No page_pool event in the window, said only where the interface has a pool (its counters were
 * read): elsewhere (veth, virtio-net) no event is the rule. */
static void pp_window_note(struct window *w, const struct nb_metric_set *sampled)
{
	const char *note = nb_trace_pp_window_note(w->trace);
	char alloc_fast[64];

	snprintf(alloc_fast, sizeof(alloc_fast), "%s%s", NB_M_PP_PREFIX, nb_pp_counter_names[NB_PP_ALLOC_FAST]);
	if (note && nb_metrics_get(sampled, alloc_fast, NULL))
		nb_point_result_note(w->pr, "%s", note);
}

/* Arming the tracepoints took part of the window: their rates are over the time they were on. */
static void traced_time_note(struct window *w, double window_s)
{
	double traced_s = nb_trace_traced_s(w->trace);

	if (traced_s > 0 && window_s > 0 && traced_s < 0.9 * window_s)
		nb_point_result_note(w->pr, "tracepoints on for %.2f s of the %.2f s window (arming them took "
				     "the rest): their rates are over the traced time", traced_s, window_s);
}

static void window_close(struct runner *rn, struct window *w, struct nb_run_record *run)
{
	struct nb_metric_set sampled = { 0 };
	struct nb_err err = { 0 };
	double self_cpu_close;

	if (nb_sampler_snapshot(rn->sampler, rn->snap_now, &err) < 0)
		nb_point_result_note(w->pr, "some sampled metrics missing: %s", err.msg);
	if (rn->qs_open && (run->qstats = malloc(sizeof(*run->qstats)))) {
		/* absent at the open edge: the delta is absent with the open edge's reason */
		if (rn->qs_open->present)
			nb_qstats_snapshot(&rn->target, rn->qs_now);
		nb_qstats_delta(rn->qs_open, rn->qs_now, run->qstats);
	}
	nb_counters_end(rn->counters, &run->counters, &run->metrics);
	if (w->trace)
		nb_trace_stop(w->trace); /* read below, after the window's last reads */
	/* the window ends with its last reads: turning them into metrics comes after the test */
	self_cpu_close = self_cpu_s();
	nb_irq_watch_take(&rn->target, &rn->irq_now);
	if (w->capture_path)
		nb_capture_stop(rn->capture);
	nb_snapshot_delta(rn->snap_open, rn->snap_now, &sampled);
	nb_metrics_merge(&run->metrics, &sampled);
	nb_irq_watch_metrics(&rn->irq_open, &rn->irq_now, &run->metrics);
	{
		char moves[NB_POINT_NOTE_MAX / 2], who[48] = "irqbalance not found";

		if (rn->irq_now.irqbalance_pid)
			snprintf(who, sizeof(who), "irqbalance runs, pid %d", rn->irq_now.irqbalance_pid);
		if (nb_irq_watch_moves(&rn->irq_open, &rn->irq_now, moves, sizeof(moves)) > 0)
			nb_point_result_note(w->pr, "IRQ affinity moved during a run without nicbench (%s): %s", who, moves);
	}
	if (run->qstats)
		nb_qstats_metrics(run->qstats, &run->metrics);
	if (w->trace) {
		if (nb_trace_end(w->trace, rn->snap_now->t - rn->snap_open->t, &w->trace_metrics, &w->profile, &err) < 0)
			nb_point_result_note(w->pr, "trace metrics missing: %s", err.msg);
		else
			pp_window_note(w, &run->metrics);
		traced_nothing_note(w, &run->metrics);
		traced_time_note(w, rn->snap_now->t - rn->snap_open->t);
		nb_metrics_merge(&run->metrics, &w->trace_metrics);
		/* the diagnostic repetition's cost includes emptying its buffers */
		self_cpu_close = self_cpu_s();
	}
	if (rn->snap_now->t > rn->snap_open->t)
		nb_metrics_put(&run->metrics, NB_M_NICBENCH_CPU_MS_PER_S,
			       1000 * (self_cpu_close - w->self_cpu_open) / (rn->snap_now->t - rn->snap_open->t));
	w->closed = true;
}

/* The diagnostic repetition's folded stacks go beside the report, REPORT.pN.folded like the
 * capture's REPORT.pN.pcap; the report names the file. */
static void write_stacks(struct runner *rn, struct nb_point_result *pr)
{
	const char *report = rn->o->report_path;
	const char *dot = strrchr(report, '.'), *slash = strrchr(report, '/');
	int stem = (dot && (!slash || dot > slash)) ? (int)(dot - report) : (int)strlen(report);
	struct nb_err err = { 0 };

	snprintf(pr->stacks_file, sizeof(pr->stacks_file), "%.*s.p%d.folded", stem, report, pr->point->index + 1);
	if (nb_trace_write_stacks(rn->trace, pr->stacks_file, &pr->stacks, &err) < 0)
		nb_point_result_note(pr, "profile stacks missing: %s", err.msg);
	if (pr->stacks.samples == 0)
		pr->stacks_file[0] = '\0';
}

/* Every interval only the raw series' few sources are read (nb_sampler_series_snapshot):
 * the full snapshot, /proc/net/snmp above all, is taken at the window's edges. */
static void window_sample(struct runner *rn, struct window *w, struct nb_run_record *run, int *cap)
{
	struct nb_series_snapshot *swap;
	double v[NB_SERIES_FIELDS];

	nb_sampler_series_snapshot(rn->sampler, rn->series_now);
	nb_series_delta(rn->series_prev, rn->series_now, v);
	sample_append(run, cap, rn->series_now->t - rn->snap_open->t, v);
	swap = rn->series_prev;
	rn->series_prev = rn->series_now;
	rn->series_now = swap;
	w->next_sample += rn->o->cfg->interval_ms / 1000.0;
}

/* Milliseconds until the next thing the loop must do, at most one interval. */
static int next_wake_ms(const struct window *w, int interval_ms)
{
	double now = nb_monotonic_s(), next;

	if (w->start_marker < 0)
		return interval_ms;
	next = !w->open ? w->opens : !w->closed ? fmin(w->next_sample, w->closes) : now + interval_ms / 1000.0;
	next -= now;
	if (next < 0.001)
		return 1;
	return next * 1000 > interval_ms ? interval_ms : (int)ceil(next * 1000);
}

/*
 * What is read just before the traffic starts and just after it ends, outside the measured
 * window: reads too dear to sit inside it, whose cost would move its figures. Per-run
 * counters snapshotted around the traffic belong here, their delta into run at the after edge.
 */
struct traffic_edges {
	bool foreign_open;   /* the scan of other programs' CPU was taken before the traffic */
	double foreign_pct;  /* other processes' CPU over the traffic, % of the machine; NAN: not measured */
};

static void traffic_edges_before(struct runner *rn, struct traffic_edges *e)
{
	/* a scan reads every process's stat (~1 ms here) */
	e->foreign_open = rn->fs_open && nb_foreign_scan_take(rn->o->paths, (int)getpid(), rn->o->cfg->peer_local,
							      &rn->peer, rn->fs_open) == 0;
	e->foreign_pct = NAN;
}

/* After the traffic, before its client's result is read: run holds the window's metrics. */
static void traffic_edges_after(struct runner *rn, struct traffic_edges *e, struct nb_run_record *run)
{
	(void)run;
	if (e->foreign_open &&
	    nb_foreign_scan_take(rn->o->paths, (int)getpid(), rn->o->cfg->peer_local, &rn->peer, rn->fs_now) == 0)
		e->foreign_pct = nb_foreign_scan_pct(rn->fs_open, rn->fs_now, rn->snap_now->ncpus_online);
}

/* The run's traffic client: the rr client for tcp-rr and udp-rr, libiperf for the rest. The
 * one place that tells them apart; from here on a run is a struct nb_traffic_run. */
static int traffic_start(struct runner *rn, const struct nb_point *p, const struct nb_point_result *pr,
			 struct nb_traffic_run **out, struct nb_err *err)
{
	const struct nb_config *cfg = rn->o->cfg;
	const struct nb_test_spec *t = p->test;
	struct nb_iperf_params ip = {
		.host = cfg->peer_host, .port = cfg->peer_port,
		.udp = t->proto == NB_PROTO_UDP, .reverse = t->dir == NB_DIR_RX,
		.duration_s = t->duration_s, .omit_s = t->omit_s, .streams = t->streams,
		.rate_bps = t->rate_bps, .length = t->length == NB_UDP_LENGTH_MTU ? pr->udp_length : t->length,
		.cpu = traffic_cpu(p),
		.connect_timeout_ms = cfg->connect_timeout_s * 1000, .grace_ms = cfg->grace_s * 1000,
		/* resolved by cmd_run: "iperf3" runs the program, anything else libiperf */
		.program = !strcmp(cfg->traffic_backend, "iperf3") ? cfg->iperf3_program : NULL,
	};
	struct nb_rr_params rp = {
		.host = cfg->peer_host, .port = cfg->rr.port, .udp = t->proto == NB_PROTO_UDP,
		.flows = cfg->rr.flows, .request = cfg->rr.request, .response = cfg->rr.response,
		.rate_tps = cfg->rr.rate_tps, .timeout_ms = cfg->rr.timeout_ms,
		.duration_s = t->duration_s, .omit_s = t->omit_s, .cpu = ip.cpu,
		.connect_timeout_ms = ip.connect_timeout_ms, .grace_ms = ip.grace_ms,
	};
	int rc = t->dir == NB_DIR_RR ? nb_rr_start_traffic(&rp, out, err) : nb_iperf_start_traffic(&ip, out, err);

	if (rc == 0)
		nb_sampler_set_traffic_pid(rn->sampler, nb_traffic_link(*out)->pid);
	return rc;
}

/* The client's result into the run, after the window's metrics: what the kind adds from both,
 * and foreign load where the kind figures it. */
static void traffic_finish(struct runner *rn, struct nb_traffic_run *tr, struct nb_run_record *run,
			   double foreign_pct)
{
	const struct nb_traffic_kind *kind = tr->kind;
	struct nb_traffic_result res;
	struct nb_err err = { 0 };

	nb_traffic_finish(tr, &res, &err);
	run->status = res.status;
	if (nb_runner_stop_signal() && res.status == NB_RUN_OK) {
		run->status = NB_RUN_FAILED;
		snprintf(res.error, sizeof(res.error), "interrupted by signal %d", nb_runner_stop_signal());
	}
	snprintf(run->error, sizeof(run->error), "%s", res.error);
	nb_metrics_merge(&run->metrics, &res.metrics);
	if (run->status == NB_RUN_OK && kind->derive)
		kind->derive(&run->metrics);
	if (kind->figures_foreign_load) {
		/* needs the client's view of the peer's CPU, so only after the merge */
		nb_metrics_put_cpu_other(&run->metrics, rn->snap_now->ncpus_online, rn->o->cfg->peer_local);
		nb_metrics_raise_cpu_other(&run->metrics, foreign_pct);
	}
	if (run->status == NB_RUN_OK) {
		run->rr_hist = res.hist;
		res.hist = NULL;
	}
	if (rn->o->cfg->raw) {
		run->iperf_json = res.raw_json;
		res.raw_json = NULL;
	}
	nb_traffic_result_release(&res);
}

void nb_repetition_run(struct runner *rn, const struct nb_point *p, struct nb_run_record *run,
		       struct nb_point_result *pr, bool capture, bool diag)
{
	const struct nb_config *cfg = rn->o->cfg;
	const struct nb_test_spec *t = p->test;
	struct nb_traffic_run *tr;
	struct nb_err err = { 0 };
	struct traffic_edges edges;
	struct window w;
	int cap = 0;

	memset(run, 0, sizeof(*run));
	/* /proc/net/snmp is the dearest read of an edge snapshot (~20 of ~65 us cold) and only a
	 * UDP test's datagrams are in it: TCP points go without the udp_* metrics */
	nb_sampler_set_sources(rn->sampler, t->proto == NB_PROTO_UDP ? NB_SRC_ALL : NB_SRC_ALL & ~NB_SRC_UDP);
	traffic_edges_before(rn, &edges);
	if (traffic_start(rn, p, pr, &tr, &err) < 0) {
		run->status = NB_RUN_FAILED;
		snprintf(run->error, sizeof(run->error), "%s", err.msg);
		return;
	}
	window_reset(&w, -1, t, cfg->interval_ms);
	w.capture_path = capture ? pr->capture_file : NULL;
	w.trace = diag ? rn->trace : NULL;
	w.pr = pr;
	for (;;) {
		int done = nb_child_link_wait(nb_traffic_link(tr), next_wake_ms(&w, cfg->interval_ms));
		double started = nb_traffic_link(tr)->started_at;
		double now = nb_monotonic_s();

		if (nb_runner_stop_signal()) {
			nb_child_link_kill(nb_traffic_link(tr));
			break;
		}
		if (started >= 0 && started != w.start_marker) {
			/* a new attempt (retry after "server busy"): the earlier window is void */
			if (w.open && !w.closed && w.trace)
				nb_trace_end(w.trace, 0, &w.trace_metrics, NULL, &err);
			free(run->samples);
			run->samples = NULL;
			free(run->qstats);
			run->qstats = NULL;
			nb_run_counters_free(run->counters);
			run->counters = NULL;
			run->nsamples = 0;
			cap = 0;
			window_reset(&w, started, t, cfg->interval_ms);
			/* the iperf3 program backend: the traffic's CPU is that program's */
			if (nb_traffic_link(tr)->worker_pid > 0)
				nb_sampler_set_traffic_pid(rn->sampler, nb_traffic_link(tr)->worker_pid);
			w.capture_path = capture ? pr->capture_file : NULL;
			w.trace = diag ? rn->trace : NULL;
			w.pr = pr;
		}
		if (w.start_marker >= 0) {
			if (!w.open && now >= w.opens)
				window_open(rn, &w);
			if (w.open && !w.closed && now >= w.closes)
				window_close(rn, &w, run);
			else if (w.open && !w.closed && now >= w.next_sample)
				window_sample(rn, &w, run, &cap);
			if (w.capture_path && w.open && !w.closed)
				nb_capture_drain(rn->capture);
		}
		if (done)
			break;
	}
	/* The child ran a little past our estimate of the window, so normally the window is
	 * closed here; if iperf finished early the window closes at its end. */
	if (w.open && !w.closed && !nb_runner_stop_signal())
		window_close(rn, &w, run);
	else if (w.open && !w.closed && w.trace)
		nb_trace_end(w.trace, 0, &w.trace_metrics, NULL, &err);
	traffic_edges_after(rn, &edges, run);
	nb_sampler_set_traffic_pid(rn->sampler, 0);
	nb_sampler_set_peer(rn->sampler, NULL, 0);

	traffic_finish(rn, tr, run, edges.foreign_pct);
	if (run->status == NB_RUN_OK && w.profile.n > 0) {
		pr->profile = w.profile;
		write_stacks(rn, pr);
	}
	if (w.capture_path)
		pr->capture_packets = nb_capture_stop(rn->capture);
}
