// SPDX-License-Identifier: MIT
/* nicbench compare renderers: text, JSON, JUnit and Markdown over the same result structs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/compare_rounds.h"
#include "compare/compare_stats.h"
#include "kit/nb_print.h"

/* ---- numbers ----
 * Named helpers over snprintf, so every renderer spells a figure the same way. */

/* snprintf(buf, len, plus ? "%+.*f" : "%.*f", decimals, v) */
static const char *fmt_fixed(char *buf, size_t len, double v, int decimals, bool plus)
{
	snprintf(buf, len, plus ? "%+.*f" : "%.*f", decimals, v);
	return buf;
}

/* snprintf(buf, len, plus ? "%+.1f%%" : "%.1f%%", v) */
static const char *fmt_pct(char *buf, size_t len, double v, bool plus)
{
	snprintf(buf, len, plus ? "%+.1f%%" : "%.1f%%", v);
	return buf;
}

static const char *fmt_g(char *buf, size_t len, double v, int prec)
{
	snprintf(buf, len, "%.*g", prec, v);
	return buf;
}

/* Most names differ in their first byte: skip the call then. */
static inline bool same_name(const char *a, const char *b)
{
	return a[0] == b[0] && !strcmp(a, b);
}

const char *nb_cmp_format_change(char *buf, size_t len, const struct nb_cmp_metric_result *m)
{
	if (!m->has_change) {
		snprintf(buf, len, "%s", "");
	} else if (m->change_capped && m->change_pct > 0) {
		snprintf(buf, len, ">%.0f%%", m->change_pct);
	} else {
		fmt_pct(buf, len, m->change_pct, true);
	}
	return buf;
}

/* Room for any double in "%+.4f": 309 digits, sign, point and decimals. */
#define FIXED_MAX 328

static const char *format_value(char *buf, size_t len, const char *name, bool present, double v);

/* A floor in words: CPU shares and loss in percentage points, the rest in the metric's unit. */
/* An amount in the metric's unit: a floor, a spread. */
static const char *amount_text(char *buf, size_t len, const struct nb_cmp_metric_result *m, double v)
{
	size_t nl = strlen(m->name);

	if ((nl > 4 && !strcmp(m->name + nl - 4, "_pct")) || !strcmp(m->name, "lost_percent"))
		snprintf(buf, len, "%.3g points", v);
	else
		format_value(buf, len, m->name, true, v);
	return buf;
}

static const char *floor_text(char *buf, size_t len, const struct nb_cmp_metric_result *m)
{
	return amount_text(buf, len, m, m->floor);
}

