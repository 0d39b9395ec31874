// SPDX-License-Identifier: MIT
/* The sweep's stop flag, set by a signal and read by every loop of the run. */
#ifndef NB_STOP_SIGNAL_H
#define NB_STOP_SIGNAL_H

#include <stdbool.h>

/* Install SIGINT/SIGTERM/SIGHUP handlers that only set a flag (the sweep stops at the
 * next check, kills the traffic child and restores), and ignore SIGPIPE. */
void nb_runner_install_signals(void);
/* The signal that stopped the sweep, 0 when none. */
int nb_runner_stop_signal(void);

/* Sleep that a stop signal cuts short. Returns false when stopped. */
bool nb_sleep_unless_stopped(double seconds);

#endif
