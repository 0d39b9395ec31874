// SPDX-License-Identifier: MIT
/* `nicbench plan`: the ordered test points and the estimated time; runs nothing. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config/config.h"
#include "napi_knobs.h"
#include "kit/nb_paths.h"
#include "kit/nb_time.h"
#include "config/plan.h"
#include "run_options.h"

/* What applying every point's knobs once costs, in seconds: the plan writes nothing, so it times
 * the reads an apply makes (the journal's original, the readback) and counts the write as one
 * more. Negative when the interface is not here to time. */
static double knob_round_cost_s(const struct nb_config *cfg, const struct nb_plan *plan, int *changes)
{
	struct nb_knob_target t = { .paths = &nb_paths_live, .iface = cfg->iface, .irq_names = cfg->irq_names };
	double t0 = nb_monotonic_s();
	int reads = 0;

	*changes = 0;
	for (int i = 0; i < plan->npoints; i++) {
		for (int k = 0; k < plan->points[i].nknobs; k++) {
			char value[NB_KNOB_VALUE_MAX];
			struct nb_err err = { 0 };

			if (nb_knob_find(plan->points[i].knobs[k].name) < 0)
				continue;  /* the traffic child's own knob (traffic_cpu): no device read */
			(*changes)++;
			if (nb_knob_read(&t, plan->points[i].knobs[k].name, value, sizeof(value), &err) == -ENODEV)
				return -1;
			reads++;
		}
	}
	return reads ? (nb_monotonic_s() - t0) * 3 : 0;
}

/* --interleave: the rounds and the knob changes they add to the estimate. */
static double print_rounds(const struct nb_config *cfg, const struct nb_plan *plan, bool iface_here)
{
	int changes, rounds = cfg->repetitions;
	double per_round = iface_here ? knob_round_cost_s(cfg, plan, &changes) : -1;

	if (per_round < 0) {
		printf("interleaved: up to %d rounds%s; knob change cost not measured (no interface %s here)\n",
		       rounds, cfg->shuffle ? ", shuffled" : "", cfg->iface);
		return 0;
	}
	printf("interleaved: up to %d rounds%s (seed %llu); knob changes: %d per round, %.1f ms per round "
	       "(timed here by reading each knob; plan writes nothing), %.2f s over the rounds\n", rounds,
	       cfg->shuffle ? ", shuffled" : " in plan order", (unsigned long long)cfg->shuffle_seed, changes,
	       per_round * 1000, per_round * rounds);
	return per_round * rounds;
}

int cmd_plan(int argc, char **argv)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_plan plan;
	struct nb_err err = { 0 };
	double total, least, knobs = 0;
	bool iface_here;
	int rc;

	if (!cfg) {
		fprintf(stderr, "nicbench plan: out of memory\n");
		return NB_EXIT_USAGE;
	}
	rc = nb_run_options_parse(argc, argv, cfg, &err);
	if (rc == 1) {
		nb_run_options_usage("plan", stdout);
		free(cfg);
		return NB_EXIT_OK;
	}
	if (rc < 0 || nb_config_validate(cfg, &err) < 0 || nb_plan_build(cfg, &plan, &err) < 0) {
		fprintf(stderr, "nicbench plan: %s\n", err.msg);
		free(cfg);
		return NB_EXIT_USAGE;
	}
	/* planning on a PC for a board is fine, but say that the interface was not looked at */
	char rel[64];
	char path[PATH_MAX];

	snprintf(rel, sizeof(rel), "class/net/%s", cfg->iface);
	iface_here = !(nb_path_join(path, sizeof(path), nb_paths_live.sys, rel) == 0 && access(path, F_OK) != 0);
	if (!iface_here)
		fprintf(stderr, "nicbench plan: note: no interface %s here; the plan did not check it (run does)\n",
			cfg->iface);
	total = nb_plan_estimate_s(cfg, &plan);
	least = nb_plan_estimate_min_s(cfg, &plan);
	if (cfg->reps_auto)
		printf("interface %s, peer %s:%d, %d points x auto %d-%d repetitions (until the 90%% interval of the "
		       "median is within +-%.3g%%)\n", cfg->iface, cfg->peer_host, cfg->peer_port, plan.npoints,
		       cfg->reps_min, cfg->repetitions, cfg->precision_pct);
	else
		printf("interface %s, peer %s:%d, %d points x %d repetitions\n", cfg->iface, cfg->peer_host,
		       cfg->peer_port, plan.npoints, cfg->repetitions);
	if (cfg->interleave)
		knobs = print_rounds(cfg, &plan, iface_here);
	int idw = 10;

	for (int i = 0; i < plan.npoints; i++) {
		int w = (int)strlen(plan.points[i].id);

		idw = w > idw ? w : idw;
	}
	for (int i = 0; i < plan.npoints; i++) {
		const struct nb_point *p = &plan.points[i];

		if (cfg->reps_auto)
			printf("%4d  %-*s  %5.0f-%.0f s\n", i + 1, idw, p->id, nb_point_estimate_min_s(cfg, p),
			       nb_point_estimate_s(cfg, p));
		else
			printf("%4d  %-*s  %5.0f s\n", i + 1, idw, p->id, nb_point_estimate_s(cfg, p));
	}
	if (cfg->reps_auto)
		printf("estimated time: %.0f-%.0f s (%.1f-%.1f min)\n", least + knobs, total + knobs,
		       (least + knobs) / 60, (total + knobs) / 60);
	else
		printf("estimated time: %.0f s (%.1f min)\n", total + knobs, (total + knobs) / 60);
	nb_plan_free(&plan);
	free(cfg);
	return NB_EXIT_OK;
}
