/* The report (schema nicbench-report/1): structs from the runner in, an atomically
 * written JSON file and a table for a person out. jansson stays inside report.c. */
#ifndef NB_REPORT_H
#define NB_REPORT_H

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

enum nb_point_status { NB_POINT_OK, NB_POINT_FAILED, NB_POINT_TIMEOUT, NB_POINT_UNSUPPORTED };

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

struct nb_report;

int nb_report_new(const struct nb_config *cfg, const struct nb_host_info *host, const struct nb_iface_info *iface,
		  struct nb_report **out, struct nb_err *err);
/* Append a finished point (copies what it needs). */
int nb_report_add_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err);
/* Can a report be written at path? Creates and removes the temporary file nb_report_write
 * would use, so an existing report at path is left untouched. */
int nb_report_check_writable(const char *path, struct nb_err *err);
/* Write the whole report to path through a temporary file + rename. */
int nb_report_write(const struct nb_report *r, const char *path, struct nb_err *err);
/* The report as JSON text (malloc'd). */
char *nb_report_dumps(const struct nb_report *r);
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
