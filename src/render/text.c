// SPDX-License-Identifier: MIT
/* Text: compare's verdict table and `nicbench report`'s points, bottlenecks and choice. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_rounds.h"
#include "compare/compare_stats.h"
#include "kit/metric_table.h"
#include "render/sequential_view.h"
#include "render/common.h"
#include "render/point_notes.h"

/* ---- compare ---- */

static const char *verdict_color(enum nb_cmp_verdict v)
{
	switch (v) {
	case NB_CMP_REGRESSED:
	case NB_CMP_BROKEN:
		return "\033[1;31m";
	case NB_CMP_IMPROVED:
	case NB_CMP_FIXED:
		return "\033[32m";
	case NB_CMP_INCONCLUSIVE:
	case NB_CMP_MISSING:
		return "\033[33m";
	default:
		return "";
	}
}

static void put_verdict(struct nb_print *out, enum nb_cmp_verdict v, bool color, bool upper)
{
	const char *name = nb_cmp_verdict_name(v);
	const char *c = color ? verdict_color(v) : "";

	nb_print_puts(out, c);
	for (const char *s = name; *s; s++)
		nb_print_putc(out, upper ? toupper((unsigned char)*s) : *s);
	if (*c)
		nb_print_lit(out, "\033[0m");
}

/* What a reader needs: the gated metrics and whatever moved; an A/A compare then fits on a
 * screen. The rest is counted, and -v lists it. A metric that is not gated and too noisy to
 * tell is counted too: on a shared machine dozens of them say "cannot tell" on an A/A, and
 * listed they buried the lines that matter. */
static bool text_shows(const struct nb_cmp_metric_result *m, const struct nb_cmp_render_opts *ro)
{
	return ro->all_metrics || m->gated ||
	       (m->verdict != NB_CMP_UNCHANGED && m->verdict != NB_CMP_INCONCLUSIVE && m->verdict != NB_CMP_CHANGED);
}

/* A metric without a direction that moved (which CPU carried the softirqs, an event rate): named
 * with its change on one line per point, not a row each; an A/A pair on veth moves half a dozen
 * per-CPU shares, as the scheduler places the work anew. -v gives them rows. */
static bool text_changed_line(const struct nb_cmp_metric_result *m, const struct nb_cmp_render_opts *ro)
{
	return !ro->all_metrics && !m->gated && m->verdict == NB_CMP_CHANGED;
}

/* Profile movers explain a change. Over paired rounds they beat their own noise and are always
 * shown; between two single reports (no noise figure: an A/A pair on veth moves symbols by 7-9
 * points) only where a metric with a direction moved, or with -v. */
static bool text_movers(const struct nb_cmp_point_result *pr, const struct nb_cmp_render_opts *ro)
{
	if (ro->all_metrics || (pr->n_movers && pr->movers[0].n_pairs >= 2))
		return true;
	for (int i = 0; i < pr->n_metrics; i++) {
		if (pr->metrics[i].verdict == NB_CMP_REGRESSED || pr->metrics[i].verdict == NB_CMP_IMPROVED)
			return true;
	}
	return false;
}

/* The column heads, aligned with the rows of text_point. */
static void text_columns(struct nb_print *out)
{
	nb_print_lit(out, "    ");
	nb_print_pad(out, "metric", -24);
	nb_print_putc(out, ' ');
	nb_print_pad(out, "base", 18);
	nb_print_putc(out, ' ');
	nb_print_pad(out, "new", 18);
	nb_print_putc(out, ' ');
	nb_print_pad(out, "change", 9);
	nb_print_lit(out, "  verdict\n");
}

/* "; floors: off" or the --floor overrides; the defaults are in docs/compare.md. */
static void text_floors(struct nb_print *out, const struct nb_cmp_options *opt)
{
	if (opt->no_floors) {
		nb_print_lit(out, "; floors: off");
		return;
	}
	for (int i = 0; i < opt->n_floors; i++)
		nb_print_fmt(out, "%s%s=%g", i ? "," : "; floors: ", opt->floors[i].name, opt->floors[i].value);
}

