// SPDX-License-Identifier: MIT
/* `nicbench plan`: the ordered test points and the estimated time; runs nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "nb_paths.h"
#include "plan.h"
#include "run_options.h"

int cmd_plan(int argc, char **argv)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_plan plan;
	struct nb_err err = { 0 };
	double total;
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
	if (nb_path_join(path, sizeof(path), nb_paths_live.sys, rel) == 0 && access(path, F_OK) != 0)
		fprintf(stderr, "nicbench plan: note: no interface %s here; the plan did not check it (run does)\n",
			cfg->iface);
	total = nb_plan_estimate_s(cfg, &plan);
	printf("interface %s, peer %s:%d, %d points x %d repetitions\n", cfg->iface, cfg->peer_host,
	       cfg->peer_port, plan.npoints, cfg->repetitions);
	int idw = 10;

	for (int i = 0; i < plan.npoints; i++) {
		int w = (int)strlen(plan.points[i].id);

		idw = w > idw ? w : idw;
	}
	for (int i = 0; i < plan.npoints; i++) {
		const struct nb_point *p = &plan.points[i];

		printf("%4d  %-*s  %5.0f s\n", i + 1, idw, p->id, nb_point_estimate_s(cfg, p));
	}
	printf("estimated time: %.0f s (%.1f min)\n", total, total / 60);
	nb_plan_free(&plan);
	free(cfg);
	return NB_EXIT_OK;
}
