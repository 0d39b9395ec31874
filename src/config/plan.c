// SPDX-License-Identifier: MIT
/* Expands the knob matrix into ordered test points with stable ids. */
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-run cost beyond omit + duration: connection set-up and the result exchange. */
#define NB_RUN_OVERHEAD_S 0.3

static int build_id(struct nb_point *p)
{
	size_t used = (size_t)snprintf(p->id, sizeof(p->id), "%s", p->test->name);

	for (int f = 0; f < p->nfields; f++)
		used += (size_t)snprintf(p->id + used, sizeof(p->id) - used, "/%s=%s", p->fields[f].name,
					 p->fields[f].value);
	for (int k = 0; k < p->nknobs; k++) {
		char label[sizeof(p->id)];
		int n;

		if (nb_knob_value_label(p->knobs[k].name, p->knobs[k].value, label, sizeof(label)))
			return -ENAMETOOLONG;
		n = snprintf(p->id + used, sizeof(p->id) - used, "/%s=%s", p->knobs[k].name, label);

		if (n < 0 || (size_t)n >= sizeof(p->id) - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	return 0;
}

/* Does a swept field apply to the test? A UDP-only field (rate, length) skips TCP and rr tests. */
static bool field_applies(const struct nb_field_axis *axis, const struct nb_test_spec *t)
{
	return !(axis->row->flags & NB_OPT_UDP_ONLY) || (t->proto == NB_PROTO_UDP && t->dir != NB_DIR_RR);
}

/* Points of one test per knob setting: the product of its swept fields' values. */
static int test_variants(const struct nb_config *cfg, const struct nb_test_spec *t)
{
	int n = 1;

	for (int f = 0; f < cfg->nfield_axes; f++)
		if (field_applies(&cfg->field_axes[f], t))
			n *= cfg->field_axes[f].nvalues;
	return n;
}

/* Variant v of test t: its fields' values, the last swept field turning fastest. */
static void set_variant(const struct nb_config *cfg, struct nb_point *p, struct nb_test_spec *copy, int v)
{
	for (int f = cfg->nfield_axes - 1; f >= 0; f--) {
		const struct nb_field_axis *axis = &cfg->field_axes[f];
		int choice;

		if (!field_applies(axis, copy))
			continue;
		choice = v % axis->nvalues;
		v /= axis->nvalues;
		nb_opt_store_number(axis->row, copy, axis->values[choice]);
	}
	for (int f = 0; f < cfg->nfield_axes; f++) {
		const struct nb_field_axis *axis = &cfg->field_axes[f];
		struct nb_knob_setting *s;

		if (!field_applies(axis, copy))
			continue;
		s = &p->fields[p->nfields++];
		snprintf(s->name, sizeof(s->name), "%s", nb_field_axis_name(axis));
		for (int c = 0; c < axis->nvalues; c++)
			if (nb_opt_load_number(axis->row, copy) == axis->values[c])
				snprintf(s->value, sizeof(s->value), "%s", axis->labels[c]);
	}
}

int nb_plan_build(const struct nb_config *cfg, struct nb_plan *plan, struct nb_err *err)
{
	int combos = 1, per_combo = 0;
	int choice[NB_MAX_AXES] = { 0 };

	memset(plan, 0, sizeof(*plan));
	for (int t = 0; t < cfg->ntests; t++)
		per_combo += test_variants(cfg, &cfg->tests[t]);
	for (int a = 0; a < cfg->naxes; a++) {
		combos *= cfg->axes[a].nvalues;
		if (combos * per_combo > NB_MAX_POINTS)
			return nb_err_set(err, -E2BIG, "the knob matrix has more than %d points; sweep fewer values",
					  NB_MAX_POINTS);
	}
	if (combos * per_combo > NB_MAX_POINTS)
		return nb_err_set(err, -E2BIG, "the sweep has more than %d points; sweep fewer values", NB_MAX_POINTS);
	plan->points = calloc((size_t)(combos * per_combo), sizeof(*plan->points));
	plan->tests = calloc((size_t)(combos * per_combo), sizeof(*plan->tests));
	if (!plan->points || !plan->tests) {
		nb_plan_free(plan);
		return nb_err_set(err, -ENOMEM, "plan %d points: out of memory", combos * per_combo);
	}

	for (int c = 0; c < combos; c++) {
		for (int t = 0; t < cfg->ntests; t++) {
			for (int v = 0; v < test_variants(cfg, &cfg->tests[t]); v++) {
				struct nb_point *p = &plan->points[plan->npoints];
				struct nb_test_spec *copy = &plan->tests[plan->npoints];

				p->index = plan->npoints;
				*copy = cfg->tests[t];
				set_variant(cfg, p, copy, v);
				p->test = copy;
				for (int a = 0; a < cfg->naxes; a++) {
					const struct nb_knob_axis *axis = &cfg->axes[a];

					for (int k = 0; k < axis->nknobs; k++) {
						struct nb_knob_setting *s = &p->knobs[p->nknobs++];

						snprintf(s->name, sizeof(s->name), "%s", axis->knobs[k]);
						snprintf(s->value, sizeof(s->value), "%s", axis->values[choice[a]][k]);
					}
				}
				if (build_id(p) < 0) {
					nb_plan_free(plan);
					return nb_err_set(err, -ENAMETOOLONG, "test point id longer than %d characters",
							  NB_POINT_ID_MAX - 1);
				}
				plan->npoints++;
			}
		}
		/* odometer: the last axis turns fastest */
		for (int a = cfg->naxes - 1; a >= 0; a--) {
			if (++choice[a] < cfg->axes[a].nvalues)
				break;
			choice[a] = 0;
		}
	}
	return 0;
}

void nb_plan_free(struct nb_plan *plan)
{
	free(plan->points);
	free(plan->tests);
	plan->tests = NULL;
	plan->points = NULL;
	plan->npoints = 0;
}

double nb_run_estimate_s(const struct nb_config *cfg, const struct nb_point *p)
{
	double run = cfg->settle_s + p->test->omit_s + p->test->duration_s + NB_RUN_OVERHEAD_S;

	/* tcp-rr/udp-rr wait up to one rr timeout after the window for answers in flight */
	if (p->test->dir == NB_DIR_RR)
		run += cfg->rr.timeout_ms / 1000.0;
	return run;
}

double nb_point_estimate_s(const struct nb_config *cfg, const struct nb_point *p)
{
	/* with tracing on, one diagnostic repetition follows the measured ones (runner.c) */
	return nb_run_estimate_s(cfg, p) * (cfg->repetitions + (nb_config_diagnostics_here(cfg) ? 1 : 0));
}

double nb_point_estimate_min_s(const struct nb_config *cfg, const struct nb_point *p)
{
	int reps = cfg->reps_auto ? cfg->reps_min : cfg->repetitions;

	return nb_run_estimate_s(cfg, p) * (reps + (nb_config_diagnostics_here(cfg) ? 1 : 0));
}

double nb_plan_estimate_s(const struct nb_config *cfg, const struct nb_plan *plan)
{
	double total = 0;

	for (int i = 0; i < plan->npoints; i++)
		total += nb_point_estimate_s(cfg, &plan->points[i]);
	return total;
}

double nb_plan_estimate_min_s(const struct nb_config *cfg, const struct nb_plan *plan)
{
	double total = 0;

	for (int i = 0; i < plan->npoints; i++)
		total += nb_point_estimate_min_s(cfg, &plan->points[i]);
	return total;
}

const char *nb_point_knob(const struct nb_point *p, const char *name)
{
	for (int k = 0; k < p->nknobs; k++)
		if (!strcmp(p->knobs[k].name, name))
			return p->knobs[k].value;
	return NULL;
}
