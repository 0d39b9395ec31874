// SPDX-License-Identifier: MIT
/* How `nicbench history analyze` shows its result: the maintainer's text, JSON, JUnit, KCIDB and an
 * HTML page with each series drawn (history_text.c, history_json.c, history_html.c). */
#ifndef NB_HISTORY_RENDER_H
#define NB_HISTORY_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "history/history_analyze.h"

struct nb_hist_render_opts {
	const char *boot_hook; /* for the bisect command; NULL: "HOOK" */
	bool all;              /* text: every change point, not only the regressions and a summary */
	const char *origin;    /* kcidb: the submitting CI system */
	/* how many commits a good..bad range holds (0: unknown), and those before bad, oldest first and
	 * space-separated, into between (empty when more than fit); NULL: nothing known (no --git) */
	int (*range_commits)(const char *good, const char *bad, char *between, size_t len, void *arg);
	void *range_arg;
};

int nb_hist_render_text(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);
int nb_hist_render_json(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);
int nb_hist_render_junit(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);
int nb_hist_render_kcidb(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);
int nb_hist_render_html(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);

typedef int (*nb_hist_render_fn)(FILE *out, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro);

/* The format of that name (text, json, junit, kcidb, html); NULL when unknown. */
nb_hist_render_fn nb_hist_render_format(const char *name);

#endif
