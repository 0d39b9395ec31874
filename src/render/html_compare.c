// SPDX-License-Identifier: MIT
/* HTML: the compare section of the page (html.c): the verdict, a forest plot of the gated metrics,
 * the table of what moved, moved bottlenecks, profile movers and differential flame graphs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_rounds.h"
#include "kit/metric_table.h"
#include "config/plan.h"
#include "render/flamegraph.h"
#include "render/html.h"
#include "render/view.h"
#include "sampling/kprofile.h"

/* Flame graphs make the page heavy (up to a few hundred kB each): the first points with stacks. */
#define FLAME_POINTS_MAX 8

#define W NB_HTML_W
#define LABEL_W NB_HTML_LABEL_W

static const char *verdict_class(enum nb_cmp_verdict v)
{
	return nb_cmp_verdict_name(v);
}

/* Bit rates scaled with their unit, everything else as a short number. */
static void value(FILE *out, const char *metric, double v)
{
	char buf[24];

	enum nb_metric_unit_kind kind = nb_metric_kind_of(metric);

	if (kind == NB_UNIT_BIT_PER_S)
		fputs(nb_rv_bps(buf, sizeof(buf), v), out);
	else if (kind == NB_UNIT_BIT_PER_CPU_S)
		fprintf(out, "%s per CPU-s", nb_rv_bps(buf, sizeof(buf), v));
	else
		fprintf(out, "%.4g", v);
}

/* Add one report's folded stacks to set; a missing or bad file is said on the page. */
static void folded_read(FILE *out, const char *path, struct nb_folded *set)
{
	struct nb_err err = { 0 };

	if (nb_folded_load(path, set, &err) < 0) {
		fputs("<p class=\"note\">", out);
		nb_html_esc(out, err.msg);
		fputs("</p>\n", out);
	}
}

/* One side's stacks of a point: every round's, merged, or the single report's. */
static void side_stacks(FILE *out, const struct nb_cmp_result *r, int side, const struct nb_cmp_point *p,
			struct nb_folded *set)
{
	if (!r->rounds) {
		if (p && p->stacks_file)
			folded_read(out, p->stacks_file, set);
		return;
	}
	for (int i = 0; i < r->rounds->n[side]; i++) {
		const struct nb_cmp_report *rep = &r->rounds->reports[side][i];

		for (int k = 0; k < rep->n_points; k++) {
			if (!strcmp(rep->points[k].id, p->id) && rep->points[k].stacks_file)
				folded_read(out, rep->points[k].stacks_file, set);
		}
	}
}

static void flame_section(FILE *out, const struct nb_cmp_result *r)
{
	int shown = 0, more = 0;

	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];
		struct nb_folded base = { 0 }, nw = { 0 };
		char title[300];

		if (!pr->base || !pr->new)
			continue;
		if (shown >= FLAME_POINTS_MAX) {
			more += pr->new->stacks_file != NULL;
			continue;
		}
		side_stacks(out, r, 0, pr->base, &base);
		side_stacks(out, r, 1, pr->new, &nw);
		if (base.total && nw.total) {
			if (!shown++)
				fputs("<h3>Differential flame graphs</h3>\n<p>Kernel stacks of the diagnostic repetition "
				      "(of every round, merged per side): width is the new side's samples, red frames grew "
				      "their share of samples, blue ones shrank; hover a frame for its shares.</p>\n",
				      out);
			snprintf(title, sizeof(title), "%s: %llu base samples, %llu new", pr->id,
				 (unsigned long long)base.total, (unsigned long long)nw.total);
			fputs("<h4>", out);
			nb_html_esc(out, pr->id);
			fputs("</h4>\n<div class=\"flame\">", out);
			if (nb_flamegraph_diff_svg(&base, &nw, &(struct nb_flame_opts){ .title = title }, out) < 0)
				fputs("<p class=\"note\">flame graph: out of memory</p>", out);
			fputs("</div>\n", out);
		}
		nb_folded_free(&base);
		nb_folded_free(&nw);
	}
	if (more)
		fprintf(out, "<p>%d more point(s) have stacks; only the first %d are drawn.</p>\n", more,
			FLAME_POINTS_MAX);
}

