// SPDX-License-Identifier: MIT
/* Inside src/render/: the helpers more than one format uses (common.c), so each format file holds
 * only its own layout. Not for callers outside the folder: they use render/view.h. */
#ifndef NB_RENDER_COMMON_H
#define NB_RENDER_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"
#include "kit/nb_print.h"
#include "render/render.h"

/* ---- compare ---- */

/* A metric's value in its unit ("7.64 Gbit/s", "45.0%", "1234"); "-" when !present. */
const char *nb_render_value(char *buf, size_t len, const char *name, bool present, double v);
/* The gate rules as --gate spells them, "none" when empty. */
void nb_render_gate(struct nb_print *out, const struct nb_cmp_options *opt);
/* Lines led by lead: foreign load that differs, a peer- or sender-bound side, an incomplete side. */
void nb_render_foreign_load(struct nb_print *out, const char *lead, const struct nb_cmp_result *r);
void nb_render_bound_warnings(struct nb_print *out, const char *lead, const struct nb_cmp_point *b,
			      const struct nb_cmp_point *n);
void nb_render_incomplete(struct nb_print *out, const char *lead, const char *side, const struct nb_cmp_point *p);
/* The gated verdicts withheld for disturbed data, as text lines or a Markdown list. */
void nb_render_disturbed(struct nb_print *out, const struct nb_cmp_result *r, bool md);
/* The side a point result has: base, or new for a point only in NEW. */
const struct nb_cmp_point *nb_render_any_point(const struct nb_cmp_point_result *pr);

/* ---- report ---- */

const char *nb_render_or_dash(const char *s);
/* s as the text of an HTML page or an XML document: markup escaped, control characters (but the
 * newline) shown as a space. */
void nb_render_markup_text(struct nb_print *out, const char *s);

/* s as Markdown text (escaped), and as a table cell "| s ". */
void nb_render_md_text(FILE *out, const char *s);
void nb_render_md_cell(FILE *out, const char *s);
/* A point's throughput median, its min .. max, a metric's median, its bits per CPU-second; "-" when absent. */
void nb_render_tput(char *buf, size_t len, const struct nb_cmp_point *p);
void nb_render_range(char *buf, size_t len, const struct nb_cmp_point *p);
void nb_render_median(char *buf, size_t len, const struct nb_cmp_point *p, const char *name);
void nb_render_efficiency(char *buf, size_t len, const struct nb_cmp_report *rep, const struct nb_cmp_point *p);
/* "Which setting to choose": each test's Pareto front and the best setting across tests. */
void nb_render_choice(FILE *out, const struct nb_cmp_report *rep, bool md);

/* A point's profile movers on one line after lead, with how they were chosen (over paired
 * rounds: the median move and the pairs' range; between two reports: a floor in points). */
void nb_render_movers(struct nb_print *out, const char *lead, const struct nb_cmp_point_result *pr);

#endif
