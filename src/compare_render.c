/* nicbench compare renderers: text, JSON, JUnit and Markdown over the same result structs. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

static int finish(FILE *out)
{
	return ferror(out) ? -EIO : 0;
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

static void put_verdict(FILE *out, enum nb_cmp_verdict v, bool color, bool upper)
{
	const char *name = nb_cmp_verdict_name(v);
	const char *c = color ? verdict_color(v) : "";

	fputs(c, out);
	for (const char *s = name; *s; s++)
		fputc(upper ? toupper((unsigned char)*s) : *s, out);
	if (*c)
		fputs("\033[0m", out);
}

static bool text_shows(const struct nb_cmp_metric_result *m, const struct nb_cmp_render_opts *ro)
{
	return ro->all_metrics || m->gated || !strcmp(m->name, "throughput_bps") ||
	       !strcmp(m->name, "cpu_busy_pct") || !strcmp(m->name, NB_CMP_EFFICIENCY_METRIC) ||
	       m->verdict == NB_CMP_IMPROVED || m->verdict == NB_CMP_REGRESSED;
}

static void text_gate(FILE *out, const struct nb_cmp_options *opt)
{
	if (!opt->n_gate)
		fputs("none", out);
	for (int i = 0; i < opt->n_gate; i++) {
		const struct nb_cmp_gate_rule *g = &opt->gate[i];

		fprintf(out, "%s%s%s%s", i ? "," : "", g->metric, g->tests[0] ? "@" : "", g->tests);
		if (g->min_effect_pct >= 0)
			fprintf(out, "=%g", g->min_effect_pct);
	}
}

static void text_point(FILE *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_render_opts *ro)
{
	char b[32], n[32], c[24];

	fprintf(out, "\n%s: ", pr->id);
	put_verdict(out, pr->verdict, ro->color, true);
	fputc('\n', out);
	if (pr->base && pr->base->error && pr->base->status != NB_CMP_STATUS_OK)
		fprintf(out, "    base %s: %s\n", nb_cmp_status_name(pr->base->status), pr->base->error);
	if (pr->new && pr->new->error && pr->new->status != NB_CMP_STATUS_OK)
		fprintf(out, "    new %s: %s\n", nb_cmp_status_name(pr->new->status), pr->new->error);
	for (int i = 0; i < pr->n_metrics; i++) {
		const struct nb_cmp_metric_result *m = &pr->metrics[i];

		if (!text_shows(m, ro))
			continue;
		fprintf(out, "  %c %-24s %18s %18s %9s  ", m->gated ? '*' : ' ', m->name,
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new), nb_cmp_format_change(c, sizeof(c), m));
		put_verdict(out, m->verdict, ro->color, false);
		if (m->reason[0] && m->verdict != NB_CMP_UNCHANGED)
			fprintf(out, " (%s)", m->reason);
		fputc('\n', out);
	}
	if (pr->n_movers)
		fputs("    profile movers:", out);
	for (int i = 0; i < pr->n_movers; i++)
		fprintf(out, "%s %s %.1f%% -> %.1f%%", i ? "," : "", pr->movers[i].symbol, pr->movers[i].base_share_pct,
			pr->movers[i].new_share_pct);
	if (pr->n_movers)
		fputc('\n', out);
}

static void text_counts(FILE *out, const struct nb_cmp_result *r)
{
	bool first = true;

	fprintf(out, " (%d points:", r->n_points);
	for (int v = 0; v <= NB_CMP_CHANGED; v++) {
		if (!r->count[v])
			continue;
		fprintf(out, "%s %d %s", first ? "" : ",", r->count[v], nb_cmp_verdict_name((enum nb_cmp_verdict)v));
		first = false;
	}
	fputs(")\n", out);
}

int nb_cmp_render_text(FILE *out, const struct nb_cmp_result *r, const struct nb_cmp_render_opts *ro)
{
	const struct nb_cmp_options *opt = r->opt;

	fprintf(out, "nicbench compare\n  base: %s (kernel %s)\n  new:  %s (kernel %s)\n", r->base->path,
		r->base->kernel_release[0] ? r->base->kernel_release : "?", r->new->path,
		r->new->kernel_release[0] ? r->new->kernel_release : "?");
	fprintf(out, "  medians; a change counts when above the minimum effect (%g%%) and Mann-Whitney p <= %g "
		"with >= %d runs per side\n  gate (*): ", opt->min_effect_pct, opt->alpha, opt->min_runs);
	text_gate(out, opt);
	fputc('\n', out);
	for (int i = 0; i < r->n_env_diffs; i++)
		fprintf(out, "  environment differs: %s: %s -> %s\n", r->env_diffs[i].key,
			r->env_diffs[i].base ? r->env_diffs[i].base : "(absent)",
			r->env_diffs[i].new ? r->env_diffs[i].new : "(absent)");
	if (r->n_test_diffs)
		fprintf(out, "  environment differs: test settings of %d point(s), e.g. %s\n", r->n_test_diffs,
			r->test_diff_id);
	for (int i = 0; i < r->n_points; i++)
		text_point(out, &r->points[i], ro);
	fputs("\nverdict: ", out);
	if (ro->color)
		fputs(r->verdict == NB_CMP_REGRESSION ? "\033[1;31m" : r->verdict == NB_CMP_PASS ? "\033[32m" : "\033[33m",
		      out);
	fputs(nb_cmp_overall_name(r->verdict), out);
	if (ro->color)
		fputs("\033[0m", out);
	text_counts(out, r);
	return finish(out);
}

/* ---- JSON ---- */

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void json_number_or_null(FILE *out, bool present, double v)
{
	if (present && isfinite(v))
		fprintf(out, "%.10g", v);
	else
		fputs("null", out);
}

