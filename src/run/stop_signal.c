// SPDX-License-Identifier: MIT
/* The sweep's stop flag: SIGINT/SIGTERM/SIGHUP only set it, and every loop of the run (points,
 * repetitions, the waits between them) checks it, so a stop always goes through the restore. */
#include "run/stop_signal.h"

#include <poll.h>
#include <signal.h>
#include <string.h>

#include "kit/nb_time.h"

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void nb_runner_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: poll() and sleeps must return so the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int nb_runner_stop_signal(void)
{
	return stop_signal;
}

/* Sleep that a stop signal cuts short. Returns false when stopped. */
bool nb_sleep_unless_stopped(double seconds)
{
	double until = nb_monotonic_s() + seconds;

	while (!stop_signal) {
		double left = until - nb_monotonic_s();

		if (left <= 0)
			return true;
		poll(NULL, 0, (int)(left * 1000) + 1);
	}
	return false;
}
