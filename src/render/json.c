// SPDX-License-Identifier: MIT
/* JSON: compare's result (schema nicbench-compare/1), written with the one printer. */
#include "compare/compare_rounds.h"
#include "render/sequential_view.h"
#include "render/common.h"

static const char *direction_name(enum nb_cmp_direction d)
{
	return d == NB_CMP_HIGHER_BETTER ? "higher" : d == NB_CMP_LOWER_BETTER ? "lower" : "neutral";
}

/* A figure, or null when that side has none. */
static void json_figure(struct nb_print *b, const char *key, bool present, double v)
{
	if (present)
		nb_print_double(b, NB_PRINT_JSON, key, NULL, v);
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_metric(struct nb_print *b, const struct nb_cmp_metric_result *m, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, m->name);
	json_figure(b, "base", m->has_base, m->base);
	json_figure(b, "new", m->has_new, m->new);
	json_figure(b, "change_pct", m->has_change, m->change_pct);
	nb_print_string(b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_verdict_name(m->verdict));
	nb_print_string(b, NB_PRINT_JSON, "direction", NULL, direction_name(m->direction));
	nb_print_bool(b, NB_PRINT_JSON, "gated", NULL, m->gated);
	nb_print_int(b, NB_PRINT_JSON, "n_base", NULL, m->n_base);
	nb_print_int(b, NB_PRINT_JSON, "n_new", NULL, m->n_new);
	if (m->change_capped)
		nb_print_bool(b, NB_PRINT_JSON, "change_capped", NULL, true);
	json_figure(b, "p_value", m->has_p, m->p_value);
	if (m->has_ci) {
		nb_print_open_array(b, "ci_pct");
		nb_print_double(b, NB_PRINT_JSON, NULL, NULL, m->ci_lo_pct);
		nb_print_double(b, NB_PRINT_JSON, NULL, NULL, m->ci_hi_pct);
		nb_print_close_array(b);
	}
	nb_print_double(b, NB_PRINT_JSON, "min_effect_pct", NULL, m->min_effect_pct);
	/* The floor as applied to this point, in the metric's unit; null when it has none. */
	json_figure(b, "floor", m->has_floor, m->floor);
	if (m->floor_family)
		nb_print_string(b, NB_PRINT_JSON, "floor_family", NULL, m->floor_family);
	/* The larger side's spread of runs, where the interval was computed (judge_supported). */
	if (m->has_ci)
		nb_print_double(b, NB_PRINT_JSON, "spread", NULL, m->spread);
	/* Where the spread rule was applied: its scale and the spreads the gap had to clear. */
	if (m->spread_factor > 0) {
		nb_print_string(b, NB_PRINT_JSON, "spread_scale", NULL, m->spread_ratio ? "ratio" : "unit");
		if (m->spread_ratio)
			nb_print_double(b, NB_PRINT_JSON, "spread_pct", NULL, m->spread_pct);
		nb_print_double(b, NB_PRINT_JSON, "spread_factor", NULL, m->spread_factor);
	}
	if (m->reason != NB_CMP_REASON_NONE) {
		char reason[160];

		nb_print_string(b, NB_PRINT_JSON, "reason", NULL, nb_cmp_reason_text(reason, sizeof(reason), m, opt));
	}
	nb_print_close_object(b);
}

