// SPDX-License-Identifier: MIT
/* nicbench compare renderers: text, JSON, JUnit and Markdown over the same result structs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* Literal text: its length is known when compiling. */
#define sb_lit(b, s) sb_put(b, s, sizeof(s) - 1)

static int finish(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}

/* ---- output buffer ----
 * Every format is built in a buffer and written in 64 KiB pieces: a thousand points
 * are ~15000 metric rows, and stdio's per-call locking was much of a compare's time. */

struct sbuf {
	char *p;
	size_t len, cap;
	bool failed;
	FILE *file;    /* where sb_drain writes; NULL for a buffer kept whole */
	int write_err; /* -EIO once a write failed */
};

/* Written out past this: a small buffer is reused instead of fresh pages. */
#define SB_DRAIN_AT (1 << 16)

static void sb_grow(struct sbuf *b, size_t more) __attribute__((noinline));

static void sb_grow(struct sbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *bigger;

	if (b->failed)
		return;
	while (cap < b->len + more + 1)
		cap *= 2;
	bigger = realloc(b->p, cap);
	if (!bigger) {
		b->failed = true;
		return;
	}
	b->p = bigger;
	b->cap = cap;
}

/* Room for more bytes and a NUL; the check is inline, growing is not. */
static inline void sb_reserve(struct sbuf *b, size_t more)
{
	if (b->len + more + 1 > b->cap)
		sb_grow(b, more);
}

