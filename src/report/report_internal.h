// SPDX-License-Identifier: MIT
/* Inside the report: the object report.c keeps, and the renderers beside it (report_json.c:
 * the JSON of runs, summaries and the assembled report). */
#ifndef NB_REPORT_INTERNAL_H
#define NB_REPORT_INTERNAL_H

#include <jansson.h>

#include <stdbool.h>
#include <stdio.h>

#include "kit/nb_error.h"
#include "report/report_precision.h"
#include "report/report_types.h"
#include "result/result.h"
#include "run_record.h"

/* The report in memory is only its head (host, interface, config) and a count of its points by
 * status: the points themselves are in the run record, and each is summarised once, when the
 * report is assembled from it. */
struct nb_report {
	json_t *root;
	int points_ok, points_failed, points_unsupported;
	struct nb_record_writer *rec;  /* opened by nb_report_open_record, or anonymous on first use */
	/* per point index: begun in the record, runs recorded one by one; interleaved rounds keep
	 * several points open at once */
	struct point_mark {
		bool begun;
		int runs_recorded;
	} *marks;
	int nmarks;
	bool promiscuous;             /* the sweep held the interface promiscuous: its UDP rx points are floods */
};

#define NB_RECORD_FORMAT "nicbench-record/1"

/* report_json.c */
json_t *nb_report_test_json(const struct nb_test_spec *t);
/* A run as the record and the report hold it; bare: metrics and status only. */
json_t *nb_report_run_json(const struct nb_run_record *run, bool bare);
/* The summary's machine facts from the report's head. */
void nb_report_head_facts(const json_t *root, struct nb_summary_input *in);
/* The record's lines (header first) -> the report's JSON text on out. restore (may be NULL)
 * is the report's "restore", over a "restore" line of the record. */
int nb_report_assemble_json(struct nb_record_reader *rd, FILE *out, json_t *restore, struct nb_assembly_info *info,
			    struct nb_err *err);

#endif