static void json_status(struct nb_print *b, const char *key, const struct nb_cmp_point *p)
{
	if (p)
		nb_print_string(b, NB_PRINT_JSON, key, NULL, nb_cmp_status_name(p->status));
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_incomplete(struct nb_print *b, const char *key, const struct nb_cmp_point *p)
{
	if (p)
		nb_print_bool(b, NB_PRINT_JSON, key, NULL, p->incomplete);
	else
		nb_print_null(b, NB_PRINT_JSON, key, NULL, NULL);
}

static void json_point(struct nb_print *b, const struct nb_cmp_point_result *pr, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, NULL);
	nb_print_string(b, NB_PRINT_JSON, "id", NULL, pr->id);
	nb_print_string(b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_verdict_name(pr->verdict));
	nb_print_string(b, NB_PRINT_JSON, "test", NULL, nb_render_any_point(pr)->test_name);
	json_status(b, "base_status", pr->base);
	json_status(b, "new_status", pr->new);
	if (pr->base && pr->base->error)
		nb_print_string(b, NB_PRINT_JSON, "base_error", NULL, pr->base->error);
	if (pr->new && pr->new->error)
		nb_print_string(b, NB_PRINT_JSON, "new_error", NULL, pr->new->error);
	/* incomplete: compared on the runs that finished (the status says ok); null for an absent side */
	json_incomplete(b, "base_incomplete", pr->base);
	json_incomplete(b, "new_incomplete", pr->new);
	nb_print_open_object(b, "metrics");
	for (int i = 0; i < pr->n_metrics; i++)
		json_metric(b, &pr->metrics[i], opt);
	nb_print_close_object(b);
	if (pr->n_movers) {
		nb_print_open_array(b, "profile_movers");
		for (int i = 0; i < pr->n_movers; i++) {
			nb_print_open_object(b, NULL);
			nb_print_string(b, NB_PRINT_JSON, "symbol", NULL, pr->movers[i].symbol);
			nb_print_double(b, NB_PRINT_JSON, "base_share_pct", NULL, pr->movers[i].base_share_pct);
			nb_print_double(b, NB_PRINT_JSON, "new_share_pct", NULL, pr->movers[i].new_share_pct);
			/* unlisted on a side: the share there was below the value given (the list's smallest) */
			if (pr->movers[i].base_unlisted)
				nb_print_bool(b, NB_PRINT_JSON, "base_unlisted", NULL, true);
			if (pr->movers[i].new_unlisted)
				nb_print_bool(b, NB_PRINT_JSON, "new_unlisted", NULL, true);
			nb_print_close_object(b);
		}
		nb_print_close_array(b);
	}
	nb_print_close_object(b);
}

static void json_report_ref(struct nb_print *b, const char *key, const struct nb_cmp_report *rep)
{
	nb_print_open_object(b, key);
	nb_print_string(b, NB_PRINT_JSON, "path", NULL, rep->path);
	nb_print_string(b, NB_PRINT_JSON, "kernel", NULL, rep->kernel_release);
	nb_print_string(b, NB_PRINT_JSON, "created", NULL, rep->created);
	nb_print_close_object(b);
}

static void json_env(struct nb_print *b, const struct nb_cmp_result *r)
{
	nb_print_open_array(b, "environment_differences");
	for (int i = 0; i < r->n_env_diffs; i++) {
		nb_print_open_object(b, NULL);
		nb_print_string(b, NB_PRINT_JSON, "key", NULL, r->env_diffs[i].key);
		/* The values are JSON texts already (jansson made them): embed them as they are. */
		nb_print_json_text(b, "base", r->env_diffs[i].base ? r->env_diffs[i].base : "null");
		nb_print_json_text(b, "new", r->env_diffs[i].new ? r->env_diffs[i].new : "null");
		nb_print_close_object(b);
	}
	if (r->n_test_diffs) {
		nb_print_open_object(b, NULL);
		nb_print_string(b, NB_PRINT_JSON, "key", NULL, "results[].test");
		nb_print_int(b, NB_PRINT_JSON, "points", NULL, r->n_test_diffs);
		nb_print_string(b, NB_PRINT_JSON, "example", NULL, r->test_diff_id);
		nb_print_close_object(b);
	}
	nb_print_close_array(b);
}

/* The gate as the text table spells it. */
static void json_gate(struct nb_print *b, const struct nb_cmp_options *opt)
{
	struct nb_print gate;

	nb_print_init(&gate, NULL, NB_PRINT_PLAIN);
	nb_render_gate(&gate, opt);
	if (gate.failed) {
		b->failed = true;
		b->fail_code = gate.fail_code;
	} else {
		nb_print_string(b, NB_PRINT_JSON, "gate", NULL, gate.p);
	}
	nb_print_release(&gate);
}

