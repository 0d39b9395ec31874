// SPDX-License-Identifier: MIT
/* HTML: the self-contained page of `report --format html` and `compare --format html` (inline SVG and CSS),
 * and the report's sections on it; the compare section is html_compare.c's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/plan.h"
#include "kit/metric_table.h"
#include "render/common.h"
#include "render/flamegraph.h"
#include "render/point_notes.h"
#include "render/html.h"

/* Okabe-Ito: the categorical palette that stays apart for the common colour-vision deficiencies. */
static const char *const kind_colors[] = { "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9" };
static const char *const kind_names[] = { "user", "system", "irq", "softirq" };
/* the shares kind_names name, in their order */
static const enum nb_cpu_share kind_shares[] = { NB_SHARE_USER, NB_SHARE_SYSTEM, NB_SHARE_IRQ, NB_SHARE_SOFTIRQ };

#define W NB_HTML_W
#define LABEL_W NB_HTML_LABEL_W
#define ROW_H 22

void nb_html_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A long point id may wrap after each '/' (and nowhere else). */
static void esc_breakable(FILE *out, const char *s)
{
	for (; *s; s++) {
		char c[2] = { *s, 0 };

		nb_html_esc(out, c);
		if (*s == '/')
			fputs("<wbr>", out);
	}
}

static bool median_of(const struct nb_cmp_point *p, const char *name, double *v)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, name);

	if (!s || s->n <= 0)
		return false;
	*v = s->median;
	return true;
}

/* A scale that ends on a round number: 1, 2 or 5 x 10^k per tick, 4-6 ticks. */
static double nice_max(double max, double *step)
{
	double raw, mag, f;

	if (!(max > 0))
		max = 1;
	raw = max / 5;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	*step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	return ceil(max / *step - 1e-9) * *step;
}

static void x_axis(FILE *out, double x0, double x1, double y, double max, double step, double unit_div,
		   const char *label)
{
	fprintf(out, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x0, y, x1, y);
	for (double v = 0; v <= max + step / 2; v += step) {
		double x = x0 + (x1 - x0) * v / max;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
			     "text-anchor=\"middle\">%g</text>",
			x, y, x, y + 4, x, y + 16, v / unit_div);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"unit\">", (x0 + x1) / 2, y + 32);
	nb_html_esc(out, label);
	fputs("</text></g>\n", out);
}

/* ---- environment ---- */

/* compare_load keeps environment fields as compact JSON: a string shows without its quotes. */
static void esc_json_text(FILE *out, const char *v)
{
	size_t n = v ? strlen(v) : 0;

	if (!v) {
		fputs("absent", out);
	} else if (n >= 2 && v[0] == '"' && v[n - 1] == '"' && !strchr(v + 1, '\\')) {
		for (size_t i = 1; i + 1 < n; i++) {
			char c[2] = { v[i], 0 };

			nb_html_esc(out, c);
		}
	} else {
		nb_html_esc(out, v);
	}
}

