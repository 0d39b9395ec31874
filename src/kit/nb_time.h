// SPDX-License-Identifier: MIT
/* The one clock nicbench measures intervals with. */
#ifndef NB_TIME_H
#define NB_TIME_H

/* CLOCK_MONOTONIC in seconds: immune to wall-clock steps during a run. */
double nb_monotonic_s(void);

#endif
