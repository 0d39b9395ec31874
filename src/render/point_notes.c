// SPDX-License-Identifier: MIT
/* The lines under a point's row that explain it: where its interrupts went, where the traffic
 * ran, what the page_pool and the driver's own counters did, what the kernel logged. Each line is
 * there only when the report measured it, so older reports read as before. */
#include "render/point_notes.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/metric_table.h"
#include "kit/nb_print.h"
#include "kit/nic_names.h"

struct notes {
	char (*line)[NB_NOTE_LINE_MAX];
	int n, max;
};

static bool median_of(const struct nb_cmp_point *p, const char *name, double *v)
{
	const struct nb_cmp_samples *s = nb_cmp_point_metric(p, name);

	if (!s || s->n <= 0 || !isfinite(s->median))
		return false;
	*v = s->median;
	return true;
}

/* 12345 -> "12.3k", 950 -> "950" */
static const char *count_text(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

/* The next free line, empty, or NULL when all are taken; done_line keeps it unless it stayed empty. */
static char *open_line(struct notes *nt)
{
	if (nt->n == nt->max)
		return NULL;
	nt->line[nt->n][0] = '\0';
	return nt->line[nt->n];
}

static void done_line(struct notes *nt)
{
	if (nt->line[nt->n][0])
		nt->n++;
}

/* The metrics of the family PATTERN ("cpu{N}_..."), in the report's order: "; by WHAT: LABEL<N> value, ..." */
static void by_number(char *buf, const struct nb_cmp_point *p, const char *pattern, const char *what,
		      const char *label)
{
	char num[24];
	int n = 0, number;

	for (int i = 0; i < p->n_metrics; i++) {
		if (p->metrics[i].n <= 0 || !nb_metric_name_number(pattern, p->metrics[i].name, &number))
			continue;
		if (n++ == 0)
			nb_appendf(buf, NB_NOTE_LINE_MAX, "%sby %s:", buf[0] ? "; " : "NIC IRQs/s ", what);
		else
			nb_appendf(buf, NB_NOTE_LINE_MAX, ",");
		nb_appendf(buf, NB_NOTE_LINE_MAX, " %s%d %s", label, number,
			   count_text(num, sizeof(num), p->metrics[i].median));
	}
}

/* "NIC IRQs/s by role: rx 12.1k, tx 3.2k; by CPU: cpu0 12.1k, cpu1 3.2k; by IRQ: 24 12.1k, 25 3.2k" */
static void irq_line(struct notes *nt, const struct nb_cmp_point *p)
{
	char *buf = open_line(nt), num[24], name[40];
	double v;

	if (!buf)
		return;
	for (int k = 0; k < NB_IRQ_ROLES; k++) {
		const char *role = nb_irq_role_name(nb_irq_role_shown(k));

		snprintf(name, sizeof(name), NB_M_IRQ_ROLE_PREFIX "%s" NB_M_IRQ_ROLE_SUFFIX, role);
		if (median_of(p, name, &v))
			nb_appendf(buf, NB_NOTE_LINE_MAX, "%s%s %s", buf[0] ? ", " : "NIC IRQs/s by role: ", role,
				count_text(num, sizeof(num), v));
	}
	by_number(buf, p, NB_M_CPU_N_INTERRUPTS_PER_S, "CPU", "cpu");
	by_number(buf, p, NB_M_IRQ_N_PER_S, "IRQ", "");
	done_line(nt);
}

/* "traffic process on CPU 1; irqbalance ran; 2 IRQs moved during the window" */
static void placement_line(struct notes *nt, const struct nb_cmp_point *p)
{
	char *buf = open_line(nt);
	double open, close, v;

	if (!buf)
		return;
	if (median_of(p, NB_M_TRAFFIC_CPU_OPEN, &open) && median_of(p, NB_M_TRAFFIC_CPU_CLOSE, &close)) {
		if (open == close)
			nb_appendf(buf, NB_NOTE_LINE_MAX, "traffic process on CPU %.0f", open);
		else
			nb_appendf(buf, NB_NOTE_LINE_MAX, "traffic process on CPU %.0f at the start, %.0f at the end", open, close);
	}
	if (median_of(p, NB_M_IRQBALANCE_RUNNING, &v) && v > 0)
		nb_appendf(buf, NB_NOTE_LINE_MAX, "%sirqbalance ran (it may move the IRQs)", buf[0] ? "; " : "");
	if (median_of(p, NB_M_IRQ_AFFINITY_MOVED, &v) && v > 0)
		nb_appendf(buf, NB_NOTE_LINE_MAX, "%s%.0f IRQ%s moved during the window, not by nicbench",
			   buf[0] ? "; " : "", v, v == 1 ? "" : "s");
	done_line(nt);
}

/* "page_pool a run: recycled 98.5%; alloc fast 1.2M, slow 120; recycle cached 1.1M, ring 90.0k" */
static void page_pool_line(struct notes *nt, const struct nb_cmp_point *p)
{
	/* the counters the list gives a label, in its order */
#define PP_SHOWN_(e, name, eth, unit, dir, doc, label) { NB_M_PP_PREFIX #name, label },
	static const struct { const char *metric, *label; } shown[] = { NB_PP_COUNTER_LIST(PP_SHOWN_) };
#undef PP_SHOWN_
	char *buf = open_line(nt), num[24];
	double v;
	bool any = false;

	if (!buf)
		return;
	if (median_of(p, NB_M_PP_RECYCLE_PCT, &v))
		nb_appendf(buf, NB_NOTE_LINE_MAX, "page_pool (median a run): recycled %.1f%%", v), any = true;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		if (!shown[i].label || !median_of(p, shown[i].metric, &v))
			continue;
		nb_appendf(buf, NB_NOTE_LINE_MAX, "%s%s %s", any ? ", " : "page_pool (median a run): ", shown[i].label,
			count_text(num, sizeof(num), v));
		any = true;
	}
	if (median_of(p, NB_M_PP_INFLIGHT_PAGES, &v))
		nb_appendf(buf, NB_NOTE_LINE_MAX, "%s%s pages in flight at the end", any ? ", " : "page_pool: ",
			count_text(num, sizeof(num), v));
	done_line(nt);
}