static void section_env(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;

	fputs("<section id=\"environment\"><h2>Environment</h2><table class=\"kv\">\n", out);
	if (pg->in->extra && pg->in->extra->n_env) {
		for (int i = 0; i < pg->in->extra->n_env; i++) {
			fputs("<tr><th>", out);
			nb_html_esc(out, pg->in->extra->env[i].key);
			fputs("</th><td>", out);
			nb_html_esc(out, pg->in->extra->env[i].value);
			fputs("</td></tr>\n", out);
		}
	} else {
		fputs("<tr><th>kernel</th><td>", out);
		nb_html_esc(out, rep->kernel_release);
		fputs("</td></tr>\n", out);
		for (int i = 0; i < rep->n_env; i++) {
			fputs("<tr><th>", out);
			nb_html_esc(out, rep->env[i].key);
			fputs("</th><td>", out);
			esc_json_text(out, rep->env[i].value);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</table><p class=\"note\">Knobs as read back from the kernel are in each point's id and in the "
	      "table below.</p></section>\n", out);
}

/* ---- the points table ---- */

static void section_points(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;

	fputs("<section id=\"points\"><h2>Points</h2>\n<table class=\"sortable\"><thead><tr>"
	      "<th>point</th><th>status</th><th>throughput (median)</th><th>min .. max</th><th>runs</th>"
	      "<th>busy % (machine)</th><th>throughput per busy CPU (bits per CPU-second)</th><th>bottleneck</th></tr></thead><tbody>\n",
	      out);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		const char *headline = nb_rv_headline(p);
		const struct nb_cmp_samples *t = nb_cmp_point_metric(p, headline);
		/* a latency point moves transactions, not bits: its headline is their rate */
		const struct nb_cmp_samples *tps = t ? NULL : nb_cmp_point_metric(p, NB_M_RR_TRANSACTIONS_PER_S);
		struct nb_bottleneck bn;
		char a[24], r[56], notes[NB_NOTE_LINES][NB_NOTE_LINE_MAX];
		double v;

		nb_rv_bottleneck(rep, p, &bn);
		fputs("<tr><td class=\"id\">", out);
		esc_breakable(out, p->id);
		fprintf(out, "</td><td class=\"st-%s\">%s</td>", nb_cmp_status_name(p->status), nb_cmp_status_name(p->status));
		if (t && t->n > 0) {
			nb_render_tput(a, sizeof(a), p);
			nb_render_range(r, sizeof(r), p);
			fprintf(out, "<td data-v=\"%.6g\" class=\"nw\">%s</td><td class=\"nw\">%s</td><td>%d</td>", t->median, a, r,
				t->n);
		} else if (tps && tps->n > 0) {
			double lo = tps->values[0], hi = tps->values[0];

			for (int k = 1; k < tps->n; k++) {
				lo = fmin(lo, tps->values[k]);
				hi = fmax(hi, tps->values[k]);
			}
			fprintf(out, "<td data-v=\"%.6g\" class=\"nw\">%.0f trans/s</td><td class=\"nw\">%.0f .. %.0f trans/s</td>"
				"<td>%d</td>", tps->median, tps->median, lo, hi, tps->n);
		} else {
			fputs("<td data-v=\"-1\">absent</td><td></td><td>0</td>", out);
		}
		if (median_of(p, NB_M_CPU_BUSY_PCT, &v))
			fprintf(out, "<td data-v=\"%.4g\">%.1f</td>", v, v);
		else
			fputs("<td data-v=\"-1\">absent</td>", out);
		if (nb_rv_efficiency(rep, p, &v))
			fprintf(out, "<td data-v=\"%.6g\" class=\"nw\">%s</td>", v, nb_rv_efficiency_text(a, sizeof(a), p, v));
		else
			fputs("<td data-v=\"-1\">absent</td>", out);
		fprintf(out, "<td class=\"bnc\"><span class=\"bn bn-%s\">%s</span> ", nb_bn_code_name(bn.code), nb_bn_code_name(bn.code));
		nb_html_esc(out, bn.sentence);
		for (int k = 0, n = nb_render_point_notes(p, nb_rv_point_extras(pg->in->extra, p->id),
							   notes, NB_NOTE_LINES); k < n; k++) {
			fputs("<br><span class=\"note\">", out);
			nb_html_esc(out, notes[k]);
			fputs("</span>", out);
		}
		if (p->error) {
			fputs("<br><span class=\"err\">", out);
			nb_html_esc(out, p->error);
			fputs("</span>", out);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table></section>\n", out);
}

/* ---- throughput per setting: bars (median), whiskers (min-max), dots (runs) ---- */

static void throughput_chart(struct nb_html_page *pg, const struct nb_rv_test_front *f)
{
	FILE *out = pg->out;
	double max = 0, step, div;
	const char *unit;
	int rows = 0, h;

	for (int i = 0; i < f->n_points; i++) {
		const struct nb_cmp_samples *s = nb_cmp_point_metric(f->points[i], NB_M_THROUGHPUT_BPS);

		for (int k = 0; s && k < s->n; k++)
			max = fmax(max, s->values[k]);
		rows += s && s->n > 0 && f->points[i]->status == NB_CMP_STATUS_OK;
	}
	if (!rows)
		return;
	div = max >= 1e9 ? 1e9 : max >= 1e6 ? 1e6 : 1e3;
	unit = div == 1e9 ? "throughput, Gbit/s" : div == 1e6 ? "throughput, Mbit/s" : "throughput, kbit/s";
	max = nice_max(max, &step);
	h = 10 + rows * (ROW_H + 6) + 44;
	fprintf(out, "<figure><figcaption>");
	nb_html_esc(out, f->test);
	fprintf(out, ": throughput per setting (bar: median; whisker: min-max; dots: runs; &#9733;: on the Pareto "
		     "front)</figcaption>\n<svg class=\"chart\" data-chart=\"throughput\" data-test=\"");
	nb_html_esc(out, f->test);
	fprintf(out, "\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", W, h, W, h);
	rows = 0;
	for (int i = 0; i < f->n_points; i++) {
		const struct nb_cmp_point *p = f->points[i];
		const struct nb_cmp_samples *s = nb_cmp_point_metric(p, NB_M_THROUGHPUT_BPS);
		double y = 10 + rows * (ROW_H + 6), x0 = LABEL_W, span = W - LABEL_W - 20, lo, hi;
		char buf[24];

		if (!s || s->n <= 0 || p->status != NB_CMP_STATUS_OK)
			continue;
		rows++;
		lo = hi = s->values[0];
		for (int k = 1; k < s->n; k++) {
			lo = fmin(lo, s->values[k]);
			hi = fmax(hi, s->values[k]);
		}
		fprintf(out, "<text class=\"lbl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s", LABEL_W - 6, y + ROW_H * 0.7,
			f->on_front[i] ? "&#9733; " : "");
		nb_html_esc(out, nb_rv_choice_setting(p));
		fprintf(out, "</text><rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"><title>",
			f->on_front[i] ? " front" : "", x0, y, span * s->median / max, ROW_H);
		nb_html_esc(out, p->id);
		fprintf(out, ": median %s</title></rect>", nb_rv_bps(buf, sizeof(buf), s->median));
		fprintf(out, "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x0 + span * lo / max,
			x0 + span * hi / max, y + ROW_H / 2.0, y + ROW_H / 2.0);
		for (int k = 0; k < s->n; k++)
			fprintf(out, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x0 + span * s->values[k] / max,
				y + ROW_H / 2.0 + (k % 3 - 1) * 4);
		fputc('\n', out);
	}
	x_axis(out, LABEL_W, W - 20, 10 + rows * (ROW_H + 6), max, step, div, unit);
	fputs("</svg></figure>\n", out);
	pg->charts++;
}

/* ---- CPU split: per point the /proc/stat kinds, the processes, and each CPU ---- */

static void legend(FILE *out, const char *const *names, int n, int first_color)
{
	fputs("<p class=\"legend\">", out);
	for (int i = 0; i < n; i++)
		fprintf(out, "<span><i style=\"background:%s\"></i>%s</span> ", kind_colors[first_color + i], names[i]);
	fputs("</p>\n", out);
}

static void stacked_row(FILE *out, double y, const char *label, const double *v, const int *colors, const char *const *names,
			int n)
{
	double x = LABEL_W, span = W - LABEL_W - 20;

	fprintf(out, "<g class=\"row\"><text class=\"lbl\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6, y + 12);
	nb_html_esc(out, label);
	fputs("</text>", out);
	for (int i = 0; i < n; i++) {
		if (!(v[i] > 0))
			continue;
		fprintf(out, "<rect class=\"seg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\" fill=\"%s\"><title>%s "
			     "%.1f%%</title></rect>",
			x, y, span * fmin(v[i], 100) / 100, kind_colors[colors[i]], names[i], v[i]);
		x += span * fmin(v[i], 100) / 100;
	}
	fputs("</g>\n", out);
}

static void section_cpu(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;
	static const int kcolors[] = { 0, 1, 2, 3 };
	static const int pcolors[] = { 4, 5 };
	static const char *const pnames[] = { "NAPI thread", "traffic process" };
	int rows = 0, points = 0, h;
	double y = 10;

	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		double v;
		char name[NB_METRIC_NAME_MAX];

		if (p->status != NB_CMP_STATUS_OK || !median_of(p, NB_M_CPU_BUSY_PCT, &v))
			continue;
		points++;
		rows += 1 + (median_of(p, NB_M_NAPI_THREAD_PCT, &v) || median_of(p, NB_M_TRAFFIC_PROC_PCT, &v));
		for (int c = 0; c < 256; c++) {
			nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(NB_SHARE_BUSY, true), c);
			if (median_of(p, name, &v))
				rows++;
			else if (rep->cpus > 0 && c >= rep->cpus)
				break;
		}
	}
	fputs("<section id=\"cpu\"><h2>CPU split</h2>\n", out);
	if (!rows) {
		fputs("<p>No point measured its CPU.</p></section>\n", out);
		return;
	}
	legend(out, kind_names, 4, 0);
	legend(out, pnames, 2, 4);
	h = 10 + rows * 20 + points * 8 + 44;
	fprintf(out, "<figure><figcaption>Per point: the machine's busy time by kind (%% of all CPUs), the NAPI "
		     "thread and the traffic process (%% of all CPUs), then each CPU by kind (%% of that CPU)"
		     "</figcaption>\n<svg class=\"chart\" data-chart=\"cpu\" viewBox=\"0 0 %d %d\" width=\"%d\" "
		     "height=\"%d\" role=\"img\">\n", W, h, W, h);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		double v[4], pv[2], busy;
		char name[NB_METRIC_NAME_MAX], label[NB_METRIC_NAME_MAX + 16];
		bool has_proc;

		if (p->status != NB_CMP_STATUS_OK || !median_of(p, NB_M_CPU_BUSY_PCT, &busy))
			continue;
		for (int k = 0; k < 4; k++) {
			v[k] = median_of(p, nb_metric_cpu_share(kind_shares[k], false), &v[k]) ? v[k] : 0;
		}
		stacked_row(out, y, p->id, v, kcolors, kind_names, 4);
		y += 20;
		pv[0] = pv[1] = 0;
		has_proc = median_of(p, NB_M_NAPI_THREAD_PCT, &pv[0]);
		has_proc = median_of(p, NB_M_TRAFFIC_PROC_PCT, &pv[1]) || has_proc;
		if (has_proc) {
			stacked_row(out, y, "processes", pv, pcolors, pnames, 2);
			y += 20;
		}
		for (int c = 0; c < 256; c++) {
			double cb;

			nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(NB_SHARE_BUSY, true), c);
			if (!median_of(p, name, &cb)) {
				if (rep->cpus > 0 && c >= rep->cpus)
					break;
				continue;
			}
			for (int k = 0; k < 4; k++) {
				nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(kind_shares[k], true), c);
				v[k] = median_of(p, name, &v[k]) ? v[k] : 0;
			}
			snprintf(label, sizeof(label), "CPU%d", c);
			stacked_row(out, y, label, v, kcolors, kind_names, 4);
			y += 20;
		}
		y += 8; /* a gap between points */
	}
	x_axis(out, LABEL_W, W - 20, y, 100, 20, 1, "busy, % (machine rows: of all CPUs; CPUn rows: of that CPU)");
	fputs("</svg></figure></section>\n", out);
	pg->charts++;
}

