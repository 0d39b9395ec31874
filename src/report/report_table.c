// SPDX-License-Identifier: MIT
/* The table after a run, one line per point, from each point's summary: throughput, spread,
 * CPU shares, bottleneck, status and its flags; the rr points again with their latency. */
#include <math.h>
#include <string.h>

#include "result/bottleneck.h"
#include "kit/metric_table.h"
#include "report/report_internal.h"

/* Above this, the table warns that busy % is a lower bound (see cpu_unaccounted_pct). */
#define NB_UNACCOUNTED_NOTE_PCT 5.0
/* From this median steal_pct on, the table says the VM's host took a share worth knowing. */
#define NB_STEAL_NOTE_PCT 5.0

static double median_or_nan(const struct nb_point_summary *s, const char *name)
{
	const struct nb_metric_summary *m = nb_point_summary_get(s, name);

	return m ? m->st.median : NAN;
}

void nb_table_row_fill(struct nb_table_row *row, const struct nb_point_result *pr, const struct nb_point_summary *s)
{
	const struct nb_metric_summary *tput = nb_point_summary_get(s, NB_M_THROUGHPUT_BPS);

	memset(row, 0, sizeof(*row));
	snprintf(row->id, sizeof(row->id), "%s", pr->point->id);
	row->status = pr->status;
	row->rr = pr->point->test->dir == NB_DIR_RR;
	row->nnotes = pr->nnotes;
	if (pr->nnotes > 0)
		memcpy(row->first_note, pr->notes[0], sizeof(row->first_note));
	row->peer_bound = s->peer_bound;
	row->sender_bound = s->sender_bound;
	row->disturbed_runs = s->disturbed_runs;
	row->ok_runs = s->ok_runs;
	row->other = s->other_pct;
	if (tput)
		row->tput = tput->st;
	row->busy = median_or_nan(s, NB_M_CPU_BUSY_PCT);
	row->softirq = median_or_nan(s, NB_M_SOFTIRQ_PCT);
	row->napi = median_or_nan(s, NB_M_NAPI_THREAD_PCT);
	row->unaccounted = median_or_nan(s, "cpu_unaccounted_pct");
	row->steal = median_or_nan(s, NB_M_STEAL_PCT);
	row->rr_tps = median_or_nan(s, NB_M_RR_TRANSACTIONS_PER_S);
	row->rr_p50 = median_or_nan(s, NB_M_RR_LATENCY_P50_US);
	row->rr_p90 = median_or_nan(s, "rr_latency_p90_us");
	row->rr_p99 = median_or_nan(s, NB_M_RR_LATENCY_P99_US);
	row->rr_p999 = median_or_nan(s, "rr_latency_p999_us");
	row->bottleneck = s->bottleneck.code;
}

static void format_bps(double bps, char *buf, size_t len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f Gbit/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.1f Mbit/s", bps / 1e6);
	else
		snprintf(buf, len, "%.1f kbit/s", bps / 1e3);
}

static void format_pct(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "-");
}

static void print_unaccounted_note(const struct nb_report *r, FILE *out)
{
	double worst = 0;
	int points = 0;

	for (int i = 0; i < r->nrows; i++) {
		double u = r->rows[i].unaccounted;

		if (u > NB_UNACCOUNTED_NOTE_PCT) {  /* false for NAN */
			points++;
			worst = u > worst ? u : worst;
		}
	}
	if (points > 0)
		fprintf(out, "note: in %d point%s /proc/stat missed up to %.0f%% of the CPU time (interrupts taken "
			"from idle on a tickless kernel without IRQ time accounting, or unreported steal on a VM): "
			"busy%% there is a lower bound; see cpu_unaccounted_pct\n", points, points == 1 ? "" : "s", worst);
}

/* Optional steps that gave nothing are not errors of the point, but a reader should know. */
static void print_missing_notes(const struct nb_report *r, FILE *out)
{
	const char *first = NULL;
	int points = 0;

	for (int i = 0; i < r->nrows; i++) {
		if (r->rows[i].nnotes > 0) {
			first = first ? first : r->rows[i].first_note;
			points++;
		}
	}
	if (points > 0)
		fprintf(out, "note: in %d point%s an optional step gave nothing (the report's notes), first: %s\n", points,
			points == 1 ? "" : "s", first);
}

