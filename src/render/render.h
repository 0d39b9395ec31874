// SPDX-License-Identifier: MIT
/* How `nicbench report` and `nicbench compare` show what they read: the format table both commands
 * look their --format up in, and the renderers behind it, one file a format in src/render/.
 * src/report/ is what `run` writes; src/render/ is what is shown of a report or a verdict. */
#ifndef NB_RENDER_H
#define NB_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"
#include "kit/nb_error.h"
#include "render/view.h"

/* ---- the renderers; each returns 0 or -errno (a write error) ---- */

/* compare's result (text.c, json.c, junit.c, markdown.c) */
struct nb_cmp_render_opts {
	bool color;        /* text only: ANSI colours */
	bool all_metrics;  /* text only (-v): every metric, not just the gated ones and those not unchanged */
};

int nb_cmp_render_text(FILE *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro);
int nb_cmp_render_json(FILE *out, const struct nb_cmp_result *r);
int nb_cmp_render_junit(FILE *out, const struct nb_cmp_result *r);
int nb_cmp_render_markdown(FILE *out, const struct nb_cmp_result *r);

/* The metric table's directions and floors as Markdown (compare --list-floors; docs/compare.md holds it). */
int nb_cmp_render_floors(FILE *out);

/* one report, with or without a compare view (text.c, markdown.c, html.c) */
struct nb_rv_input {
	const struct nb_cmp_report *rep;     /* the report (the new one of a compare) */
	const struct nb_rv_extra *extra;     /* NULL: no environment detail, no series */
	const struct nb_cmp_result *cmp;     /* NULL: no compare view */
};

int nb_rv_render_text(FILE *out, const struct nb_rv_input *in);
/* The points whose bottleneck moved, as text lines or a Markdown list (compare's text and Markdown end with it). */
void nb_rv_render_moved(FILE *out, const struct nb_cmp_result *r, bool md);
int nb_rv_render_markdown(FILE *out, const struct nb_rv_input *in);
int nb_rv_render_html(FILE *out, const struct nb_rv_input *in);

/* KCIDB I/O v5.3 (kcidb.c). origin: [a-z0-9_]+; build_id: NULL to emit a checkout and build of our own.
 * A compare that finds a regression adds an issue (culprit: the code) and an incident (its FAIL test) per
 * regressed metric. */
struct nb_kcidb_opts {
	const char *origin;
	const char *build_id;
	const char *report_url;  /* where the report is published: every test's output_files; NULL: none */
	const char *commit;      /* the measured (new) kernel's commit, as a bisect names the first bad one:
				  * the issues name it, and a 40-hex one is the checkout's git_commit_hash */
};

int nb_kcidb_origin_check(const char *origin, struct nb_err *err);
int nb_kcidb_build_id_check(const char *id, struct nb_err *err);
int nb_kcidb_report_url_check(const char *url, struct nb_err *err);
int nb_kcidb_commit_check(const char *commit, struct nb_err *err);
int nb_kcidb_render_report(FILE *out, const struct nb_cmp_report *rep, const struct nb_kcidb_opts *ko);
int nb_kcidb_render_compare(FILE *out, const struct nb_cmp_result *r, const struct nb_kcidb_opts *ko);

/* ---- the format table (formats.c) ---- */

enum nb_render_command { NB_RENDER_REPORT, NB_RENDER_COMPARE };

/* Everything a format may need; each uses its part. */
struct nb_render_job {
	struct nb_rv_input in;            /* compare: rep is the new report, cmp the result */
	struct nb_cmp_render_opts text;   /* compare's text */
	struct nb_kcidb_opts kcidb;
};

typedef int (*nb_render_fn)(FILE *out, const struct nb_render_job *job);

struct nb_render_format {
	const char *name;
	const char *note;                 /* --help's words after the name; NULL: none */
	nb_render_fn report, compare;     /* NULL: the command does not offer the format */
	bool page_extras;                 /* compare reads the new report's environment and series for it */
};

/* The command's format of that name; NULL when it has none. */
const struct nb_render_format *nb_render_format_find(enum nb_render_command cmd, const char *name);
/* The command's default format (text). */
const struct nb_render_format *nb_render_format_default(void);
/* "text, json, junit, ...": the names the command offers, for the unknown-format error. */
const char *nb_render_format_names(enum nb_render_command cmd, char *buf, size_t len);
/* A --format value: *f the command's format of that name, or -EINVAL with "--format 'X': unknown
 * format (text, json, ...)" and then hint (" (try ...)", or "") in err. */
int nb_render_format_parse(enum nb_render_command cmd, const char *text, const char *hint,
			   const struct nb_render_format **f, struct nb_err *err);
/* --help's list of the command's formats with their notes, wrapped to width after the first line,
 * continuation lines indented by indent columns; ends with a newline. */
void nb_render_format_help(FILE *out, enum nb_render_command cmd, int indent, int width);
/* Render job in format f for command cmd (f from nb_render_format_find for that command). */
int nb_render(FILE *out, const struct nb_render_format *f, enum nb_render_command cmd, const struct nb_render_job *job);

#endif