static void json_text_or_null(FILE *out, const char *s)
{
	if (s)
		json_string(out, s);
	else
		fputs("null", out);
}

static const char *direction_name(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher" : d == NB_CMP_LOWER_BETTER ? "lower" : "neutral";
}

static void json_metric(FILE *out, const struct nb_cmp_metric_result *m)
{
	json_string(out, m->name);
	fputs(":{\"base\":", out);
	json_number_or_null(out, m->has_base, m->base);
	fputs(",\"new\":", out);
	json_number_or_null(out, m->has_new, m->new);
	fputs(",\"change_pct\":", out);
	json_number_or_null(out, m->has_change, m->change_pct);
	fprintf(out, ",\"verdict\":\"%s\",\"direction\":\"%s\",\"gated\":%s,\"n_base\":%d,\"n_new\":%d",
		nb_cmp_verdict_name(m->verdict), direction_name(m->direction), m->gated ? "true" : "false", m->n_base,
		m->n_new);
	if (m->change_capped)
		fputs(",\"change_capped\":true", out);
	fputs(",\"p_value\":", out);
	json_number_or_null(out, m->has_p, m->p_value);
	fprintf(out, ",\"min_effect_pct\":%g", m->min_effect_pct);
	if (m->reason[0]) {
		fputs(",\"reason\":", out);
		json_string(out, m->reason);
	}
	fputc('}', out);
}

static void json_point(FILE *out, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *any = pr->base ? pr->base : pr->new;

	fputs("{\"id\":", out);
	json_string(out, pr->id);
	fprintf(out, ",\"verdict\":\"%s\",\"test\":", nb_cmp_verdict_name(pr->verdict));
	json_string(out, any->test_name);
	fputs(",\"base_status\":", out);
	json_text_or_null(out, pr->base ? nb_cmp_status_name(pr->base->status) : NULL);
	fputs(",\"new_status\":", out);
	json_text_or_null(out, pr->new ? nb_cmp_status_name(pr->new->status) : NULL);
	if (pr->base && pr->base->error) {
		fputs(",\"base_error\":", out);
		json_string(out, pr->base->error);
	}
	if (pr->new && pr->new->error) {
		fputs(",\"new_error\":", out);
		json_string(out, pr->new->error);
	}
	fputs(",\"metrics\":{", out);
	for (int i = 0; i < pr->n_metrics; i++) {
		if (i)
			fputc(',', out);
		json_metric(out, &pr->metrics[i]);
	}
	fputc('}', out);
	if (pr->n_movers) {
		fputs(",\"profile_movers\":[", out);
		for (int i = 0; i < pr->n_movers; i++) {
			fputs(i ? ",{\"symbol\":" : "{\"symbol\":", out);
			json_string(out, pr->movers[i].symbol);
			fprintf(out, ",\"base_share_pct\":%.10g,\"new_share_pct\":%.10g}", pr->movers[i].base_share_pct,
				pr->movers[i].new_share_pct);
		}
		fputc(']', out);
	}
	fputc('}', out);
}

static void json_report_ref(FILE *out, const char *key, const struct nb_cmp_report *rep)
{
	fprintf(out, "\"%s\":{\"path\":", key);
	json_string(out, rep->path);
	fputs(",\"kernel\":", out);
	json_string(out, rep->kernel_release);
	fputs(",\"created\":", out);
	json_string(out, rep->created);
	fputc('}', out);
}