static void format_rr(double v, int decimals, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

/* The request/response points again, with what they are about: transactions and latency. */
static void print_rr_table(const struct nb_report *r, int idw, FILE *out)
{
	bool header = false;

	for (int i = 0; i < r->nrows; i++) {
		const struct nb_table_row *row = &r->rows[i];
		char tps[24], p50[16], p90[16], p99[16], p999[16];

		if (!row->rr)
			continue;
		if (!header) {
			fprintf(out, "\n%-*s  %12s  %9s  %9s  %9s  %9s  (latency: medians over runs, us)\n", idw,
				"rr point", "trans/s", "p50", "p90", "p99", "p99.9");
			header = true;
		}
		format_rr(row->rr_tps, 0, tps, sizeof(tps));
		format_rr(row->rr_p50, 1, p50, sizeof(p50));
		format_rr(row->rr_p90, 1, p90, sizeof(p90));
		format_rr(row->rr_p99, 1, p99, sizeof(p99));
		format_rr(row->rr_p999, 1, p999, sizeof(p999));
		fprintf(out, "%-*s  %12s  %9s  %9s  %9s  %9s\n", idw, row->id, tps, p50, p90, p99, p999);
	}
}

/* Which points never reached their precision, and the noisiest ones (widest interval). */
static void print_precision_notes(const struct nb_report *r, FILE *out)
{
	const struct nb_table_row *noisy[3] = { NULL, NULL, NULL };
	double precision = NB_DEFAULT_PRECISION_PCT;
	int missed = 0, shown = 0;
	struct nb_adaptive_rule rule;
	bool is_auto;

	nb_report_rule_from_config(json_object_get(r->root, "config"), &rule, &is_auto);
	precision = rule.precision_pct;
	for (int i = 0; i < r->nrows; i++) {
		const struct nb_table_row *row = &r->rows[i];

		if (!row->has_prec || row->prec.clean == 0)
			continue;
		missed += !row->prec.met;
		for (int k = 0; k < 3 && isfinite(row->prec.worst_pct); k++) {
			if (!noisy[k] || !(row->prec.worst_pct <= noisy[k]->prec.worst_pct)) {
				memmove(&noisy[k + 1], &noisy[k], (size_t)(2 - k) * sizeof(noisy[0]));
				noisy[k] = row;
				break;
			}
		}
	}
	if (missed) {
		fprintf(out, "precision not reached (+-%.3g%%%s) in %d point%s:", precision,
			is_auto ? ", auto repetitions" : "", missed, missed == 1 ? "" : "s");
		for (int i = 0; i < r->nrows; i++) {
			if (r->rows[i].has_prec && r->rows[i].prec.clean > 0 && !r->rows[i].prec.met && shown++ < 8)
				fprintf(out, " %s (%d runs)", r->rows[i].id, r->rows[i].prec.runs);
		}
		fprintf(out, "%s\n", shown > 8 ? " ..." : "");
	}
	if (noisy[0] && r->nrows > 1) {
		fprintf(out, "noisiest:");
		for (int k = 0; k < 3 && noisy[k]; k++)
			fprintf(out, "%s %s +-%.1f%% (%s)", k ? "," : "", noisy[k]->id, noisy[k]->prec.worst_pct,
				noisy[k]->prec.worst_metric ? noisy[k]->prec.worst_metric : "-");
		fputc('\n', out);
	}
}

/* Flags in the status column are explained once, below the table. */
static void print_flag_notes(const struct nb_report *r, FILE *out)
{
	int peer = 0, sender = 0, disturbed = 0, stolen = 0;
	double worst = 0, worst_steal = 0;

	for (int i = 0; i < r->nrows; i++) {
		peer += r->rows[i].peer_bound;
		sender += r->rows[i].sender_bound;
		if (r->rows[i].steal >= NB_STEAL_NOTE_PCT) {
			stolen++;
			worst_steal = fmax(worst_steal, r->rows[i].steal);
		}
		if (r->rows[i].disturbed_runs) {
			disturbed++;
			worst = r->rows[i].other > worst ? r->rows[i].other : worst;
		}
	}
	if (peer)
		fprintf(out, "peer-bound?: the peer's iperf3 used >= %.0f%% of a core (iperf_remote_cpu_pct): the peer, "
			"not the device, may have set the throughput\n", NB_PEER_BOUND_PCT);
	if (sender)
		fprintf(out, "sender-bound?: this host's iperf3 used >= %.0f%% of a core while sending "
			"(iperf_host_cpu_pct): the tool, not the driver, may have set the throughput\n", NB_PEER_BOUND_PCT);
	if (disturbed)
		fprintf(out, "warning: in %d point%s other programs took up to %.0f%% of the CPU (cpu_other_pct >= %.0f%% "
			"in the runs marked disturbed): their figures may be low; find the program (top) and run again\n",
			disturbed, disturbed == 1 ? "" : "s", worst, NB_FOREIGN_LOAD_PCT);
	if (stolen)
		fprintf(out, "note: in %d point%s the VM's host took a median of up to %.0f%% of the CPUs (steal_pct): "
			"figures move with it, and compare withholds a change that a steal difference can explain\n",
			stolen, stolen == 1 ? "" : "s", worst_steal);
	if (r->idle_warned)
		fprintf(out, "warning: the machine was %.0f%% busy before the first point (idle check)\n",
			r->idle_busy_pct);
}

void nb_report_table_print(const struct nb_report *r, FILE *out)
{
	int idw = 10;

	for (int i = 0; i < r->nrows; i++) {
		int w = (int)strlen(r->rows[i].id);

		idw = w > idw ? w : idw;
	}
	fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s\n", idw, "test point", "throughput", "spread",
		"+-90%ci", "runs", "busy%", "softirq%", "napi%", "bottleneck", "status");
	for (int i = 0; i < r->nrows; i++) {
		const struct nb_table_row *row = &r->rows[i];
		char tput[32] = "-", spread[16] = "-", busy[16], soft[16], napi[16], ci[16] = "-", runs[16] = "-";

		if (row->tput.n > 0) {
			format_bps(row->tput.median, tput, sizeof(tput));
			/* spread: (max - min) relative to the median, the noise a reader should expect */
			if (row->tput.median > 0)
				snprintf(spread, sizeof(spread), "%.1f%%",
					 100.0 * (row->tput.max - row->tput.min) / row->tput.median);
		}
		if (row->has_prec) {
			if (isfinite(row->prec.worst_pct))
				snprintf(ci, sizeof(ci), "%.1f%%%s", row->prec.worst_pct, row->prec.met ? "" : "!");
			snprintf(runs, sizeof(runs), "%d", row->prec.runs);
		}
		format_pct(row->busy, busy, sizeof(busy));
		format_pct(row->softirq, soft, sizeof(soft));
		format_pct(row->napi, napi, sizeof(napi));
		char disturbed[32] = "";

		if (row->disturbed_runs)
			snprintf(disturbed, sizeof(disturbed), " (disturbed %d/%d)", row->disturbed_runs, row->ok_runs);
		fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s%s%s%s\n", idw, row->id, tput, spread, ci, runs,
			busy, soft, napi,
			nb_bn_code_name(row->bottleneck), nb_point_status_name(row->status),
			row->peer_bound ? " (peer-bound?)" : "", row->sender_bound ? " (sender-bound?)" : "", disturbed);
	}
	fprintf(out, "throughput: median of the runs; spread: (max - min) / median of the runs' throughput; "
		"busy%%, softirq%%, napi%%: medians, %% of all CPUs\n"
		"+-90%%ci: half width of the 90%% interval of the median, %% of it (the wider of throughput and, "
		"for rx tests, busy%%; ! = not within the precision asked for); runs: runs taken\n");
	print_precision_notes(r, out);
	print_flag_notes(r, out);
	print_unaccounted_note(r, out);
	print_missing_notes(r, out);
	print_rr_table(r, idw, out);
}