const char *nb_cmp_reason_text(char *buf, size_t len, const struct nb_cmp_metric_result *m,
			       const struct nb_cmp_options *opt)
{
	double level = (1 - opt->alpha) * 100;
	char lvl[FIXED_MAX], lo[FIXED_MAX], hi[FIXED_MAX], last[FIXED_MAX];

	switch (m->reason) {
	case NB_CMP_REASON_FEW_RUNS:
		snprintf(buf, len, "too few runs (%d base, %d new; %d needed)", m->n_base, m->n_new, opt->min_runs);
		break;
	case NB_CMP_REASON_UNREACHABLE:
		snprintf(buf, len, "%d v %d runs cannot reach %.0f%% confidence", m->n_base, m->n_new, level);
		break;
	case NB_CMP_REASON_FEW_PAIRS:
		snprintf(buf, len, "%d paired round%s cannot reach %.0f%% confidence (the sign interval needs %d)",
			 m->n_pairs, m->n_pairs == 1 ? "" : "s", level, nb_stats_sign_min_pairs(opt->alpha));
		break;
	/* Every metric that moved has one of these two: their numbers skip printf's float path. */
	case NB_CMP_REASON_NOISY:
		snprintf(buf, len, "too noisy: %s%% interval %s..%s reaches within %s%%",
			 fmt_fixed(lvl, sizeof(lvl), level, 0, false), fmt_pct(lo, sizeof(lo), m->ci_lo_pct, true),
			 fmt_pct(hi, sizeof(hi), m->ci_hi_pct, true), fmt_g(last, sizeof(last), m->min_effect_pct, 3));
		break;
	case NB_CMP_REASON_SUPPORTED:
		snprintf(buf, len, "%s%% interval %s..%s, p=%s", fmt_fixed(lvl, sizeof(lvl), level, 0, false),
			 fmt_pct(lo, sizeof(lo), m->ci_lo_pct, true), fmt_pct(hi, sizeof(hi), m->ci_hi_pct, true),
			 fmt_fixed(last, sizeof(last), m->p_value, 3, false));
		break;
	case NB_CMP_REASON_ONLY_BASE:
	case NB_CMP_REASON_ONLY_NEW:
		snprintf(buf, len, "measured only in the %s report", m->reason == NB_CMP_REASON_ONLY_BASE ? "base" : "new");
		break;
	case NB_CMP_REASON_WITHIN_FLOOR:
		snprintf(buf, len, "within the %s floor of %s", m->floor_family ? m->floor_family : "metric's",
			 floor_text(last, sizeof(last), m));
		break;
	case NB_CMP_REASON_NOISY_FLOOR:
		snprintf(buf, len, "too noisy: %s%% interval %s..%s reaches within the floor of %s",
			 fmt_fixed(lvl, sizeof(lvl), level, 0, false), fmt_pct(lo, sizeof(lo), m->ci_lo_pct, true),
			 fmt_pct(hi, sizeof(hi), m->ci_hi_pct, true), floor_text(last, sizeof(last), m));
		break;
	case NB_CMP_REASON_NOISY_SPREAD:
		/* "0.45 of ": the factor of nb_cmp_spread_factor, when it is not one spread */
		if (m->spread_factor != 1)
			snprintf(hi, sizeof(hi), "%.2g of ", m->spread_factor);
		else
			hi[0] = '\0';
		if (m->spread_ratio)
			snprintf(buf, len, "too noisy: the sides differ by less than %sthe runs of a side spread (%s, x%.3g)", hi,
				 amount_text(last, sizeof(last), m, m->spread), 1 + m->spread_pct / 100);
		else
			snprintf(buf, len, "too noisy: the sides differ by less than %sthe runs of a side spread (%s)", hi,
				 amount_text(last, sizeof(last), m, m->spread));
		break;
	case NB_CMP_REASON_DISTURBED:
		snprintf(buf, len, "disturbed: other programs took up to %.0f%% of the CPU in a run (cpu_other_pct)",
			 m->other_pct);
		break;
	case NB_CMP_REASON_FOLLOWS_THROUGHPUT:
		snprintf(buf, len, "moved with the throughput (%s), by no more: the same CPU per bit "
			 "(bits_per_cpu_second judges that)", fmt_pct(lo, sizeof(lo), m->throughput_change_pct, true));
		break;
	case NB_CMP_REASON_STEAL:
		if (m->counts_losses)
			snprintf(buf, len, "host steal %.1f%% -> %.1f%% of the CPUs (steal_pct) can explain any change in "
				 "losses", m->steal.base_pct, m->steal.new_pct);
		else
			snprintf(buf, len, "host steal %.1f%% -> %.1f%% of the CPUs (steal_pct) can explain up to %.0f%%",
				 m->steal.base_pct, m->steal.new_pct, m->steal.explains_pct);
		break;
	default:
		snprintf(buf, len, "%s", "");
	}
	return buf;
}

static bool is_bitrate(const char *name)
{
	return same_name(name, "throughput_bps") || same_name(name, NB_CMP_EFFICIENCY_METRIC);
}

/* snprintf(buf, len, "%.*f %s", decimals, v, unit) */
static void format_scaled(char *buf, size_t len, double v, int decimals, const char *unit)
{
	size_t n = strlen(fmt_fixed(buf, len, v, decimals, false));
	size_t u = strlen(unit);

	if (n + 1 + u < len) {
		buf[n] = ' ';
		memcpy(buf + n + 1, unit, u + 1);
	} else {
		snprintf(buf, len, "%.*f %s", decimals, v, unit); /* cut where printf cuts it */
	}
}

static const char *format_value(char *buf, size_t len, const char *name, bool present, double v)
{
	size_t nl = strlen(name);

	if (!present) {
		snprintf(buf, len, "-");
	} else if (is_bitrate(name)) {
		bool thr = same_name(name, "throughput_bps");

		if (fabs(v) >= 1e9)
			format_scaled(buf, len, v / 1e9, 2, thr ? "Gbit/s" : "Gbit/cpu-s");
		else if (fabs(v) >= 1e6)
			format_scaled(buf, len, v / 1e6, 2, thr ? "Mbit/s" : "Mbit/cpu-s");
		else if (fabs(v) >= 1e3)
			format_scaled(buf, len, v / 1e3, 2, thr ? "kbit/s" : "kbit/cpu-s");
		else
			format_scaled(buf, len, v, 0, thr ? "bit/s" : "bit/cpu-s");
	} else if (nl > 4 && !strcmp(name + nl - 4, "_pct")) {
		fmt_pct(buf, len, v, false);
	} else {
		fmt_g(buf, len, v, 4);
	}
	return buf;
}

/* ---- text ---- */

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

