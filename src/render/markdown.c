// SPDX-License-Identifier: MIT
/* `nicbench report` as text and Markdown: points with their bottleneck, the setting to choose, and the compare view. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/view.h"

static const char *env_value(const struct nb_rv_extra *x, const char *key)
{
	for (int i = 0; x && i < x->n_env; i++)
		if (!strcmp(x->env[i].key, key))
			return x->env[i].value;
	return NULL;
}

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* Text in Markdown: '|' would end a table cell, and HTML in a report's strings must stay text. */
static void md_text(FILE *out, const char *s)
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

static void md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	md_text(out, s);
	fputc(' ', out);
}

/* A string in text or Markdown output. */
static void put_text(FILE *out, const char *s, bool md)
{
	if (md)
		md_text(out, s);
	else
		fputs(s, out);
}

static void fmt_tput(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, "throughput_bps");

	if (!s || s->n <= 0)
		snprintf(buf, len, "-");
	else
		nb_rv_bps(buf, len, s->median);
}

static void fmt_range(char *buf, size_t len, const struct nb_cmp_point *p)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, "throughput_bps");
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
	nb_rv_bps(a, sizeof(a), lo);
	nb_rv_bps(b, sizeof(b), hi);
	snprintf(buf, len, "%s .. %s", a, b);
}

static void fmt_metric(char *buf, size_t len, const struct nb_cmp_point *p, const char *name)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, name);

	if (!s || s->n <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", s->median);
}

static void fmt_eff(char *buf, size_t len, const struct nb_cmp_report *rep, const struct nb_cmp_point *p)
{
	double e;

	if (!nb_rv_efficiency(rep, p, &e))
		snprintf(buf, len, "-");
	else
		nb_rv_bps(buf, len, e);
}

static void text_header(FILE *out, const struct nb_rv_input *in)
{
	const struct nb_cmp_report *rep = in->rep;

	fprintf(out, "nicbench report %s: kernel %s", rep->path ? rep->path : "-", or_dash(rep->kernel_release));
	if (in->extra)
		fprintf(out, ", %s (%s) on %s, peer %s", or_dash(env_value(in->extra, "interface")),
			or_dash(env_value(in->extra, "driver")), or_dash(env_value(in->extra, "host")),
			or_dash(env_value(in->extra, "peer")));
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

static void text_points(FILE *out, const struct nb_cmp_report *rep)
{
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
		fmt_tput(tput, sizeof(tput), p);
		fmt_range(range, sizeof(range), p);
		fmt_metric(busy, sizeof(busy), p, "cpu_busy_pct");
		fmt_eff(eff, sizeof(eff), rep, p);
		fprintf(out, "%-*s  %12s  %28s  %6s  %12s  %-13s  %s\n", idw, p->id, tput, range, busy, eff,
			nb_bn_code_name(bn.code), nb_cmp_status_name(p->status));
		fprintf(out, "%-*s    %s\n", idw, "", bn.sentence);
	}
}

/* The choice in words, shared by text and Markdown: "SETTING: tcp-tx +3.0%, ... (worst: udp-tx -24.0%)". */
static void choice_line(FILE *out, const struct nb_rv_choice *c, bool md)
{
	put_text(out, c->best, md);
	fputs(" against ", out);
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

static void text_choice(FILE *out, const struct nb_cmp_report *rep, bool md)
{
	struct nb_rv_choice c;

	nb_rv_choose(rep, &c);
	fprintf(out, md ? "\n## Which setting to choose\n\n" : "\nwhich setting to choose\n");
	for (int t = 0; t < c.n_tests; t++) {
		const struct nb_rv_test_front *f = &c.tests[t];
		int shown = 0;

		fprintf(out, md ? "- **%s**: Pareto front of throughput, bits per CPU-second%s:" : "  %s: Pareto front of throughput, bits per CPU-second%s:",
			f->test, f->has_p99 ? " and p99 latency" : "");
		for (int i = 0; i < f->n_points; i++) {
			char tput[64];

			if (!f->on_front[i])
				continue;
			nb_rv_front_figures(tput, sizeof(tput), f->points[i]);
			fprintf(out, "%s ", shown++ ? "," : "");
			put_text(out, nb_rv_setting(f->points[i]), md);
			fprintf(out, " (%s)", tput);
		}
		fprintf(out, "%s\n", shown ? "" : " none (no throughput measured)");
	}
	if (c.best) {
		fprintf(out, md ? "\n**Best across tests** (geometric mean of throughput): " : "  best across tests (geometric mean of throughput): ");
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

int nb_rv_render_text(FILE *out, const struct nb_rv_input *in)
{
	text_header(out, in);
	text_points(out, in->rep);
	text_choice(out, in->rep, false);
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



int nb_rv_render_markdown(FILE *out, const struct nb_rv_input *in)
{
	const struct nb_cmp_report *rep = in->rep;

	fprintf(out, "# nicbench report: kernel %s\n\n", or_dash(rep->kernel_release));
	if (in->extra) {
		fprintf(out, "| | |\n|---|---|\n");
		for (int i = 0; i < in->extra->n_env; i++) {
			md_cell(out, in->extra->env[i].key);
			md_cell(out, in->extra->env[i].value);
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
		fmt_tput(tput, sizeof(tput), p);
		fmt_range(range, sizeof(range), p);
		fmt_metric(busy, sizeof(busy), p, "cpu_busy_pct");
		fmt_eff(eff, sizeof(eff), rep, p);
		snprintf(bnt, sizeof(bnt), "%s: %s", nb_bn_code_name(bn.code), bn.sentence);
		md_cell(out, p->id);
		md_cell(out, p->status == NB_CMP_STATUS_OK ? tput : nb_cmp_status_name(p->status));
		md_cell(out, range);
		md_cell(out, busy);
		md_cell(out, eff);
		md_cell(out, bnt);
		fputs("|\n", out);
	}
	text_choice(out, rep, true);
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
