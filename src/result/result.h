// SPDX-License-Identifier: MIT
/* A point's results as plain structs: what the runner measured (knobs as read back, runs, samples),
 * and the summary of its runs (per-metric statistics, flags, bottleneck) that a pure function
 * makes and every renderer reads: the report's JSON and the table after a run. */
#ifndef NB_RESULT_H
#define NB_RESULT_H

#include <stdbool.h>

#include "config/config.h"
#include "iperf_driver.h"
#include "sampling/kprofile.h"
#include "sampling/snapshot.h"
#include "kit/metrics.h"
#include "config/plan.h"
#include "kit/stats.h"
#include "result/bottleneck.h" /* the verdict a point's summary carries */

struct nb_qstats_delta;
struct nb_run_counters;
struct nb_kmsg_log;
struct nb_hist;
struct nb_napi_table;

/* One point of the per-interval series (the report's "samples"; columns: nb_series_field_names). */
struct nb_sample {
	double t;                       /* seconds since the measured window opened */
	double v[NB_SERIES_FIELDS];     /* NAN = not measured (written as null) */
};

struct nb_run_record {
	enum nb_run_status status;
	char error[512];
	struct nb_metric_set metrics;
	char *iperf_json;               /* raw iperf output, owned; NULL when dropped */
	int nsamples;
	struct nb_sample *samples;      /* owned */
	struct nb_qstats_delta *qstats; /* per-queue counters over the window, owned; NULL: not taken */
	struct nb_run_counters *counters; /* page_pool and ethtool -S deltas of the window, owned; NULL: not taken */
	struct nb_hist *rr_hist;        /* tcp-rr/udp-rr latency of the window, all flows; owned; NULL otherwise */
	int round;                      /* --interleave: the round it ran in (1-based); 0: not interleaved */
};

/* INCOMPLETE only comes out of assembling a record whose run was stopped or killed mid-point. */
enum nb_point_status { NB_POINT_OK, NB_POINT_FAILED, NB_POINT_TIMEOUT, NB_POINT_UNSUPPORTED, NB_POINT_INCOMPLETE };

#define NB_MAX_POINT_NOTES 8
#define NB_POINT_NOTE_MAX 240

/* A point that sets the mtu knob: which ends took it, and how (docs/running.md, "MTU"). */
struct nb_point_mtu {
	bool present;
	int dut;                        /* read back */
	char dut_how[192];              /* down/up, carrier wait; "": a plain running change */
	int peer;                       /* the peer's MTU after the request; -1: the peer was not set */
	char peer_iface[16];
	char peer_how[32];              /* "nicbench serve", "not set" */
	char peer_note[400];            /* the peer's down/up, or why it was not set */
};

struct nb_point_result {
	const struct nb_point *point;
	int nknobs;
	struct nb_knob_setting readback[NB_MAX_POINT_KNOBS]; /* knobs as read back after applying */
	enum nb_point_status status;
	char error[512];
	int nruns;
	struct nb_run_record *runs;
	char trace_note[256];           /* why tracepoint metrics are absent, when they are */
	char trace_detail[800];         /* with tracing on: why some trace metrics or the profile are absent */
	struct nb_profile profile;      /* top kernel symbols of the point's last ok run; n = 0: none */
	bool has_diag;                  /* the diagnostic repetition ran ok: its metrics below */
	struct nb_metric_set diag_metrics;
	char capture_file[4096];        /* .pcap of the first run's window; empty: none */
	char stacks_file[4096];         /* folded kernel stacks of the diagnostic repetition; empty: none */
	struct nb_stack_stats stacks;   /* what stacks_file holds */
	int capture_packets;
	char knob_via[NB_MAX_POINT_KNOBS][16]; /* path each readback knob was set through; "" none */
	struct nb_napi_table *napis;    /* NAPIs after the knobs were applied, owned; NULL: not read */
	struct nb_kmsg_log *kernel_log; /* kernel log lines logged during the point, owned; NULL: not read */
	int nnotes;                     /* optional steps that gave nothing: "X missing: why" */
	char notes[NB_MAX_POINT_NOTES][NB_POINT_NOTE_MAX];
	struct nb_point_mtu mtu;
	int udp_length;                 /* --length mtu: the datagram length this point used; 0 otherwise */
};

const char *nb_point_status_name(enum nb_point_status s);
const char *nb_run_status_name(enum nb_run_status s);

/* Point status from its runs: ok when every run was ok, else the first failure. */
void nb_point_result_settle(struct nb_point_result *pr);
void nb_point_result_release(struct nb_point_result *pr);
void nb_run_record_release(struct nb_run_record *run);
/* Note an optional step that gave nothing ("qstats missing: ..."); a note past the last slot is
 * dropped, as is a repeat of one the point has. */
void nb_point_result_note(struct nb_point_result *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the summary of a point's runs ---- */

struct nb_metric_summary {
	char name[NB_METRIC_NAME_MAX];
	struct nb_stats st;
	double values[NB_MAX_REPETITIONS];   /* the ok runs' values in run order; st.n of them */
};

struct nb_point_summary {
	int ok_runs;
	int disturbed_runs;             /* ok runs with cpu_other_pct >= NB_FOREIGN_LOAD_PCT */
	double other_pct;               /* the worst ok run's cpu_other_pct; NAN when absent */
	bool peer_bound;                /* median iperf_remote_cpu_pct >= NB_PEER_BOUND_PCT */
	bool sender_bound;              /* a TX point whose own iperf3 child used >= NB_PEER_BOUND_PCT of a core */
	struct nb_bottleneck bottleneck;
	int nmetrics;                   /* every metric of an ok run, in the order they first appear */
	struct nb_metric_summary metrics[NB_MAX_METRICS];
};

struct nb_summary_run {
	bool ok;
	const struct nb_metric_set *metrics;
};

struct nb_summary_input {
	int nruns;
	const struct nb_summary_run *runs;
	const struct nb_metric_set *diag;    /* the ok diagnostic repetition's metrics; NULL: none */
	bool tx;                             /* the point's test sends */
	enum nb_point_status status;
	int cpus;                            /* 0 when unknown */
	double link_mbps;                    /* 0 when unknown */
	int window_s;                        /* the test's duration */
};

/* The summary of a point's runs (pure; out is large: allocate it). An incomplete point's
 * finished runs are measurements: its bottleneck is judged like an ok point's. */
void nb_point_summarize(const struct nb_summary_input *in, struct nb_point_summary *out);
/* A metric's summary, or NULL when no ok run has it. */
const struct nb_metric_summary *nb_point_summary_get(const struct nb_point_summary *s, const char *name);

#endif