/* Profile movers explain a change: shown where a metric with a direction moved, or with -v. */
static bool text_movers(const struct nb_cmp_point_result *pr, const struct nb_cmp_render_opts *ro)
{
	if (ro->all_metrics)
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

static void text_gate(struct nb_print *out, const struct nb_cmp_options *opt)
{
	if (!opt->n_gate)
		nb_print_lit(out, "none");
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		nb_print_fmt(out, "%s%s%s%s", i ? "," : "", g->metric, g->tests[0] ? "@" : "", g->tests);
		if (g->min_effect_pct >= 0)
			nb_print_fmt(out, "=%g", g->min_effect_pct);
	}
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

/* Other programs' CPU differed between the two sides (cpu_other_pct): every figure may have moved. */
static void put_foreign_load(struct nb_print *out, const char *lead, const struct nb_cmp_result *r)
{
	char lb[24] = "not measured", ln[24] = "not measured";

	if (!r->other_differs)
		return;
	if (!isnan(r->other_base_pct))
		snprintf(lb, sizeof(lb), "%.0f%%", r->other_base_pct);
	if (!isnan(r->other_new_pct))
		snprintf(ln, sizeof(ln), "%.0f%%", r->other_new_pct);
	nb_print_fmt(out, "%sforeign load differs: other programs took up to %s -> %s of the CPU (cpu_other_pct)\n", lead,
		  lb, ln);
}

/* Warnings that the tool, not the device under test, may have set a point's figure, each line
 * led by LEAD: the peer's iperf3 server (remote_total) near a full core (libiperf 3.12 moves data
 * in one thread), or, on a TX point, this host's own iperf3 child (host_total). Said once for
 * both sides when both were bound ("base, new: peer CPU 94%, 95% of a core"). */
static bool bound_figure(const struct nb_cmp_point *p, const char *metric, bool tx_only, double *pct)
{
	const struct nb_cmp_samples *s;

	if (!p || (tx_only && strcmp(p->direction, "tx")))
		return false;
	s = nb_cmp_point_metric(p, metric);
	if (!s || s->n <= 0 || s->median < NB_PEER_BOUND_PCT)
		return false;
	*pct = s->median;
	return true;
}

static void put_bound_warnings(struct nb_print *out, const char *lead, const struct nb_cmp_point *b,
			       const struct nb_cmp_point *n)
{
	static const struct {
		const char *metric, *who, *what;
		bool tx_only;
	} kinds[] = {
		{ "iperf_remote_cpu_pct", "peer", "the peer may have set this figure (peer-bound)", false },
		{ "iperf_host_cpu_pct", "sender", "the tool may have set this figure (sender-bound)", true },
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		double pb = 0, pn = 0;
		bool in_b = bound_figure(b, kinds[k].metric, kinds[k].tx_only, &pb);
		bool in_n = bound_figure(n, kinds[k].metric, kinds[k].tx_only, &pn);

		if (in_b && in_n)
			nb_print_fmt(out, "%sbase, new: %s CPU %.0f%%, %.0f%% of a core: %s\n", lead, kinds[k].who, pb, pn,
				     kinds[k].what);
		else if (in_b || in_n)
			nb_print_fmt(out, "%s%s: %s CPU %.0f%% of a core: %s\n", lead, in_b ? "base" : "new", kinds[k].who,
				     in_b ? pb : pn, kinds[k].what);
	}
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

/* A point the run was killed or stopped in is compared on the runs that finished: every format
 * says so, since fewer runs make a weaker verdict. */
static void put_incomplete(struct nb_print *out, const char *lead, const char *side, const struct nb_cmp_point *p)
{
	if (p && p->incomplete)
		nb_print_fmt(out, "%s%s incomplete (compared on its finished runs): %s\n", lead, side,
			     p->error ? p->error : "the run ended before this point finished");
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
	put_incomplete(out, "    ", "base", pr->base);
	put_incomplete(out, "    ", "new", pr->new);
	put_bound_warnings(out, "    ", pr->base, pr->new);
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
		nb_print_pad(out, format_value(b, sizeof(b), m->name, m->has_base, m->base), 18);
		nb_print_putc(out, ' ');
		nb_print_pad(out, format_value(n, sizeof(n), m->name, m->has_new, m->new), 18);
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
	if (!text_movers(pr, ro))
		return;
	if (pr->n_movers)
		nb_print_lit(out, "    profile movers:");
	for (int i = 0; i < pr->n_movers; i++)
		nb_print_fmt(out, "%s %s %.1f%% -> %.1f%%", i ? "," : "", pr->movers[i].symbol, pr->movers[i].base_share_pct,
			pr->movers[i].new_share_pct);
	if (pr->n_movers)
		nb_print_putc(out, '\n');
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

/* Gated verdicts withheld for disturbed data: which points, why, what to do (text and Markdown). */
static void put_disturbed(struct nb_print *out, const struct nb_cmp_result *r, bool md)
{
	int n = nb_cmp_disturbed_points(r), shown = 0;

	if (!n)
		return;
	nb_print_fmt(out, md ? "\n**Inconclusive because a side was disturbed** in %d point(s):" :
			       "inconclusive because a side was disturbed, in %d point(s):", n);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		for (int j = 0; j < pr->n_metrics; j++) {
			const struct nb_cmp_metric_result *m = &pr->metrics[j];
			char why[160];

			if (!nb_cmp_withheld_disturbed(m))
				continue;
			nb_print_fmt(out, md ? "%s\n- %s %s: " : "%s\n  %s %s: ", shown++ ? "" : "", pr->id, m->name);
			nb_print_puts(out, nb_cmp_reason_text(why, sizeof(why), m, r->opt));
		}
	}
	nb_print_fmt(out, md ? "\n\nA gate cannot pass on that data%s. Run again on a quiet machine, or in alternating "
			       "rounds (docs/compare.md).\n"
			     : "\n  a gate cannot pass on that data%s; run again on a quiet machine, or in alternating "
			       "rounds (docs/compare.md)\n",
		     r->opt->allow_disturbed ? " (--allow-disturbed: exit 0 all the same)" : ": exit 3");
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

static void text_body(struct nb_print *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	const struct nb_cmp_options *opt = r->opt;

	nb_print_fmt(out, "nicbench compare\n  base: %s (kernel %s)\n  new:  %s (kernel %s)\n", r->base->path,
		r->base->kernel_release[0] ? r->base->kernel_release : "?", r->new->path,
		r->new->kernel_release[0] ? r->new->kernel_release : "?");
	text_rounds(out, r);
	text_method(out, opt);
	text_gate(out, opt);
	text_floors(out, opt);
	nb_print_putc(out, '\n');
	for (int i = 0; i < r->n_env_diffs; i++)
		nb_print_fmt(out, "  environment differs: %s: %s -> %s\n", r->env_diffs[i].key,
			r->env_diffs[i].base ? r->env_diffs[i].base : "(absent)",
			r->env_diffs[i].new ? r->env_diffs[i].new : "(absent)");
	if (r->n_test_diffs)
		nb_print_fmt(out, "  environment differs: test settings of %d point(s), e.g. %s\n", r->n_test_diffs,
			r->test_diff_id);
	put_foreign_load(out, "  ", r);
	put_few_runs(out, r);
	bool columns = false;

	for (int i = 0; i < r->n_points; i++) {
		text_point(out, &r->points[i], opt, ro, &columns);
		nb_print_drain(out);
	}
	put_disturbed(out, r, false);
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

/* ---- JSON ---- */

static const struct nb_cmp_point *any_point(const struct nb_cmp_point_result *pr)
{
	return pr->base ? pr->base : pr->new;
}

static const char *direction_name(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher" : d == NB_CMP_LOWER_BETTER ? "lower" : "neutral";
}

/* A figure, or null when that side has none. */
static void json_figure(struct nb_print *b, const char *key, bool present, double v)
{
	if (present)
		nb_print_double(b, NB_PRINT_JSON, key, NULL, v);
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_metric(struct nb_print *b, const struct nb_cmp_metric_result *m, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, m->name);
	json_figure(b, "base", m->has_base, m->base);
	json_figure(b, "new", m->has_new, m->new);
	json_figure(b, "change_pct", m->has_change, m->change_pct);
	nb_print_string(b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_verdict_name(m->verdict));
	nb_print_string(b, NB_PRINT_JSON, "direction", NULL, direction_name(m->direction));
	nb_print_bool(b, NB_PRINT_JSON, "gated", NULL, m->gated);
	nb_print_int(b, NB_PRINT_JSON, "n_base", NULL, m->n_base);
	nb_print_int(b, NB_PRINT_JSON, "n_new", NULL, m->n_new);
	if (m->change_capped)
		nb_print_bool(b, NB_PRINT_JSON, "change_capped", NULL, true);
	json_figure(b, "p_value", m->has_p, m->p_value);
	if (m->has_ci) {
		nb_print_open_array(b, "ci_pct");
		nb_print_double(b, NB_PRINT_JSON, NULL, NULL, m->ci_lo_pct);
		nb_print_double(b, NB_PRINT_JSON, NULL, NULL, m->ci_hi_pct);
		nb_print_close_array(b);
	}
	nb_print_double(b, NB_PRINT_JSON, "min_effect_pct", NULL, m->min_effect_pct);
	/* The floor as applied to this point, in the metric's unit; null when it has none. */
	json_figure(b, "floor", m->has_floor, m->floor);
	if (m->floor_family)
		nb_print_string(b, NB_PRINT_JSON, "floor_family", NULL, m->floor_family);
	/* The larger side's spread of runs, where the interval was computed (judge_supported). */
	if (m->has_ci)
		nb_print_double(b, NB_PRINT_JSON, "spread", NULL, m->spread);
	/* Where the spread rule was applied: its scale and the spreads the gap had to clear. */
	if (m->spread_factor > 0) {
		nb_print_string(b, NB_PRINT_JSON, "spread_scale", NULL, m->spread_ratio ? "ratio" : "unit");
		if (m->spread_ratio)
			nb_print_double(b, NB_PRINT_JSON, "spread_pct", NULL, m->spread_pct);
		nb_print_double(b, NB_PRINT_JSON, "spread_factor", NULL, m->spread_factor);
	}
	if (m->reason != NB_CMP_REASON_NONE) {
		char reason[160];

		nb_print_string(b, NB_PRINT_JSON, "reason", NULL, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
	}
	nb_print_close_object(b);
}

static void json_status(struct nb_print *b, const char *key, const struct nb_cmp_point *p)
{
	if (p)
		nb_print_string(b, NB_PRINT_JSON, key, NULL, nb_cmp_status_name(p->status));
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_incomplete(struct nb_print *b, const char *key, const struct nb_cmp_point *p)
{
	if (p)
		nb_print_bool(b, NB_PRINT_JSON, key, NULL, p->incomplete);
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_point(struct nb_print *b, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, NULL);
	nb_print_string(b, NB_PRINT_JSON, "id", NULL, pr->id);
	nb_print_string(b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_verdict_name(pr->verdict));
	nb_print_string(b, NB_PRINT_JSON, "test", NULL, any_point(pr)->test_name);
	json_status(b, "base_status", pr->base);
	json_status(b, "new_status", pr->new);
	if (pr->base && pr->base->error)
		nb_print_string(b, NB_PRINT_JSON, "base_error", NULL, pr->base->error);
	if (pr->new && pr->new->error)
		nb_print_string(b, NB_PRINT_JSON, "new_error", NULL, pr->new->error);
	/* incomplete: compared on the runs that finished (the status says ok); null for an absent side */
	json_incomplete(b, "base_incomplete", pr->base);
	json_incomplete(b, "new_incomplete", pr->new);
	nb_print_open_object(b, "metrics");
	for (int i = 0; i < pr->n_metrics; i++)
		json_metric(b, &pr->metrics[i], opt);
	nb_print_close_object(b);
	if (pr->n_movers) {
		nb_print_open_array(b, "profile_movers");
		for (int i = 0; i < pr->n_movers; i++) {
			nb_print_open_object(b, NULL);
			nb_print_string(b, NB_PRINT_JSON, "symbol", NULL, pr->movers[i].symbol);
			nb_print_double(b, NB_PRINT_JSON, "base_share_pct", NULL, pr->movers[i].base_share_pct);
			nb_print_double(b, NB_PRINT_JSON, "new_share_pct", NULL, pr->movers[i].new_share_pct);
			nb_print_close_object(b);
		}
		nb_print_close_array(b);
	}
	nb_print_close_object(b);
}

static void json_report_ref(struct nb_print *b, const char *key, const struct nb_cmp_report *rep)
{
	nb_print_open_object(b, key);
	nb_print_string(b, NB_PRINT_JSON, "path", NULL, rep->path);
	nb_print_string(b, NB_PRINT_JSON, "kernel", NULL, rep->kernel_release);
	nb_print_string(b, NB_PRINT_JSON, "created", NULL, rep->created);
	nb_print_close_object(b);
}

static void json_env(struct nb_print *b, const struct nb_cmp_result *r)
{
	nb_print_open_array(b, "environment_differences");
	for (int i = 0; i < r->n_env_diffs; i++) {
		nb_print_open_object(b, NULL);
		nb_print_string(b, NB_PRINT_JSON, "key", NULL, r->env_diffs[i].key);
		/* The values are JSON texts already (jansson made them): embed them as they are. */
		nb_print_json_text(b, "base", r->env_diffs[i].base ? r->env_diffs[i].base : "null");
		nb_print_json_text(b, "new", r->env_diffs[i].new ? r->env_diffs[i].new : "null");
		nb_print_close_object(b);
	}
	if (r->n_test_diffs) {
		nb_print_open_object(b, NULL);
		nb_print_string(b, NB_PRINT_JSON, "key", NULL, "results[].test");
		nb_print_int(b, NB_PRINT_JSON, "points", NULL, r->n_test_diffs);
		nb_print_string(b, NB_PRINT_JSON, "example", NULL, r->test_diff_id);
		nb_print_close_object(b);
	}
	nb_print_close_array(b);
}

/* The gate as the text table spells it. */
static void json_gate(struct nb_print *b, const struct nb_cmp_options *opt)
{
	struct nb_print gate;

	nb_print_init(&gate, NULL, NB_PRINT_PLAIN);
	text_gate(&gate, opt);
	if (gate.failed) {
		b->failed = true;
		b->fail_code = gate.fail_code;
	} else {
		nb_print_string(b, NB_PRINT_JSON, "gate", NULL, gate.p);
	}
	nb_print_release(&gate);
}

/* "rounds": how many a side, whether and how many paired, the notes; null without rounds. */
static void json_rounds(struct nb_print *b, const struct nb_cmp_result *r)
{
	const struct nb_cmp_rounds *rd = r->rounds;

	if (!rd) {
		nb_print_json_text(b, "rounds", "null");
		return;
	}
	nb_print_open_object(b, "rounds");
	nb_print_int(b, NB_PRINT_JSON, "a", NULL, rd->n[NB_CMP_SIDE_A]);
	nb_print_int(b, NB_PRINT_JSON, "b", NULL, rd->n[NB_CMP_SIDE_B]);
	nb_print_bool(b, NB_PRINT_JSON, "paired", NULL, r->opt->rounds_paired);
	nb_print_int(b, NB_PRINT_JSON, "pairs", NULL, r->opt->rounds_paired ? rd->n_paired : 0);
	nb_print_string(b, NB_PRINT_JSON, "set", NULL, rd->set ? rd->set : "");
	nb_print_open_array(b, "notes");
	for (int i = 0; i < rd->n_notes; i++)
		nb_print_string(b, NB_PRINT_JSON, NULL, NULL, rd->notes[i]);
	nb_print_close_array(b);
	nb_print_close_object(b);
}

static void json_settings(struct nb_print *b, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, "settings");
	nb_print_string(b, NB_PRINT_JSON, "method", NULL,
			opt->rounds_paired ? "paired-rounds-sign-interval" : "mann-whitney-shift-interval");
	nb_print_double(b, NB_PRINT_JSON, "alpha", NULL, opt->alpha);
	nb_print_double(b, NB_PRINT_JSON, "min_effect_pct", NULL, opt->min_effect_pct);
	nb_print_int(b, NB_PRINT_JSON, "min_runs", NULL, opt->min_runs);
	nb_print_double(b, NB_PRINT_JSON, "change_cap_pct", NULL, opt->change_cap_pct);
	nb_print_bool(b, NB_PRINT_JSON, "floors", NULL, !opt->no_floors);
	/* --floor overrides as given, so that a result says which floors it was judged with */
	nb_print_open_object(b, "floor_overrides");
	for (int i = 0; i < opt->n_floors; i++)
		nb_print_double(b, NB_PRINT_JSON, opt->floors[i].name, NULL, opt->floors[i].value);
	nb_print_close_object(b);
	nb_print_bool(b, NB_PRINT_JSON, "missing_ok", NULL, opt->missing_ok);
	json_gate(b, opt);
	nb_print_close_object(b);
}

int nb_cmp_render_json(FILE *out, const struct nb_cmp_result *r)
{
	struct nb_print b;

	nb_print_init(&b, out, NB_PRINT_JSON_COMPACT);
	nb_print_open_object(&b, NULL);
	nb_print_string(&b, NB_PRINT_JSON, "schema", NULL, NB_CMP_SCHEMA);
	nb_print_string(&b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_overall_name(r->verdict));
	json_report_ref(&b, "base", r->base);
	json_report_ref(&b, "new", r->new);
	json_settings(&b, r->opt);
	json_rounds(&b, r);
	json_env(&b, r);
	nb_print_open_array_lines(&b, "points");
	for (int i = 0; i < r->n_points; i++) {
		json_point(&b, &r->points[i], r->opt);
		nb_print_drain(&b);
	}
	nb_print_close_array(&b);
	nb_print_close_object(&b);
	return nb_print_finish(&b);
}

/* ---- JUnit ---- */

/* s escaped for XML attributes and text, as valid UTF-8; plain runs are copied whole. */
static void xml_text(struct nb_print *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const char *run = s;

	for (; *p; p++) {
		const char *esc;

		switch (*p) {
		case '<':
			esc = "&lt;";
			break;
		case '>':
			esc = "&gt;";
			break;
		case '&':
			esc = "&amp;";
			break;
		case '"':
			esc = "&quot;";
			break;
		default: {
			size_t n = *p >= 0x80 ? nb_utf8_seq_len(p) : 1;

			/* XML 1.0 forbids most control characters even as references; the document says UTF-8. */
			if (n > 1) {
				p += n - 1;
				continue;
			}
			if (n == 1 && (*p >= 0x20 || *p == '\t' || *p == '\n'))
				continue;
			esc = n ? " " : "\xef\xbf\xbd"; /* U+FFFD for a byte that is not UTF-8 */
		}
		}
		nb_print_put(out, run, (size_t)((const char *)p - run));
		nb_print_puts(out, esc);
		run = (const char *)p + 1;
	}
	nb_print_put(out, run, (size_t)((const char *)p - run));
}

/* A point judged by its status alone; a point whose gated metric went missing from an ok
 * NEW point is judged metric by metric. */
static bool status_only_point(const struct nb_cmp_point_result *pr)
{
	enum nb_cmp_verdict v = pr->verdict;

	if (v == NB_CMP_MISSING)
		return !pr->new || pr->new->status != NB_CMP_STATUS_OK;
	return v == NB_CMP_FIXED || v == NB_CMP_BROKEN || v == NB_CMP_NEW;
}

/* Missing fails the gate unless --missing-ok. */
static bool junit_fails(enum nb_cmp_verdict v, const struct nb_cmp_options *opt)
{
	return v == NB_CMP_REGRESSED || v == NB_CMP_BROKEN || (v == NB_CMP_MISSING && !opt->missing_ok);
}

/* ... and a gated verdict withheld for disturbed data, unless --allow-disturbed. */
static bool junit_metric_fails(const struct nb_cmp_metric_result *m, const struct nb_cmp_options *opt)
{
	return junit_fails(m->verdict, opt) || (nb_cmp_withheld_disturbed(m) && !opt->allow_disturbed);
}

struct junit_counts {
	int tests, failures, skipped;
};

static void junit_count(const struct nb_cmp_result *r, struct junit_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (status_only_point(pr) || (pr->base && pr->new && pr->base->status != NB_CMP_STATUS_OK)) {
			bool fail = junit_fails(pr->verdict, r->opt);

			c->tests++;
			c->failures += fail;
			c->skipped += !fail && (pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE);
			continue;
		}
		for (int j = 0; j < pr->n_metrics; j++) {
			const struct nb_cmp_metric_result *m = &pr->metrics[j];
			bool fail = junit_metric_fails(m, r->opt);

			if (!m->gated)
				continue;
			c->tests++;
			c->failures += fail;
			c->skipped += !fail && (m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING);
		}
	}
}

/* An incomplete side, as the testcase's output: CI pages show it beside the verdict.
 * after_child: a <failure> or <skipped> already ended the line and indented for </testcase>. */
static void junit_incomplete(struct nb_print *out, const struct nb_cmp_point_result *pr, bool after_child)
{
	const struct nb_cmp_point *sides[2] = { pr->base, pr->new };
	static const char *const names[2] = { "base", "new" };
	bool open = false;

	for (int i = 0; i < 2; i++) {
		if (!sides[i] || !sides[i]->incomplete)
			continue;
		if (!open)
			nb_print_puts(out, after_child ? "  <system-out>" : "\n      <system-out>");
		nb_print_fmt(out, "%s%s incomplete (compared on its finished runs): ", open ? "; " : "", names[i]);
		xml_text(out, sides[i]->error ? sides[i]->error : "the run ended before this point finished");
		open = true;
	}
	if (open)
		nb_print_lit(out, "</system-out>\n    ");
}

static void junit_status_case(struct nb_print *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	const struct nb_cmp_point *failed = pr->new && pr->new->status != NB_CMP_STATUS_OK ? pr->new : pr->base;

	nb_print_lit(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	nb_print_fmt(out, "\" name=\"status\">");
	if (pr->verdict == NB_CMP_BROKEN) {
		nb_print_lit(out, "\n      <failure type=\"broken\" message=\"ok in base, ");
		xml_text(out, nb_cmp_status_name(pr->new->status));
		nb_print_lit(out, " in new: ");
		xml_text(out, pr->new->error ? pr->new->error : "no error text");
		nb_print_lit(out, "\"/>\n    ");
	} else if (junit_fails(pr->verdict, opt)) {
		nb_print_lit(out, "\n      <failure type=\"missing\" message=\"point missing from the new report");
		if (pr->new && pr->new->status != NB_CMP_STATUS_OK) {
			nb_print_lit(out, " (");
			xml_text(out, nb_cmp_status_name(pr->new->status));
			nb_print_lit(out, ")");
		}
		nb_print_lit(out, "\"/>\n    ");
	} else if (pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE) {
		nb_print_lit(out, "\n      <skipped message=\"");
		xml_text(out, pr->verdict == NB_CMP_MISSING ? "point missing from the new report" : "");
		if (pr->verdict == NB_CMP_INCONCLUSIVE && failed && failed->error)
			xml_text(out, failed->error);
		nb_print_lit(out, "\"/>\n    ");
	}
	junit_incomplete(out, pr, pr->verdict == NB_CMP_BROKEN || junit_fails(pr->verdict, opt) ||
				  pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE);
	nb_print_lit(out, "</testcase>\n");
}

static void junit_metric_case(struct nb_print *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_metric_result *m,
			      const struct nb_cmp_options *opt)
{
	char b[32], n[32], c[24];

	nb_print_lit(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	nb_print_lit(out, "\" name=\"");
	xml_text(out, m->name);
	nb_print_lit(out, "\">");
	if (m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING) {
		bool fail = junit_metric_fails(m, opt);

		nb_print_fmt(out, "\n      <%s %smessage=\"", fail ? "failure" : "skipped",
			  !fail ? "" : m->verdict == NB_CMP_MISSING ? "type=\"missing\" " :
			  m->verdict == NB_CMP_INCONCLUSIVE ? "type=\"disturbed\" " : "type=\"regression\" ");
		nb_cmp_format_change(c, sizeof(c), m);
		nb_print_fmt(out, "%s:%s%s (base %s, new %s)", nb_cmp_verdict_name(m->verdict), c[0] ? " " : "", c,
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new));
		if (m->reason != NB_CMP_REASON_NONE) {
			char reason[160];

			nb_print_lit(out, ": ");
			xml_text(out, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		}
		if (nb_cmp_withheld_disturbed(m))
			nb_print_lit(out, "; a gate cannot pass on that data: run again on a quiet machine, or in "
					  "alternating rounds");
		nb_print_lit(out, "\"/>\n    ");
	}
	junit_incomplete(out, pr, m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_INCONCLUSIVE ||
				  m->verdict == NB_CMP_MISSING);
	nb_print_lit(out, "</testcase>\n");
}

static void junit_body(struct nb_print *out, const struct nb_cmp_result *r)
{
	struct junit_counts c;

	junit_count(r, &c);
	nb_print_lit(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	nb_print_fmt(out, "<testsuites name=\"nicbench compare\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", c.tests,
		c.failures, c.skipped);
	nb_print_lit(out, "  <testsuite name=\"nicbench compare ");
	xml_text(out, r->base->kernel_release);
	nb_print_lit(out, " -&gt; ");
	xml_text(out, r->new->kernel_release);
	nb_print_fmt(out, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", c.tests, c.failures, c.skipped);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (status_only_point(pr) || (pr->base && pr->new && pr->base->status != NB_CMP_STATUS_OK)) {
			junit_status_case(out, pr, r->opt);
			continue;
		}
		for (int j = 0; j < pr->n_metrics; j++) {
			if (pr->metrics[j].gated)
				junit_metric_case(out, pr, &pr->metrics[j], r->opt);
		}
		nb_print_drain(out);
	}
	nb_print_lit(out, "  </testsuite>\n</testsuites>\n");
}

int nb_cmp_render_junit(FILE *file, const struct nb_cmp_result *r)
{
	struct nb_print b;

	nb_print_init(&b, file, NB_PRINT_PLAIN);

	junit_body(&b, r);
	return nb_print_finish(&b);
}

/* ---- Markdown ---- */

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
		const char *name = any_point(&r->points[i])->test_name;
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
	const struct nb_cmp_point *p = any_point(pr);

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
	nb_print_fmt(out, " (%s -> ", format_value(b, sizeof(b), m->name, m->has_base, m->base));
	nb_print_fmt(out, "%s)", format_value(n, sizeof(n), m->name, m->has_new, m->new));
	if (m->verdict == NB_CMP_INCONCLUSIVE)
		nb_print_lit(out, " (inconclusive)");
	return true;
}

static void md_point(struct nb_print *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	char v[32];
	const struct nb_cmp_metric_result *thr = find_result(pr, "throughput_bps");
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
			nb_print_fmt(out, ", now %s", format_value(v, sizeof(v), thr->name, true, thr->new));
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
		put_incomplete(out, "  - ", "new", pr->new);
		return;
	default:
		break;
	}
	any = md_phrase(out, pr, "throughput_bps", "bandwidth", true);
	any |= md_phrase(out, pr, "rr_transactions_per_s", "transactions/s", !any);
	any |= md_phrase(out, pr, "rr_latency_p99_us", "p99 latency", !any);
	any |= md_phrase(out, pr, "cpu_busy_pct", "CPU", !any);
	{
		const struct nb_cmp_metric_result *eff = find_result(pr, NB_CMP_EFFICIENCY_METRIC);

		const struct nb_cmp_metric_result *cpu = find_result(pr, "cpu_busy_pct");

		/* Efficiency only adds news when the CPU moved; otherwise it repeats the bandwidth. */
		if (eff && cpu && cpu->verdict != NB_CMP_UNCHANGED &&
		    (eff->verdict == NB_CMP_IMPROVED || eff->verdict == NB_CMP_REGRESSED))
			any |= md_phrase(out, pr, NB_CMP_EFFICIENCY_METRIC, "bandwidth per CPU", !any);
	}
	nb_print_puts(out, any ? "\n" : "no comparable metrics\n");
	/* the same warnings as the text table's: a reader of a cover letter needs them as much */
	put_bound_warnings(out, "  - ", pr->base, pr->new);
	put_incomplete(out, "  - ", "base", pr->base);
	put_incomplete(out, "  - ", "new", pr->new);
}

static void markdown_body(struct nb_print *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;
	struct md_tests tests;

	nb_print_fmt(out, "Performance, %s -> %s (nicbench compare: **%s**):\n\n",
		r->base->kernel_release[0] ? r->base->kernel_release : r->base->path,
		r->new->kernel_release[0] ? r->new->kernel_release : r->new->path, nb_cmp_overall_name(r->verdict));
	put_foreign_load(out, "", r);
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
	put_disturbed(out, r, true);
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