static void json_env(FILE *out, const struct nb_cmp_result *r)
{
	fputs(",\"environment_differences\":[", out);
	for (int i = 0; i < r->n_env_diffs; i++) {
		fputs(i ? ",{\"key\":" : "{\"key\":", out);
		json_string(out, r->env_diffs[i].key);
		/* The values are JSON texts already: embed them as they are. */
		fprintf(out, ",\"base\":%s,\"new\":%s}", r->env_diffs[i].base ? r->env_diffs[i].base : "null",
			r->env_diffs[i].new ? r->env_diffs[i].new : "null");
	}
	if (r->n_test_diffs) {
		fputs(r->n_env_diffs ? ",{\"key\":\"results[].test\",\"points\":" : "{\"key\":\"results[].test\",\"points\":",
		      out);
		fprintf(out, "%d,\"example\":", r->n_test_diffs);
		json_string(out, r->test_diff_id);
		fputc('}', out);
	}
	fputc(']', out);
}

int nb_cmp_render_json(FILE *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;

	fprintf(out, "{\"schema\":\"%s\",\"verdict\":\"%s\",", NB_CMP_SCHEMA, nb_cmp_overall_name(r->verdict));
	json_report_ref(out, "base", r->base);
	fputc(',', out);
	json_report_ref(out, "new", r->new);
	fprintf(out, ",\"settings\":{\"method\":\"mann-whitney-u\",\"alpha\":%g,\"min_effect_pct\":%g,"
		"\"min_runs\":%d,\"change_cap_pct\":%g,\"gate\":\"", opt->alpha, opt->min_effect_pct, opt->min_runs,
		opt->change_cap_pct);
	text_gate(out, opt); /* metric names and globs: no characters that need escaping in practice */
	fputs("\"}", out);
	json_env(out, r);
	fputs(",\"points\":[", out);
	for (int i = 0; i < r->n_points; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_point(out, &r->points[i]);
	}
	fputs("\n]}\n", out);
	return finish(out);
}

/* ---- JUnit ---- */