static void compare_table(FILE *out, const struct nb_cmp_result *r)
{
	fputs("<table class=\"sortable\"><thead><tr><th>point</th><th>metric</th><th>base (median)</th>"
	      "<th>new (median)</th><th>change</th><th>90% interval</th><th>verdict</th></tr></thead><tbody>\n",
	      out);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];
		const struct nb_cmp_point *p = pr->new ? pr->new : pr->base;
		const char *headline = p ? nb_rv_headline(p) : NB_M_THROUGHPUT_BPS;

		for (int m = 0; m < pr->n_metrics; m++) {
			const struct nb_cmp_metric_result *mr = &pr->metrics[m];
			char change[32], why[160];

			/* the headline and gated metrics, and whatever moved */
			if (!mr->gated && strcmp(mr->name, headline) && mr->verdict != NB_CMP_CHANGED &&
			    mr->verdict != NB_CMP_IMPROVED && mr->verdict != NB_CMP_REGRESSED)
				continue;
			fputs("<tr><td class=\"id\">", out);
			nb_html_esc(out, pr->id);
			fputs("</td><td>", out);
			nb_html_esc(out, mr->name);
			fputs(mr->gated ? " <small>(gated)</small>" : "", out);
			fputs("</td><td class=\"nw\">", out);
			if (mr->has_base)
				value(out, mr->name, mr->base);
			fputs("</td><td class=\"nw\">", out);
			if (mr->has_new)
				value(out, mr->name, mr->new);
			fprintf(out, "</td><td data-v=\"%.4g\">%s</td><td>", mr->has_change ? mr->change_pct : 0,
				nb_cmp_format_change(change, sizeof(change), mr));
			if (mr->has_ci)
				fprintf(out, "%+.1f%% .. %+.1f%%", mr->ci_lo_pct, mr->ci_hi_pct);
			fprintf(out, "</td><td class=\"v v-%s\">%s", verdict_class(mr->verdict), nb_cmp_verdict_name(mr->verdict));
			nb_cmp_reason_text(why, sizeof(why), mr, r->opt);
			if (why[0]) {
				fputs(" <small>", out);
				nb_html_esc(out, why);
				fputs("</small>", out);
			}
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table>\n", out);
}

/* Forest plot of the gated metrics. The scale is symmetric-logarithmic: +500% and the 5% minimum effect
 * both stay readable on one axis. */
static double fx(double v, double lim)
{
	double c = fmax(-lim, fmin(lim, v));

	return (c < 0 ? -1 : 1) * log1p(fabs(c) / 5) / log1p(lim / 5);
}

static void compare_chart(struct nb_html_page *pg, const struct nb_cmp_result *r)
{
	static const double ticks[] = { 0, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10000 };
	FILE *out = pg->out;
	const double x0 = LABEL_W, x1 = W - 20, mid = (x0 + x1) / 2, half = (x1 - x0) / 2;
	double lim = 10, y = 10;
	int rows = 0, h;

	for (int i = 0; i < r->n_points; i++)
		for (int m = 0; m < r->points[i].n_metrics; m++) {
			const struct nb_cmp_metric_result *mr = &r->points[i].metrics[m];

			if (!mr->gated || !mr->has_change)
				continue;
			rows++;
			lim = fmax(lim, fabs(mr->change_pct));
			if (mr->has_ci)
				lim = fmax(lim, fmax(fabs(mr->ci_lo_pct), fabs(mr->ci_hi_pct)));
		}
	if (!rows)
		return;
	for (size_t t = 0; t < sizeof(ticks) / sizeof(ticks[0]); t++)
		if (ticks[t] >= lim) {
			lim = ticks[t];
			break;
		}
	lim = fmin(lim, 10000);
	h = 10 + rows * 20 + 44;
	fprintf(out, "<figure><figcaption>Gated metrics: change of the median (dot) and its 90%% interval (line); "
		     "the grey band is the minimum effect</figcaption>\n<svg class=\"chart\" data-chart=\"compare\" "
		     "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", W, h, W, h);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		for (int m = 0; m < pr->n_metrics; m++) {
			const struct nb_cmp_metric_result *mr = &pr->metrics[m];
			char label[NB_POINT_ID_MAX + NB_METRIC_NAME_MAX + 4];
			double band;

			if (!mr->gated || !mr->has_change)
				continue;
			snprintf(label, sizeof(label), "%s %s", pr->id, mr->name);
			band = half * fx(mr->min_effect_pct, lim);
			fprintf(out, "<g class=\"row v-%s\"><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"lbl\">",
				verdict_class(mr->verdict), LABEL_W - 6, y + 12);
			nb_html_esc(out, label);
			fprintf(out, "</text><rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\"/>",
				mid - band, y, 2 * band);
			if (mr->has_ci)
				fprintf(out, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
					mid + half * fx(mr->ci_lo_pct, lim), mid + half * fx(mr->ci_hi_pct, lim), y + 8, y + 8);
			fprintf(out, "<circle class=\"chg\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>%s: %+.1f%%, %s</title>"
				     "</circle></g>\n",
				mid + half * fx(mr->change_pct, lim), y + 8, mr->name, mr->change_pct,
				nb_cmp_verdict_name(mr->verdict));
			y += 20;
		}
	}
	fprintf(out, "<g class=\"axis\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x0, x1, y, y);
	for (size_t t = 0; t < sizeof(ticks) / sizeof(ticks[0]) && ticks[t] <= lim; t++) {
		for (int sign = -1; sign <= 1; sign += 2) {
			double x = mid + sign * half * fx(ticks[t], lim);

			if (ticks[t] == 0 && sign < 0)
				continue;
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
				     "text-anchor=\"middle\">%+g</text>", x, x, y, y + 4, x, y + 16, sign * ticks[t]);
		}
	}
	fprintf(out, "<text class=\"unit\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">change against the base, %% "
		     "(symmetric log scale, clipped at &#177;%g)</text></g>\n</svg></figure>\n", mid, y + 32, lim);
	pg->charts++;
}

