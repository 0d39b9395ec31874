// SPDX-License-Identifier: MIT
/* The sequential verdict as compare shows it: one line per gated metric judged over the pairs
 * (text), or a "sequential" object (JSON). compare/sequential.c decides; this file only shows. */
#include "render/sequential_view.h"

#include "compare/compare.h"
#include "compare/sequential.h"

static const char *state_name(const struct nb_cmp_metric_result *m)
{
	switch (m->seq.state) {
	case NB_SEQ_UP:
	case NB_SEQ_DOWN:
		return nb_cmp_verdict_name(m->verdict); /* regressed, improved, changed, or withheld */
	case NB_SEQ_UNCHANGED:
		return "unchanged";
	default:
		return "undecided";
	}
}

static void text_metric(struct nb_print *out, const char *point, const struct nb_cmp_metric_result *m)
{
	const struct nb_seq_metric *s = &m->seq;

	nb_print_fmt(out, "  sequential: %s %s: %s after %d pair%s", point, m->name, state_name(m), s->n_pairs,
		     s->n_pairs == 1 ? "" : "s");
	if (s->bounded)
		nb_print_fmt(out, ", %+.1f%%..%+.1f%%", s->lo_pct, s->hi_pct);
	if (s->state == NB_SEQ_UNCHANGED)
		nb_print_fmt(out, ": rules out changes beyond +-%.1f%%", s->rules_out_pct);
	if (s->state == NB_SEQ_UNDECIDED) {
		if (s->more_pairs < 0)
			nb_print_fmt(out, ": more than %d more pairs at this spread", NB_SEQ_LOOKAHEAD);
		else
			nb_print_fmt(out, ": %s %d more pair%s", s->n_pairs < 2 ? "at least" : "about", s->more_pairs,
				     s->more_pairs == 1 ? "" : "s");
	}
	nb_print_putc(out, '\n');
}

static void json_metric(struct nb_print *out, const char *point, const struct nb_cmp_metric_result *m)
{
	const struct nb_seq_metric *s = &m->seq;

	nb_print_open_object(out, NULL);
	nb_print_string(out, NB_PRINT_JSON, "point", NULL, point);
	nb_print_string(out, NB_PRINT_JSON, "metric", NULL, m->name);
	nb_print_string(out, NB_PRINT_JSON, "state", NULL, state_name(m));
	nb_print_bool(out, NB_PRINT_JSON, "decided", NULL, s->state != NB_SEQ_UNDECIDED);
	nb_print_int(out, NB_PRINT_JSON, "pairs", NULL, s->n_pairs);
	if (s->bounded) {
		nb_print_open_array(out, "sequence_pct");
		nb_print_double(out, NB_PRINT_JSON, NULL, NULL, s->lo_pct);
		nb_print_double(out, NB_PRINT_JSON, NULL, NULL, s->hi_pct);
		nb_print_close_array(out);
	} else {
		nb_print_null(out, NB_PRINT_JSON, "sequence_pct", NULL, NULL);
	}
	if (s->state == NB_SEQ_UNCHANGED)
		nb_print_double(out, NB_PRINT_JSON, "rules_out_pct", NULL, s->rules_out_pct);
	if (s->state == NB_SEQ_UNDECIDED) {
		if (s->more_pairs < 0)
			nb_print_null(out, NB_PRINT_JSON, "more_pairs", NULL, NULL);
		else
			nb_print_int(out, NB_PRINT_JSON, "more_pairs", NULL, s->more_pairs);
	}
	nb_print_close_object(out);
}

void nb_render_sequential(struct nb_print *out, const struct nb_cmp_result *r)
{
	bool json = nb_print_is_json(out);

	if (!r->opt->sequential)
		return;
	if (json) {
		nb_print_open_object(out, "sequential");
		nb_print_string(out, NB_PRINT_JSON, "method", NULL, "paired-rounds-confidence-sequence");
		nb_print_double(out, NB_PRINT_JSON, "alpha", NULL, r->opt->alpha);
		nb_print_double(out, NB_PRINT_JSON, "prior_c", NULL, NB_SEQ_PRIOR_C);
		nb_print_double(out, NB_PRINT_JSON, "equivalence_factor", NULL, NB_SEQ_EQUIVALENCE_FACTOR);
		if (r->opt->alpha_split) {
			/* only with the split, so that compare's JSON stays as it was without it */
			nb_print_int(out, NB_PRINT_JSON, "gated_metrics", NULL, r->seq_gated);
			nb_print_double(out, NB_PRINT_JSON, "alpha_per_metric", NULL, r->seq_alpha);
		}
		nb_print_open_array(out, "metrics");
	} else if (r->opt->alpha_split && r->seq_gated > 1) {
		nb_print_fmt(out, "  sequential: %.0f%% confidence for the gate as a whole, %.3g%% for each of its %d gated "
			     "metrics (valid at every look); unchanged once inside +-%g x the minimum effect\n",
			     (1 - r->opt->alpha) * 100, (1 - r->seq_alpha) * 100, r->seq_gated, NB_SEQ_EQUIVALENCE_FACTOR);
	} else {
		nb_print_fmt(out, "  sequential: %.0f%% confidence sequence over the pairs (valid at every look); "
			     "unchanged once inside +-%g x the minimum effect\n", (1 - r->opt->alpha) * 100,
			     NB_SEQ_EQUIVALENCE_FACTOR);
	}
	for (int i = 0; i < r->n_points; i++) {
		const struct nb_cmp_point_result *pr = &r->points[i];

		for (int k = 0; k < pr->n_metrics; k++) {
			const struct nb_cmp_metric_result *m = &pr->metrics[k];

			if (!m->gated || m->seq.state == NB_SEQ_NONE)
				continue;
			if (json)
				json_metric(out, pr->id, m);
			else
				text_metric(out, pr->id, m);
		}
	}
	if (json) {
		nb_print_close_array(out);
		nb_print_close_object(out);
	}
}