/* The runs each side of a point has (its best-measured metric): with auto repetitions they
 * differ from point to point and side to side. */
static void point_runs(const struct nb_cmp_point_result *pr, int *nb, int *nn)
{
	*nb = *nn = 0;
	for (int i = 0; i < pr->n_metrics; i++) {
		*nb = pr->metrics[i].n_base > *nb ? pr->metrics[i].n_base : *nb;
		*nn = pr->metrics[i].n_new > *nn ? pr->metrics[i].n_new : *nn;
	}
}

/* Once per point: the runs compared, and the side that had too few for a verdict. */
static void put_point_runs(struct nb_print *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	int nb, nn;

	point_runs(pr, &nb, &nn);
	if (!pr->base || !pr->new || (nb == nn && nb >= opt->min_runs) || opt->rounds_paired)
		return;
	nb_print_fmt(out, "    runs: %d base, %d new", nb, nn);
	if (nb < opt->min_runs || nn < opt->min_runs)
		nb_print_fmt(out, "; too few on the %s side for a verdict (%d needed)",
			     nb < opt->min_runs && nn < opt->min_runs ? "base and the new" : nb < opt->min_runs ? "base" : "new",
			     opt->min_runs);
	nb_print_putc(out, '\n');
}

/* Above the points: how many had too few runs on each side. */
static void put_few_runs(struct nb_print *out, const struct nb_cmp_result *r)
{
	int few_base = 0, few_new = 0;

	if (r->opt->rounds_paired)
		return; /* the pairs, not the runs, decide: the rounds line says how many */
	for (int i = 0; i < r->n_points; i++) {
		int nb, nn;

		if (!r->points[i].base || !r->points[i].new)
			continue;
		point_runs(&r->points[i], &nb, &nn);
		few_base += nb < r->opt->min_runs;
		few_new += nn < r->opt->min_runs;
	}
	if (few_base || few_new)
		nb_print_fmt(out, "  too few runs (< %d) on a side: base in %d point(s), new in %d: those are inconclusive\n",
			     r->opt->min_runs, few_base, few_new);
}

/* columns: whether the column heads were printed (once, above the first row of the output) */
static void text_point(struct nb_print *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt,
		       const struct nb_cmp_render_opts *ro, bool *columns)
{
	char b[32], n[32], c[24], reason[160];
	int hidden = 0, noisy = 0, changed = 0;

	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (!text_changed_line(m, ro) && !text_shows(m, ro)) {
			hidden++;
			noisy += m->verdict == NB_CMP_INCONCLUSIVE;
		}
	}
	nb_print_fmt(out, "\n%s: ", pr->id);
	put_verdict(out, pr->verdict, ro->color, true);
	/* the metrics not listed, counted on the point's line: -v lists them */
	if (hidden - noisy && noisy)
		nb_print_fmt(out, "  (+ %d metric%s unchanged or within floors, %d too noisy to tell; -v lists them)",
			     hidden - noisy, hidden - noisy == 1 ? "" : "s", noisy);
	else if (hidden)
		nb_print_fmt(out, "  (+ %d metric%s %s; -v lists them)", hidden, hidden == 1 ? "" : "s",
			     noisy ? "too noisy to tell" : "unchanged or within floors");
	nb_print_putc(out, '\n');
	if (pr->base && pr->base->error && pr->base->status != NB_CMP_STATUS_OK)
		nb_print_fmt(out, "    base %s: %s\n", nb_cmp_status_name(pr->base->status), pr->base->error);
	if (pr->new && pr->new->error && pr->new->status != NB_CMP_STATUS_OK)
		nb_print_fmt(out, "    new %s: %s\n", nb_cmp_status_name(pr->new->status), pr->new->error);
	nb_render_incomplete(out, "    ", "base", pr->base);
	nb_render_incomplete(out, "    ", "new", pr->new);
	nb_render_bound_warnings(out, "    ", pr->base, pr->new);
	put_point_runs(out, pr, opt);
	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (text_changed_line(m, ro)) {
			changed++;
			continue;
		}
		if (!text_shows(m, ro))
			continue;
		if (!*columns) {
			text_columns(out);
			*columns = true;
		}
		/* "  %c %-24s %18s %18s %9s  " */
		nb_print_put(out, m->gated ? "  * " : "    ", 4);
		nb_print_pad(out, m->name, -24);
		nb_print_putc(out, ' ');
		nb_print_pad(out, nb_render_value(b, sizeof(b), m->name, m->has_base, m->base), 18);
		nb_print_putc(out, ' ');
		nb_print_pad(out, nb_render_value(n, sizeof(n), m->name, m->has_new, m->new), 18);
		nb_print_putc(out, ' ');
		nb_print_pad(out, nb_cmp_format_change(c, sizeof(c), m), 9);
		nb_print_put(out, "  ", 2);
		put_verdict(out, m->verdict, ro->color, false);
		if (m->reason != NB_CMP_REASON_NONE)
			nb_print_fmt(out, " (%s)", nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		nb_print_putc(out, '\n');
	}
	for (int i = 0, k = 0; i < pr->n_metrics && changed; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (!text_changed_line(m, ro))
			continue;
		nb_print_fmt(out, "%s %s %s", k++ ? "," : "    changed, no direction:", m->name,
			     nb_cmp_format_change(c, sizeof(c), m));
		if (k == changed)
			nb_print_putc(out, '\n');
	}
	if (text_movers(pr, ro))
		nb_render_movers(out, "    ", pr);
}