void nb_html_section_compare(struct nb_html_page *pg)
{
	const struct nb_cmp_result *r = pg->in->cmp;
	FILE *out = pg->out;
	int moved = 0;

	if (!r)
		return;
	fputs("<section id=\"compare\"><h2>Compare</h2>\n<p>Base <code>", out);
	nb_html_esc(out, r->base->path);
	fputs("</code> (kernel ", out);
	nb_html_esc(out, r->base->kernel_release);
	fputs(") against new <code>", out);
	nb_html_esc(out, r->new->path);
	fputs("</code> (kernel ", out);
	nb_html_esc(out, r->new->kernel_release);
	fprintf(out, "): <b class=\"v v-%s\">%s</b></p>\n", r->verdict == NB_CMP_REGRESSION ? "regressed" : "unchanged",
		nb_cmp_overall_name(r->verdict));
	if (r->n_env_diffs) {
		fputs("<h3>Environment differences</h3><table><tr><th>field</th><th>base</th><th>new</th></tr>\n", out);
		for (int i = 0; i < r->n_env_diffs; i++) {
			fputs("<tr><td>", out);
			nb_html_esc(out, r->env_diffs[i].key);
			fputs("</td><td>", out);
			nb_html_esc(out, r->env_diffs[i].base ? r->env_diffs[i].base : "absent");
			fputs("</td><td>", out);
			nb_html_esc(out, r->env_diffs[i].new ? r->env_diffs[i].new : "absent");
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	compare_chart(pg, r);
	compare_table(out, r);
	fputs("<h3>Bottleneck moved</h3><ul>\n", out);
	for (int i = 0; i < r->n_points; i++) {
		char buf[2 * NB_BN_SENTENCE_MAX + 32];

		if (!nb_rv_moved(r, &r->points[i], buf, sizeof(buf)))
			continue;
		fputs("<li class=\"moved\"><code>", out);
		nb_html_esc(out, r->points[i].id);
		fputs("</code>: ", out);
		nb_html_esc(out, buf);
		fputs("</li>\n", out);
		moved++;
	}
	fputs(moved ? "</ul>\n" : "<li>in no point</li></ul>\n", out);
	fputs("<h3>Profile movers</h3>\n", out);
	moved = 0;
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (!pr->n_movers)
			continue;
		if (!moved++)
			fputs("<table><tr><th>point</th><th>symbol</th><th>base, % of samples</th><th>new, %</th>"
			      "<th>move, pts (pairs of rounds)</th></tr>\n", out);
		for (int k = 0; k < pr->n_movers; k++) {
			fputs("<tr><td class=\"id\">", out);
			nb_html_esc(out, pr->id);
			fputs("</td><td class=\"id\">", out);
			nb_html_esc(out, pr->movers[k].symbol);
			fprintf(out, "</td><td>%s%.1f</td><td>%s%.1f</td><td>%+.1f", pr->movers[k].base_unlisted ? "&lt;" : "",
				pr->movers[k].base_share_pct, pr->movers[k].new_unlisted ? "&lt;" : "",
				pr->movers[k].new_share_pct, pr->movers[k].change_pts);
			if (pr->movers[k].n_pairs >= 2)
				fprintf(out, " (%d pairs, %+.1f..%+.1f)", pr->movers[k].n_pairs, pr->movers[k].change_lo_pts,
					pr->movers[k].change_hi_pts);
			fputs("</td></tr>\n", out);
		}
	}
	fputs(moved ? "</table>\n" : "<p>No profile symbol moved (or the reports have no profile).</p>\n", out);
	flame_section(out, r);
	fputs("</section>\n", out);
}
