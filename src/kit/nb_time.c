// SPDX-License-Identifier: MIT
/* CLOCK_MONOTONIC as seconds, shared by the runner, the sampler and the iperf driver. */
#include "kit/nb_time.h"

#include <time.h>

double nb_monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