static inline void sb_put(struct sbuf *b, const char *s, size_t len)
{
	sb_reserve(b, len);
	if (b->failed)
		return;
	memcpy(b->p + b->len, s, len);
	b->len += len;
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void sb_putc(struct sbuf *b, char c)
{
	sb_put(b, &c, 1);
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	sb_reserve(b, 256);
	if (b->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		sb_reserve(b, (size_t)n);
		if (b->failed)
			return;
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

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

/* A finite number with 10 significant digits, like "%.10g" but without its exponent
 * form for large integers (counts, whole bits per second keep their digits);
 * magnitudes outside 1e-4..1e15 take "%.10g" as they are. */
static void sb_number(struct sbuf *b, double v)
{
	double a = fabs(v);
	char tmp[64];
	int n, decimals;

	if (a == 0) {
		sb_lit(b, "0");
		return;
	}
	if (!(a >= 1e-4 && a < 1e15)) {
		sb_printf(b, "%.10g", v);
		return;
	}
	decimals = a == floor(a) ? 0 : 9 - (int)floor(log10(a));
	n = snprintf(tmp, sizeof(tmp), "%.*f", decimals < 0 ? 0 : decimals, v);
	if (decimals > 0) { /* the fraction's trailing zeros, and its point when nothing is left */
		while (tmp[n - 1] == '0')
			n--;
		if (tmp[n - 1] == '.')
			n--;
	}
	sb_put(b, tmp, (size_t)n);
}

static void sb_string(struct sbuf *b, const char *s)
{
	const char *run = s;

	sb_put(b, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p != '"' && *p != '\\' && *p >= 0x20)
			continue;
		sb_put(b, run, (size_t)((const char *)p - run));
		if (*p < 0x20)
			sb_printf(b, "\\u%04x", *p);
		else
			sb_printf(b, "\\%c", *p);
		run = (const char *)p + 1;
	}
	sb_puts(b, run);
	sb_put(b, "\"", 1);
}

static void sb_number_or_null(struct sbuf *b, bool present, double v)
{
	if (present && isfinite(v))
		sb_number(b, v);
	else
		sb_put(b, "null", 4);
}

static void sb_text_or_null(struct sbuf *b, const char *s)
{
	if (s)
		sb_string(b, s);
	else
		sb_put(b, "null", 4);
}

/* s padded with spaces to |width| like "%*s": on the left, or on the right when width < 0. */
static void sb_pad(struct sbuf *b, const char *s, int width)
{
	static const char spaces[] = "                                ";
	size_t len = strlen(s), w = (size_t)(width < 0 ? -width : width);
	size_t pad = len < w ? w - len : 0;

	if (width < 0)
		sb_put(b, s, len);
	while (pad) {
		size_t n = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;

		sb_put(b, spaces, n);
		pad -= n;
	}
	if (width >= 0)
		sb_put(b, s, len);
}

/* Between points: write what has piled up. */
static void sb_drain(struct sbuf *b)
{
	if (!b->file || b->len < SB_DRAIN_AT || b->failed)
		return;
	if (!b->write_err && fwrite(b->p, 1, b->len, b->file) != b->len)
		b->write_err = -EIO;
	b->len = 0;
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
static const char *floor_text(char *buf, size_t len, const struct nb_cmp_metric_result *m)
{
	size_t nl = strlen(m->name);

	if ((nl > 4 && !strcmp(m->name + nl - 4, "_pct")) || !strcmp(m->name, "lost_percent"))
		snprintf(buf, len, "%g points", m->floor);
	else
		format_value(buf, len, m->name, true, m->floor);
	return buf;
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

static void put_verdict(struct sbuf *out, enum nb_cmp_verdict v, bool color, bool upper)
{
	const char *name = nb_cmp_verdict_name(v);
	const char *c = color ? verdict_color(v) : "";

	sb_puts(out, c);
	for (const char *s = name; *s; s++)
		sb_putc(out, upper ? toupper((unsigned char)*s) : *s);
	if (*c)
		sb_lit(out, "\033[0m");
}

/* What a reader needs: the gated metrics and whatever moved; an A/A compare then fits on a
 * screen. The rest is counted, and -v lists it. A metric that is not gated and too noisy to
 * tell is counted too: on a shared machine dozens of them say "cannot tell" on an A/A, and
 * listed they buried the lines that matter. */
static bool text_shows(const struct nb_cmp_metric_result *m, const struct nb_cmp_render_opts *ro)
{
	return ro->all_metrics || m->gated || (m->verdict != NB_CMP_UNCHANGED && m->verdict != NB_CMP_INCONCLUSIVE);
}

/* The column heads, aligned with the rows of text_point. */
static void text_columns(struct sbuf *out)
{
	sb_lit(out, "    ");
	sb_pad(out, "metric", -24);
	sb_putc(out, ' ');
	sb_pad(out, "base", 18);
	sb_putc(out, ' ');
	sb_pad(out, "new", 18);
	sb_putc(out, ' ');
	sb_pad(out, "change", 9);
	sb_lit(out, "  verdict\n");
}

static void text_gate(struct sbuf *out, const struct nb_cmp_options *opt)
{
	if (!opt->n_gate)
		sb_lit(out, "none");
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		sb_printf(out, "%s%s%s%s", i ? "," : "", g->metric, g->tests[0] ? "@" : "", g->tests);
		if (g->min_effect_pct >= 0)
			sb_printf(out, "=%g", g->min_effect_pct);
	}
}

/* "; floors: off" or the --floor overrides; the defaults are in docs/compare.md. */
static void text_floors(struct sbuf *out, const struct nb_cmp_options *opt)
{
	if (opt->no_floors) {
		sb_lit(out, "; floors: off");
		return;
	}
	for (int i = 0; i < opt->n_floors; i++)
		sb_printf(out, "%s%s=%g", i ? "," : "; floors: ", opt->floors[i].name, opt->floors[i].value);
}

/* Other programs' CPU differed between the two sides (cpu_other_pct): every figure may have moved. */
static void put_foreign_load(struct sbuf *out, const char *lead, const struct nb_cmp_result *r)
{
	char lb[24] = "not measured", ln[24] = "not measured";

	if (!r->other_differs)
		return;
	if (!isnan(r->other_base_pct))
		snprintf(lb, sizeof(lb), "%.0f%%", r->other_base_pct);
	if (!isnan(r->other_new_pct))
		snprintf(ln, sizeof(ln), "%.0f%%", r->other_new_pct);
	sb_printf(out, "%sforeign load differs: other programs took up to %s -> %s of the CPU (cpu_other_pct)\n", lead,
		  lb, ln);
}

/* Warnings that the tool, not the device under test, may have set a point's figure, each line
 * led by LEAD: the peer's iperf3 server (remote_total) near a full core (libiperf 3.12 moves data
 * in one thread), or, on a TX point, this host's own iperf3 child (host_total). */
static void put_bound_warnings(struct sbuf *out, const char *lead, const char *side, const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *peer = p ? nb_cmp_point_metric(p, "iperf_remote_cpu_pct") : NULL;
	const struct nb_cmp_samples *host = p && !strcmp(p->direction, "tx") ?
					    nb_cmp_point_metric(p, "iperf_host_cpu_pct") : NULL;

	if (peer && peer->n > 0 && peer->median >= NB_PEER_BOUND_PCT)
		sb_printf(out, "%s%s: peer CPU %.0f%% of a core: the peer may have set this figure (peer-bound)\n",
			  lead, side, peer->median);
	if (host && host->n > 0 && host->median >= NB_PEER_BOUND_PCT)
		sb_printf(out, "%s%s: sender CPU %.0f%% of a core: the tool may have set this figure (sender-bound)\n",
			  lead, side, host->median);
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
static void put_point_runs(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	int nb, nn;

	point_runs(pr, &nb, &nn);
	if (!pr->base || !pr->new || (nb == nn && nb >= opt->min_runs))
		return;
	sb_printf(out, "    runs: %d base, %d new", nb, nn);
	if (nb < opt->min_runs || nn < opt->min_runs)
		sb_printf(out, "; too few on the %s side for a verdict (%d needed)",
			  nb < opt->min_runs && nn < opt->min_runs ? "base and the new" : nb < opt->min_runs ? "base" : "new",
			  opt->min_runs);
	sb_putc(out, '\n');
}

/* Above the points: how many had too few runs on each side. */
static void put_few_runs(struct sbuf *out, const struct nb_cmp_result *r)
{
	int few_base = 0, few_new = 0;

	for (int i = 0; i < r->n_points; i++) {
		int nb, nn;

		if (!r->points[i].base || !r->points[i].new)
			continue;
		point_runs(&r->points[i], &nb, &nn);
		few_base += nb < r->opt->min_runs;
		few_new += nn < r->opt->min_runs;
	}
	if (few_base || few_new)
		sb_printf(out, "  too few runs (< %d) on a side: base in %d point(s), new in %d: those are inconclusive\n",
			  r->opt->min_runs, few_base, few_new);
}

static void text_point(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt,
		       const struct nb_cmp_render_opts *ro)
{
	char b[32], n[32], c[24], reason[160];
	int hidden = 0, shown = 0, noisy = 0;

	sb_printf(out, "\n%s: ", pr->id);
	put_verdict(out, pr->verdict, ro->color, true);
	sb_putc(out, '\n');
	if (pr->base && pr->base->error && pr->base->status != NB_CMP_STATUS_OK)
		sb_printf(out, "    base %s: %s\n", nb_cmp_status_name(pr->base->status), pr->base->error);
	if (pr->new && pr->new->error && pr->new->status != NB_CMP_STATUS_OK)
		sb_printf(out, "    new %s: %s\n", nb_cmp_status_name(pr->new->status), pr->new->error);
	if (pr->base && pr->base->incomplete)
		sb_printf(out, "    base incomplete (compared on its finished runs): %s\n",
			  pr->base->error ? pr->base->error : "");
	if (pr->new && pr->new->incomplete)
		sb_printf(out, "    new incomplete (compared on its finished runs): %s\n",
			  pr->new->error ? pr->new->error : "");
	put_bound_warnings(out, "    ", "base", pr->base);
	put_bound_warnings(out, "    ", "new", pr->new);
	put_point_runs(out, pr, opt);
	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (!text_shows(m, ro)) {
			hidden++;
			noisy += m->verdict == NB_CMP_INCONCLUSIVE;
			continue;
		}
		if (!shown++)
			text_columns(out);
		/* "  %c %-24s %18s %18s %9s  " */
		sb_put(out, m->gated ? "  * " : "    ", 4);
		sb_pad(out, m->name, -24);
		sb_putc(out, ' ');
		sb_pad(out, format_value(b, sizeof(b), m->name, m->has_base, m->base), 18);
		sb_putc(out, ' ');
		sb_pad(out, format_value(n, sizeof(n), m->name, m->has_new, m->new), 18);
		sb_putc(out, ' ');
		sb_pad(out, nb_cmp_format_change(c, sizeof(c), m), 9);
		sb_put(out, "  ", 2);
		put_verdict(out, m->verdict, ro->color, false);
		if (m->reason != NB_CMP_REASON_NONE)
			sb_printf(out, " (%s)", nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		sb_putc(out, '\n');
	}
	if (hidden - noisy && noisy)
		sb_printf(out, "    + %d metric%s unchanged or within floors, %d too noisy to tell (-v lists them)\n",
			  hidden - noisy, hidden - noisy == 1 ? "" : "s", noisy);
	else if (hidden)
		sb_printf(out, "    + %d metric%s %s (-v lists them)\n", hidden, hidden == 1 ? "" : "s",
			  noisy ? "too noisy to tell" : "unchanged or within floors");
	if (pr->n_movers)
		sb_lit(out, "    profile movers:");
	for (int i = 0; i < pr->n_movers; i++)
		sb_printf(out, "%s %s %.1f%% -> %.1f%%", i ? "," : "", pr->movers[i].symbol, pr->movers[i].base_share_pct,
			pr->movers[i].new_share_pct);
	if (pr->n_movers)
		sb_putc(out, '\n');
}

static void text_counts(struct sbuf *out, const struct nb_cmp_result *r)
{
	bool first = true;

	sb_printf(out, " (%d points:", r->n_points);
	for (int v = 0; v <= NB_CMP_CHANGED; v++) {
		if (!r->count[v])
			continue;
		sb_printf(out, "%s %d %s", first ? "" : ",", r->count[v], nb_cmp_verdict_name((enum nb_cmp_verdict)v));
		first = false;
	}
	sb_lit(out, ")\n");
}

static void text_body(struct sbuf *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	const struct nb_cmp_options *opt = r->opt;

	sb_printf(out, "nicbench compare\n  base: %s (kernel %s)\n  new:  %s (kernel %s)\n", r->base->path,
		r->base->kernel_release[0] ? r->base->kernel_release : "?", r->new->path,
		r->new->kernel_release[0] ? r->new->kernel_release : "?");
	sb_printf(out, "  medians; a change counts when its %.0f%% interval (Mann-Whitney) lies beyond the minimum "
		"effect (%g%%)%s, >= %d runs per side\n  gate (*): ", (1 - opt->alpha) * 100, opt->min_effect_pct,
		opt->no_floors ? "" : " and the metric's floor", opt->min_runs);
	text_gate(out, opt);
	text_floors(out, opt);
	sb_putc(out, '\n');
	for (int i = 0; i < r->n_env_diffs; i++)
		sb_printf(out, "  environment differs: %s: %s -> %s\n", r->env_diffs[i].key,
			r->env_diffs[i].base ? r->env_diffs[i].base : "(absent)",
			r->env_diffs[i].new ? r->env_diffs[i].new : "(absent)");
	if (r->n_test_diffs)
		sb_printf(out, "  environment differs: test settings of %d point(s), e.g. %s\n", r->n_test_diffs,
			r->test_diff_id);
	put_foreign_load(out, "  ", r);
	put_few_runs(out, r);
	for (int i = 0; i < r->n_points; i++) {
		text_point(out, &r->points[i], opt, ro);
		sb_drain(out);
	}
	sb_lit(out, "\nverdict: ");
	if (ro->color)
		sb_puts(out, r->verdict == NB_CMP_REGRESSION ? "\033[1;31m" : r->verdict == NB_CMP_PASS ? "\033[32m" : "\033[33m");
	sb_puts(out, nb_cmp_overall_name(r->verdict));
	if (ro->color)
		sb_lit(out, "\033[0m");
	text_counts(out, r);
}

/* Write the rest of a finished buffer and release it; 0 or -errno. */
static int sb_emit(struct sbuf *b)
{
	int ret = b->failed ? -ENOMEM : b->write_err;

	if (!ret && b->len && fwrite(b->p, 1, b->len, b->file) != b->len)
		ret = -EIO;
	free(b->p);
	return ret ? ret : finish(b->file);
}

int nb_cmp_render_text(FILE *file, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	struct sbuf b = { .file = file };

	text_body(&b, r, ro);
	return sb_emit(&b);
}

/* ---- JSON ---- */

static const char *direction_name(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher" : d == NB_CMP_LOWER_BETTER ? "lower" : "neutral";
}

static void json_metric(struct sbuf *b, const struct nb_cmp_metric_result *m, const struct nb_cmp_options *opt)
{
	sb_string(b, m->name);
	sb_lit(b, ":{\"base\":");
	sb_number_or_null(b, m->has_base, m->base);
	sb_lit(b, ",\"new\":");
	sb_number_or_null(b, m->has_new, m->new);
	sb_lit(b, ",\"change_pct\":");
	sb_number_or_null(b, m->has_change, m->change_pct);
	sb_lit(b, ",\"verdict\":\"");
	sb_puts(b, nb_cmp_verdict_name(m->verdict));
	sb_lit(b, "\",\"direction\":\"");
	sb_puts(b, direction_name(m->direction));
	sb_puts(b, m->gated ? "\",\"gated\":true,\"n_base\":" : "\",\"gated\":false,\"n_base\":");
	sb_number(b, m->n_base);
	sb_lit(b, ",\"n_new\":");
	sb_number(b, m->n_new);
	if (m->change_capped)
		sb_lit(b, ",\"change_capped\":true");
	sb_lit(b, ",\"p_value\":");
	sb_number_or_null(b, m->has_p, m->p_value);
	if (m->has_ci) {
		sb_lit(b, ",\"ci_pct\":[");
		sb_number(b, m->ci_lo_pct);
		sb_put(b, ",", 1);
		sb_number(b, m->ci_hi_pct);
		sb_put(b, "]", 1);
	}
	sb_lit(b, ",\"min_effect_pct\":");
	sb_number(b, m->min_effect_pct);
	/* The floor as applied to this point, in the metric's unit; null when it has none. */
	sb_lit(b, ",\"floor\":");
	sb_number_or_null(b, m->has_floor, m->floor);
	if (m->floor_family) {
		sb_lit(b, ",\"floor_family\":");
		sb_string(b, m->floor_family);
	}
	if (m->reason != NB_CMP_REASON_NONE) {
		char reason[160];

		sb_lit(b, ",\"reason\":");
		sb_string(b, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
	}
	sb_put(b, "}", 1);
}

static void json_point(struct sbuf *b, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	const struct nb_cmp_point *any = pr->base ? pr->base : pr->new;

	sb_lit(b, "{\"id\":");
	sb_string(b, pr->id);
	sb_lit(b, ",\"verdict\":\"");
	sb_puts(b, nb_cmp_verdict_name(pr->verdict));
	sb_lit(b, "\",\"test\":");
	sb_string(b, any->test_name);
	sb_lit(b, ",\"base_status\":");
	sb_text_or_null(b, pr->base ? nb_cmp_status_name(pr->base->status) : NULL);
	sb_lit(b, ",\"new_status\":");
	sb_text_or_null(b, pr->new ? nb_cmp_status_name(pr->new->status) : NULL);
	if (pr->base && pr->base->error) {
		sb_lit(b, ",\"base_error\":");
		sb_string(b, pr->base->error);
	}
	if (pr->new && pr->new->error) {
		sb_lit(b, ",\"new_error\":");
		sb_string(b, pr->new->error);
	}
	sb_lit(b, ",\"metrics\":{");
	for (int i = 0; i < pr->n_metrics; i++) {
		if (i)
			sb_put(b, ",", 1);
		json_metric(b, &pr->metrics[i], opt);
	}
	sb_put(b, "}", 1);
	if (pr->n_movers) {
		sb_lit(b, ",\"profile_movers\":[");
		for (int i = 0; i < pr->n_movers; i++) {
			sb_puts(b, i ? ",{\"symbol\":" : "{\"symbol\":");
			sb_string(b, pr->movers[i].symbol);
			sb_lit(b, ",\"base_share_pct\":");
			sb_number(b, pr->movers[i].base_share_pct);
			sb_lit(b, ",\"new_share_pct\":");
			sb_number(b, pr->movers[i].new_share_pct);
			sb_put(b, "}", 1);
		}
		sb_put(b, "]", 1);
	}
	sb_put(b, "}", 1);
}

static void json_report_ref(struct sbuf *b, const char *key, const struct nb_cmp_report *rep)
{
	sb_printf(b, "\"%s\":{\"path\":", key);
	sb_string(b, rep->path);
	sb_lit(b, ",\"kernel\":");
	sb_string(b, rep->kernel_release);
	sb_lit(b, ",\"created\":");
	sb_string(b, rep->created);
	sb_put(b, "}", 1);
}

static void json_env(struct sbuf *b, const struct nb_cmp_result *r)
{
	sb_lit(b, ",\"environment_differences\":[");
	for (int i = 0; i < r->n_env_diffs; i++) {
		sb_puts(b, i ? ",{\"key\":" : "{\"key\":");
		sb_string(b, r->env_diffs[i].key);
		/* The values are JSON texts already: embed them as they are. */
		sb_lit(b, ",\"base\":");
		sb_puts(b, r->env_diffs[i].base ? r->env_diffs[i].base : "null");
		sb_lit(b, ",\"new\":");
		sb_puts(b, r->env_diffs[i].new ? r->env_diffs[i].new : "null");
		sb_put(b, "}", 1);
	}
	if (r->n_test_diffs) {
		sb_puts(b, r->n_env_diffs ? ",{\"key\":\"results[].test\",\"points\":" : "{\"key\":\"results[].test\",\"points\":");
		sb_number(b, r->n_test_diffs);
		sb_lit(b, ",\"example\":");
		sb_string(b, r->test_diff_id);
		sb_put(b, "}", 1);
	}
	sb_put(b, "]", 1);
}

static void json_gate(struct sbuf *b, const struct nb_cmp_options *opt)
{
	char rule[160];
	size_t used = 0;

	if (!opt->n_gate)
		sb_string(b, "none");
	else
		sb_put(b, "\"", 1);
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		used = (size_t)snprintf(rule, sizeof(rule), "%s%s%s%s", i ? "," : "", g->metric, g->tests[0] ? "@" : "",
					g->tests);
		if (g->min_effect_pct >= 0 && used < sizeof(rule))
			snprintf(rule + used, sizeof(rule) - used, "=%g", g->min_effect_pct);
		/* Rule text is escaped like any string, without the quotes around each rule. */
		struct sbuf tmp = { 0 };

		sb_string(&tmp, rule);
		if (!tmp.failed)
			sb_put(b, tmp.p + 1, tmp.len - 2);
		free(tmp.p);
	}
	if (opt->n_gate)
		sb_put(b, "\"", 1);
}

int nb_cmp_render_json(FILE *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;
	struct sbuf b = { .file = out };

	sb_printf(&b, "{\"schema\":\"%s\",\"verdict\":\"%s\",", NB_CMP_SCHEMA, nb_cmp_overall_name(r->verdict));
	json_report_ref(&b, "base", r->base);
	sb_put(&b, ",", 1);
	json_report_ref(&b, "new", r->new);
	sb_lit(&b, ",\"settings\":{\"method\":\"mann-whitney-shift-interval\",\"alpha\":");
	sb_number(&b, opt->alpha);
	sb_lit(&b, ",\"min_effect_pct\":");
	sb_number(&b, opt->min_effect_pct);
	sb_lit(&b, ",\"min_runs\":");
	sb_number(&b, opt->min_runs);
	sb_lit(&b, ",\"change_cap_pct\":");
	sb_number(&b, opt->change_cap_pct);
	sb_puts(&b, opt->no_floors ? ",\"floors\":false" : ",\"floors\":true");
	/* --floor overrides as given, so that a result says which floors it was judged with */
	sb_lit(&b, ",\"floor_overrides\":{");
	for (int i = 0; i < opt->n_floors; i++) {
		if (i)
			sb_put(&b, ",", 1);
		sb_string(&b, opt->floors[i].name);
		sb_put(&b, ":", 1);
		sb_number(&b, opt->floors[i].value);
	}
	sb_put(&b, "}", 1);
	sb_puts(&b, opt->missing_ok ? ",\"missing_ok\":true" : ",\"missing_ok\":false");
	sb_lit(&b, ",\"gate\":");
	json_gate(&b, opt);
	sb_put(&b, "}", 1);
	json_env(&b, r);
	sb_lit(&b, ",\"points\":[");
	for (int i = 0; i < r->n_points; i++) {
		sb_puts(&b, i ? ",\n" : "\n");
		json_point(&b, &r->points[i], opt);
		sb_drain(&b);
	}
	sb_lit(&b, "\n]}\n");
	return sb_emit(&b);
}

/* ---- JUnit ---- */

/* s escaped for XML attributes and text; plain runs are copied whole. */
static void xml_text(struct sbuf *out, const char *s)
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
		default:
			/* XML 1.0 forbids most control characters even as references. */
			if (*p >= 0x20 || *p == '\t' || *p == '\n')
				continue;
			esc = " ";
		}
		sb_put(out, run, (size_t)((const char *)p - run));
		sb_puts(out, esc);
		run = (const char *)p + 1;
	}
	sb_put(out, run, (size_t)((const char *)p - run));
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
			bool fail = junit_fails(m->verdict, r->opt);

			if (!m->gated)
				continue;
			c->tests++;
			c->failures += fail;
			c->skipped += !fail && (m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING);
		}
	}
}