/* ---- test x setting heatmap (two-knob sweeps) ---- */

/* Viridis stops: sequential, readable in grey print and for colour-blind readers. */
static void viridis(double t, char *buf, size_t len)
{
	static const int stops[5][3] = {
		{ 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 }, { 94, 201, 98 }, { 253, 231, 37 },
	};
	double x = fmin(fmax(t, 0), 1) * 4;
	int i = x >= 4 ? 3 : (int)x;
	double f = x - i;

	snprintf(buf, len, "#%02x%02x%02x", (int)(stops[i][0] + f * (stops[i + 1][0] - stops[i][0])),
		 (int)(stops[i][1] + f * (stops[i + 1][1] - stops[i][1])),
		 (int)(stops[i][2] + f * (stops[i + 1][2] - stops[i][2])));
}

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void section_heatmap(struct nb_html_page *pg, const struct nb_rv_choice *c)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;
	const char *settings[NB_RV_MAX_SETTINGS];
	int ns = 0, cell_w, h;

	for (int i = 0; i < rep->n_points; i++) {
		const char *s = nb_rv_choice_setting(&rep->points[i]);
		int k;

		for (k = 0; k < ns; k++)
			if (!strcmp(settings[k], s))
				break;
		if (k == ns && ns < NB_RV_MAX_SETTINGS)
			settings[ns++] = s;
	}
	/* two knob axes or more: a setting names at least two knobs */
	if (ns < 2 || c->n_tests < 1 || count_char(settings[0], '=') < 2)
		return;
	cell_w = (W - LABEL_W - 20) / c->n_tests;
	h = 30 + ns * 26 + 30;
	fprintf(out, "<section id=\"heatmap\"><h2>Test x setting</h2><figure><figcaption>Median throughput as %% of "
		     "the best setting of each test (darker is lower)</figcaption>\n<svg class=\"chart\" "
		     "data-chart=\"heatmap\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", W, h, W, h);
	for (int t = 0; t < c->n_tests; t++) {
		fprintf(out, "<text x=\"%d\" y=\"20\" text-anchor=\"middle\">", LABEL_W + t * cell_w + cell_w / 2);
		nb_html_esc(out, c->tests[t].test);
		fputs("</text>", out);
	}
	for (int s = 0; s < ns; s++) {
		int y = 30 + s * 26;

		fprintf(out, "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 6, y + 17);
		nb_html_esc(out, settings[s]);
		fputs("</text>", out);
		for (int t = 0; t < c->n_tests; t++) {
			const struct nb_rv_test_front *f = &c->tests[t];
			double best = 0, v = -1, x;
			char col[16];

			for (int i = 0; i < f->n_points; i++) {
				if (f->points[i]->status != NB_CMP_STATUS_OK || !median_of(f->points[i], NB_M_THROUGHPUT_BPS, &x))
					continue;
				best = fmax(best, x);
				if (!strcmp(nb_rv_choice_setting(f->points[i]), settings[s]))
					v = x;
			}
			if (v < 0 || best <= 0) {
				fprintf(out, "<rect class=\"cell absent\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"24\"/>",
					LABEL_W + t * cell_w, y, cell_w - 2);
				continue;
			}
			viridis(v / best, col, sizeof(col));
			fprintf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"24\" fill=\"%s\"/>"
				     "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"%s\">%.0f%%</text>",
				LABEL_W + t * cell_w, y, cell_w - 2, col, LABEL_W + t * cell_w + cell_w / 2, y + 17,
				v / best > 0.6 ? "dark" : "light", 100 * v / best);
		}
		fputc('\n', out);
	}
	fputs("</svg></figure></section>\n", out);
	pg->charts++;
}

