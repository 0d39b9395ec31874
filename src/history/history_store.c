// SPDX-License-Identifier: MIT
/* The history database in SQLite: its tables, one transaction per add, and the readers analyze uses. */
#include "history_store.h"

#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct nb_hist_db {
	sqlite3 *db;
	const char *path;
	bool write;
	bool in_tx;
};

/* The tables. samples carries its key (board, point, metric, commit, time) beside the report it came
 * from, so a series is one indexed range; reports.identity keeps a report from being added twice. */
static const char schema_sql[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE reports (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, path TEXT NOT NULL,"
	" board TEXT NOT NULL, commit_id TEXT NOT NULL, branch TEXT NOT NULL, created TEXT NOT NULL,"
	" added TEXT NOT NULL, kernel TEXT NOT NULL, round_set TEXT NOT NULL, round_side TEXT NOT NULL,"
	" round_index INTEGER NOT NULL);"
	"CREATE TABLE points (report_id INTEGER NOT NULL REFERENCES reports(id), point TEXT NOT NULL,"
	" test_name TEXT NOT NULL, headline TEXT NOT NULL, status TEXT NOT NULL, PRIMARY KEY (report_id, point));"
	"CREATE TABLE samples (report_id INTEGER NOT NULL REFERENCES reports(id), board TEXT NOT NULL,"
	" point TEXT NOT NULL, metric TEXT NOT NULL, commit_id TEXT NOT NULL, time TEXT NOT NULL,"
	" run INTEGER NOT NULL, value REAL NOT NULL, diagnostic INTEGER NOT NULL,"
	" PRIMARY KEY (report_id, point, metric, run));"
	"CREATE INDEX samples_series ON samples (board, point, metric, commit_id, time);"
	"CREATE TABLE profile (report_id INTEGER NOT NULL REFERENCES reports(id), point TEXT NOT NULL,"
	" symbol TEXT NOT NULL, share_pct REAL NOT NULL);"
	"INSERT INTO meta VALUES ('schema', '" NB_HIST_SCHEMA "');";

/* SQLite's answer in our terms: what a user can do about it. */
static int db_error(struct nb_hist_db *h, int rc, const char *doing, struct nb_err *err)
{
	const char *why = h->db ? sqlite3_errmsg(h->db) : sqlite3_errstr(rc);

	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return nb_err_set(err, -EBUSY, "%s %s: the database is locked by another writer (waited %d ms); "
				  "nothing was changed", doing, h->path, NB_HIST_BUSY_MS);
	case SQLITE_NOTADB:
		return nb_err_set(err, -EINVAL, "%s %s: not an SQLite database (%s); nothing was changed", doing,
				  h->path, why);
	case SQLITE_CORRUPT:
		return nb_err_set(err, -EINVAL, "%s %s: the database is corrupt (%s); nothing was changed", doing,
				  h->path, why);
	case SQLITE_CANTOPEN:
		return nb_err_set(err, -ENOENT, "%s %s: cannot open (%s)", doing, h->path, why);
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return nb_err_set(err, -EACCES, "%s %s: not writable (%s); nothing was changed", doing, h->path, why);
	case SQLITE_FULL:
		return nb_err_set(err, -ENOSPC, "%s %s: disk full (%s); nothing was changed", doing, h->path, why);
	case SQLITE_NOMEM:
		return nb_err_set(err, -ENOMEM, "%s %s: out of memory", doing, h->path);
	default:
		return nb_err_set(err, -EIO, "%s %s: %s", doing, h->path, why);
	}
}

int nb_hist_open(const char *path, bool write, struct nb_hist_db **out, struct nb_err *err)
{
	struct nb_hist_db *h = calloc(1, sizeof(*h));
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	int rc;

	*out = NULL;
	if (!h)
		return nb_err_set(err, -ENOMEM, "open history database %s: out of memory", path);
	h->path = path;
	h->write = write;
	rc = sqlite3_open_v2(path, &h->db, flags, NULL);
	if (rc != SQLITE_OK) {
		int ret = db_error(h, rc, "open history database", err);

		nb_hist_close(h);
		return ret;
	}
	sqlite3_busy_timeout(h->db, NB_HIST_BUSY_MS);
	sqlite3_extended_result_codes(h->db, 1);
	*out = h;
	return 0;
}

void nb_hist_close(struct nb_hist_db *h)
{
	if (!h)
		return;
	if (h->in_tx)
		nb_hist_rollback(h);
	sqlite3_close(h->db);
	free(h);
}

/* The database's tables: ours (schema checked), none yet (created when writing), or someone else's. */
static int check_schema(struct nb_hist_db *h, struct nb_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL);
	int tables = 0;

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		tables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_error(h, rc, "read history database", err);
	if (!tables) {
		char *msg = NULL;

		if (!h->write)
			return nb_err_set(err, -ENODATA, "read history database %s: it is empty (add reports with "
					  "'nicbench history add --db %s REPORT...')", h->path, h->path);
		rc = sqlite3_exec(h->db, schema_sql, NULL, NULL, &msg);
		sqlite3_free(msg);
		return rc == SQLITE_OK ? 0 : db_error(h, rc, "create the tables of history database", err);
	}
	rc = sqlite3_prepare_v2(h->db, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *schema = (const char *)sqlite3_column_text(st, 0);
		bool ours = schema && !strcmp(schema, NB_HIST_SCHEMA);
		int ret = ours ? 0 : nb_err_set(err, -EPROTO, "read history database %s: schema \"%s\" is not supported "
						 "(expected \"%s\")", h->path, schema ? schema : "", NB_HIST_SCHEMA);

		sqlite3_finalize(st);
		return ret;
	}
	sqlite3_finalize(st);
	if ((rc & 0xff) == SQLITE_ERROR || rc == SQLITE_DONE)
		return nb_err_set(err, -EINVAL, "read history database %s: an SQLite database, but not a nicbench "
				  "history (no schema \"%s\" in it); nothing was changed", h->path, NB_HIST_SCHEMA);
	return db_error(h, rc, "read history database", err);
}

