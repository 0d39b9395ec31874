// SPDX-License-Identifier: MIT
/* Inside the report: the object report.c keeps, and the renderers beside it (report_json.c:
 * the JSON of runs, summaries and the assembled report; report_table.c: the table). */
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

/* What the table shows of a point: a few figures of its summary, so memory stays flat however
 * long the sweep. */
struct nb_table_row {
	char id[NB_POINT_ID_MAX];
	enum nb_point_status status;
	bool rr;                      /* a tcp-rr/udp-rr point: the rr table shows it */
	bool peer_bound, sender_bound;
	int disturbed_runs, ok_runs;
	double other;                 /* worst cpu_other_pct of the point's runs; NAN when absent */
	struct nb_stats tput;
	double busy, softirq, napi;   /* medians; NAN when absent */
	double rr_tps, rr_p50, rr_p90, rr_p99, rr_p999;  /* medians; NAN when absent */
	double unaccounted;           /* median cpu_unaccounted_pct; NAN when absent */
	double steal;                 /* median steal_pct (a VM's host); NAN when absent */
	enum nb_bn_code bottleneck;
	char first_note[NB_POINT_NOTE_MAX];  /* the point's first note; "" none */
	int nnotes;
	bool has_prec;                /* prec computed (a point with runs) */
	struct nb_precision_summary prec;
};

/* The report in memory is only its head (host, interface, config) and one table row per
 * point: the points themselves are in the run record. */
struct nb_report {
	json_t *root;
	int nrows, cap;
	struct nb_table_row *rows;
	struct nb_record_writer *rec;  /* opened by nb_report_open_record, or anonymous on first use */
	/* per point index: begun in the record, runs recorded one by one; interleaved rounds keep
	 * several points open at once */
	struct point_mark {
		bool begun;
		int runs_recorded;
	} *marks;
	int nmarks;
	bool idle_warned;             /* the idle check before the first point found the machine busy */
	double idle_busy_pct;
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

/* report_table.c */
/* The table nb_report_print_table shows (report.c hands it over: the table is report.h's). */
void nb_report_table_print(const struct nb_report *r, FILE *out);
void nb_table_row_fill(struct nb_table_row *row, const struct nb_point_result *pr, const struct nb_point_summary *s);

#endif