/* ---- which setting ---- */

static void section_choice(struct nb_html_page *pg, const struct nb_rv_choice *c)
{
	FILE *out = pg->out;

	fputs("<section id=\"choice\"><h2>Which setting to choose</h2>\n<ul>\n", out);
	for (int t = 0; t < c->n_tests; t++) {
		const struct nb_rv_test_front *f = &c->tests[t];
		int shown = 0;

		fputs("<li><b>", out);
		nb_html_esc(out, f->test);
		fprintf(out, "</b>: Pareto front of %s%s: ",
			f->packets ? "packet rate, packets per CPU-second" : "throughput, bits per CPU-second",
			f->has_p99 ? " and p99 latency" : "");
		for (int i = 0; i < f->n_points; i++) {
			char figures[64];

			if (!f->on_front[i])
				continue;
			fputs(shown++ ? ", " : "", out);
			nb_html_esc(out, nb_rv_choice_setting(f->points[i]));
			fprintf(out, " (%s)", nb_rv_front_figures(figures, sizeof(figures), f->points[i]));
		}
		fputs(shown ? "</li>\n" : "none</li>\n", out);
	}
	fputs("</ul>\n", out);
	if (c->best && c->worst_test < 0) {
		fputs("<p>No two settings ran in the same test: nothing to weigh against each other.</p>\n", out);
	} else if (c->best) {
		fputs("<p class=\"best\">Best across tests (geometric mean of the headline rate): <b>", out);
		nb_html_esc(out, c->best);
		fputs("</b>, margin over the runner-up ", out);
		nb_html_esc(out, c->reference);
		fputs(":", out);
		for (int t = 0; t < c->n_tests; t++) {
			fprintf(out, "%s ", t ? "," : "");
			nb_html_esc(out, c->tests[t].test);
			if (isnan(c->change_pct[t]))
				fputs(" n/a", out);
			else
				fprintf(out, " %+.1f%%", c->change_pct[t]);
		}
		if (c->worst_test >= 0) {
			fputs("; worst case ", out);
			nb_html_esc(out, c->tests[c->worst_test].test);
			fprintf(out, " %+.1f%%", c->change_pct[c->worst_test]);
		}
		fputs("</p>\n", out);
	} else {
		fputs("<p>Only one setting: nothing to choose.</p>\n", out);
	}
	fputs("</section>\n", out);
}

