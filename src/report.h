// SPDX-License-Identifier: MIT
/* The report (schema nicbench-report/1): structs from the runner in, each finished repetition
 * appended to a run record (src/run_record.h) as it ends, the JSON file assembled from that
 * record and written atomically, and a table for a person. jansson stays inside report.c. */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "cpu_sampler.h"
#include "iperf_driver.h"
#include "kprofile.h"
#include "latency_hist.h"
#include "metrics.h"
#include "napi_knobs.h"
#include "nb_error.h"
#include "plan.h"
#include "qstats.h"
#include "sysinfo.h"

#define NB_REPORT_SCHEMA "nicbench-report/1"

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
	struct nb_hist *rr_hist;        /* tcp-rr/udp-rr latency of the window, all flows; owned; NULL otherwise */
};

/* INCOMPLETE only comes out of assembling a record whose run was stopped or killed mid-point. */
enum nb_point_status { NB_POINT_OK, NB_POINT_FAILED, NB_POINT_TIMEOUT, NB_POINT_UNSUPPORTED, NB_POINT_INCOMPLETE };

struct nb_point_result {
	const struct nb_point *point;
	int nknobs;
	struct nb_knob_setting readback[NB_MAX_POINT_KNOBS]; /* knobs as read back after applying */
	enum nb_point_status status;
	char error[512];
	int nruns;
	struct nb_run_record *runs;
	char trace_note[256];           /* why tracepoint metrics are absent, when they are */
	char trace_detail[512];         /* with tracing on: why some trace metrics or the profile are absent */
	struct nb_profile profile;      /* top kernel symbols of the point's last ok run; n = 0: none */
	bool has_diag;                  /* the diagnostic repetition ran ok: its metrics below */
	struct nb_metric_set diag_metrics;
	char capture_file[4096];        /* .pcap of the first run's window; empty: none */
	int capture_packets;
	char knob_via[NB_MAX_POINT_KNOBS][16]; /* path each readback knob was set through; "" none */
	struct nb_napi_table *napis;    /* NAPIs after the knobs were applied, owned; NULL: not read */
};

const char *nb_point_status_name(enum nb_point_status s);
const char *nb_run_status_name(enum nb_run_status s);

/* Point status from its runs: ok when every run was ok, else the first failure. */
void nb_point_result_settle(struct nb_point_result *pr);
void nb_point_result_release(struct nb_point_result *pr);
void nb_run_record_release(struct nb_run_record *run);

struct nb_report;

int nb_report_new(const struct nb_config *cfg, const struct nb_host_info *host, const struct nb_iface_info *iface,
		  struct nb_report **out, struct nb_err *err);
/* Give the report a named run record (created, truncated) that holds every finished
 * repetition, and name the report it assembles into (recorded for `nicbench knobs restore`).
 * Without this call the first point opens an anonymous record in $TMPDIR. */
int nb_report_open_record(struct nb_report *r, const char *record_path, const char *report_path,
			  struct nb_err *err);
const char *nb_report_record_path(const struct nb_report *r);  /* "" when anonymous or none */
long long nb_report_record_bytes(const struct nb_report *r);
/* Delete the record's file once the report written from it holds everything; the open file
 * stays readable for nb_report_dumps until nb_report_free. */
void nb_report_drop_record_file(struct nb_report *r);
/* Record a point whose knobs are applied, before its first repetition. */
int nb_report_begin_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err);
/* Record pr->runs[rep] as finished (appended and fsync'd); the caller may then free its raw
 * JSON and samples. Begins the point when that was not done. */
int nb_report_add_run(struct nb_report *r, const struct nb_point_result *pr, int rep, struct nb_err *err);
/* Record the point's diagnostic repetition (tracepoints, profile): reported under the point's
 * "diagnostics", never in its medians. */
int nb_report_add_diagnostics(struct nb_report *r, const struct nb_point_result *pr, const struct nb_run_record *run,
			      struct nb_err *err);
/* One round of an interleaved sweep: the points it visited in order (plan indices), the time
 * spent applying their knobs and the round's wall time (the report's "rounds"). */
struct nb_round_info {
	int round;
	int npoints;
	const int *order;
	double knob_change_s, seconds;
};
int nb_report_add_round(struct nb_report *r, const struct nb_round_info *ri, struct nb_err *err);
/* End a finished point: records any runs not recorded yet and its status; keeps its table row. */
int nb_report_add_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err);
/* Can a report be written at path? Creates and removes the temporary file nb_report_write
 * would use, so an existing report at path is left untouched. */
int nb_report_check_writable(const char *path, struct nb_err *err);
/* Assemble the report from the record and write it to path through a temporary file + rename.
 * A point begun and not ended is written with status "incomplete" and the runs it has. */
int nb_report_write(struct nb_report *r, const char *path, struct nb_err *err);
/* The report as JSON text (malloc'd). */
char *nb_report_dumps(struct nb_report *r);

struct nb_assembly_info {
	char report_path[PATH_MAX];
	int points, incomplete;
	bool torn;   /* the record ended in a record cut short (not assembled) */
};
/* Assemble a record left by a killed run into report_path (NULL: the path its header names). */
int nb_report_assemble(const char *record_path, const char *report_path, struct nb_assembly_info *info,
		       struct nb_err *err);
/* The human table: one line per point. */
void nb_report_print_table(const struct nb_report *r, FILE *out);
/* Record the idle check before the first point (top-level "idle_check"); the table then
 * warns when the machine was busy. */
void nb_report_set_idle_check(struct nb_report *r, const struct nb_idle_check *ic);
/* What --redact writes in place of the hostname and the kernel command line. */
#define NB_REDACTED "(redacted)"
/* Counts of points by status, for the exit code. */
void nb_report_count(const struct nb_report *r, int *ok, int *failed, int *unsupported);
void nb_report_free(struct nb_report *r);

#endif
