// SPDX-License-Identifier: MIT
/* The history database in a build without SQLite (a board's cross build whose sysroot has no
 * libsqlite3): every call says so, and `nicbench history` exits 2 with the reason. CMake compiles
 * this file instead of history_store.c when pkg-config finds no sqlite3. */
#include "history_store.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

static int no_sqlite(struct nb_err *err)
{
	return nb_err_set(err, -ENOTSUP, "nicbench was built without SQLite (libsqlite3-dev): no history database");
}

int nb_hist_open(const char *path, bool write, struct nb_hist_db **out, struct nb_err *err)
{
	(void)path;
	(void)write;
	*out = NULL;
	return no_sqlite(err);
}

void nb_hist_close(struct nb_hist_db *db)
{
	(void)db;
}

int nb_hist_begin(struct nb_hist_db *db, struct nb_err *err)
{
	(void)db;
	return no_sqlite(err);
}

int nb_hist_commit(struct nb_hist_db *db, struct nb_err *err)
{
	(void)db;
	return no_sqlite(err);
}

void nb_hist_rollback(struct nb_hist_db *db)
{
	(void)db;
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

int nb_hist_add_report(struct nb_hist_db *db, const struct nb_cmp_report *r, const struct nb_hist_add_meta *m,
		       struct nb_hist_added *out, struct nb_err *err)
{
	(void)db;
	(void)r;
	(void)m;
	(void)out;
	return no_sqlite(err);
}

int nb_hist_each_report(struct nb_hist_db *db, nb_hist_report_fn fn, void *arg, struct nb_err *err)
{
	(void)db;
	(void)fn;
	(void)arg;
	return no_sqlite(err);
}

int nb_hist_each_sample(struct nb_hist_db *db, nb_hist_sample_fn fn, void *arg, struct nb_err *err)
{
	(void)db;
	(void)fn;
	(void)arg;
	return no_sqlite(err);
}

int nb_hist_each_point(struct nb_hist_db *db, nb_hist_point_fn fn, void *arg, struct nb_err *err)
{
	(void)db;
	(void)fn;
	(void)arg;
	return no_sqlite(err);
}

int nb_hist_each_profile(struct nb_hist_db *db, nb_hist_profile_fn fn, void *arg, struct nb_err *err)
{
	(void)db;
	(void)fn;
	(void)arg;
	return no_sqlite(err);
}
