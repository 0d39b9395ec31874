// SPDX-License-Identifier: MIT
/* nicbench history analyze as text: the report a maintainer reads (0-day's "noticed a X% regression",
 * then one %stddev %change %stddev table of the point), and the format table of the command. */
#include <math.h>
#include <string.h>

#include "render/common.h"
#include "render/history_render.h"

nb_hist_render_fn nb_hist_render_format(const char *name)
{
	static const struct {
		const char *name;
		nb_hist_render_fn fn;
	} formats[] = {
		{ "text", nb_hist_render_text },   { "json", nb_hist_render_json }, { "junit", nb_hist_render_junit },
		{ "kcidb", nb_hist_render_kcidb }, { "html", nb_hist_render_html },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(formats[i].name, name))
			return formats[i].fn;
	}
	return NULL;
}

static void print_change_head(struct nb_print *out, const struct nb_hist_series *s, const struct nb_hist_change *c,
			      double ci_alpha)
{
	nb_print_fmt(out, "nicbench noticed a %.1f%% %s of %s at %s on commit %s", fabs(c->change_pct),
		     nb_hist_kind_name(c->kind), s->metric, s->point, c->bad);
	nb_print_fmt(out, " (board %s)\n", s->board);
	nb_print_fmt(out, "  last good %s, first bad %s: %+.1f%%", c->good, c->bad, c->change_pct);
	if (c->has_ci)
		nb_print_fmt(out, " (%.0f%% interval %+.1f%% .. %+.1f%%)", 100 * (1 - ci_alpha), c->ci_lo_pct, c->ci_hi_pct);
	nb_print_fmt(out, ", p %.3g, %s\n", c->p_value, c->gated ? "gated" : "not gated");
}

static void print_still(struct nb_print *out, const struct nb_hist_change *c)
{
	if (!strcmp(c->bad, c->newest))
		nb_print_fmt(out, "  the newest commit is %s itself: still regressed\n", c->bad);
	else if (c->still)
		nb_print_fmt(out, "  still regressed at the newest commit %s: %+.1f%% against before %s\n", c->newest,
			     c->newest_pct, c->bad);
	else
		nb_print_fmt(out, "  no longer regressed at the newest commit %s: %+.1f%% against before %s\n", c->newest,
			     c->newest_pct, c->bad);
}

/* One value as 0-day prints it, in the metric's unit, right-aligned. */
static void print_cell(struct nb_print *out, const char *metric, bool present, double v, double sd_pct)
{
	char buf[48], cell[64];

	nb_render_value(buf, sizeof(buf), metric, present, v);
	if (present)
		snprintf(cell, sizeof(cell), "%s \xc2\xb1%3.0f%%", buf, sd_pct);
	else
		snprintf(cell, sizeof(cell), "%s", buf);
	nb_print_pad(out, cell, 20);
}

static void print_table(struct nb_print *out, const struct nb_hist_series *s, const struct nb_hist_change *c)
{
	char before[160], after[160];

	snprintf(before, sizeof(before), "%s..%s", c->first, c->good);
	snprintf(after, sizeof(after), "%s..%s", c->bad, c->last);
	nb_print_fmt(out, "\n  %20s  %10s  %20s\n", before, "", after);
	nb_print_fmt(out, "  %20s  %10s  %20s\n", "----------------", "", "----------------");
	nb_print_fmt(out, "  %20s  %10s  %20s\n", "%stddev", "%change", "%stddev");
	int zero = 0;

	for (int i = 0; i < c->n_rows; i++) {
		const struct nb_hist_row *row = &c->rows[i];
		char change[24];

		/* a counter that stayed at 0 on both sides says nothing: counted, not shown */
		if (row->before == 0 && row->after == 0 && row->before_sd_pct == 0 && row->after_sd_pct == 0) {
			zero++;
			continue;
		}
		nb_print_puts(out, "  ");
		print_cell(out, row->metric, row->n_before > 0, row->before, row->before_sd_pct);
		if (row->has_change)
			snprintf(change, sizeof(change), "%+.1f%%", row->change_pct);
		else
			snprintf(change, sizeof(change), "-");
		nb_print_fmt(out, "  %10s  ", change);
		print_cell(out, row->metric, row->n_after > 0, row->after, row->after_sd_pct);
		nb_print_fmt(out, "  %s%s\n", row->metric, !strcmp(row->metric, s->metric) ? "  <-" : "");
	}
	if (zero)
		nb_print_fmt(out, "  (%d more metric%s at 0 on both sides)\n", zero, zero == 1 ? "" : "s");
	if (c->n_movers) {
		nb_print_puts(out, "\n  profile movers (share of busy samples, mean over each side's reports):\n");
		for (int i = 0; i < c->n_movers; i++)
			nb_print_fmt(out, "  %+6.1f pts  %5.1f%% -> %5.1f%%  %s\n", c->movers[i].after_pct - c->movers[i].before_pct,
				     c->movers[i].before_pct, c->movers[i].after_pct, c->movers[i].symbol);
	}
}

