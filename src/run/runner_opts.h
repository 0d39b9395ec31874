// SPDX-License-Identifier: MIT
/* What a sweep is given: the config, its plan, where the report and the journal go, and where
 * progress is shown. runner.h (the front door) and the sweep's own files share it. */
#ifndef NB_RUNNER_OPTS_H
#define NB_RUNNER_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "config/plan.h"
#include "kit/nb_paths.h"

struct nb_runner_opts {
	const struct nb_config *cfg;
	const struct nb_plan *plan;
	const struct nb_paths *paths;
	const char *report_path;   /* written once at the end; REPORT.record holds the runs until then */
	const char *journal_path;
	FILE *progress;            /* progress lines (stderr); NULL: quiet */
	bool progress_tty;         /* redraw in place */
	bool *changed;             /* set once the sweep may have changed something on the board */
};

#endif