static void text_counts(struct nb_print *out, const struct nb_cmp_result *r)
{
	bool first = true;

	nb_print_fmt(out, " (%d points:", r->n_points);
	for (int v = 0; v <= NB_CMP_CHANGED; v++) {
		if (!r->count[v])
			continue;
		nb_print_fmt(out, "%s %d %s", first ? "" : ",", r->count[v], nb_cmp_verdict_name((enum nb_cmp_verdict)v));
		first = false;
	}
	nb_print_lit(out, ")\n");
}

/* How many rounds a side, whether they paired, and what did not pair. */
static void text_rounds(struct nb_print *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_rounds *rd = r->rounds;

	if (!rd)
		return;
	nb_print_fmt(out, "  rounds: %d of A, %d of B", rd->n[NB_CMP_SIDE_A], rd->n[NB_CMP_SIDE_B]);
	if (rd->set && rd->set[0])
		nb_print_fmt(out, " (set %s)", rd->set);
	if (r->opt->rounds_paired)
		nb_print_fmt(out, "; paired by round index: %d pair%s, the unit of evidence\n", rd->n_paired,
			     rd->n_paired == 1 ? "" : "s");
	else
		nb_print_lit(out, "; not paired: each round's medians are one sample of its side\n");
	for (int i = 0; i < rd->n_notes; i++)
		nb_print_fmt(out, "  note: %s\n", rd->notes[i]);
}

static void text_method(struct nb_print *out, const struct nb_cmp_options *opt)
{
	if (opt->rounds_paired && opt->sequential) {
		/* the sign interval does not decide here: say which test does (docs/compare.md) */
		nb_print_fmt(out, "  sequential: the pairs' mean log ratio (B over A, round by round) and its %.0f%% confidence "
			"sequence%s,\n  valid at every look; a change counts when the sequence lies beyond the minimum effect "
			"(%g%%)%s, unchanged\n  when inside +-%g%%, else undecided (>= 3 pairs); no run with cpu_other_pct >= "
			"%.0f%%, and more than host steal can explain\n  gate (*): ",
			(1 - opt->alpha) * 100, opt->alpha_split ? " (the gate's, its alpha shared among the metrics)" : "",
			opt->min_effect_pct, opt->no_floors ? "" : " and the metric's floor",
			NB_SEQ_EQUIVALENCE_FACTOR * opt->min_effect_pct, NB_FOREIGN_LOAD_PCT);
		return;
	}
	if (opt->rounds_paired) {
		nb_print_fmt(out, "  the change is the median pair's (B over A, round by round); it counts when the pairs' "
			"%.0f%% sign interval\n  lies beyond the minimum effect (%g%%)%s (>= %d pairs), no run with "
			"cpu_other_pct >= %.0f%%, and more than host steal can explain\n  gate (*): ",
			(1 - opt->alpha) * 100, opt->min_effect_pct, opt->no_floors ? "" : " and the metric's floor",
			nb_stats_sign_min_pairs(opt->alpha), NB_FOREIGN_LOAD_PCT);
		return;
	}
	nb_print_fmt(out, "  medians; a change counts when its %.0f%% interval (Mann-Whitney) lies beyond the minimum "
		"effect (%g%%)%s and the runs' spread, >= %d runs per side, no run with cpu_other_pct >= %.0f%%,\n"
		"  and more than a difference in host steal (steal_pct) can explain\n"
		"  gate (*): ", (1 - opt->alpha) * 100, opt->min_effect_pct,
		opt->no_floors ? "" : ", the metric's floor", opt->min_runs, NB_FOREIGN_LOAD_PCT);
}

