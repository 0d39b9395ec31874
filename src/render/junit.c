// SPDX-License-Identifier: MIT
/* JUnit XML: one testcase per point and gated metric, so CI pages show compare's verdicts. */
#include <string.h>

#include "render/common.h"

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
			nb_render_value(b, sizeof(b), m->name, m->has_base, m->base),
			nb_render_value(n, sizeof(n), m->name, m->has_new, m->new));
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