int nb_hist_begin(struct nb_hist_db *h, struct nb_err *err)
{
	char *msg = NULL;
	/* IMMEDIATE: take the write lock now, so a second writer waits here, not half-way through */
	int rc = sqlite3_exec(h->db, h->write ? "BEGIN IMMEDIATE" : "BEGIN", NULL, NULL, &msg);
	int ret;

	sqlite3_free(msg);
	if (rc != SQLITE_OK)
		return db_error(h, rc, "begin a transaction on history database", err);
	h->in_tx = true;
	ret = check_schema(h, err);
	if (ret)
		nb_hist_rollback(h);
	return ret;
}

int nb_hist_commit(struct nb_hist_db *h, struct nb_err *err)
{
	int rc = sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL);

	if (rc != SQLITE_OK) {
		int ret = db_error(h, rc, "commit to history database", err);

		nb_hist_rollback(h);
		return ret;
	}
	h->in_tx = false;
	return 0;
}

void nb_hist_rollback(struct nb_hist_db *h)
{
	if (h->in_tx)
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	h->in_tx = false;
}

void nb_hist_identity(const char *text, size_t len, char *out, size_t out_len)
{
	uint64_t hash = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		hash ^= (unsigned char)text[i];
		hash *= 1099511628211ULL;
	}
	snprintf(out, out_len, "fnv1a64:%016" PRIx64 ":%zu", hash, len);
}

