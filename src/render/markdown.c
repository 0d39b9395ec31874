// SPDX-License-Identifier: MIT
/* Markdown: `nicbench report` as tables, compare as a cover letter's lines, and the floor table. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_rounds.h"
#include "kit/metric_table.h"
#include "render/common.h"
#include "render/point_notes.h"

/* ---- report ---- */

/* The counters behind the rows (render/point_notes.h), a list per point that has any. */
static void md_point_notes(FILE *out, const struct nb_cmp_report *rep, const struct nb_rv_extra *extra)
{
	char notes[NB_NOTE_LINES][NB_NOTE_LINE_MAX];
	bool head = false;

	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		int n = nb_render_point_notes(p, nb_rv_point_extras(extra, p->id), notes, NB_NOTE_LINES);

		if (n && !head) {
			fputs("\n### What the counters say\n\n", out);
			head = true;
		}
		for (int k = 0; k < n; k++) {
			fprintf(out, "- `%s`: ", p->id);
			nb_render_md_text(out, notes[k]);
			fputs("\n", out);
		}
	}
}

int nb_rv_render_markdown(FILE *out, const struct nb_rv_input *in)
{
	const struct nb_cmp_report *rep = in->rep;

	fprintf(out, "# nicbench report: kernel %s\n\n", nb_render_or_dash(rep->kernel_release));
	if (in->extra) {
		fprintf(out, "| | |\n|---|---|\n");
		for (int i = 0; i < in->extra->n_env; i++) {
			nb_render_md_cell(out, in->extra->env[i].key);
			nb_render_md_cell(out, in->extra->env[i].value);
			fputs("|\n", out);
		}
		fputc('\n', out);
	}
	fprintf(out, "| test point | throughput | min .. max | busy %% | throughput per CPU-second | bottleneck |\n"
		     "|---|---:|---:|---:|---:|---|\n");
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		struct nb_bottleneck bn;
		char tput[24], range[56], busy[16], eff[24], bnt[NB_BN_SENTENCE_MAX + 32];

		nb_rv_bottleneck(rep, p, &bn);
		nb_render_tput(tput, sizeof(tput), p);
		nb_render_range(range, sizeof(range), p);
		nb_render_median(busy, sizeof(busy), p, NB_M_CPU_BUSY_PCT);
		nb_render_efficiency(eff, sizeof(eff), rep, p);
		snprintf(bnt, sizeof(bnt), "%s: %s", nb_bn_code_name(bn.code), bn.sentence);
		nb_render_md_cell(out, p->id);
		nb_render_md_cell(out, p->status == NB_CMP_STATUS_OK ? tput : nb_cmp_status_name(p->status));
		nb_render_md_cell(out, range);
		nb_render_md_cell(out, busy);
		nb_render_md_cell(out, eff);
		nb_render_md_cell(out, bnt);
		fputs("|\n", out);
	}
	md_point_notes(out, rep, in->extra);
	nb_render_choice(out, rep, true);
	if (in->cmp) {
		int ret;

		nb_rv_render_moved(out, in->cmp, true);
		fprintf(out, "\n## Compare\n\n");
		ret = nb_cmp_render_markdown(out, in->cmp);
		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- compare ---- */

/* How many points run each test: a test run under several knob settings is labelled
 * with its knobs. Few distinct tests; beyond the table every label gets its knobs. */
#define MD_MAX_TESTS 64

struct md_tests {
	int n;
	const char *name[MD_MAX_TESTS];
	int count[MD_MAX_TESTS];
};

static void md_count_tests(const struct nb_cmp_result *r, struct md_tests *t)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < r->n_points; i++) {
		const char *name = nb_render_any_point(&r->points[i])->test_name;
		int j = 0;

		while (j < t->n && strcmp(t->name[j], name))
			j++;
		if (j == t->n) {
			if (t->n == MD_MAX_TESTS)
				continue;
			t->name[t->n++] = name;
		}
		t->count[j]++;
	}
}

static int md_test_count(const struct md_tests *t, const char *name)
{
	for (int j = 0; j < t->n; j++) {
		if (!strcmp(t->name[j], name))
			return t->count[j];
	}
	return 2; /* not in the table: label with the knobs to be safe */
}

/* "tcp-rx" -> "TCP RX"; with the knobs when several points share a test. */
static void md_label(struct nb_print *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *p = nb_render_any_point(pr);

	for (const char *s = p->test_name[0] ? p->test_name : p->id; *s; s++)
		nb_print_putc(out, *s == '-' ? ' ' : (char)toupper((unsigned char)*s));
	if (p->test_name[0] && md_test_count(tests, p->test_name) > 1)
		nb_print_fmt(out, " (%s)", p->knobs[0] ? p->knobs : p->id);
}