/* ---- series of a run ---- */

static void series_chart(FILE *out, const struct nb_rv_series *s, const char *id, int first, int last,
			 const char *unit, bool pct)
{
	double max = pct ? 100 : 0, step, tmax = s->t[s->n - 1];
	int lines = 0, h = 200;
	const double x0 = 70, x1 = W - 20, y0 = 10, y1 = h - 50;

	for (int c = first; c <= last; c++)
		for (int i = 0; s->col[c] && i < s->n; i++)
			if (isfinite(s->col[c][i]))
				max = fmax(max, s->col[c][i]);
	max = nice_max(max, &step);
	if (!(tmax > 0))
		tmax = 1;
	fputs("<svg class=\"chart\" data-chart=\"series\" data-point=\"", out);
	nb_html_esc(out, id);
	fprintf(out, "\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", W, h, W, h);
	for (double v = 0; v <= max + step / 2; v += step) {
		double y = y1 - (y1 - y0) * v / max;

		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" "
			     "y=\"%.1f\" text-anchor=\"end\">%g</text>",
			x0, x1, y, y, x0 - 4, y + 4, pct || max < 1e4 ? v : v / 1e3);
	}
	fprintf(out, "<text class=\"unit\" x=\"12\" y=\"%.1f\" transform=\"rotate(-90 12 %.1f)\" "
		     "text-anchor=\"middle\">%s%s</text>",
		(y0 + y1) / 2, (y0 + y1) / 2, unit, pct || max < 1e4 ? "" : " (thousands)");
	for (int c = first; c <= last; c++) {
		int n = 0;

		if (!s->col[c])
			continue;
		for (int i = 0; i < s->n; i++)
			n += isfinite(s->col[c][i]);
		if (n < 2)
			continue;
		fprintf(out, "<polyline class=\"line\" stroke=\"%s\" points=\"", kind_colors[c % 6]);
		for (int i = 0; i < s->n; i++)
			if (isfinite(s->col[c][i]))
				fprintf(out, "%.1f,%.1f ", x0 + (x1 - x0) * s->t[i] / tmax,
					y1 - (y1 - y0) * s->col[c][i] / max);
		fprintf(out, "\"><title>%s</title></polyline>", nb_rv_series_cols[c]);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" class=\"key\">%s</text>", x1 - 150,
			y0 + 12 + lines * 14, kind_colors[c % 6], nb_rv_series_cols[c]);
		lines++;
	}
	x_axis(out, x0, x1, y1, tmax, tmax > 4 ? 1 : 0.5, 1, "time since the measured window opened, s");
	fputs("</svg>\n", out);
}

