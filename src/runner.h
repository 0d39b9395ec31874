// SPDX-License-Identifier: MIT
/* The sweep: for each point {remember originals, apply knobs, run traffic while sampling,
 * record}, then restore every knob on every path out (end, error, signal). */
#ifndef NB_RUNNER_H
#define NB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "config/plan.h"
#include "report/report.h"
#include "run/runner_opts.h"
#include "run/stop_signal.h"


/* Run the whole plan into report. Every finished repetition is appended (fsync'd) to the run
 * record <report_path>.record, which the journal names, and the report is assembled from it
 * at the end; after a SIGKILL `nicbench knobs restore` assembles it. Returns 0 when every
 * point was attempted, -EINTR when a signal stopped it (knobs restored, report written with
 * the stopped point as incomplete),
 * -EEXIST when an earlier run's journal is still there (nothing changed), other -errno
 * on set-up failure. A restore failure is reported through err with the knob named. */
int nb_runner_run(const struct nb_runner_opts *o, struct nb_report *report, struct nb_err *err);

#endif