static void xml_text(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			/* XML 1.0 forbids most control characters even as references. */
			fputc(*p < 0x20 && *p != '\t' && *p != '\n' ? ' ' : *p, out);
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

static void junit_status_case(FILE *out, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *failed = pr->new && pr->new->status != NB_CMP_STATUS_OK ? pr->new : pr->base;

	fputs("    <testcase classname=\"", out);
	xml_text(out, pr->id);
	fprintf(out, "\" name=\"status\">");
	if (pr->verdict == NB_CMP_BROKEN) {
		fputs("\n      <failure type=\"broken\" message=\"ok in base, ", out);
		xml_text(out, nb_cmp_status_name(pr->new->status));
		fputs(" in new: ", out);
		xml_text(out, pr->new->error ? pr->new->error : "no error text");
		fputs("\"/>\n    ", out);
	} else if (pr->verdict == NB_CMP_MISSING || pr->verdict == NB_CMP_INCONCLUSIVE) {
		fputs("\n      <skipped message=\"", out);
		xml_text(out, pr->verdict == NB_CMP_MISSING ? "point missing from the new report" : "");
		if (pr->verdict == NB_CMP_INCONCLUSIVE && failed && failed->error)
			xml_text(out, failed->error);
		fputs("\"/>\n    ", out);
	}
	fputs("</testcase>\n", out);
}

static void junit_metric_case(FILE *out, const struct nb_cmp_point_result *pr, const struct nb_cmp_metric_result *m)
{
	char b[32], n[32], c[24];

	fputs("    <testcase classname=\"", out);
	xml_text(out, pr->id);
	fputs("\" name=\"", out);
	xml_text(out, m->name);
	fputs("\">", out);
	if (m->verdict == NB_CMP_REGRESSED || m->verdict == NB_CMP_INCONCLUSIVE || m->verdict == NB_CMP_MISSING) {
		bool fail = m->verdict == NB_CMP_REGRESSED;

		fprintf(out, "\n      <%s %smessage=\"", fail ? "failure" : "skipped", fail ? "type=\"regression\" " : "");
		fprintf(out, "%s: %s (base %s, new %s)", nb_cmp_verdict_name(m->verdict), nb_cmp_format_change(c, sizeof(c), m),
			format_value(b, sizeof(b), m->name, m->has_base, m->base),
			format_value(n, sizeof(n), m->name, m->has_new, m->new));
		if (m->reason[0]) {
			fputs(": ", out);
			xml_text(out, m->reason);
		}
		fputs("\"/>\n    ", out);
	}
	fputs("</testcase>\n", out);
}

int nb_cmp_render_junit(FILE *out, const struct nb_cmp_result *r)
{
	struct junit_counts c;

	junit_count(r, &c);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"nicbench compare\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", c.tests,
		c.failures, c.skipped);
	fputs("  <testsuite name=\"nicbench compare ", out);
	xml_text(out, r->base->kernel_release);
	fputs(" -&gt; ", out);
	xml_text(out, r->new->kernel_release);
	fprintf(out, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", c.tests, c.failures, c.skipped);
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		if (status_only(pr->verdict) || (pr->base && pr->new && pr->base->status != NB_CMP_STATUS_OK)) {
			junit_status_case(out, pr);
			continue;
		}
		for (int j = 0; j < pr->n_metrics; j++) {
			if (pr->metrics[j].gated)
				junit_metric_case(out, pr, &pr->metrics[j]);
		}
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return finish(out);
}

/* ---- Markdown ---- */

/* "tcp-rx" -> "TCP RX"; with the knobs when several points share a test. */
static void md_label(FILE *out, const struct nb_cmp_result *r, const struct nb_cmp_point_result *pr)
{
	const struct nb_cmp_point *p = pr->base ? pr->base : pr->new;
	int same_test = 0;

	for (const char *s = p->test_name[0] ? p->test_name : p->id; *s; s++)
		fputc(*s == '-' ? ' ' : toupper((unsigned char)*s), out);
	for (int i = 0; i < r->n_points && p->test_name[0]; i++) {
		const struct nb_cmp_point *q = r->points[i].base ? r->points[i].base : r->points[i].new;

		same_test += !strcmp(q->test_name, p->test_name);
	}
	if (same_test > 1)
		fprintf(out, " (%s)", p->knobs[0] ? p->knobs : p->id);
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
static bool md_phrase(FILE *out, const struct nb_cmp_point_result *pr, const char *metric, const char *what,
		      bool first)
{
	const struct nb_cmp_metric_result *m = find_result(pr, metric);

	if (!m || !m->has_change)
		return false;
	fputs(first ? "" : ", ", out);
	if (m->verdict == NB_CMP_UNCHANGED)
		fprintf(out, "similar %s", what);
	else if (m->change_capped && m->change_pct > 0)
		fprintf(out, ">%.0f%% %s", m->change_pct, what);
	else
		fprintf(out, "%+.0f%% %s", m->change_pct, what);
	if (m->verdict == NB_CMP_INCONCLUSIVE)
		fputs(" (inconclusive)", out);
	return true;
}

static void md_point(FILE *out, const struct nb_cmp_result *r, const struct nb_cmp_point_result *pr)
{
	char v[32];
	const struct nb_cmp_metric_result *thr = find_result(pr, "throughput_bps");
	bool any;

	fputs("- ", out);
	md_label(out, r, pr);
	fputs(": ", out);
	switch (pr->verdict) {
	case NB_CMP_FIXED:
	case NB_CMP_BROKEN: {
		const struct nb_cmp_point *bad = pr->verdict == NB_CMP_FIXED ? pr->base : pr->new;

		fprintf(out, "%s (%s %s", nb_cmp_verdict_name(pr->verdict), pr->verdict == NB_CMP_FIXED ? "base" : "new",
			nb_cmp_status_name(bad->status));
		if (bad->error)
			fprintf(out, ": %s", bad->error);
		fputc(')', out);
		if (pr->verdict == NB_CMP_FIXED && thr && thr->has_new)
			fprintf(out, ", now %s", format_value(v, sizeof(v), thr->name, true, thr->new));
		fputc('\n', out);
		return;
	}
	case NB_CMP_NEW:
	case NB_CMP_MISSING:
		fprintf(out, "%s\n", pr->verdict == NB_CMP_NEW ? "only in the new report" : "missing from the new report");
		return;
	default:
		break;
	}
	any = md_phrase(out, pr, "throughput_bps", "bandwidth", true);
	any |= md_phrase(out, pr, "cpu_busy_pct", "CPU", !any);
	{
		const struct nb_cmp_metric_result *eff = find_result(pr, NB_CMP_EFFICIENCY_METRIC);

		if (eff && (eff->verdict == NB_CMP_IMPROVED || eff->verdict == NB_CMP_REGRESSED))
			any |= md_phrase(out, pr, NB_CMP_EFFICIENCY_METRIC, "bandwidth per CPU", !any);
	}
	fputs(any ? "\n" : "no comparable metrics\n", out);
}

int nb_cmp_render_markdown(FILE *out, const struct nb_cmp_result *r)
{
	const struct nb_cmp_options *opt = r->opt;

	fprintf(out, "Performance, %s -> %s (nicbench compare: **%s**):\n\n",
		r->base->kernel_release[0] ? r->base->kernel_release : r->base->path,
		r->new->kernel_release[0] ? r->new->kernel_release : r->new->path, nb_cmp_overall_name(r->verdict));
	for (int i = 0; i < r->n_points; i++)
		md_point(out, r, &r->points[i]);
	fprintf(out, "\nMedians of the runs on each side; \"similar\" is within %g%%, \"inconclusive\" is a larger change "
		"that the runs do not support (Mann-Whitney U, p > %g, or fewer than %d runs).\n", opt->min_effect_pct,
		opt->alpha, opt->min_runs);
	return finish(out);
}
