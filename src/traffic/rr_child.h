// SPDX-License-Identifier: MIT
/* Between the rr client's child (rr_client.c: the flows' sockets) and the parent that watches it
 * (rr_run.c): the child's entry point and the fixed-size report it writes back before it exits. */
#ifndef NB_RR_CHILD_H
#define NB_RR_CHILD_H

#include <stdint.h>
#include <sys/types.h>

#include "traffic/rr_client.h"

enum nb_rr_report_kind { NB_RR_REPORT_OK, NB_RR_REPORT_FAILED, NB_RR_REPORT_TIMEOUT };

/* What the child sends its parent: this, then a struct nb_hist when has_hist. */
struct nb_rr_report {
	int32_t kind;          /* enum nb_rr_report_kind */
	uint32_t has_hist;     /* a struct nb_hist follows */
	uint64_t transactions, lost, late, unsent;
	uint64_t answered, cpu_ns;  /* every answer of the run, omit and drain included, and the CPU they took */
	char message[448];
};

/* The forked child: connect p's flows, run them for the window, report on report_fd and _exit.
 * parent: the pid it dies with (nb_child_setup). */
void nb_rr_client_child(const struct nb_rr_params *p, int report_fd, pid_t parent) __attribute__((noreturn));

#endif
