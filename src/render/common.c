// SPDX-License-Identifier: MIT
/* What several formats of report and compare share: figures and verdict reasons in words, the
 * warnings text and Markdown both print, and the report's per-point figures and choice. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_stats.h"
#include "kit/metric_table.h"
#include "render/common.h"

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

/* An amount in the metric's unit: a floor, a spread. A percentage moves in points. */
static const char *amount_text(char *buf, size_t len, const struct nb_cmp_metric_result *m, double v)
{
	if (nb_metric_kind_is_pct(nb_metric_kind_of(m->name)))
		snprintf(buf, len, "%.3g points", v);
	else
		nb_render_value(buf, len, m->name, true, v);
	return buf;
}

static const char *floor_text(char *buf, size_t len, const struct nb_cmp_metric_result *m)
{
	return amount_text(buf, len, m, m->floor);
}

const char *nb_cmp_reason_text(char *buf, size_t len, const struct nb_cmp_metric_result *m,
			       const struct nb_cmp_options *opt)
{
	double level = (1 - (m->alpha > 0 ? m->alpha : opt->alpha)) * 100;
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

/* 47630 packets/s -> "47.6 kpps", 1.2e6 /s -> "1.20 M/s", 950 -> "950 pps". */
static void format_rate(char *buf, size_t len, double v, const char *unit)
{
	char u[8];

	if (fabs(v) >= 1e6) {
		snprintf(u, sizeof(u), "M%s", unit);
		format_scaled(buf, len, v / 1e6, 2, u);
	} else if (fabs(v) >= 1e3) {
		snprintf(u, sizeof(u), "k%s", unit);
		format_scaled(buf, len, v / 1e3, 1, u);
	} else {
		format_scaled(buf, len, v, fabs(v) >= 10 || v == 0 ? 0 : 2, unit);
	}
}

/* 1.5e9 -> "1.50 Gbit/s" (unit "bit/s"), "1.50 Gbit/cpu-s" (unit "bit/cpu-s"). */
static void format_bits(char *buf, size_t len, double v, const char *unit)
{
	char u[16];

	if (fabs(v) >= 1e9)
		snprintf(u, sizeof(u), "G%s", unit), format_scaled(buf, len, v / 1e9, 2, u);
	else if (fabs(v) >= 1e6)
		snprintf(u, sizeof(u), "M%s", unit), format_scaled(buf, len, v / 1e6, 2, u);
	else if (fabs(v) >= 1e3)
		snprintf(u, sizeof(u), "k%s", unit), format_scaled(buf, len, v / 1e3, 2, u);
	else
		format_scaled(buf, len, v, 0, unit);
}

/* By the row's unit kind: the name is only the key to the row. */
const char *nb_render_value(char *buf, size_t len, const char *name, bool present, double v)
{
	const struct nb_metric_def *d = nb_metric_lookup(name);
	enum nb_metric_unit_kind kind = d ? d->kind : NB_UNIT_NUMBER;

	if (!present)
		snprintf(buf, len, "-");
	else if (kind == NB_UNIT_BIT_PER_S)
		format_bits(buf, len, v, "bit/s");
	else if (kind == NB_UNIT_BIT_PER_CPU_S)
		format_bits(buf, len, v, "bit/cpu-s");
	else if (nb_metric_kind_is_pct(kind) && !(d->flags & NB_METRIC_SHOWN_BARE))
		fmt_pct(buf, len, v, false);
	else if (kind == NB_UNIT_PACKET_PER_S)
		format_rate(buf, len, v, "pps");
	else if (kind == NB_UNIT_PER_S)
		format_rate(buf, len, v, "/s");
	else
		fmt_g(buf, len, v, 4);
	return buf;
}

/* ---- compare: lines text and Markdown share ---- */

/* The gate as the text table spells it (text, JSON). */
void nb_render_gate(struct nb_print *out, const struct nb_cmp_options *opt)
{
	int shown = 0;

	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		if (g->implicit)
			continue;
		nb_print_fmt(out, "%s%s%s%s", shown++ ? "," : "", g->metric, g->tests[0] ? "@" : "", g->tests);
		if (g->min_effect_pct >= 0)
			nb_print_fmt(out, "=%g", g->min_effect_pct);
	}
	if (!shown)
		nb_print_lit(out, "none");
}

/* Other programs' CPU differed between the two sides (cpu_other_pct): every figure may have moved. */
void nb_render_foreign_load(struct nb_print *out, const char *lead, const struct nb_cmp_result *r)
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

