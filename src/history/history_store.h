// SPDX-License-Identifier: MIT
/* The history database: reports kept in SQLite, one row per report, point, metric and run, so that
 * `nicbench history analyze` sees series over commits (only history_store.c knows SQLite). */
#ifndef NB_HISTORY_STORE_H
#define NB_HISTORY_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/compare_load.h"
#include "kit/nb_error.h"

#define NB_HIST_SCHEMA "nicbench-history/1"
/* How long a writer waits for another one's lock before it gives up (exit 2, nothing written). */
#define NB_HIST_BUSY_MS 2000

struct nb_hist_db;

/* Open the database at path. write: create it when absent (and its tables at the first add);
 * otherwise it must exist and be a history database. A file that is not SQLite, is corrupt or
 * holds another program's tables is refused with a message that says which: -EINVAL; -ENOENT
 * when a read finds no file; -EBUSY when another writer holds the lock. */
int nb_hist_open(const char *path, bool write, struct nb_hist_db **out, struct nb_err *err);
void nb_hist_close(struct nb_hist_db *db);

/* An add is one transaction: begin, each report, then commit; any error rolls all of it back so
 * the database holds what it held. begin also checks (or creates) the tables. */
int nb_hist_begin(struct nb_hist_db *db, struct nb_err *err);
int nb_hist_commit(struct nb_hist_db *db, struct nb_err *err);
void nb_hist_rollback(struct nb_hist_db *db);

/* A report's identity: the hash of its bytes and their count ("fnv1a64:HEX:LEN"): the same file
 * added twice is one report. Not a security hash: it tells honest copies apart. */
void nb_hist_identity(const char *text, size_t len, char *out, size_t out_len);

/* Where a report sits in the history: the commit it measured, its branch and its board. */
struct nb_hist_add_meta {
	const char *identity;
	const char *commit;  /* --commit, else the report's kernel release */
	const char *branch;  /* "" when not given */
	const char *board;   /* --board, else the report's host name, else "unknown" */
};

struct nb_hist_added {
	int64_t report_id;   /* the new row, or the one that holds the same report already */
	bool duplicate;      /* the report was there: nothing added */
	int rows;            /* run rows added */
};

/* Add one loaded report inside a begun transaction. */
int nb_hist_add_report(struct nb_hist_db *db, const struct nb_cmp_report *r, const struct nb_hist_add_meta *m,
		       struct nb_hist_added *out, struct nb_err *err);

/* ---- reading: each callback returns 0 to go on, or -errno to stop (returned as is) ---- */

struct nb_hist_report_row {
	int64_t id;
	const char *identity, *path, *board, *commit, *branch, *created, *added, *kernel;
	const char *round_set;  /* "" for a plain report */
	const char *round_side; /* "A"/"B", "" for a plain report */
	int round_index;        /* 0 for a plain report */
	int points, rows;
};
typedef int (*nb_hist_report_fn)(const struct nb_hist_report_row *row, void *arg);
/* In the order they were added. */
int nb_hist_each_report(struct nb_hist_db *db, nb_hist_report_fn fn, void *arg, struct nb_err *err);

/* One run's value of one metric of one point of one report. */
struct nb_hist_sample {
	int64_t report_id;
	const char *board, *point, *metric, *commit, *time;
	int run;
	double value;
	bool diagnostic;
};
typedef int (*nb_hist_sample_fn)(const struct nb_hist_sample *s, void *arg);
/* Ordered by board, point, metric, report (added order), run. */
int nb_hist_each_sample(struct nb_hist_db *db, nb_hist_sample_fn fn, void *arg, struct nb_err *err);

/* A point of a report: what the gate rules match on. */
struct nb_hist_point_row {
	int64_t report_id;
	const char *point, *test_name, *headline, *status;
};
typedef int (*nb_hist_point_fn)(const struct nb_hist_point_row *p, void *arg);
int nb_hist_each_point(struct nb_hist_db *db, nb_hist_point_fn fn, void *arg, struct nb_err *err);

/* A profile symbol's share of a point's busy samples in a report. */
struct nb_hist_profile_row {
	int64_t report_id;
	const char *point, *symbol;
	double share_pct;
};
typedef int (*nb_hist_profile_fn)(const struct nb_hist_profile_row *p, void *arg);
int nb_hist_each_profile(struct nb_hist_db *db, nb_hist_profile_fn fn, void *arg, struct nb_err *err);

#endif