/* Two reports measured once each can sit in two moods of the host: a gated metric they leave
 * inconclusive may well have a verdict in alternating rounds. Said once, under the points; a
 * verdict withheld for a disturbed side has its own advice (nb_render_disturbed). */
static void put_rounds_hint(struct nb_print *out, const struct nb_cmp_result *r)
{
	if (r->rounds)
		return;
	for (int i = 0; i < r->n_points; i++) {
		for (int j = 0; j < r->points[i].n_metrics; j++) {
			const struct nb_cmp_metric_result *m = &r->points[i].metrics[j];

			if (m->gated && m->verdict == NB_CMP_INCONCLUSIVE && !nb_cmp_withheld_disturbed(m)) {
				nb_print_lit(out, "to get a verdict, alternate the kernels in rounds (run --round A:1/5, "
						  "then B:1/5, A:2/5, ...) and compare A*.json -- B*.json (docs/compare.md, "
						  "Rounds)\n");
				return;
			}
		}
	}
}

static void text_body(struct nb_print *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	const struct nb_cmp_options *opt = r->opt;

	nb_print_fmt(out, "nicbench compare\n  base: %s (kernel %s)\n  new:  %s (kernel %s)\n", r->base->path,
		r->base->kernel_release[0] ? r->base->kernel_release : "?", r->new->path,
		r->new->kernel_release[0] ? r->new->kernel_release : "?");
	text_rounds(out, r);
	text_method(out, opt);
	nb_render_gate(out, opt);
	text_floors(out, opt);
	nb_print_putc(out, '\n');
	for (int i = 0; i < r->n_env_diffs; i++)
		nb_print_fmt(out, "  environment differs: %s: %s -> %s\n", r->env_diffs[i].key,
			r->env_diffs[i].base ? r->env_diffs[i].base : "(absent)",
			r->env_diffs[i].new ? r->env_diffs[i].new : "(absent)");
	if (r->n_test_diffs)
		nb_print_fmt(out, "  environment differs: test settings of %d point(s), e.g. %s\n", r->n_test_diffs,
			r->test_diff_id);
	nb_render_foreign_load(out, "  ", r);
	put_few_runs(out, r);
	bool columns = false;

	for (int i = 0; i < r->n_points; i++) {
		text_point(out, &r->points[i], opt, ro, &columns);
		nb_print_drain(out);
	}
	nb_render_sequential(out, r);
	nb_render_disturbed(out, r, false);
	put_rounds_hint(out, r);
	nb_print_lit(out, "verdict: ");
	if (ro->color)
		nb_print_puts(out, r->verdict == NB_CMP_REGRESSION ? "\033[1;31m" : r->verdict == NB_CMP_PASS ? "\033[32m" : "\033[33m");
	nb_print_puts(out, nb_cmp_overall_name(r->verdict));
	if (ro->color)
		nb_print_lit(out, "\033[0m");
	text_counts(out, r);
}

int nb_cmp_render_text(FILE *file, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	struct nb_print b;

	nb_print_init(&b, file, NB_PRINT_PLAIN);

	text_body(&b, r, ro);
	return nb_print_finish(&b);
}