static void section_series(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;
	int shown = 0;

	if (!pg->in->extra)
		return;
	fputs("<section id=\"series\"><h2>100 ms series</h2>\n<p class=\"note\">The first ok run of each point; "
	      "/proc/stat moves in 10 ms ticks, so use the window's metrics for numbers and these for shape.</p>\n",
	      out);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_rv_series *s = nb_rv_series_of(pg->in->extra, rep->points[i].id);

		if (!s)
			continue;
		fprintf(out, "<details%s><summary>", shown ? "" : " open");
		nb_html_esc(out, rep->points[i].id);
		fprintf(out, " (run %d)</summary>\n", s->run);
		series_chart(out, s, rep->points[i].id, 0, 3, "CPU, % of the machine", true);
		series_chart(out, s, rep->points[i].id, 4, 5, "packets/s", false);
		fputs("</details>\n", out);
		shown++;
		pg->charts += 2;
	}
	if (!shown)
		fputs("<p>The report holds no series (runs without samples).</p>\n", out);
	fputs("</section>\n", out);
}

/* ---- profile ---- */

#define FLAME_POINTS_MAX 4

/* Each point's flame graph from the folded stacks beside the report (the first few points). */
static void section_flames(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;
	int shown = 0, more = 0;

	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		struct nb_folded set = { 0 };
		struct nb_err err = { 0 };
		char title[300];

		if (!p->stacks_file)
			continue;
		if (shown >= FLAME_POINTS_MAX) {
			more++;
			continue;
		}
		if (!shown++)
			fputs("<h3>Flame graphs</h3>\n<p>Kernel stacks of each point's diagnostic repetition: a frame's width "
			      "is its share of the samples, its callers below it; hover a frame for its share.</p>\n",
			      out);
		fputs("<h4>", out);
		nb_html_esc(out, p->id);
		fputs("</h4>\n", out);
		if (nb_folded_load(p->stacks_file, &set, &err) < 0 || set.total == 0) {
			fputs("<p class=\"note\">", out);
			nb_html_esc(out, err.msg[0] ? err.msg : "no samples in the stacks file");
			fputs("</p>\n", out);
		} else {
			snprintf(title, sizeof(title), "%s: %llu samples", p->id, (unsigned long long)set.total);
			fputs("<div class=\"flame\">", out);
			if (nb_flamegraph_svg(&set, &(struct nb_flame_opts){ .title = title }, out) < 0)
				fputs("<p class=\"note\">flame graph: out of memory</p>", out);
			fputs("</div>\n", out);
		}
		nb_folded_free(&set);
	}
	if (more)
		fprintf(out, "<p>%d more point(s) have stacks; only the first %d are drawn.</p>\n", more,
			FLAME_POINTS_MAX);
}

