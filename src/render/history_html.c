// SPDX-License-Identifier: MIT
/* nicbench history analyze as one HTML page: each gated or changed series drawn as an inline SVG,
 * its commits' values as dots, each segment's median as a line and each change point marked. */
#include <math.h>
#include <string.h>

#include "kit/stats.h"
#include "render/common.h"
#include "render/history_render.h"

#define SVG_W 720
#define SVG_H 180
#define PAD_L 96
#define PAD_R 10
#define PAD_T 10
#define PAD_B 24

struct scale {
	double lo, hi;
	int n;
};

static double sx(const struct scale *sc, double i)
{
	return PAD_L + (sc->n > 1 ? i / (sc->n - 1) : 0.5) * (SVG_W - PAD_L - PAD_R);
}

static double sy(const struct scale *sc, double v)
{
	return PAD_T + (sc->hi > sc->lo ? (sc->hi - v) / (sc->hi - sc->lo) : 0.5) * (SVG_H - PAD_T - PAD_B);
}

static void draw_series(struct nb_print *out, const struct nb_hist_series *s)
{
	struct scale sc = { INFINITY, -INFINITY, s->n };
	char lo[48], hi[48];

	for (int i = 0; i < s->n; i++) {
		sc.lo = fmin(sc.lo, s->values[i]);
		sc.hi = fmax(sc.hi, s->values[i]);
	}
	if (!s->n)
		return;
	/* a margin of 5% of the range, so the extreme dots are not cut */
	double margin = (sc.hi - sc.lo) * 0.05 + fabs(sc.hi) * 1e-9;

	sc.lo -= margin;
	sc.hi += margin;
	nb_print_fmt(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", SVG_W, SVG_H, SVG_W,
		     SVG_H);
	nb_print_fmt(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>\n", PAD_L,
		     PAD_T, SVG_W - PAD_L - PAD_R, SVG_H - PAD_T - PAD_B);
	nb_print_fmt(out, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">", PAD_L - 4, PAD_T + 8);
	nb_render_markup_text(out, nb_render_value(hi, sizeof(hi), s->metric, true, sc.hi));
	nb_print_fmt(out, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">", PAD_L - 4,
		     SVG_H - PAD_B);
	nb_render_markup_text(out, nb_render_value(lo, sizeof(lo), s->metric, true, sc.lo));
	nb_print_puts(out, "</text>\n");
	/* the segments' medians */
	for (int j = 0; j <= s->n_changes; j++) {
		int a = j ? s->changes[j - 1].index : 0, b = j < s->n_changes ? s->changes[j].index : s->n;
		double m = nb_stats_median(s->values + a, b - a);

		nb_print_fmt(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", sx(&sc, a),
			     sy(&sc, m), sx(&sc, b - 1), sy(&sc, m));
	}
	for (int j = 0; j < s->n_changes; j++) {
		const struct nb_hist_change *c = &s->changes[j];
		const char *color = c->kind == NB_HIST_REGRESSION ? "#c00" : c->kind == NB_HIST_IMPROVEMENT ? "#080" : "#888";
		double x = sx(&sc, c->index - 0.5);

		nb_print_fmt(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\">"
			     "<title>", x, PAD_T, x, SVG_H - PAD_B, color);
		nb_print_fmt(out, "%s %+.1f%%: ", nb_hist_kind_name(c->kind), c->change_pct);
		nb_render_markup_text(out, c->good);
		nb_print_puts(out, " .. ");
		nb_render_markup_text(out, c->bad);
		nb_print_puts(out, "</title></line>\n");
	}
	for (int i = 0; i < s->n; i++) {
		char v[48];

		nb_print_fmt(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#246\"><title>", sx(&sc, i),
			     sy(&sc, s->values[i]));
		nb_render_markup_text(out, s->commits[i]);
		nb_print_puts(out, ": ");
		nb_render_markup_text(out, nb_render_value(v, sizeof(v), s->metric, true, s->values[i]));
		nb_print_puts(out, "</title></circle>\n");
	}
	nb_print_fmt(out, "<text x=\"%d\" y=\"%d\" font-size=\"10\">", PAD_L, SVG_H - 6);
	nb_render_markup_text(out, s->commits[0]);
	nb_print_fmt(out, "</text>\n<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">", SVG_W - PAD_R,
		     SVG_H - 6);
	nb_render_markup_text(out, s->commits[s->n - 1]);
	nb_print_puts(out, "</text>\n</svg>\n");
}

int nb_hist_render_html(FILE *file, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro)
{
	struct nb_print out;

	nb_print_init(&out, file, NB_PRINT_PLAIN);
	nb_print_puts(&out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>nicbench history</title>\n"
			    "<style>body{font-family:sans-serif;margin:1em}h3{margin-bottom:0.2em}"
			    ".fail{color:#c00}.note{color:#555;font-size:90%}</style></head><body>\n"
			    "<h1>nicbench history</h1>\n");
	nb_print_fmt(&out, "<p>%d reports, %d board%s, %d commits, %d series. ", r->n_reports, r->n_boards,
		     r->n_boards == 1 ? "" : "s", r->n_commits, r->n_series);
	nb_print_fmt(&out, "<span class=\"%s\">%d gated regression%s still hold%s at the newest commit.</span></p>\n",
		     r->n_regressions ? "fail" : "pass", r->n_regressions, r->n_regressions == 1 ? "" : "s",
		     r->n_regressions == 1 ? "s" : "");
	for (int i = 0; i < r->n_series; i++) {
		const struct nb_hist_series *s = &r->series[i];

		if (!s->n_changes && !(s->gated || ro->all))
			continue;
		nb_print_puts(&out, "<h3>");
		nb_render_markup_text(&out, s->metric);
		nb_print_puts(&out, " at ");
		nb_render_markup_text(&out, s->point);
		nb_print_puts(&out, " <span class=\"note\">(board ");
		nb_render_markup_text(&out, s->board);
		nb_print_fmt(&out, "%s)</span></h3>\n", s->gated ? ", gated" : "");
		for (int j = 0; j < s->n_changes; j++) {
			const struct nb_hist_change *c = &s->changes[j];

			nb_print_fmt(&out, "<p class=\"%s\">%s %+.1f%% on commit ",
				     c->kind == NB_HIST_REGRESSION && c->still ? "fail" : "note", nb_hist_kind_name(c->kind),
				     c->change_pct);
			nb_render_markup_text(&out, c->bad);
			nb_print_puts(&out, " (last good ");
			nb_render_markup_text(&out, c->good);
			nb_print_puts(&out, ")");
			if (c->kind == NB_HIST_REGRESSION)
				nb_print_fmt(&out, ", %s at the newest commit (%+.1f%%)",
					     c->still ? "still regressed" : "no longer regressed", c->newest_pct);
			nb_print_puts(&out, "</p>\n");
		}
		draw_series(&out, s);
		nb_print_drain(&out);
	}
	nb_print_puts(&out, "</body></html>\n");
	return nb_print_finish(&out);
}