/* The command of nicbench bisect (GOOD CANDIDATE... BAD, oldest first) that would settle the range. */
static void print_bisect(struct nb_print *out, const struct nb_hist_change *c, const struct nb_hist_render_opts *ro)
{
	char between[2048] = "";
	int range = ro->range_commits ? ro->range_commits(c->good, c->bad, between, sizeof(between), ro->range_arg) : 0;
	const char *hook = ro->boot_hook ? ro->boot_hook : "HOOK";

	if (range == 1) {
		nb_print_fmt(out, "\n  %s..%s is one commit: %s is the culprit\n", c->good, c->bad, c->bad);
		return;
	}
	if (range > 1)
		nb_print_fmt(out, "\n  %s..%s holds %d commits; to settle which one:\n", c->good, c->bad, range);
	else
		nb_print_fmt(out, "\n  if %s..%s holds more than one commit, to settle which one:\n", c->good, c->bad);
	nb_print_fmt(out, "    nicbench bisect --boot %s --work bisect-%s %s %s %s\n", hook, c->bad, c->good,
		     *between ? between : "CANDIDATE...", c->bad);
}

int nb_hist_render_text(FILE *file, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro)
{
	const struct nb_hist_options *o = r->opt;
	struct nb_print out;
	int shown = 0, others = 0;

	nb_print_init(&out, file, NB_PRINT_PLAIN);
	nb_print_fmt(&out, "nicbench history: %d reports, %d board%s, %d commits, %d series\n", r->n_reports,
		     r->n_boards, r->n_boards == 1 ? "" : "s", r->n_commits, r->n_series);
	nb_print_fmt(&out, "change points: %s permutation test over %s (%d, alpha %g) of the runs' ranks, min segment %d, "
		     "edge buffer %d, min effect %g%% and the metric's floor; gate ",
		     o->cp.test == NB_CP_TEST_T ? "largest-t" : "E-Divisive energy", o->unit_report ? "reports" : "commits",
		     o->cp.permutations, o->cp.alpha, o->cp.min_segment, o->cp.edge_buffer, o->cmp.min_effect_pct);
	nb_render_gate(&out, &o->cmp);
	nb_print_puts(&out, "\n");
	for (int i = 0; i < r->n_series; i++) {
		const struct nb_hist_series *s = &r->series[i];

		for (int j = 0; j < s->n_changes; j++) {
			const struct nb_hist_change *c = &s->changes[j];

			if (c->kind != NB_HIST_REGRESSION || (!c->gated && !ro->all)) {
				others++;
				continue;
			}
			nb_print_puts(&out, "\n");
			print_change_head(&out, s, c, o->ci_alpha);
			print_still(&out, c);
			print_table(&out, s, c);
			print_bisect(&out, c, ro);
			shown++;
			nb_print_drain(&out);
		}
	}
	if (others) {
		nb_print_fmt(&out, "\nother change points (%d):\n", others);
		for (int i = 0; i < r->n_series; i++) {
			const struct nb_hist_series *s = &r->series[i];

			for (int j = 0; j < s->n_changes; j++) {
				const struct nb_hist_change *c = &s->changes[j];

				if (c->kind == NB_HIST_REGRESSION && (c->gated || ro->all))
					continue;
				nb_print_fmt(&out, "  %-11s %+6.1f%%  %s at %s (board %s), %s..%s%s\n", nb_hist_kind_name(c->kind),
					     c->change_pct, s->metric, s->point, s->board, c->good, c->bad,
					     c->kind == NB_HIST_REGRESSION ? (c->still ? ", still holds" : ", no longer holds") : "");
			}
		}
	}
	if (!shown && !others)
		nb_print_puts(&out, "\nno change point in any series\n");
	nb_print_fmt(&out, "\n%s: %d gated regression%s still hold%s at the newest commit\n",
		     r->n_regressions ? "FAIL" : "PASS", r->n_regressions, r->n_regressions == 1 ? "" : "s",
		     r->n_regressions == 1 ? "s" : "");
	return nb_print_finish(&out);
}
