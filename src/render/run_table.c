// SPDX-License-Identifier: MIT
/* The table `run` prints after a sweep (`nicbench report --format table` prints the same): one line
 * per point from the summaries the report was assembled with (each point is summarised once, when
 * the report is assembled): throughput and its spread, the precision reached, CPU shares, the
 * bottleneck, status and flags; the notes that explain the flags; the rr points with their latency. */
#include "render/run_table.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "kit/metric_table.h"
#include "kit/metrics.h"

/* Above this, the table warns that busy % is a lower bound (see cpu_unaccounted_pct). */
#define NB_UNACCOUNTED_NOTE_PCT 5.0
/* From this median steal_pct on, the table says the VM's host took a share worth knowing. */
#define NB_STEAL_NOTE_PCT 5.0

struct table_row {
	const char *id;
	const char *status;
	const char *bottleneck;
	bool rr;                 /* a tcp-rr/udp-rr point: the rr table shows it */
	int nnotes;
	const char *first_note;
	bool peer_bound, sender_bound;
	int disturbed_runs, ok_runs;
	double other;            /* the largest cpu_other_pct of its ok runs; NAN when none */
	bool has_tput;
	double tput_median, tput_min, tput_max;
	double busy, softirq, napi, unaccounted, steal;
	double rr_tps, rr_p50, rr_p90, rr_p99, rr_p999;
	bool has_prec;           /* the report has the point's precision */
	int prec_runs, prec_clean;
	bool prec_met;
	double prec_worst_pct;   /* NAN when no interval */
	const char *prec_worst_metric;
};

struct table {
	int nrows;
	struct table_row *rows;
	double precision_pct;    /* what the run asked for, from the points' precision */
	bool precision_auto;
	bool idle_warned;
	double idle_busy_pct;
};

