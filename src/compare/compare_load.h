// SPDX-License-Identifier: MIT
/* The parts of a nicbench-report/1 file that compare needs, as plain C structs (jansson stays in compare_load.c). */
#ifndef NB_COMPARE_LOAD_H
#define NB_COMPARE_LOAD_H

#include <stdbool.h>

#include "kit/metrics.h"
#include "kit/nb_error.h"

#define NB_CMP_REPORT_SCHEMA "nicbench-report/1"

enum nb_cmp_status {
	NB_CMP_STATUS_OK,
	NB_CMP_STATUS_FAILED,
	NB_CMP_STATUS_TIMEOUT,
	NB_CMP_STATUS_UNSUPPORTED,
};

/* One metric of one point: its median and the per-run values behind it. */
struct nb_cmp_samples {
	const char *name; /* one copy per report, as long as the report has it */
	double median;
	int n;
	double *values;
	/* from the point's diagnostic repetition (tracepoints, profile), not the measured runs:
	 * shown, never gated */
	bool diagnostic;
	/* compare over rounds: the first `paired` values are round medians that pair, one for
	 * one and in order, with the other side's (the same round index); 0 in a plain report */
	int paired;
};

struct nb_cmp_profile_entry {
	const char *symbol;
	double share_pct;
};

/* One test point of a report. */
struct nb_cmp_point {
	const char *id;
	const char *test_name;  /* "tcp-rx"; "" when the report has none */
	const char *direction;  /* "rx" / "tx"; "" when unknown */
	const char *knobs;      /* "threaded=1 gro_flush_timeout=20000", for display */
	const char *test_json;  /* the point's "test" object, compact, for the environment check */
	const char *headline;   /* the metric its row shows and the default gate judges (kit/headline.h) */
	enum nb_cmp_status status;
	/* the run was killed or stopped during this point: status OK, compared on the runs that
	 * finished, and said so (report status "incomplete") */
	bool incomplete;
	const char *error;      /* NULL when the report has none */
	int n_metrics;
	struct nb_cmp_samples *metrics;
	/* Runs that measured both throughput and CPU busy, for the efficiency metric. */
	int n_pairs;
	double *pair_throughput_bps;
	double *pair_cpu_busy_pct;
	int pairs_paired;       /* compare over rounds: as nb_cmp_samples.paired, for the pairs above */
	int n_profile;
	struct nb_cmp_profile_entry *profile;
	/* the diagnostic repetition's folded stacks (profile_stacks.file), as a path from here:
	 * the file sits beside the report; NULL when the report names none */
	const char *stacks_file;
};

/* A report field that should match between base and new (everything but the kernel). */
struct nb_cmp_env_field {
	const char *key;    /* "interface.driver" */
	const char *value;  /* compact JSON text, NULL when absent */
};

#define NB_CMP_ENV_MAX 24

/* The report's place in an A/B set of rounds ("round": run --round SIDE:I/N[:SET]). */
struct nb_cmp_round {
	bool present;
	char side;        /* 'A' or 'B' */
	int index, of;    /* index from 1, of N */
	const char *set;  /* "" when absent */
};

struct nb_cmp_report {
	const char *path;
	const char *kernel_release; /* "" when absent */
	const char *hostname;       /* host.hostname; "" when absent (history keys a board by it) */
	const char *created;
	int cpus;                   /* 0 when absent: no efficiency metric then */
	const char *restore_status; /* the report's restore.status: "ok", "failed"; "" when absent */
	const char *restore_error;  /* "" when none */
	int restore_knobs;          /* entries in restore.knobs */
	struct nb_cmp_round round;
	int n_env;
	struct nb_cmp_env_field env[NB_CMP_ENV_MAX];
	int n_points;
	struct nb_cmp_point *points;
	struct nb_cmp_arena *arena; /* owns every string and array above */
};

/* Read and validate a report file. On error fills err with one line that names the
 * file and the problem, and returns -errno (-ENOENT, -EINVAL, -EPROTO for another
 * schema, -ENODATA for a report without results). */
int nb_cmp_report_load(const char *path, struct nb_cmp_report *out, struct nb_err *err);

/* Same from a JSON text already in memory (tests, stdin); `label` names it in errors. */
int nb_cmp_report_parse(const char *text, size_t len, const char *label, struct nb_cmp_report *out,
			struct nb_err *err);

/* Load base and new side by side in two threads (a report of thousands of points is
 * megabytes of JSON). On error err names the report that failed (base first) and
 * both reports are left empty. */
int nb_cmp_reports_load(const char *base_path, const char *new_path, struct nb_cmp_report *base,
			struct nb_cmp_report *new, struct nb_err *err);

void nb_cmp_report_free(struct nb_cmp_report *r);

/* For reports made by compare itself (compare over rounds merges a side's rounds into one):
 * an empty report whose arena owns what nb_cmp_report_alloc and _strdup return, freed by
 * nb_cmp_report_free. alloc zeroes; both return NULL when out of memory (alloc also for n 0). */
int nb_cmp_report_init(struct nb_cmp_report *r, const char *path);
void *nb_cmp_report_alloc(struct nb_cmp_report *r, size_t n, size_t elem);
const char *nb_cmp_report_strdup(struct nb_cmp_report *r, const char *s);

const char *nb_cmp_status_name(enum nb_cmp_status s);

/* Find a metric of a point; NULL when absent. */
const struct nb_cmp_samples *nb_cmp_point_metric(const struct nb_cmp_point *p, const char *name);

#endif