void nb_render_bound_warnings(struct nb_print *out, const char *lead, const struct nb_cmp_point *b,
			      const struct nb_cmp_point *n)
{
	static const struct {
		const char *metric, *who, *what;
		bool tx_only;
	} kinds[] = {
		{ NB_M_IPERF_REMOTE_CPU_PCT, "peer", "the peer may have set this figure (peer-bound)", false },
		{ NB_M_IPERF_HOST_CPU_PCT, "sender", "the tool may have set this figure (sender-bound)", true },
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

/* A point the run was killed or stopped in is compared on the runs that finished: every format
 * says so, since fewer runs make a weaker verdict. */
void nb_render_incomplete(struct nb_print *out, const char *lead, const char *side, const struct nb_cmp_point *p)
{
	if (p && p->incomplete)
		nb_print_fmt(out, "%s%s incomplete (compared on its finished runs): %s\n", lead, side,
			     p->error ? p->error : "the run ended before this point finished");
}

/* Gated verdicts withheld for disturbed data: which points, why, what to do (text and Markdown). */
void nb_render_disturbed(struct nb_print *out, const struct nb_cmp_result *r, bool md)
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
		     r->opt->allow_disturbed ? " (--allow-disturbed: exit 0 all the same)" : ": exit 4");
}

const struct nb_cmp_point *nb_render_any_point(const struct nb_cmp_point_result *pr)
{
	return pr->base ? pr->base : pr->new;
}

/* ---- report: figures and the choice of text and Markdown ---- */

const char *nb_render_or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

void nb_render_markup_text(struct nb_print *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': nb_print_lit(out, "&lt;"); break;
		case '>': nb_print_lit(out, "&gt;"); break;
		case '&': nb_print_lit(out, "&amp;"); break;
		case '"': nb_print_lit(out, "&quot;"); break;
		/* XML 1.0 has no place for control characters; a page shows them as a space too */
		default: nb_print_putc(out, (unsigned char)*s < 0x20 && *s != '\n' ? ' ' : *s);
		}
	}
}

/* Text in Markdown: '|' would end a table cell, and HTML in a report's strings must stay text. */
void nb_render_md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '|': fputs("\\|", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		default: fputc(*s, out);
		}
	}
}

void nb_render_md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	nb_render_md_text(out, s);
	fputc(' ', out);
}

/* A string in text or Markdown output. */
static void put_text(FILE *out, const char *s, bool md)
{
	if (md)
		nb_render_md_text(out, s);
	else
		fputs(s, out);
}

/* A headline figure: bit/s as the table always showed it, a packet rate in its unit. */
static void headline_value(char *buf, size_t len, const char *metric, double v)
{
	if (nb_metric_kind_of(metric) == NB_UNIT_BIT_PER_S)
		nb_rv_bps(buf, len, v);
	else
		nb_render_value(buf, len, metric, true, v);
}

void nb_render_tput(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const char *metric = nb_rv_headline(p);
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, metric);

	if (!s || s->n <= 0)
		snprintf(buf, len, "-");
	else
		headline_value(buf, len, metric, s->median);
}

void nb_render_range(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const char *metric = nb_rv_headline(p);
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, metric);
	double lo, hi;
	char a[24], b[24];

	if (!s || s->n <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	lo = hi = s->values[0];
	for (int i = 1; i < s->n; i++) {
		lo = fmin(lo, s->values[i]);
		hi = fmax(hi, s->values[i]);
	}
	headline_value(a, sizeof(a), metric, lo);
	headline_value(b, sizeof(b), metric, hi);
	snprintf(buf, len, "%s .. %s", a, b);
}

void nb_render_median(char *buf, size_t len, const struct nb_cmp_point *p, const char *name)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, name);

	if (!s || s->n <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", s->median);
}

void nb_render_efficiency(char *buf, size_t len, const struct nb_cmp_report *rep, const struct nb_cmp_point *p)
{
	double e;

	if (!nb_rv_efficiency(rep, p, &e))
		snprintf(buf, len, "-");
	else
		nb_rv_efficiency_text(buf, len, p, e);
}

/* The choice in words, shared by text and Markdown:
 * "BEST, margin over the runner-up SECOND: tcp-tx +3.0%, ...; worst case udp-tx -24.0%". */