static double summary_field(const json_t *metrics, const char *name, const char *field)
{
	const json_t *v = json_object_get(json_object_get(metrics, name), field);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double median_of(const json_t *metrics, const char *name)
{
	return summary_field(metrics, name, "median");
}

static const char *string_or(const json_t *o, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : fallback;
}

/* The precision object: runs, clean runs, met, and the widest interval of the watched metrics. */
static void row_precision(struct table *t, struct table_row *row, const json_t *prec)
{
	const json_t *iv;
	const char *name;

	if (!json_is_object(prec))
		return;
	row->has_prec = true;
	row->prec_runs = (int)json_integer_value(json_object_get(prec, "runs"));
	row->prec_clean = (int)json_integer_value(json_object_get(prec, "clean_runs"));
	row->prec_met = json_is_true(json_object_get(prec, "met"));
	row->prec_worst_pct = NAN;
	json_object_foreach((json_t *)json_object_get(prec, "intervals"), name, iv) {
		const json_t *hw = json_object_get(iv, "half_width_pct");

		if (json_is_number(hw) && !(json_number_value(hw) <= row->prec_worst_pct)) {
			row->prec_worst_pct = json_number_value(hw);
			row->prec_worst_metric = name;
		}
	}
	if (json_is_number(json_object_get(prec, "precision_pct"))) {
		t->precision_pct = json_number_value(json_object_get(prec, "precision_pct"));
		t->precision_auto = json_is_true(json_object_get(prec, "auto"));
	}
}

/* Its ok runs, and the largest share other programs took in one of them. */
static void row_runs(struct table_row *row, const json_t *runs)
{
	const json_t *run;
	size_t i;

	row->other = NAN;
	json_array_foreach(runs, i, run) {
		const json_t *other = json_object_get(json_object_get(run, "metrics"), NB_M_CPU_OTHER_PCT);

		if (strcmp(string_or(run, "status", ""), "ok"))
			continue;
		row->ok_runs++;
		if (json_is_number(other) && !(json_number_value(other) <= row->other))
			row->other = json_number_value(other);
	}
}

static void row_fill(struct table *t, struct table_row *row, const json_t *point)
{
	const json_t *m = json_object_get(point, "metrics");
	const json_t *notes = json_object_get(point, "notes");

	row->id = string_or(point, "id", "?");
	row->status = string_or(point, "status", "?");
	row->bottleneck = string_or(json_object_get(point, "bottleneck"), "code", "-");
	row->rr = !strcmp(string_or(json_object_get(point, "test"), "direction", ""), "rr");
	row->nnotes = (int)json_array_size(notes);
	row->first_note = json_string_value(json_array_get(notes, 0));
	row->peer_bound = json_is_true(json_object_get(point, "peer_bound"));
	row->sender_bound = json_is_true(json_object_get(point, "sender_bound"));
	row->disturbed_runs = (int)json_integer_value(json_object_get(point, "disturbed_runs"));
	row_runs(row, json_object_get(point, "runs"));
	row->has_tput = json_is_object(json_object_get(m, NB_M_THROUGHPUT_BPS)) &&
			json_integer_value(json_object_get(json_object_get(m, NB_M_THROUGHPUT_BPS), "n")) > 0;
	row->tput_median = median_of(m, NB_M_THROUGHPUT_BPS);
	row->tput_min = summary_field(m, NB_M_THROUGHPUT_BPS, "min");
	row->tput_max = summary_field(m, NB_M_THROUGHPUT_BPS, "max");
	row->busy = median_of(m, NB_M_CPU_BUSY_PCT);
	row->softirq = median_of(m, NB_M_SOFTIRQ_PCT);
	row->napi = median_of(m, NB_M_NAPI_THREAD_PCT);
	row->unaccounted = median_of(m, NB_M_CPU_UNACCOUNTED_PCT);
	row->steal = median_of(m, NB_M_STEAL_PCT);
	row->rr_tps = median_of(m, NB_M_RR_TRANSACTIONS_PER_S);
	row->rr_p50 = median_of(m, NB_M_RR_LATENCY_P50_US);
	row->rr_p90 = median_of(m, NB_M_RR_LATENCY_P90_US);
	row->rr_p99 = median_of(m, NB_M_RR_LATENCY_P99_US);
	row->rr_p999 = median_of(m, NB_M_RR_LATENCY_P999_US);
	row_precision(t, row, json_object_get(point, "precision"));
}

static int table_load(struct table *t, const json_t *root)
{
	const json_t *results = json_object_get(root, "results"), *point;
	const json_t *idle = json_object_get(json_object_get(root, "idle_check"), "busy_pct");
	size_t i;

	memset(t, 0, sizeof(*t));
	t->precision_pct = NB_DEFAULT_PRECISION_PCT;
	if (json_is_number(idle) && json_number_value(idle) >= NB_FOREIGN_LOAD_PCT) {
		t->idle_warned = true;
		t->idle_busy_pct = json_number_value(idle);
	}
	if (json_array_size(results) == 0)
		return 0;
	t->rows = calloc(json_array_size(results), sizeof(*t->rows));
	if (!t->rows)
		return -ENOMEM;
	json_array_foreach(results, i, point)
		row_fill(t, &t->rows[t->nrows++], point);
	return 0;
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

/* "12.5", or "-" for a figure the report does not have; decimals as the column wants them. */
static void format_fixed(double v, int decimals, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "-");
}

static void print_unaccounted_note(const struct table *t, FILE *out)
{
	double worst = 0;
	int points = 0;

	for (int i = 0; i < t->nrows; i++) {
		double u = t->rows[i].unaccounted;

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
static void print_missing_notes(const struct table *t, FILE *out)
{
	const char *first = NULL;
	int points = 0;

	for (int i = 0; i < t->nrows; i++) {
		if (t->rows[i].nnotes > 0) {
			first = first ? first : t->rows[i].first_note;
			points++;
		}
	}
	if (points > 0)
		fprintf(out, "note: in %d point%s an optional step gave nothing (the report's notes), first: %s\n", points,
			points == 1 ? "" : "s", first ? first : "-");
}

/* The request/response points again, with what they are about: transactions and latency. */
static void print_rr_table(const struct table *t, int idw, FILE *out)
{
	bool header = false;

	for (int i = 0; i < t->nrows; i++) {
		const struct table_row *row = &t->rows[i];
		char tps[24], p50[16], p90[16], p99[16], p999[16];

		if (!row->rr)
			continue;
		if (!header) {
			fprintf(out, "\n%-*s  %12s  %9s  %9s  %9s  %9s  (latency: medians over runs, us)\n", idw,
				"rr point", "trans/s", "p50", "p90", "p99", "p99.9");
			header = true;
		}
		format_fixed(row->rr_tps, 0, tps, sizeof(tps));
		format_fixed(row->rr_p50, 1, p50, sizeof(p50));
		format_fixed(row->rr_p90, 1, p90, sizeof(p90));
		format_fixed(row->rr_p99, 1, p99, sizeof(p99));
		format_fixed(row->rr_p999, 1, p999, sizeof(p999));
		fprintf(out, "%-*s  %12s  %9s  %9s  %9s  %9s\n", idw, row->id, tps, p50, p90, p99, p999);
	}
}

/* Which points never reached their precision, and the noisiest ones (widest interval). */
static void print_precision_notes(const struct table *t, FILE *out)
{
	const struct table_row *noisy[3] = { NULL, NULL, NULL };
	int missed = 0, shown = 0;

	for (int i = 0; i < t->nrows; i++) {
		const struct table_row *row = &t->rows[i];

		if (!row->has_prec || row->prec_clean == 0)
			continue;
		missed += !row->prec_met;
		for (int k = 0; k < 3 && isfinite(row->prec_worst_pct); k++) {
			if (!noisy[k] || !(row->prec_worst_pct <= noisy[k]->prec_worst_pct)) {
				memmove(&noisy[k + 1], &noisy[k], (size_t)(2 - k) * sizeof(noisy[0]));
				noisy[k] = row;
				break;
			}
		}
	}
	if (missed) {
		fprintf(out, "precision not reached (+-%.3g%%%s) in %d point%s:", t->precision_pct,
			t->precision_auto ? ", auto repetitions" : "", missed, missed == 1 ? "" : "s");
		for (int i = 0; i < t->nrows; i++) {
			const struct table_row *row = &t->rows[i];

			if (row->has_prec && row->prec_clean > 0 && !row->prec_met && shown++ < 8)
				fprintf(out, " %s (%d runs)", row->id, row->prec_runs);
		}
		fprintf(out, "%s\n", shown > 8 ? " ..." : "");
	}
	if (noisy[0] && t->nrows > 1) {
		fprintf(out, "noisiest:");
		for (int k = 0; k < 3 && noisy[k]; k++)
			fprintf(out, "%s %s +-%.1f%% (%s)", k ? "," : "", noisy[k]->id, noisy[k]->prec_worst_pct,
				noisy[k]->prec_worst_metric ? noisy[k]->prec_worst_metric : "-");
		fputc('\n', out);
	}
}

/* Flags in the status column are explained once, below the table. */
static void print_flag_notes(const struct table *t, FILE *out)
{
	int peer = 0, sender = 0, disturbed = 0, stolen = 0;
	double worst = 0, worst_steal = 0;

	for (int i = 0; i < t->nrows; i++) {
		peer += t->rows[i].peer_bound;
		sender += t->rows[i].sender_bound;
		if (t->rows[i].steal >= NB_STEAL_NOTE_PCT) {
			stolen++;
			worst_steal = fmax(worst_steal, t->rows[i].steal);
		}
		if (t->rows[i].disturbed_runs) {
			disturbed++;
			worst = t->rows[i].other > worst ? t->rows[i].other : worst;
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
	if (t->idle_warned)
		fprintf(out, "warning: the machine was %.0f%% busy before the first point (idle check)\n",
			t->idle_busy_pct);
}

static void print_table(const struct table *t, FILE *out)
{
	int idw = 10;

	for (int i = 0; i < t->nrows; i++) {
		int w = (int)strlen(t->rows[i].id);

		idw = w > idw ? w : idw;
	}
	fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s\n", idw, "test point", "throughput", "spread",
		"+-90%ci", "runs", "busy%", "softirq%", "napi%", "bottleneck", "status");
	for (int i = 0; i < t->nrows; i++) {
		const struct table_row *row = &t->rows[i];
		char tput[32] = "-", spread[16] = "-", busy[16], soft[16], napi[16], ci[16] = "-", runs[16] = "-";
		char disturbed[32] = "";

		if (row->has_tput) {
			format_bps(row->tput_median, tput, sizeof(tput));
			/* spread: (max - min) relative to the median, the noise a reader should expect */
			if (row->tput_median > 0)
				snprintf(spread, sizeof(spread), "%.1f%%",
					 100.0 * (row->tput_max - row->tput_min) / row->tput_median);
		}
		if (row->has_prec) {
			if (isfinite(row->prec_worst_pct))
				snprintf(ci, sizeof(ci), "%.1f%%%s", row->prec_worst_pct, row->prec_met ? "" : "!");
			snprintf(runs, sizeof(runs), "%d", row->prec_runs);
		}
		format_fixed(row->busy, 1, busy, sizeof(busy));
		format_fixed(row->softirq, 1, soft, sizeof(soft));
		format_fixed(row->napi, 1, napi, sizeof(napi));
		if (row->disturbed_runs)
			snprintf(disturbed, sizeof(disturbed), " (disturbed %d/%d)", row->disturbed_runs, row->ok_runs);
		fprintf(out, "%-*s  %14s  %8s  %8s  %4s  %6s  %8s  %6s  %-13s  %s%s%s%s\n", idw, row->id, tput, spread, ci,
			runs, busy, soft, napi, row->bottleneck, row->status, row->peer_bound ? " (peer-bound?)" : "",
			row->sender_bound ? " (sender-bound?)" : "", disturbed);
	}
	fprintf(out, "throughput: median of the runs; spread: (max - min) / median of the runs' throughput; "
		"busy%%, softirq%%, napi%%: medians, %% of all CPUs\n"
		"+-90%%ci: half width of the 90%% interval of the median, %% of it (the wider of throughput and, "
		"for rx tests, busy%%; ! = not within the precision asked for); runs: runs taken\n");
	print_precision_notes(t, out);
	print_flag_notes(t, out);
	print_unaccounted_note(t, out);
	print_missing_notes(t, out);
	print_rr_table(t, idw, out);
}

int nb_render_run_table(FILE *out, const char *path, struct nb_err *err)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	struct table t;
	int ret;

	if (!root)
		return nb_err_set(err, -EINVAL, "read report %s for its table: line %d: %s", path, jerr.line, jerr.text);
	ret = table_load(&t, root);
	if (ret == 0)
		print_table(&t, out);
	else
		nb_err_set(err, ret, "read report %s for its table: out of memory", path);
	free(t.rows);
	json_decref(root);
	if (ret == 0 && ferror(out))
		ret = nb_err_set(err, -EIO, "print the table of %s: write error", path);
	return ret;
}
