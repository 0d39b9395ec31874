// SPDX-License-Identifier: MIT
/* A point's results: statuses, release, notes, and the pure summary of its runs. */
#include "result.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/metric_table.h"
#include "result/bottleneck.h"
#include "sampling/run_counters.h"

const char *nb_point_status_name(enum nb_point_status s)
{
	static const char *const names[] = { "ok", "failed", "timeout", "unsupported", "incomplete" };

	return names[s];
}

const char *nb_run_status_name(enum nb_run_status s)
{
	static const char *const names[] = { "ok", "failed", "timeout" };

	return names[s];
}

void nb_point_result_settle(struct nb_point_result *pr)
{
	if (pr->status == NB_POINT_UNSUPPORTED || pr->status == NB_POINT_FAILED)
		return;
	pr->status = NB_POINT_OK;
	for (int i = 0; i < pr->nruns; i++) {
		const struct nb_run_record *run = &pr->runs[i];

		if (run->status == NB_RUN_OK)
			continue;
		pr->status = run->status == NB_RUN_TIMEOUT ? NB_POINT_TIMEOUT : NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "run %d: %.480s", i + 1, run->error);
		return;
	}
}

void nb_run_record_release(struct nb_run_record *run)
{
	free(run->qstats);
	run->qstats = NULL;
	nb_run_counters_free(run->counters);
	run->counters = NULL;
	free(run->rr_hist);
	run->rr_hist = NULL;
	free(run->iperf_json);
	run->iperf_json = NULL;
	free(run->samples);
	run->samples = NULL;
	run->nsamples = 0;
}

void nb_point_result_release(struct nb_point_result *pr)
{
	for (int i = 0; i < pr->nruns; i++)
		nb_run_record_release(&pr->runs[i]);
	free(pr->runs);
	pr->runs = NULL;
	pr->nruns = 0;
	free(pr->napis);
	pr->napis = NULL;
	free(pr->kernel_log);
	pr->kernel_log = NULL;
}

void nb_point_result_note(struct nb_point_result *pr, const char *fmt, ...)
{
	char note[NB_POINT_NOTE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(note, sizeof(note), fmt, ap);
	va_end(ap);
	for (int i = 0; i < pr->nnotes; i++)
		if (!strcmp(pr->notes[i], note))
			return;
	if (pr->nnotes < NB_MAX_POINT_NOTES)
		memcpy(pr->notes[pr->nnotes++], note, sizeof(note));
}

const struct nb_metric_summary *nb_point_summary_get(const struct nb_point_summary *s, const char *name)
{
	for (int i = 0; i < s->nmetrics; i++)
		if (!strcmp(s->metrics[i].name, name))
			return &s->metrics[i];
	return NULL;
}

/* One metric over the ok runs that have it. */
static void summarize_metric(const struct nb_summary_input *in, const char *name, struct nb_metric_summary *m)
{
	int n = 0;

	snprintf(m->name, sizeof(m->name), "%s", name);
	for (int r = 0; r < in->nruns && n < NB_MAX_REPETITIONS; r++) {
		if (in->runs[r].ok && nb_metrics_get(in->runs[r].metrics, name, &m->values[n]))
			n++;
	}
	nb_stats_compute(m->values, n, &m->st);
}

static bool median_at_least(const struct nb_point_summary *s, const char *name, double limit)
{
	const struct nb_metric_summary *m = nb_point_summary_get(s, name);

	return m && m->st.median >= limit;
}

struct median_lookup {
	const struct nb_point_summary *s;
	const struct nb_metric_set *diag;
};

/* nb_bn_input.get: a measured median first; a metric only the diagnostic repetition has
 * (tracepoints) from it. */
static bool summary_median(const void *ctx, const char *name, double *value)
{
	const struct median_lookup *l = ctx;
	const struct nb_metric_summary *m = nb_point_summary_get(l->s, name);

	if (m) {
		*value = m->st.median;
		return true;
	}
	return l->diag && nb_metrics_get(l->diag, name, value);
}

void nb_point_summarize(const struct nb_summary_input *in, struct nb_point_summary *out)
{
	const struct nb_metric_summary *tput;
	struct median_lookup lookup = { out, in->diag };
	struct nb_bn_input bn = {
		.get = summary_median,
		.ctx = &lookup,
		.cpus = in->cpus,
		.link_mbps = in->link_mbps,
		.window_s = in->window_s,
	};

	memset(out, 0, sizeof(*out));
	out->other_pct = NAN;
	for (int r = 0; r < in->nruns; r++) {
		const struct nb_metric_set *set = in->runs[r].metrics;
		double other;

		if (!in->runs[r].ok)
			continue;
		out->ok_runs++;
		if (nb_metrics_get(set, NB_M_CPU_OTHER_PCT, &other)) {
			/* disturbed: other programs took enough CPU to move the figures (see cpu_other_pct) */
			out->disturbed_runs += other >= NB_FOREIGN_LOAD_PCT;
			/* the worst run; the first comparison with NAN is false */
			if (!(other <= out->other_pct))
				out->other_pct = other;
		}
		for (int i = 0; i < set->n && out->nmetrics < NB_MAX_METRICS; i++) {
			if (!nb_point_summary_get(out, set->m[i].name))
				summarize_metric(in, set->m[i].name, &out->metrics[out->nmetrics++]);
		}
	}
	out->peer_bound = median_at_least(out, NB_M_IPERF_REMOTE_CPU_PCT, NB_PEER_BOUND_PCT);
	out->sender_bound = in->tx && median_at_least(out, NB_M_IPERF_HOST_CPU_PCT, NB_PEER_BOUND_PCT);
	tput = nb_point_summary_get(out, NB_M_THROUGHPUT_BPS);
	bn.ok = in->status == NB_POINT_OK || (in->status == NB_POINT_INCOMPLETE && tput && tput->st.n > 0);
	nb_bottleneck_judge(&bn, &out->bottleneck);
}