/* A prepared statement with text parameters bound in order; NULL on error (err filled). */
static sqlite3_stmt *prepare(struct nb_hist_db *h, const char *sql, struct nb_err *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK) {
		db_error(h, rc, "prepare a statement on history database", err);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

static int step_done(struct nb_hist_db *h, sqlite3_stmt *st, const char *doing, struct nb_err *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : db_error(h, rc, doing, err);
}

static int find_identity(struct nb_hist_db *h, const char *identity, int64_t *id, struct nb_err *err)
{
	sqlite3_stmt *st = prepare(h, "SELECT id FROM reports WHERE identity = ?", err);
	int rc;

	*id = 0;
	if (!st)
		return err ? err->code : -EIO;
	sqlite3_bind_text(st, 1, identity, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_error(h, rc, "look up a report in history database", err);
}

static void now_rfc3339(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int insert_report(struct nb_hist_db *h, const struct nb_cmp_report *r, const struct nb_hist_add_meta *m,
			 int64_t *id, struct nb_err *err)
{
	sqlite3_stmt *st = prepare(h, "INSERT INTO reports (identity, path, board, commit_id, branch, created, added,"
				   " kernel, round_set, round_side, round_index) VALUES (?,?,?,?,?,?,?,?,?,?,?)", err);
	char added[32], side[2] = { r->round.present ? r->round.side : '\0', '\0' };
	int ret;

	if (!st)
		return err ? err->code : -EIO;
	now_rfc3339(added, sizeof(added));
	sqlite3_bind_text(st, 1, m->identity, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, m->board, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, m->commit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, m->branch, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->created, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, added, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, r->kernel_release, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, r->round.present ? r->round.set : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, side, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, r->round.present ? r->round.index : 0);
	ret = step_done(h, st, "add a report to history database", err);
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(h->db);
	return ret;
}

/* The statements of one report's rows, prepared once. */
struct add_ctx {
	struct nb_hist_db *h;
	const struct nb_hist_add_meta *m;
	const struct nb_cmp_report *r;
	int64_t id;
	sqlite3_stmt *point, *sample, *profile;
	int rows;
};

static int add_point(struct add_ctx *c, const struct nb_cmp_point *p, struct nb_err *err)
{
	int ret;

	sqlite3_bind_int64(c->point, 1, c->id);
	sqlite3_bind_text(c->point, 2, p->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->point, 3, p->test_name, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->point, 4, p->headline ? p->headline : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(c->point, 5, p->incomplete ? "incomplete" : nb_cmp_status_name(p->status), -1,
			  SQLITE_STATIC);
	ret = step_done(c->h, c->point, "add a point to history database", err);
	if (ret)
		return ret;
	for (int i = 0; i < p->n_metrics && !ret; i++) {
		const struct nb_cmp_samples *s = &p->metrics[i];
		/* a metric with a median but no run values is one row of its median */
		int runs = s->n ? s->n : 1;

		for (int run = 0; run < runs && !ret; run++) {
			sqlite3_bind_int64(c->sample, 1, c->id);
			sqlite3_bind_text(c->sample, 2, c->m->board, -1, SQLITE_STATIC);
			sqlite3_bind_text(c->sample, 3, p->id, -1, SQLITE_STATIC);
			sqlite3_bind_text(c->sample, 4, s->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(c->sample, 5, c->m->commit, -1, SQLITE_STATIC);
			sqlite3_bind_text(c->sample, 6, c->r->created, -1, SQLITE_STATIC);
			sqlite3_bind_int(c->sample, 7, run);
			sqlite3_bind_double(c->sample, 8, s->n ? s->values[run] : s->median);
			sqlite3_bind_int(c->sample, 9, s->diagnostic);
			ret = step_done(c->h, c->sample, "add a run to history database", err);
			c->rows++;
		}
	}
	for (int i = 0; i < p->n_profile && !ret; i++) {
		sqlite3_bind_int64(c->profile, 1, c->id);
		sqlite3_bind_text(c->profile, 2, p->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(c->profile, 3, p->profile[i].symbol, -1, SQLITE_STATIC);
		sqlite3_bind_double(c->profile, 4, p->profile[i].share_pct);
		ret = step_done(c->h, c->profile, "add a profile entry to history database", err);
	}
	return ret;
}

int nb_hist_add_report(struct nb_hist_db *h, const struct nb_cmp_report *r, const struct nb_hist_add_meta *m,
		       struct nb_hist_added *out, struct nb_err *err)
{
	struct add_ctx c = { .h = h, .m = m, .r = r };
	int ret;

	memset(out, 0, sizeof(*out));
	if (!h->in_tx)
		return nb_err_set(err, -EINVAL, "add report %s: no transaction begun", r->path);
	ret = find_identity(h, m->identity, &out->report_id, err);
	if (ret || out->report_id) {
		out->duplicate = !ret;
		return ret;
	}
	ret = insert_report(h, r, m, &c.id, err);
	if (ret)
		return ret;
	c.point = prepare(h, "INSERT INTO points VALUES (?,?,?,?,?)", err);
	c.sample = c.point ? prepare(h, "INSERT INTO samples VALUES (?,?,?,?,?,?,?,?,?)", err) : NULL;
	c.profile = c.sample ? prepare(h, "INSERT INTO profile VALUES (?,?,?,?)", err) : NULL;
	ret = c.profile ? 0 : (err && err->code ? err->code : -EIO);
	for (int i = 0; i < r->n_points && !ret; i++)
		ret = add_point(&c, &r->points[i], err);
	sqlite3_finalize(c.point);
	sqlite3_finalize(c.sample);
	sqlite3_finalize(c.profile);
	if (ret)
		nb_err_prefix(err, "add report %s: ", r->path);
	out->report_id = c.id;
	out->rows = c.rows;
	return ret;
}

/* ---- readers ---- */

static const char *text_col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

/* Run a query in a read transaction, calling row(st, arg) for each row. */
static int each_row(struct nb_hist_db *h, const char *sql, int (*row)(sqlite3_stmt *st, void *arg), void *arg,
		    struct nb_err *err)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (!h->in_tx) {
		ret = nb_hist_begin(h, err);
		if (ret)
			return ret;
		ret = each_row(h, sql, row, arg, err);
		nb_hist_rollback(h);
		return ret;
	}
	st = prepare(h, sql, err);
	if (!st)
		return err ? err->code : -EIO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ret = row(st, arg);
		if (ret)
			break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_error(h, rc, "read history database", err);
	sqlite3_finalize(st);
	return ret;
}

/* A reader's callback, kept as some function pointer type and cast back to its own by its row
 * function (casts between function pointer types are defined; to void * they are not). */
typedef void (*any_fn)(void);

struct cb {
	any_fn fn;
	void *arg;
};

static int report_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct nb_hist_report_row r = {
		.id = sqlite3_column_int64(st, 0), .identity = text_col(st, 1), .path = text_col(st, 2),
		.board = text_col(st, 3), .commit = text_col(st, 4), .branch = text_col(st, 5),
		.created = text_col(st, 6), .added = text_col(st, 7), .kernel = text_col(st, 8),
		.round_set = text_col(st, 9), .round_side = text_col(st, 10), .round_index = sqlite3_column_int(st, 11),
		.points = sqlite3_column_int(st, 12), .rows = sqlite3_column_int(st, 13),
	};

	return ((nb_hist_report_fn)c->fn)(&r, c->arg);
}

int nb_hist_each_report(struct nb_hist_db *h, nb_hist_report_fn fn, void *arg, struct nb_err *err)
{
	struct cb c = { (any_fn)fn, arg };

	return each_row(h,
			"SELECT r.id, identity, path, board, commit_id, branch, created, added, kernel, round_set,"
			" round_side, round_index, (SELECT count(*) FROM points p WHERE p.report_id = r.id),"
			" (SELECT count(*) FROM samples s WHERE s.report_id = r.id) FROM reports r ORDER BY r.id",
			report_row, &c, err);
}

static int sample_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct nb_hist_sample s = {
		.report_id = sqlite3_column_int64(st, 0), .board = text_col(st, 1), .point = text_col(st, 2),
		.metric = text_col(st, 3), .commit = text_col(st, 4), .time = text_col(st, 5),
		.run = sqlite3_column_int(st, 6), .value = sqlite3_column_double(st, 7),
		.diagnostic = sqlite3_column_int(st, 8) != 0,
	};

	return ((nb_hist_sample_fn)c->fn)(&s, c->arg);
}

int nb_hist_each_sample(struct nb_hist_db *h, nb_hist_sample_fn fn, void *arg, struct nb_err *err)
{
	struct cb c = { (any_fn)fn, arg };

	return each_row(h,
			"SELECT report_id, board, point, metric, commit_id, time, run, value, diagnostic FROM samples"
			" ORDER BY board, point, metric, report_id, run",
			sample_row, &c, err);
}

static int point_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct nb_hist_point_row p = {
		.report_id = sqlite3_column_int64(st, 0), .point = text_col(st, 1), .test_name = text_col(st, 2),
		.headline = text_col(st, 3), .status = text_col(st, 4),
	};

	return ((nb_hist_point_fn)c->fn)(&p, c->arg);
}

int nb_hist_each_point(struct nb_hist_db *h, nb_hist_point_fn fn, void *arg, struct nb_err *err)
{
	struct cb c = { (any_fn)fn, arg };

	return each_row(h, "SELECT report_id, point, test_name, headline, status FROM points ORDER BY report_id, point",
			point_row, &c, err);
}

static int profile_row(sqlite3_stmt *st, void *arg)
{
	struct cb *c = arg;
	struct nb_hist_profile_row p = {
		.report_id = sqlite3_column_int64(st, 0), .point = text_col(st, 1), .symbol = text_col(st, 2),
		.share_pct = sqlite3_column_double(st, 3),
	};

	return ((nb_hist_profile_fn)c->fn)(&p, c->arg);
}

int nb_hist_each_profile(struct nb_hist_db *h, nb_hist_profile_fn fn, void *arg, struct nb_err *err)
{
	struct cb c = { (any_fn)fn, arg };

	return each_row(h, "SELECT report_id, point, symbol, share_pct FROM profile ORDER BY report_id, point",
			profile_row, &c, err);
}