static void choice_line(FILE *out, const struct nb_rv_choice *c, bool md)
{
	put_text(out, c->best, md);
	fputs(", margin over the runner-up ", out);
	put_text(out, c->reference, md);
	fputc(':', out);
	for (int t = 0; t < c->n_tests; t++) {
		if (isnan(c->change_pct[t]))
			fprintf(out, "%s %s n/a", t ? "," : "", c->tests[t].test);
		else
			fprintf(out, "%s %s %+.1f%%", t ? "," : "", c->tests[t].test, c->change_pct[t]);
	}
	if (c->worst_test >= 0)
		fprintf(out, "; worst case %s %+.1f%%", c->tests[c->worst_test].test, c->change_pct[c->worst_test]);
}

void nb_render_choice(FILE *out, const struct nb_cmp_report *rep, bool md)
{
	struct nb_rv_choice c;

	nb_rv_choose(rep, &c);
	fprintf(out, md ? "\n## Which setting to choose\n\n" : "\nwhich setting to choose\n");
	for (int t = 0; t < c.n_tests; t++) {
		const struct nb_rv_test_front *f = &c.tests[t];
		int shown = 0;

		fprintf(out, md ? "- **%s**: Pareto front of %s%s:" : "  %s: Pareto front of %s%s:", f->test,
			f->packets ? "packet rate, packets per CPU-second" : "throughput, bits per CPU-second",
			f->has_p99 ? " and p99 latency" : "");
		for (int i = 0; i < f->n_points; i++) {
			char tput[64];

			if (!f->on_front[i])
				continue;
			nb_rv_front_figures(tput, sizeof(tput), f->points[i]);
			fprintf(out, "%s ", shown++ ? "," : "");
			put_text(out, nb_rv_choice_setting(f->points[i]), md);
			fprintf(out, " (%s)", tput);
		}
		fprintf(out, "%s\n", shown ? "" : " none (no throughput measured)");
	}
	if (c.best && c.worst_test < 0) {
		fprintf(out, md ? "\nNo two settings ran in the same test: nothing to weigh against each other.\n"
			       : "  no two settings ran in the same test: nothing to weigh against each other\n");
	} else if (c.best) {
		fprintf(out, md ? "\n**Best across tests** (geometric mean of the headline rate): "
			       : "  best across tests (geometric mean of the headline rate): ");
		choice_line(out, &c, md);
		fprintf(out, "\n");
	} else {
		fprintf(out, md ? "\nOnly one setting: nothing to choose.\n" : "  only one setting: nothing to choose\n");
	}
}

void nb_rv_render_moved(FILE *out, const struct nb_cmp_result *r, bool md)
{
	int n = 0;

	for (int i = 0; i < r->n_points; i++) {
		char buf[2 * NB_BN_SENTENCE_MAX + 32];

		if (!nb_rv_moved(r, &r->points[i], buf, sizeof(buf)))
			continue;
		if (!n++)
			fprintf(out, md ? "\n## Bottleneck moved\n\n" : "\nbottleneck moved\n");
		fprintf(out, md ? "- `%s`: %s\n" : "  %s: %s\n", r->points[i].id, buf);
	}
	if (!n)
		fprintf(out, md ? "\nThe bottleneck moved in no point.\n" : "\nbottleneck moved: in no point\n");
}

/* ---- profile movers ---- */

void nb_render_movers(struct nb_print *out, const char *lead, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_mover *m0 = &pr->movers[0];

	if (!pr->n_movers)
		return;
	if (m0->n_pairs >= 2)
		nb_print_fmt(out, "%sprofile movers (median move >= %g pts, the same way in all %d pairs):", lead,
			     NB_CMP_MOVER_MIN_PTS, m0->n_pairs);
	else
		nb_print_fmt(out, "%sprofile movers (>= %g pts; one profile a side, no noise figure):", lead,
			     NB_CMP_MOVER_SINGLE_MIN_PTS);
	for (int i = 0; i < pr->n_movers; i++) {
		const struct nb_cmp_mover *m = &pr->movers[i];

		nb_print_fmt(out, "%s %s %s%.1f%% -> %s%.1f%% (%s%+.1f pts", i ? "," : "", m->symbol,
			     m->base_unlisted ? "<" : "", m->base_share_pct, m->new_unlisted ? "<" : "", m->new_share_pct,
			     m->base_unlisted || m->new_unlisted ? "at least " : "", m->change_pts);
		if (m->n_pairs >= 2)
			nb_print_fmt(out, ", pairs %+.1f..%+.1f", m->change_lo_pts, m->change_hi_pts);
		nb_print_putc(out, ')');
	}
	nb_print_putc(out, '\n');
}
