// SPDX-License-Identifier: MIT
/* What runner.c (the plan, point by point) shares with repetition.c (one run of traffic and
 * its measured window): the sweep's state. Not for other modules. */
#ifndef NB_SWEEP_STATE_H
#define NB_SWEEP_STATE_H

#include <stdbool.h>

#include "cpu_sampler.h"
#include "napi_knobs.h"
#include "config/plan.h"
#include "result/result.h"
#include "report/report.h"
#include "run/runner_opts.h"
#include "run/stop_signal.h"
#include "nic/irq_watch.h"
#include "sampling/peer_local.h"

struct nb_capture;
struct nb_counters;
struct nb_ctl_client;
struct nb_journal;
struct nb_qstats_snap;
struct nb_trace;

struct runner {
	const struct nb_runner_opts *o;
	struct nb_report *report;  /* each finished repetition goes to its run record at once */
	struct nb_knob_target target;
	struct nb_journal *journal;
	struct nb_sampler *sampler;
	struct nb_trace *trace;
	struct nb_capture *capture;  /* promiscuous hold and/or bounded captures; NULL: neither */
	/* heap, not stack: a snapshot holds per-CPU arrays */
	struct nb_snapshot *snap_open, *snap_now;
	/* the raw series between the window's edges; swapped, not copied */
	struct nb_series_snapshot series_a, series_b, *series_prev, *series_now;
	struct nb_qstats_snap *qs_open, *qs_now;  /* per-queue counters at the window's edges */
	struct nb_foreign_scan *fs_open, *fs_now; /* other programs' CPU ticks before and after a run's traffic */
	struct nb_counters *counters; /* page_pool, ethtool -S at the window's edges; the kernel log per point */
	struct nb_irq_watch irq_open, irq_now; /* the NIC's IRQ affinities and irqbalance at the window's edges */
	struct nb_peer_local peer;  /* the local peer's server, found at each point's start */
	bool peer_said;             /* its line was printed (again only when it changes) */
	struct nb_ctl_client *peer_ctl;  /* nicbench serve's control connection, opened at the first mtu point */
	int peer_ctl_rc;            /* its connect's answer (-ECONNREFUSED: no serve); 0 untried or open */
	bool peer_ctl_warned;
};

/* runner_mtu.c: after a point's knobs, the mtu record and the peer's MTU; at the end, the
 * peer's restore (and on any exit its serve restores when the connection drops). */
void nb_runner_mtu_point(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr);
void nb_runner_mtu_end(struct runner *rn);
/* --length mtu: the point's datagram length from the interface's MTU after its knobs (and the
 * peer's, when it is smaller), into pr->udp_length; a failed read fails the point. */
void nb_runner_udp_length(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr);

/* One repetition of point p into run: traffic in a watched child, the sampler at the edges of
 * the measured window and every interval inside it. capture: write the window to
 * pr->capture_file; diag: the point's diagnostic repetition, the only one with tracepoints and
 * the profile on. A failure is the run's status and error; a stop signal kills the traffic. */
void nb_repetition_run(struct runner *rn, const struct nb_point *p, struct nb_run_record *run,
		       struct nb_point_result *pr, bool capture, bool diag);

#endif