/* page_pool from its tracepoints (no netlink or ethtool counters): the diagnostic repetition's pages
 * taken from and given back to the page allocator, and the recycling that implies. */
static bool page_pool_trace_line(struct notes *nt, const struct nb_cmp_point *p)
{
	char *buf, a[24], r[24], d[24];
	double alloc, rel, inflight = 0, pools = 0, pct;

	if (!median_of(p, NB_M_PP_TRACE_ALLOC_PAGES, &alloc) || !median_of(p, NB_M_PP_TRACE_RELEASE_PAGES, &rel) ||
	    !(buf = open_line(nt)))
		return false;
	median_of(p, NB_M_PP_TRACE_INFLIGHT_CHANGE, &inflight);
	median_of(p, NB_M_PP_TRACE_POOLS, &pools);
	nb_appendf(buf, NB_NOTE_LINE_MAX,
		   "page_pool (tracepoints, diagnostic repetition, %.0f pool%s of the machine): %s pages taken from the "
		   "page allocator, %s given back, in flight %s%s",
		   pools, pools == 1 ? "" : "s", count_text(a, sizeof(a), alloc), count_text(r, sizeof(r), rel),
		   inflight >= 0 ? "+" : "", count_text(d, sizeof(d), inflight));
	if (median_of(p, NB_M_PP_TRACE_RECYCLE_PCT, &pct))
		nb_appendf(buf, NB_NOTE_LINE_MAX, "; recycled %.1f%% of the packets polled (implied, a page a packet)",
			   pct);
	done_line(nt);
	return true;
}

/* Did any run measure a page_pool metric: a counter of the list, the pools' totals or a tracepoint's? */
static bool has_pp_counters(const struct nb_cmp_point *p)
{
#define PP_METRIC_(e, name, eth, unit, dir, doc, label) NB_M_PP_PREFIX #name,
	static const char *const names[] = { NB_PP_COUNTER_LIST(PP_METRIC_) NB_M_PP_INFLIGHT_PAGES, NB_M_PP_RECYCLE_PCT,
					     NB_M_PP_TRACE_ALLOC_PAGES, NB_M_PP_TRACE_RELEASE_PAGES,
					     NB_M_PP_TRACE_INFLIGHT_CHANGE, NB_M_PP_TRACE_POOLS, NB_M_PP_TRACE_RECYCLE_PCT };
#undef PP_METRIC_

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct nb_cmp_samples *s = nb_cmp_point_metric(p, names[i]);

		if (s && s->n > 0)
			return true;
	}
	return false;
}

int nb_render_point_notes(const struct nb_cmp_point *p, const struct nb_rv_series *x,
			  char (*lines)[NB_NOTE_LINE_MAX], int max)
{
	struct notes nt = { .line = lines, .max = max };
	char *l;

	if (x && x->mtu && (l = open_line(&nt))) {
		snprintf(l, NB_NOTE_LINE_MAX, "%s", x->mtu);
		done_line(&nt);
	}
	irq_line(&nt, p);
	placement_line(&nt, p);
	page_pool_line(&nt, p);
	if (!page_pool_trace_line(&nt, p) && !has_pp_counters(p) && x && x->pp_why && (l = open_line(&nt))) {
		snprintf(l, NB_NOTE_LINE_MAX, "page_pool: not measured (%s)", x->pp_why);
		done_line(&nt);
	}
	if (x && x->driver_counters && (l = open_line(&nt))) {
		snprintf(l, NB_NOTE_LINE_MAX, "driver counters that moved (ethtool -S, run %d): %s", x->counters_run,
			 x->driver_counters);
		done_line(&nt);
	}
	if (x && x->kernel_log_lines > 0 && (l = open_line(&nt))) {
		snprintf(l, NB_NOTE_LINE_MAX, "kernel log: %d line%s during the point, first: %s", x->kernel_log_lines,
			 x->kernel_log_lines == 1 ? "" : "s", x->kernel_log_first ? x->kernel_log_first : "");
		done_line(&nt);
	}
	/* the flame graph's input: the HTML report draws it, flamegraph.pl and speedscope read it too */
	if (p->stacks_file && (l = open_line(&nt))) {
		snprintf(l, NB_NOTE_LINE_MAX, "kernel stacks (folded, for a flame graph): %s", p->stacks_file);
		done_line(&nt);
	}
	return nt.n;
}