static const struct nb_cmp_metric_result *find_result(const struct nb_cmp_point_result *pr, const char *name)
{
	for (int i = 0; i < pr->n_metrics; i++) {
		if (!strcmp(pr->metrics[i].name, name))
			return &pr->metrics[i];
	}
	return NULL;
}

/* "not measured in the new report: throughput_bps; " for gated metrics BASE had and NEW lacks. */
static void md_missing_metrics(struct nb_print *out, const struct nb_cmp_point_result *pr)
{
	int n = 0;

	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (m->gated && m->verdict == NB_CMP_MISSING)
			nb_print_fmt(out, "%s%s", n++ ? ", " : "not measured in the new report: ", m->name);
	}
	if (n)
		nb_print_lit(out, "; ");
}

/* "+34% bandwidth (400.00 Mbit/s -> 536.00 Mbit/s)", "similar CPU (45.0% -> 45.2%)"; nothing when unmeasured. */
static bool md_phrase(struct nb_print *out, const struct nb_cmp_point_result *pr, const char *metric, const char *what,
		      bool first)
{
	const struct nb_cmp_metric_result *m = find_result(pr, metric);
	char b[32], n[32];

	if (!m || !m->has_change)
		return false;
	nb_print_puts(out, first ? "" : ", ");
	if (m->verdict == NB_CMP_UNCHANGED)
		nb_print_fmt(out, "similar %s", what);
	else if (m->change_capped && m->change_pct > 0)
		nb_print_fmt(out, ">%.0f%% %s", m->change_pct, what);
	else
		nb_print_fmt(out, "%+.0f%% %s", m->change_pct, what);
	/* The figures themselves: a percentage alone hides whether 34% is of 4 or of 400 Mbit/s. */
	nb_print_fmt(out, " (%s -> ", nb_render_value(b, sizeof(b), m->name, m->has_base, m->base));
	nb_print_fmt(out, "%s)", nb_render_value(n, sizeof(n), m->name, m->has_new, m->new));
	if (m->verdict == NB_CMP_INCONCLUSIVE)
		nb_print_lit(out, " (inconclusive)");
	return true;
}

static void md_point(struct nb_print *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	char v[32];
	const struct nb_cmp_metric_result *thr = find_result(pr, NB_M_THROUGHPUT_BPS);
	bool any;

	nb_print_lit(out, "- ");
	md_label(out, tests, pr);
	nb_print_lit(out, ": ");
	switch (pr->verdict) {
	case NB_CMP_FIXED:
	case NB_CMP_BROKEN: {
		const struct nb_cmp_point *bad = pr->verdict == NB_CMP_FIXED ? pr->base : pr->new;

		nb_print_fmt(out, "%s (%s %s", nb_cmp_verdict_name(pr->verdict), pr->verdict == NB_CMP_FIXED ? "base" : "new",
			nb_cmp_status_name(bad->status));
		if (bad->error)
			nb_print_fmt(out, ": %s", bad->error);
		nb_print_putc(out, ')');
		if (pr->verdict == NB_CMP_FIXED && thr && thr->has_new)
			nb_print_fmt(out, ", now %s", nb_render_value(v, sizeof(v), thr->name, true, thr->new));
		nb_print_putc(out, '\n');
		return;
	}
	case NB_CMP_NEW:
	case NB_CMP_MISSING:
		if (pr->verdict == NB_CMP_MISSING && pr->new && pr->new->status == NB_CMP_STATUS_OK) {
			md_missing_metrics(out, pr);
			break;
		}
		nb_print_fmt(out, "%s\n", pr->verdict == NB_CMP_NEW ? "only in the new report" : "missing from the new report");
		nb_render_incomplete(out, "  - ", "new", pr->new);
		return;
	default:
		break;
	}
	any = md_phrase(out, pr, NB_M_THROUGHPUT_BPS, "bandwidth", true);
	any |= md_phrase(out, pr, NB_M_RR_TRANSACTIONS_PER_S, "transactions/s", !any);
	any |= md_phrase(out, pr, NB_M_RR_LATENCY_P99_US, "p99 latency", !any);
	any |= md_phrase(out, pr, NB_M_CPU_BUSY_PCT, "CPU", !any);
	{
		const struct nb_cmp_metric_result *eff = find_result(pr, NB_CMP_EFFICIENCY_METRIC);

		const struct nb_cmp_metric_result *cpu = find_result(pr, NB_M_CPU_BUSY_PCT);

		/* Efficiency only adds news when the CPU moved; otherwise it repeats the bandwidth. */
		if (eff && cpu && cpu->verdict != NB_CMP_UNCHANGED &&
		    (eff->verdict == NB_CMP_IMPROVED || eff->verdict == NB_CMP_REGRESSED))
			any |= md_phrase(out, pr, NB_CMP_EFFICIENCY_METRIC, "bandwidth per CPU", !any);
	}
	nb_print_puts(out, any ? "\n" : "no comparable metrics\n");
	/* the same warnings as the text table's: a reader of a cover letter needs them as much */
	nb_render_bound_warnings(out, "  - ", pr->base, pr->new);
	nb_render_incomplete(out, "  - ", "base", pr->base);
	nb_render_incomplete(out, "  - ", "new", pr->new);
}

