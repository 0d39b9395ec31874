// SPDX-License-Identifier: MIT
/* The sweep: for each point {remember originals, apply knobs, run traffic while sampling,
 * record}, then restore every knob on every path out (end, error, signal). */
#ifndef NB_RUNNER_H
#define NB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "plan.h"
#include "report.h"

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

/* Install SIGINT/SIGTERM/SIGHUP handlers that only set a flag (the sweep stops at the
 * next check, kills the traffic child and restores), and ignore SIGPIPE. */
void nb_runner_install_signals(void);
/* The signal that stopped the sweep, 0 when none. */
int nb_runner_stop_signal(void);

/* Run the whole plan into report. Every finished repetition is appended (fsync'd) to the run
 * record <report_path>.record, which the journal names, and the report is assembled from it
 * at the end; after a SIGKILL `nicbench knobs restore` assembles it. Returns 0 when every
 * point was attempted, -EINTR when a signal stopped it (knobs restored, report written with
 * the stopped point as incomplete),
 * -EEXIST when an earlier run's journal is still there (nothing changed), other -errno
 * on set-up failure. A restore failure is reported through err with the knob named. */
int nb_runner_run(const struct nb_runner_opts *o, struct nb_report *report, struct nb_err *err);

#endif