static void section_profile(struct nb_html_page *pg)
{
	const struct nb_cmp_report *rep = pg->in->rep;
	FILE *out = pg->out;
	int shown = 0;

	fputs("<section id=\"profile\"><h2>Top profile symbols</h2>\n", out);
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];

		if (p->n_profile <= 0)
			continue;
		fputs("<details><summary>", out);
		nb_html_esc(out, p->id);
		fputs("</summary><table><tr><th>symbol</th><th>share of samples, %</th></tr>\n", out);
		for (int k = 0; k < p->n_profile && k < 15; k++) {
			fputs("<tr><td class=\"id\">", out);
			nb_html_esc(out, p->profile[k].symbol);
			fprintf(out, "</td><td>%.1f</td></tr>\n", p->profile[k].share_pct);
		}
		fputs("</table></details>\n", out);
		shown++;
	}
	if (!shown)
		fputs("<p>No point has a profile (tracing off or unavailable).</p>\n", out);
	section_flames(pg);
	fputs("</section>\n", out);
}


/* ---- page ---- */

static const char page_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;color:#111;background:#fff;margin:1.5em auto;max-width:1240px;padding:0 1em}"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #999;margin-top:1.6em}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;"
	"vertical-align:top}th{background:#eee}.sortable th{cursor:pointer}td.id{font-family:monospace;font-size:12px;word-break:break-all}td.nw{white-space:nowrap}#points td.id{word-break:normal}#points table{width:100%}td.bnc{min-width:20em}"
	"svg.chart{display:block;max-width:100%;height:auto;font-size:11px}svg .lbl{font:10px monospace}svg text{fill:#111}"
	".axis line{stroke:#444}.unit{font-style:italic}.grid{stroke:#ddd}"
	".bar{fill:#56B4E9}.bar.front{fill:#0072B2}.whisker{stroke:#111;stroke-width:1.5}.run{fill:#fff;stroke:#111}"
	".line{fill:none;stroke-width:1.8}.key{font-weight:bold}"
	".cell.absent{fill:#fff;stroke:#999;stroke-dasharray:3}text.dark{fill:#111}text.light{fill:#fff}"
	".band{fill:#ddd}.ci{stroke:#111;stroke-width:2}.chg{stroke:#111}"
	".v-improved .chg,.v-fixed .chg{fill:#0072B2}.v-regressed .chg,.v-broken .chg{fill:#D55E00}"
	".v-unchanged .chg{fill:#999}.v-inconclusive .chg{fill:#F0E442}"
	"td.v-improved,td.v-fixed,b.v-unchanged{background:#cfe3f1}td.v-regressed,td.v-broken,b.v-regressed{background:#f6d2bd}"
	"td.v-inconclusive{background:#faf5c2}"
	".legend span{margin-right:1em}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
	"vertical-align:middle;border:1px solid #333}"
	".bn{font-family:monospace;font-weight:bold;padding:0 3px;border:1px solid #666}"
	".st-failed,.st-timeout,.err{color:#D55E00}.note{color:#444}"
	"@media print{body{max-width:none}figure,tr{break-inside:avoid}}";