/* The kernel profile's movers: what a change looks like from inside. Over paired rounds for every
 * point (they beat the pairs' noise); between single reports only where the point regressed or
 * improved, as in the text. */
static void md_movers(struct nb_print *out, const struct nb_cmp_result *r)
{
	int shown = 0;

	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (!pr->n_movers || (pr->movers[0].n_pairs < 2 && pr->verdict != NB_CMP_REGRESSED &&
				      pr->verdict != NB_CMP_IMPROVED))
			continue;
		if (!shown++)
			nb_print_lit(out, "\nKernel profile:\n\n");
		nb_print_fmt(out, "- `%s`: ", r->points[i].id);
		nb_render_movers(out, "", &r->points[i]);
	}
}

static void markdown_body(struct nb_print *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;
	struct md_tests tests;

	nb_print_fmt(out, "Performance, %s -> %s (nicbench compare: **%s**):\n\n",
		r->base->kernel_release[0] ? r->base->kernel_release : r->base->path,
		r->new->kernel_release[0] ? r->new->kernel_release : r->new->path, nb_cmp_overall_name(r->verdict));
	nb_render_foreign_load(out, "", r);
	if (r->other_differs)
		nb_print_putc(out, '\n');
	if (r->rounds)
		nb_print_fmt(out, "Rounds: %d of A, %d of B, %s.\n\n", r->rounds->n[NB_CMP_SIDE_A],
			     r->rounds->n[NB_CMP_SIDE_B], opt->rounds_paired ? "paired by round index" : "not paired");
	md_count_tests(r, &tests);
	for (int i = 0; i < r->n_points; i++) {
		md_point(out, &tests, &r->points[i]);
		nb_print_drain(out);
	}
	md_movers(out, r);
	nb_render_disturbed(out, r, true);
	nb_print_fmt(out, "\nMedians of the runs on each side; \"similar\" is within %g%%%s, \"inconclusive\" is a larger "
		"change whose %.0f%% confidence interval (Mann-Whitney) still reaches within %g%% or within the spread of "
		"a side's runs, or fewer than %d runs, or a point where other programs took %.0f%% of the CPU or more "
		"(cpu_other_pct).\n",
		opt->min_effect_pct, opt->no_floors ? "" : " or within the metric's absolute floor",
		(1 - opt->alpha) * 100, opt->min_effect_pct, opt->min_runs, NB_FOREIGN_LOAD_PCT);
}

int nb_cmp_render_markdown(FILE *file, const struct nb_cmp_result *r)
{
	struct nb_print b;

	nb_print_init(&b, file, NB_PRINT_PLAIN);

	markdown_body(&b, r);
	return nb_print_finish(&b);
}

/* ---- the floor table ---- */

static const char *direction_word(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher is better" : d == NB_CMP_LOWER_BETTER ? "lower is better" : "neutral";
}

int nb_cmp_render_floors(FILE *file)
{
	struct nb_print b;

	nb_print_init(&b, file, NB_PRINT_PLAIN);
	char pattern[96];
	struct nb_cmp_floor f;
	enum nb_cmp_direction d;

	nb_print_lit(&b, "| metric | direction | family | floor | unit |\n|---|---|---|---|---|\n");
	for (int i = 0; nb_cmp_floor_row(i, pattern, sizeof(pattern), &f, &d); i++) {
		nb_print_fmt(&b, "| `%s` | %s | ", pattern, direction_word(d));
		if (f.kind == NB_CMP_FLOOR_NONE)
			nb_print_lit(&b, "- | none | |\n");
		else
			nb_print_fmt(&b, "%s | %g | %s |\n", f.family, f.value, f.unit ? f.unit : "");
	}
	nb_print_lit(&b, "| any other | neutral | - | none | |\n");
	return nb_print_finish(&b);
}
