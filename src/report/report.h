// SPDX-License-Identifier: MIT
/* The report (schema nicbench-report/1): a point's results (result.h) in, each finished repetition
 * appended to a run record (src/report/run_record.h) as it ends, the JSON file assembled from that
 * record and written atomically, and a table for a person. jansson stays inside report*.c. */
#ifndef NB_REPORT_H
#define NB_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "kit/nb_error.h"
#include "report/report_types.h"
#include "result/result.h"
#include "sampling/foreign_load.h"
#include "sampling/peer_local.h"
#include "sampling/sysinfo.h"

#define NB_REPORT_SCHEMA "nicbench-report/1"

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
/* Remove the temporary files (PATH.tmp.PID) that writers of path killed mid-write left: only
 * those whose PID is no longer running and is not this process. removed(tmp, pid, ctx) is
 * called for each one removed. Returns how many were removed, or -errno when the directory
 * cannot be read (a report directory that does not exist yet holds none: 0). */
int nb_report_remove_stale_temps(const char *path, void (*removed)(const char *tmp, int pid, void *ctx), void *ctx);
/* Assemble the report from the record and write it to path through a temporary file + rename.
 * A point begun and not ended is written with status "incomplete" and the runs it has. */
int nb_report_write(struct nb_report *r, const char *path, struct nb_err *err);
/* The report as JSON text (malloc'd). */
char *nb_report_dumps(struct nb_report *r);

struct nb_journal;
/* The report's "restore" (status, one entry per knob or per NAPI with scope, path, original as
 * the journal holds it and after as read back, error) as a record line: after the journal's
 * restore, rc and error are its outcome. */
int nb_report_put_restore(struct nb_report *r, const struct nb_journal *j, int rc, const char *error,
			  struct nb_err *err);
/* nb_report_assemble (to the report the record names) with the "restore" of j's restore. */
int nb_report_assemble_restored(const char *record_path, const struct nb_journal *j, int rc, const char *error,
				struct nb_assembly_info *info, struct nb_err *err);
/* Assemble a record left by a killed run into report_path (NULL: the path its header names);
 * info: what was found (struct nb_assembly_info, report/report_types.h). */
int nb_report_assemble(const char *record_path, const char *report_path, struct nb_assembly_info *info,
		       struct nb_err *err);
/* Record the idle check before the first point (top-level "idle_check"); the table then
 * warns when the machine was busy. */
/* The local peer as found by its socket (report "peer"."local"); forced: --peer-local. */
void nb_report_set_peer_local(struct nb_report *r, const struct nb_peer_local *peer, bool forced);
void nb_report_set_idle_check(struct nb_report *r, const struct nb_idle_check *ic);
/* Which client ran the iperf3 tests (tool.traffic_backend: "libiperf" or "iperf3"), its iperf3
 * version, and the program's path for the iperf3 program backend (NULL for libiperf). */
void nb_report_set_traffic_backend(struct nb_report *r, const char *backend, const char *version,
				   const char *program);
/* What --redact writes in place of the hostname and the kernel command line. */
#define NB_REDACTED "(redacted)"
/* Counts of points by status, for the exit code. */
void nb_report_count(const struct nb_report *r, int *ok, int *failed, int *unsupported);
void nb_report_free(struct nb_report *r);

#endif