/* Click a header to sort by that column (numbers by data-v); printing opens every <details>. */
static const char page_js[] =
	"document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',"
	"function(){var tb=th.closest('table').tBodies[0],up=th.dataset.up!=='1';th.dataset.up=up?'1':'0';"
	"Array.from(tb.rows).sort(function(a,b){var x=a.cells[i],y=b.cells[i],p=parseFloat(x.dataset.v),"
	"q=parseFloat(y.dataset.v),c=isNaN(p)||isNaN(q)?x.textContent.localeCompare(y.textContent):p-q;"
	"return up?c:-c;}).forEach(function(r){tb.appendChild(r);});});});"
	"window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach("
	"function(d){d.open=true;});});";

int nb_rv_render_html(FILE *out, const struct nb_rv_input *in)
{
	struct nb_html_page pg = { .out = out, .in = in };
	struct nb_rv_choice choice;

	nb_rv_choose(in->rep, &choice);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
	      "script-src 'unsafe-inline'; img-src data:\">\n<title>nicbench ",
	      out);
	fputs(in->cmp ? "compare" : "report", out);
	fputs(": kernel ", out);
	nb_html_esc(out, in->rep->kernel_release);
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>nicbench %s: ", page_css, in->cmp ? "compare" : "report");
	nb_html_esc(out, in->rep->path);
	fputs("</h1>\n", out);
	nb_html_section_compare(&pg);
	section_env(&pg);
	section_points(&pg);
	section_choice(&pg, &choice);
	fputs("<section id=\"throughput\"><h2>Throughput per setting</h2>\n", out);
	for (int t = 0; t < choice.n_tests; t++)
		throughput_chart(&pg, &choice.tests[t]);
	fputs("</section>\n", out);
	section_heatmap(&pg, &choice);
	section_cpu(&pg);
	section_series(&pg);
	section_profile(&pg);
	fprintf(out, "<footer><p class=\"note\">nicbench %s; %d charts; bottleneck rules: docs/bottleneck.md.</p>"
		     "</footer>\n<script>%s</script>\n</body></html>\n", NICBENCH_VERSION, pg.charts, page_js);
	return ferror(out) ? -EIO : 0;
}