static void junit_status_case(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	const struct nb_cmp_point *failed = pr->new && pr->new->status != NB_CMP_STATUS_OK ? pr->new : pr->base;

	sb_lit(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	sb_printf(out, "\" name=\"status\">");
	if (pr->verdict == NB_CMP_BROKEN) {
		sb_lit(out, "\n      <failure type=\"broken\" message=\"ok in base, ");
		xml_text(out, nb_cmp_status_name(pr->new->status));
		sb_lit(out, " in new: ");
		xml_text(out, pr->new->error ? pr->new->error : "no error text");
		sb_lit(out, "\"/>\n    ");
	} else if (junit_fails(pr->verdict, opt)) {
		sb_lit(out, "\n      <failure type=\"missing\" message=\"point missing from the new report");
		if (pr->new && pr->new->status != NB_CMP_STATUS_OK) {
			sb_lit(out, " (");
			xml_text(out, nb_cmp_status_name(pr->new->status));
			sb_lit(out, ")");
		}
		sb_lit(out, "\"/>\n    ");
	} else if (pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE) {
		sb_lit(out, "\n      <skipped message=\"");
		xml_text(out, pr->verdict == NB_CMP_MISSING ? "point missing from the new report" : "");
		if (pr->verdict == NB_CMP_INCONCLUSIVE && failed && failed->error)
			xml_text(out, failed->error);
		sb_lit(out, "\"/>\n    ");
	}
	sb_lit(out, "</testcase>\n");
}

static void junit_metric_case(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_metric_result *m,
			      const struct nb_cmp_options *opt)
{
	char b[32], n[32], c[24];

	sb_lit(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	sb_lit(out, "\" name=\"");
	xml_text(out, m->name);
	sb_lit(out, "\">");
	if (m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING) {
		bool fail = junit_fails(m->verdict, opt);

		sb_printf(out, "\n      <%s %smessage=\"", fail ? "failure" : "skipped",
			  !fail ? "" : m->verdict == NB_CMP_MISSING ? "type=\"missing\" " : "type=\"regression\" ");
		nb_cmp_format_change(c, sizeof(c), m);
		sb_printf(out, "%s:%s%s (base %s, new %s)", nb_cmp_verdict_name(m->verdict), c[0] ? " " : "", c,
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new));
		if (m->reason != NB_CMP_REASON_NONE) {
			char reason[160];

			sb_lit(out, ": ");
			xml_text(out, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		}
		sb_lit(out, "\"/>\n    ");
	}
	sb_lit(out, "</testcase>\n");
}

static void junit_body(struct sbuf *out, const struct nb_cmp_result *r)
{
	struct junit_counts c;

	junit_count(r, &c);
	sb_lit(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_printf(out, "<testsuites name=\"nicbench compare\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", c.tests,
		c.failures, c.skipped);
	sb_lit(out, "  <testsuite name=\"nicbench compare ");
	xml_text(out, r->base->kernel_release);
	sb_lit(out, " -&gt; ");
	xml_text(out, r->new->kernel_release);
	sb_printf(out, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", c.tests, c.failures, c.skipped);
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
		sb_drain(out);
	}
	sb_lit(out, "  </testsuite>\n</testsuites>\n");
}

int nb_cmp_render_junit(FILE *file, const struct nb_cmp_result *r)
{
	struct sbuf b = { .file = file };

	junit_body(&b, r);
	return sb_emit(&b);
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

static const struct nb_cmp_point *any_point(const struct nb_cmp_point_result *pr)
{
	return pr->base ? pr->base : pr->new;
}

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
static void md_label(struct sbuf *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *p = any_point(pr);

	for (const char *s = p->test_name[0] ? p->test_name : p->id; *s; s++)
		sb_putc(out, *s == '-' ? ' ' : (char)toupper((unsigned char)*s));
	if (p->test_name[0] && md_test_count(tests, p->test_name) > 1)
		sb_printf(out, " (%s)", p->knobs[0] ? p->knobs : p->id);
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
static void md_missing_metrics(struct sbuf *out, const struct nb_cmp_point_result *pr)
{
	int n = 0;

	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (m->gated && m->verdict == NB_CMP_MISSING)
			sb_printf(out, "%s%s", n++ ? ", " : "not measured in the new report: ", m->name);
	}
	if (n)
		sb_lit(out, "; ");
}

/* "+34% bandwidth (400.00 Mbit/s -> 536.00 Mbit/s)", "similar CPU (45.0% -> 45.2%)"; nothing when unmeasured. */
static bool md_phrase(struct sbuf *out, const struct nb_cmp_point_result *pr, const char *metric, const char *what,
		      bool first)
{
	const struct nb_cmp_metric_result *m = find_result(pr, metric);
	char b[32], n[32];

	if (!m || !m->has_change)
		return false;
	sb_puts(out, first ? "" : ", ");
	if (m->verdict == NB_CMP_UNCHANGED)
		sb_printf(out, "similar %s", what);
	else if (m->change_capped && m->change_pct > 0)
		sb_printf(out, ">%.0f%% %s", m->change_pct, what);
	else
		sb_printf(out, "%+.0f%% %s", m->change_pct, what);
	/* The figures themselves: a percentage alone hides whether 34% is of 4 or of 400 Mbit/s. */
	sb_printf(out, " (%s -> ", format_value(b, sizeof(b), m->name, m->has_base, m->base));
	sb_printf(out, "%s)", format_value(n, sizeof(n), m->name, m->has_new, m->new));
	if (m->verdict == NB_CMP_INCONCLUSIVE)
		sb_lit(out, " (inconclusive)");
	return true;
}

static void md_point(struct sbuf *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	char v[32];
	const struct nb_cmp_metric_result *thr = find_result(pr, "throughput_bps");
	bool any;

	sb_lit(out, "- ");
	md_label(out, tests, pr);
	sb_lit(out, ": ");
	switch (pr->verdict) {
	case NB_CMP_FIXED:
	case NB_CMP_BROKEN: {
		const struct nb_cmp_point *bad = pr->verdict == NB_CMP_FIXED ? pr->base : pr->new;

		sb_printf(out, "%s (%s %s", nb_cmp_verdict_name(pr->verdict), pr->verdict == NB_CMP_FIXED ? "base" : "new",
			nb_cmp_status_name(bad->status));
		if (bad->error)
			sb_printf(out, ": %s", bad->error);
		sb_putc(out, ')');
		if (pr->verdict == NB_CMP_FIXED && thr && thr->has_new)
			sb_printf(out, ", now %s", format_value(v, sizeof(v), thr->name, true, thr->new));
		sb_putc(out, '\n');
		return;
	}
	case NB_CMP_NEW:
	case NB_CMP_MISSING:
		if (pr->verdict == NB_CMP_MISSING && pr->new && pr->new->status == NB_CMP_STATUS_OK) {
			md_missing_metrics(out, pr);
			break;
		}
		sb_printf(out, "%s\n", pr->verdict == NB_CMP_NEW ? "only in the new report" : "missing from the new report");
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
	sb_puts(out, any ? "\n" : "no comparable metrics\n");
	/* the same warnings as the text table's: a reader of a cover letter needs them as much */
	put_bound_warnings(out, "  - ", "base", pr->base);
	put_bound_warnings(out, "  - ", "new", pr->new);
}

static void markdown_body(struct sbuf *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;
	struct md_tests tests;

	sb_printf(out, "Performance, %s -> %s (nicbench compare: **%s**):\n\n",
		r->base->kernel_release[0] ? r->base->kernel_release : r->base->path,
		r->new->kernel_release[0] ? r->new->kernel_release : r->new->path, nb_cmp_overall_name(r->verdict));
	put_foreign_load(out, "", r);
	if (r->other_differs)
		sb_putc(out, '\n');
	md_count_tests(r, &tests);
	for (int i = 0; i < r->n_points; i++) {
		md_point(out, &tests, &r->points[i]);
		sb_drain(out);
	}
	sb_printf(out, "\nMedians of the runs on each side; \"similar\" is within %g%%%s, \"inconclusive\" is a larger "
		"change whose %.0f%% confidence interval (Mann-Whitney) still reaches within %g%%, or fewer than %d runs.\n",
		opt->min_effect_pct, opt->no_floors ? "" : " or within the metric's absolute floor",
		(1 - opt->alpha) * 100, opt->min_effect_pct, opt->min_runs);
}

int nb_cmp_render_markdown(FILE *file, const struct nb_cmp_result *r)
{
	struct sbuf b = { .file = file };

	markdown_body(&b, r);
	return sb_emit(&b);
}

/* ---- the floor table ---- */

static const char *direction_word(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher is better" : d == NB_CMP_LOWER_BETTER ? "lower is better" : "neutral";
}

int nb_cmp_render_floors(FILE *file)
{
	struct sbuf b = { .file = file };
	char pattern[96];
	struct nb_cmp_floor f;
	enum nb_cmp_direction d;

	sb_lit(&b, "| metric | direction | family | floor | unit |\n|---|---|---|---|---|\n");
	for (int i = 0; nb_cmp_floor_row(i, pattern, sizeof(pattern), &f, &d); i++) {
		sb_printf(&b, "| `%s` | %s | ", pattern, direction_word(d));
		if (f.kind == NB_CMP_FLOOR_NONE)
			sb_lit(&b, "- | none | |\n");
		else
			sb_printf(&b, "%s | %g | %s |\n", f.family, f.value, f.unit ? f.unit : "");
	}
	sb_lit(&b, "| any other | neutral | - | none | |\n");
	return sb_emit(&b);
}
