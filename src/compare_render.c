/* nicbench compare renderers: text, JSON, JUnit and Markdown over the same result structs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

static int finish(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}

/* ---- output buffer ----
 * Every format is built in a growing buffer and written in large fwrites: a thousand
 * points are ~15000 metric rows, and stdio's per-call locking and printf's exact
 * float path were most of the time of a whole compare. */

struct sbuf {
	char *p;
	size_t len, cap;
	bool failed;
};

static void sb_reserve(struct sbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *bigger;

	if (b->failed || b->len + more + 1 <= b->cap)
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

static void sb_put(struct sbuf *b, const char *s, size_t len)
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

static const double pow10_table[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14 };

/* A finite number with 10 significant digits, like "%.10g" but without its exponent
 * form for large integers; magnitudes outside 1e-4..1e15 take printf's path. */
static void sb_number(struct sbuf *b, double v)
{
	char digits[24], out[40];
	double a = fabs(v);
	int e, decimals, nd = 0, o = 0;
	unsigned long long m;

	if (a == 0) {
		sb_put(b, "0", 1);
		return;
	}
	if (!(a >= 1e-4 && a < 1e15)) {
		sb_printf(b, "%.10g", v);
		return;
	}
	e = (int)floor(log10(a));
	decimals = 9 - e < 0 ? 0 : 9 - e;
	m = (unsigned long long)llround(a * pow10_table[decimals]);
	while (m && decimals > 0 && m % 10 == 0) { /* trailing zeros of the fraction */
		m /= 10;
		decimals--;
	}
	do {
		digits[nd++] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		out[o++] = '-';
	if (nd <= decimals) {
		out[o++] = '0';
		out[o++] = '.';
		for (int i = decimals; i > nd; i--)
			out[o++] = '0';
		while (nd)
			out[o++] = digits[--nd];
	} else {
		while (nd) {
			if (nd == decimals)
				out[o++] = '.';
			out[o++] = digits[--nd];
		}
	}
	sb_put(b, out, (size_t)o);
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

static int sb_flush(struct sbuf *b, FILE *out)
{
	if (b->failed)
		return -ENOMEM;
	if (b->len && fwrite(b->p, 1, b->len, out) != b->len)
		return -EIO;
	b->len = 0;
	return 0;
}

const char *nb_cmp_format_change(char *buf, size_t len, const struct nb_cmp_metric_result *m)
{
	if (!m->has_change)
		snprintf(buf, len, "%s", "");
	else if (m->change_capped && m->change_pct > 0)
		snprintf(buf, len, ">%.0f%%", m->change_pct);
	else
		snprintf(buf, len, "%+.1f%%", m->change_pct);
	return buf;
}

static bool is_bitrate(const char *name)
{
	return !strcmp(name, "throughput_bps") || !strcmp(name, NB_CMP_EFFICIENCY_METRIC);
}

static const char *format_value(char *buf, size_t len, const char *name, bool present, double v)
{
	size_t nl = strlen(name);

	if (!present)
		snprintf(buf, len, "-");
	else if (is_bitrate(name)) {
		const char *unit = strcmp(name, "throughput_bps") ? "bit/cpu-s" : "bit/s";

		if (fabs(v) >= 1e9)
			snprintf(buf, len, "%.2f G%s", v / 1e9, unit);
		else if (fabs(v) >= 1e6)
			snprintf(buf, len, "%.2f M%s", v / 1e6, unit);
		else if (fabs(v) >= 1e3)
			snprintf(buf, len, "%.2f k%s", v / 1e3, unit);
		else
			snprintf(buf, len, "%.0f %s", v, unit);
	} else if (nl > 4 && !strcmp(name + nl - 4, "_pct"))
		snprintf(buf, len, "%.1f%%", v);
	else
		snprintf(buf, len, "%.4g", v);
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
		sb_puts(out, "\033[0m");
}

/* What a maintainer reads first; the other few dozen metrics wait for --all-metrics. */
static const char *const headline_metrics[] = {
	"throughput_bps", "cpu_busy_pct", NB_CMP_EFFICIENCY_METRIC, "softirq_pct", "napi_thread_pct",
	"lost_percent", "retransmits",
};

static bool text_shows(const struct nb_cmp_metric_result *m, const struct nb_cmp_render_opts *ro)
{
	if (ro->all_metrics || m->gated)
		return true;
	for (size_t i = 0; i < sizeof(headline_metrics) / sizeof(headline_metrics[0]); i++) {
		if (!strcmp(m->name, headline_metrics[i]))
			return true;
	}
	return false;
}

static void text_gate(struct sbuf *out, const struct nb_cmp_options *opt)
{
	if (!opt->n_gate)
		sb_puts(out, "none");
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		sb_printf(out, "%s%s%s%s", i ? "," : "", g->metric, g->tests[0] ? "@" : "", g->tests);
		if (g->min_effect_pct >= 0)
			sb_printf(out, "=%g", g->min_effect_pct);
	}
}

/* The iperf3 server's own CPU (remote_total) near a full core: libiperf 3.12 moves data in one
 * thread, so the peer, not the device under test, may have set the throughput. */
static void text_peer_bound(struct sbuf *out, const char *side, const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *peer = p ? nb_cmp_point_metric(p, "iperf_remote_cpu_pct") : NULL;

	if (peer && peer->n > 0 && peer->median >= NB_PEER_BOUND_PCT)
		sb_printf(out, "    %s: peer CPU %.0f%% of a core: the peer may have set this figure (peer-bound)\n",
			  side, peer->median);
}

static void text_point(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt,
		       const struct nb_cmp_render_opts *ro)
{
	char b[32], n[32], c[24], reason[128];

	sb_printf(out, "\n%s: ", pr->id);
	put_verdict(out, pr->verdict, ro->color, true);
	sb_putc(out, '\n');
	if (pr->base && pr->base->error && pr->base->status != NB_CMP_STATUS_OK)
		sb_printf(out, "    base %s: %s\n", nb_cmp_status_name(pr->base->status), pr->base->error);
	if (pr->new && pr->new->error && pr->new->status != NB_CMP_STATUS_OK)
		sb_printf(out, "    new %s: %s\n", nb_cmp_status_name(pr->new->status), pr->new->error);
	text_peer_bound(out, "base", pr->base);
	text_peer_bound(out, "new", pr->new);
	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (!text_shows(m, ro))
			continue;
		sb_printf(out, "  %c %-24s %18s %18s %9s  ", m->gated ? '*' : ' ', m->name,
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new), nb_cmp_format_change(c, sizeof(c), m));
		put_verdict(out, m->verdict, ro->color, false);
		if (m->reason != NB_CMP_REASON_NONE)
			sb_printf(out, " (%s)", nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		sb_putc(out, '\n');
	}
	if (pr->n_movers)
		sb_puts(out, "    profile movers:");
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
	sb_puts(out, ")\n");
}

static void text_body(struct sbuf *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	const struct nb_cmp_options *opt = r->opt;

	sb_printf(out, "nicbench compare\n  base: %s (kernel %s)\n  new:  %s (kernel %s)\n", r->base->path,
		r->base->kernel_release[0] ? r->base->kernel_release : "?", r->new->path,
		r->new->kernel_release[0] ? r->new->kernel_release : "?");
	sb_printf(out, "  medians; a change counts when its %.0f%% interval (Mann-Whitney) lies beyond the minimum "
		"effect (%g%%), >= %d runs per side\n  gate (*): ", (1 - opt->alpha) * 100, opt->min_effect_pct,
		opt->min_runs);
	text_gate(out, opt);
	sb_putc(out, '\n');
	for (int i = 0; i < r->n_env_diffs; i++)
		sb_printf(out, "  environment differs: %s: %s -> %s\n", r->env_diffs[i].key,
			r->env_diffs[i].base ? r->env_diffs[i].base : "(absent)",
			r->env_diffs[i].new ? r->env_diffs[i].new : "(absent)");
	if (r->n_test_diffs)
		sb_printf(out, "  environment differs: test settings of %d point(s), e.g. %s\n", r->n_test_diffs,
			r->test_diff_id);
	for (int i = 0; i < r->n_points; i++)
		text_point(out, &r->points[i], opt, ro);
	sb_puts(out, "\nverdict: ");
	if (ro->color)
		sb_puts(out, r->verdict == NB_CMP_REGRESSION ? "\033[1;31m" : r->verdict == NB_CMP_PASS ? "\033[32m" : "\033[33m");
	sb_puts(out, nb_cmp_overall_name(r->verdict));
	if (ro->color)
		sb_puts(out, "\033[0m");
	text_counts(out, r);
}

/* Write a finished buffer and release it; 0 or -errno. */
static int sb_emit(struct sbuf *b, FILE *file)
{
	int ret = sb_flush(b, file);

	free(b->p);
	return ret ? ret : finish(file);
}

int nb_cmp_render_text(FILE *file, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	struct sbuf b = { 0 };

	text_body(&b, r, ro);
	return sb_emit(&b, file);
}

/* ---- JSON ---- */

static const char *direction_name(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher" : d == NB_CMP_LOWER_BETTER ? "lower" : "neutral";
}

static void json_metric(struct sbuf *b, const struct nb_cmp_metric_result *m, const struct nb_cmp_options *opt)
{
	sb_string(b, m->name);
	sb_puts(b, ":{\"base\":");
	sb_number_or_null(b, m->has_base, m->base);
	sb_puts(b, ",\"new\":");
	sb_number_or_null(b, m->has_new, m->new);
	sb_puts(b, ",\"change_pct\":");
	sb_number_or_null(b, m->has_change, m->change_pct);
	sb_puts(b, ",\"verdict\":\"");
	sb_puts(b, nb_cmp_verdict_name(m->verdict));
	sb_puts(b, "\",\"direction\":\"");
	sb_puts(b, direction_name(m->direction));
	sb_puts(b, m->gated ? "\",\"gated\":true,\"n_base\":" : "\",\"gated\":false,\"n_base\":");
	sb_number(b, m->n_base);
	sb_puts(b, ",\"n_new\":");
	sb_number(b, m->n_new);
	if (m->change_capped)
		sb_puts(b, ",\"change_capped\":true");
	sb_puts(b, ",\"p_value\":");
	sb_number_or_null(b, m->has_p, m->p_value);
	if (m->has_ci) {
		sb_puts(b, ",\"ci_pct\":[");
		sb_number(b, m->ci_lo_pct);
		sb_put(b, ",", 1);
		sb_number(b, m->ci_hi_pct);
		sb_put(b, "]", 1);
	}
	sb_puts(b, ",\"min_effect_pct\":");
	sb_number(b, m->min_effect_pct);
	if (m->reason != NB_CMP_REASON_NONE) {
		char reason[128];

		sb_puts(b, ",\"reason\":");
		sb_string(b, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
	}
	sb_put(b, "}", 1);
}

static void json_point(struct sbuf *b, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	const struct nb_cmp_point *any = pr->base ? pr->base : pr->new;

	sb_puts(b, "{\"id\":");
	sb_string(b, pr->id);
	sb_puts(b, ",\"verdict\":\"");
	sb_puts(b, nb_cmp_verdict_name(pr->verdict));
	sb_puts(b, "\",\"test\":");
	sb_string(b, any->test_name);
	sb_puts(b, ",\"base_status\":");
	sb_text_or_null(b, pr->base ? nb_cmp_status_name(pr->base->status) : NULL);
	sb_puts(b, ",\"new_status\":");
	sb_text_or_null(b, pr->new ? nb_cmp_status_name(pr->new->status) : NULL);
	if (pr->base && pr->base->error) {
		sb_puts(b, ",\"base_error\":");
		sb_string(b, pr->base->error);
	}
	if (pr->new && pr->new->error) {
		sb_puts(b, ",\"new_error\":");
		sb_string(b, pr->new->error);
	}
	sb_puts(b, ",\"metrics\":{");
	for (int i = 0; i < pr->n_metrics; i++) {
		if (i)
			sb_put(b, ",", 1);
		json_metric(b, &pr->metrics[i], opt);
	}
	sb_put(b, "}", 1);
	if (pr->n_movers) {
		sb_puts(b, ",\"profile_movers\":[");
		for (int i = 0; i < pr->n_movers; i++) {
			sb_puts(b, i ? ",{\"symbol\":" : "{\"symbol\":");
			sb_string(b, pr->movers[i].symbol);
			sb_puts(b, ",\"base_share_pct\":");
			sb_number(b, pr->movers[i].base_share_pct);
			sb_puts(b, ",\"new_share_pct\":");
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
	sb_puts(b, ",\"kernel\":");
	sb_string(b, rep->kernel_release);
	sb_puts(b, ",\"created\":");
	sb_string(b, rep->created);
	sb_put(b, "}", 1);
}

static void json_env(struct sbuf *b, const struct nb_cmp_result *r)
{
	sb_puts(b, ",\"environment_differences\":[");
	for (int i = 0; i < r->n_env_diffs; i++) {
		sb_puts(b, i ? ",{\"key\":" : "{\"key\":");
		sb_string(b, r->env_diffs[i].key);
		/* The values are JSON texts already: embed them as they are. */
		sb_puts(b, ",\"base\":");
		sb_puts(b, r->env_diffs[i].base ? r->env_diffs[i].base : "null");
		sb_puts(b, ",\"new\":");
		sb_puts(b, r->env_diffs[i].new ? r->env_diffs[i].new : "null");
		sb_put(b, "}", 1);
	}
	if (r->n_test_diffs) {
		sb_puts(b, r->n_env_diffs ? ",{\"key\":\"results[].test\",\"points\":" : "{\"key\":\"results[].test\",\"points\":");
		sb_number(b, r->n_test_diffs);
		sb_puts(b, ",\"example\":");
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
	struct sbuf b = { 0 };
	int ret = 0;

	sb_printf(&b, "{\"schema\":\"%s\",\"verdict\":\"%s\",", NB_CMP_SCHEMA, nb_cmp_overall_name(r->verdict));
	json_report_ref(&b, "base", r->base);
	sb_put(&b, ",", 1);
	json_report_ref(&b, "new", r->new);
	sb_puts(&b, ",\"settings\":{\"method\":\"mann-whitney-shift-interval\",\"alpha\":");
	sb_number(&b, opt->alpha);
	sb_puts(&b, ",\"min_effect_pct\":");
	sb_number(&b, opt->min_effect_pct);
	sb_puts(&b, ",\"min_runs\":");
	sb_number(&b, opt->min_runs);
	sb_puts(&b, ",\"change_cap_pct\":");
	sb_number(&b, opt->change_cap_pct);
	sb_puts(&b, ",\"gate\":");
	json_gate(&b, opt);
	sb_put(&b, "}", 1);
	json_env(&b, r);
	sb_puts(&b, ",\"points\":[");
	for (int i = 0; i < r->n_points && !ret; i++) {
		sb_puts(&b, i ? ",\n" : "\n");
		json_point(&b, &r->points[i], opt);
		if (b.len > 1 << 16)
			ret = sb_flush(&b, out);
	}
	sb_puts(&b, "\n]}\n");
	if (ret) {
		free(b.p);
		return ret;
	}
	return sb_emit(&b, out);
}

/* ---- JUnit ---- */

static void xml_text(struct sbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '<':
			sb_puts(out, "&lt;");
			break;
		case '>':
			sb_puts(out, "&gt;");
			break;
		case '&':
			sb_puts(out, "&amp;");
			break;
		case '"':
			sb_puts(out, "&quot;");
			break;
		default:
			/* XML 1.0 forbids most control characters even as references. */
			sb_putc(out, *p < 0x20 && *p != '\t' && *p != '\n' ? ' ' : *p);
		}
	}
}

static bool status_only(enum nb_cmp_verdict v)
{
	return v == NB_CMP_FIXED || v == NB_CMP_BROKEN || v == NB_CMP_NEW || v == NB_CMP_MISSING;
}

struct junit_counts {
	int tests, failures, skipped;
};

static void junit_count(const struct nb_cmp_result *r, struct junit_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (status_only(pr->verdict) || (pr->base && pr->new && pr->base->status != NB_CMP_STATUS_OK)) {
			c->tests++;
			c->failures += pr->verdict == NB_CMP_BROKEN;
			c->skipped += pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE;
			continue;
		}
		for (int j = 0; j < pr->n_metrics; j++) {
			const struct nb_cmp_metric_result *m = &pr->metrics[j];

			if (!m->gated)
				continue;
			c->tests++;
			c->failures += m->verdict == NB_CMP_REGRESSED;
			c->skipped += m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING;
		}
	}
}

static void junit_status_case(struct sbuf *out, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *failed = pr->new && pr->new->status != NB_CMP_STATUS_OK ? pr->new : pr->base;

	sb_puts(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	sb_printf(out, "\" name=\"status\">");
	if (pr->verdict == NB_CMP_BROKEN) {
		sb_puts(out, "\n      <failure type=\"broken\" message=\"ok in base, ");
		xml_text(out, nb_cmp_status_name(pr->new->status));
		sb_puts(out, " in new: ");
		xml_text(out, pr->new->error ? pr->new->error : "no error text");
		sb_puts(out, "\"/>\n    ");
	} else if (pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE) {
		sb_puts(out, "\n      <skipped message=\"");
		xml_text(out, pr->verdict == NB_CMP_MISSING ? "point missing from the new report" : "");
		if (pr->verdict == NB_CMP_INCONCLUSIVE && failed && failed->error)
			xml_text(out, failed->error);
		sb_puts(out, "\"/>\n    ");
	}
	sb_puts(out, "</testcase>\n");
}

static void junit_metric_case(struct sbuf *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_metric_result *m,
			      const struct nb_cmp_options *opt)
{
	char b[32], n[32], c[24];

	sb_puts(out, "    <testcase classname=\"");
	xml_text(out, pr->id);
	sb_puts(out, "\" name=\"");
	xml_text(out, m->name);
	sb_puts(out, "\">");
	if (m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING) {
		bool fail = m->verdict == NB_CMP_REGRESSED;

		sb_printf(out, "\n      <%s %smessage=\"", fail ? "failure" : "skipped", fail ? "type=\"regression\" " : "");
		sb_printf(out, "%s: %s (base %s, new %s)", nb_cmp_verdict_name(m->verdict), nb_cmp_format_change(c, sizeof(c), m),
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new));
		if (m->reason != NB_CMP_REASON_NONE) {
			char reason[128];

			sb_puts(out, ": ");
			xml_text(out, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
		}
		sb_puts(out, "\"/>\n    ");
	}
	sb_puts(out, "</testcase>\n");
}

static void junit_body(struct sbuf *out, const struct nb_cmp_result *r)
{
	struct junit_counts c;

	junit_count(r, &c);
	sb_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sb_printf(out, "<testsuites name=\"nicbench compare\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", c.tests,
		c.failures, c.skipped);
	sb_puts(out, "  <testsuite name=\"nicbench compare ");
	xml_text(out, r->base->kernel_release);
	sb_puts(out, " -&gt; ");
	xml_text(out, r->new->kernel_release);
	sb_printf(out, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", c.tests, c.failures, c.skipped);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (status_only(pr->verdict) || (pr->base && pr->new && pr->base->status != NB_CMP_STATUS_OK)) {
			junit_status_case(out, pr);
			continue;
		}
		for (int j = 0; j < pr->n_metrics; j++) {
			if (pr->metrics[j].gated)
				junit_metric_case(out, pr, &pr->metrics[j], r->opt);
		}
	}
	sb_puts(out, "  </testsuite>\n</testsuites>\n");
}

int nb_cmp_render_junit(FILE *file, const struct nb_cmp_result *r)
{
	struct sbuf b = { 0 };

	junit_body(&b, r);
	return sb_emit(&b, file);
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

/* "+34% bandwidth", "similar CPU", "+3% CPU (within noise)"; nothing when unmeasured. */
static bool md_phrase(struct sbuf *out, const struct nb_cmp_point_result *pr, const char *metric, const char *what,
		      bool first)
{
	const struct nb_cmp_metric_result *m = find_result(pr, metric);

	if (!m || !m->has_change)
		return false;
	sb_puts(out, first ? "" : ", ");
	if (m->verdict == NB_CMP_UNCHANGED)
		sb_printf(out, "similar %s", what);
	else if (m->change_capped && m->change_pct > 0)
		sb_printf(out, ">%.0f%% %s", m->change_pct, what);
	else
		sb_printf(out, "%+.0f%% %s", m->change_pct, what);
	if (m->verdict == NB_CMP_INCONCLUSIVE)
		sb_puts(out, " (inconclusive)");
	return true;
}

static void md_point(struct sbuf *out, const struct md_tests *tests, const struct nb_cmp_point_result *pr)
{
	char v[32];
	const struct nb_cmp_metric_result *thr = find_result(pr, "throughput_bps");
	bool any;

	sb_puts(out, "- ");
	md_label(out, tests, pr);
	sb_puts(out, ": ");
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
		sb_printf(out, "%s\n", pr->verdict == NB_CMP_NEW ? "only in the new report" : "missing from the new report");
		return;
	default:
		break;
	}
	any = md_phrase(out, pr, "throughput_bps", "bandwidth", true);
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
}

static void markdown_body(struct sbuf *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;
	struct md_tests tests;

	sb_printf(out, "Performance, %s -> %s (nicbench compare: **%s**):\n\n",
		r->base->kernel_release[0] ? r->base->kernel_release : r->base->path,
		r->new->kernel_release[0] ? r->new->kernel_release : r->new->path, nb_cmp_overall_name(r->verdict));
	md_count_tests(r, &tests);
	for (int i = 0; i < r->n_points; i++)
		md_point(out, &tests, &r->points[i]);
	sb_printf(out, "\nMedians of the runs on each side; \"similar\" is within %g%%, \"inconclusive\" is a larger change "
		"whose %.0f%% confidence interval (Mann-Whitney) still reaches within %g%%, or fewer than %d runs.\n",
		opt->min_effect_pct, (1 - opt->alpha) * 100, opt->min_effect_pct, opt->min_runs);
}

int nb_cmp_render_markdown(FILE *file, const struct nb_cmp_result *r)
{
	struct sbuf b = { 0 };

	markdown_body(&b, r);
	return sb_emit(&b, file);
}