/* "rounds": how many a side, whether and how many paired, the notes; null without rounds. */
static void json_rounds(struct nb_print *b, const struct nb_cmp_result *r)
{
	const struct nb_cmp_rounds *rd = r->rounds;

	if (!rd) {
		nb_print_json_text(b, "rounds", "null");
		return;
	}
	nb_print_open_object(b, "rounds");
	nb_print_int(b, NB_PRINT_JSON, "a", NULL, rd->n[NB_CMP_SIDE_A]);
	nb_print_int(b, NB_PRINT_JSON, "b", NULL, rd->n[NB_CMP_SIDE_B]);
	nb_print_bool(b, NB_PRINT_JSON, "paired", NULL, r->opt->rounds_paired);
	nb_print_int(b, NB_PRINT_JSON, "pairs", NULL, r->opt->rounds_paired ? rd->n_paired : 0);
	nb_print_string(b, NB_PRINT_JSON, "set", NULL, rd->set ? rd->set : "");
	nb_print_open_array(b, "notes");
	for (int i = 0; i < rd->n_notes; i++)
		nb_print_string(b, NB_PRINT_JSON, NULL, NULL, rd->notes[i]);
	nb_print_close_array(b);
	nb_print_close_object(b);
}

static void json_settings(struct nb_print *b, const struct nb_cmp_options *opt)
{
	nb_print_open_object(b, "settings");
	nb_print_string(b, NB_PRINT_JSON, "method", NULL,
			!opt->rounds_paired ? "mann-whitney-shift-interval"
			: opt->sequential ? "paired-rounds-confidence-sequence" : "paired-rounds-sign-interval");
	nb_print_double(b, NB_PRINT_JSON, "alpha", NULL, opt->alpha);
	if (opt->alpha_split) /* only then: a result without it reads as it always did */
		nb_print_bool(b, NB_PRINT_JSON, "alpha_split", NULL, true);
	nb_print_double(b, NB_PRINT_JSON, "min_effect_pct", NULL, opt->min_effect_pct);
	nb_print_int(b, NB_PRINT_JSON, "min_runs", NULL, opt->min_runs);
	nb_print_double(b, NB_PRINT_JSON, "change_cap_pct", NULL, opt->change_cap_pct);
	nb_print_bool(b, NB_PRINT_JSON, "floors", NULL, !opt->no_floors);
	/* --floor overrides as given, so that a result says which floors it was judged with */
	nb_print_open_object(b, "floor_overrides");
	for (int i = 0; i < opt->n_floors; i++)
		nb_print_double(b, NB_PRINT_JSON, opt->floors[i].name, NULL, opt->floors[i].value);
	nb_print_close_object(b);
	nb_print_bool(b, NB_PRINT_JSON, "missing_ok", NULL, opt->missing_ok);
	json_gate(b, opt);
	nb_print_close_object(b);
}

int nb_cmp_render_json(FILE *out, const struct nb_cmp_result *r)
{
	struct nb_print b;

	nb_print_init(&b, out, NB_PRINT_JSON_COMPACT);
	nb_print_open_object(&b, NULL);
	nb_print_string(&b, NB_PRINT_JSON, "schema", NULL, NB_CMP_SCHEMA);
	nb_print_string(&b, NB_PRINT_JSON, "verdict", NULL, nb_cmp_overall_name(r->verdict));
	json_report_ref(&b, "base", r->base);
	json_report_ref(&b, "new", r->new);
	json_settings(&b, r->opt);
	json_rounds(&b, r);
	nb_render_sequential(&b, r);
	json_env(&b, r);
	nb_print_open_array_lines(&b, "points");
	for (int i = 0; i < r->n_points; i++) {
		json_point(&b, &r->points[i], r->opt);
		nb_print_drain(&b);
	}
	nb_print_close_array(&b);
	nb_print_close_object(&b);
	return nb_print_finish(&b);
}