/* ---- report ---- */

static const char *env_value(const struct nb_rv_extra *x, const char *key)
{
	for (int i = 0; x && i < x->n_env; i++)
		if (!strcmp(x->env[i].key, key))
			return x->env[i].value;
	return NULL;
}

static void text_header(FILE *out, const struct nb_rv_input *in)
{
	const struct nb_cmp_report *rep = in->rep;

	fprintf(out, "nicbench report %s: kernel %s", rep->path ? rep->path : "-", nb_render_or_dash(rep->kernel_release));
	if (in->extra)
		fprintf(out, ", %s (%s) on %s, peer %s", nb_render_or_dash(env_value(in->extra, "interface")),
			nb_render_or_dash(env_value(in->extra, "driver")), nb_render_or_dash(env_value(in->extra, "host")),
			nb_render_or_dash(env_value(in->extra, "peer")));
	fprintf(out, ", %d CPU%s, %d point%s\n", rep->cpus, rep->cpus == 1 ? "" : "s", rep->n_points,
		rep->n_points == 1 ? "" : "s");
	if (env_value(in->extra, "round"))
		fprintf(out, "round %s\n", env_value(in->extra, "round"));
	if (!strcmp(rep->restore_status, "ok"))
		fprintf(out, "restore: ok, %d knob value%s put back as found (restore.knobs)\n", rep->restore_knobs,
			rep->restore_knobs == 1 ? "" : "s");
	else if (rep->restore_status[0])
		fprintf(out, "restore: FAILED: %s; the board is not as it was found (restore.knobs)\n",
			rep->restore_error[0] ? rep->restore_error : "no error text");
	else
		fprintf(out, "restore: not recorded (a report from before nicbench recorded it)\n");
	fputc('\n', out);
}

static void text_points(FILE *out, const struct nb_cmp_report *rep, const struct nb_rv_extra *extra)
{
	char notes[NB_NOTE_LINES][NB_NOTE_LINE_MAX];
	int idw = 10;

	for (int i = 0; i < rep->n_points; i++)
		idw = (int)strlen(rep->points[i].id) > idw ? (int)strlen(rep->points[i].id) : idw;
	fprintf(out, "%-*s  %12s  %28s  %6s  %12s  %-13s  %s\n", idw, "test point", "throughput", "min .. max (runs)",
		"busy%", "per CPU-s", "bottleneck", "status");
	for (int i = 0; i < rep->n_points; i++) {
		const struct nb_cmp_point *p = &rep->points[i];
		struct nb_bottleneck bn;
		char tput[24], range[56], busy[16], eff[24];

		nb_rv_bottleneck(rep, p, &bn);
		nb_render_tput(tput, sizeof(tput), p);
		nb_render_range(range, sizeof(range), p);
		nb_render_median(busy, sizeof(busy), p, NB_M_CPU_BUSY_PCT);
		nb_render_efficiency(eff, sizeof(eff), rep, p);
		fprintf(out, "%-*s  %12s  %28s  %6s  %12s  %-13s  %s\n", idw, p->id, tput, range, busy, eff,
			nb_bn_code_name(bn.code), nb_cmp_status_name(p->status));
		fprintf(out, "%-*s    %s\n", idw, "", bn.sentence);
		for (int k = 0, n = nb_render_point_notes(p, nb_rv_point_extras(extra, p->id), notes, NB_NOTE_LINES); k < n; k++)
			fprintf(out, "%-*s    %s\n", idw, "", notes[k]);
	}
}

int nb_rv_render_text(FILE *out, const struct nb_rv_input *in)
{
	text_header(out, in);
	text_points(out, in->rep, in->extra);
	nb_render_choice(out, in->rep, false);
	if (in->cmp) {
		struct nb_cmp_render_opts ro = { 0 };
		int ret;

		nb_rv_render_moved(out, in->cmp, false);
		fprintf(out, "\ncompare %s -> %s\n", in->cmp->base->path, in->cmp->new->path);
		ret = nb_cmp_render_text(out, in->cmp, &ro);
		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}
