// SPDX-License-Identifier: MIT
/* A watched child and the pipe it reports on: fork, the child's messages (start markers with
 * its CLOCK_MONOTONIC time, then one report: a fixed part and a tail whose length the fixed part
 * tells), a deadline after which the parent kills it, and reaping. The traffic clients run
 * their children through it by way of traffic_run.c; nicbench serve's iperf3 server directly. */
#ifndef NB_CHILD_LINK_H
#define NB_CHILD_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "kit/nb_error.h"

/* What a kind of child sends, and what its parent does with it. */
struct nb_child_ops {
	size_t report_fixed;                          /* bytes of the report's fixed part */
	size_t (*report_tail)(const void *fixed);     /* bytes that follow it; NULL: none */
	size_t max_output;                            /* a child that writes more is killed */
	double (*deadline)(const void *ctx);          /* when the report is due (monotonic s); NULL: never */
	void (*on_late)(void *ctx);                   /* the deadline passed without a report: say why */
};

/* The parent's end of a child: its pid, the pipe, and what has arrived. */
struct nb_child_link {
	const struct nb_child_ops *ops;
	void *ctx;
	pid_t pid;
	pid_t parent;          /* who forked: the child checks it is still there */
	double forked_at;      /* monotonic s */
	double started_at;     /* the latest start marker's time, -1 before the first */
	int markers;           /* start markers so far: one per attempt */
	pid_t worker_pid;      /* the process the child runs the traffic in (the iperf3 program), 0: itself */
	int fd;                /* the parent's read end; in the child, its write end */
	char *buf;
	size_t len, cap;
	size_t parsed;         /* bytes of buf already split into messages */
	bool eof;
	bool reaped;
	bool late;             /* killed at the deadline (on_late was called) */
	bool killed_on_request;
	int status;            /* wait status once reaped; -1: could not be reaped */
	struct rusage ru;
	bool have_report;
	size_t report_off;     /* offset of the report's fixed part in buf */
	char io_error[160];    /* why reading the pipe failed, "" when it did not */
};

/* Fork a child with a pipe to it. Returns 0 in both: l->pid == 0 in the child, which then
 * writes to l->fd. what names the child in errors ("start WHAT: fork: ..."). */
int nb_child_link_fork(struct nb_child_link *l, const struct nb_child_ops *ops, void *ctx, const char *what,
		       struct nb_err *err);

/* Child side: signals back to their defaults (SIGPIPE ignored), none blocked, killed with its
 * parent; exits when the parent is already gone. */
void nb_child_setup(pid_t parent);
void nb_child_send_marker(int fd, double t);
/* The traffic runs in another process (a program the child started): its pid, sent before the
 * attempt's start marker, so the parent's CPU figures follow that process. */
void nb_child_send_worker(int fd, pid_t pid);
void nb_child_send_report(int fd, const void *fixed, size_t fixed_len, const void *tail, size_t tail_len);

/* Parent side. Wait for up to timeout_ms (-1: until the deadline, or for ever without one):
 * returns 1 once the child is gone and reaped (also after a kill at the deadline), 0 when the
 * wait ended first (a signal, the timeout). */
int nb_child_link_wait(struct nb_child_link *l, int timeout_ms);
/* The report's fixed part (its tail follows it), or NULL before one arrived. Not aligned:
 * memcpy it out. */
const void *nb_child_link_report(const struct nb_child_link *l);
/* Kill on request (a signal stops the run); nothing when it is gone or was killed as late. */
void nb_child_link_kill(struct nb_child_link *l);
/* The timing of a traffic child: it must say it started within connect_s of the fork, and
 * report within run_s + grace_s of its latest start (run_s: omit + duration, plus any reply
 * timeout). The iperf3 and rr clients share it, and their watchdog message with it. */
struct nb_child_timing {
	double connect_s;
	double run_s;
	double grace_s;
	const char *run_parts; /* what run_s adds up, for the message: "omit + duration" */
};

/* When the report is due under t (monotonic s): for an ops->deadline. */
double nb_child_timing_deadline(const struct nb_child_link *l, const struct nb_child_timing *t);
/* Why the child was killed at that deadline, for its run's error: "CLIENT for PEER did not
 * start within the connect timeout (N s); killed" or "no result from CLIENT for PEER within N s
 * (RUN_PARTS N s, grace N s); killed". */
void nb_child_timing_late_message(char *buf, size_t len, const struct nb_child_link *l,
				  const struct nb_child_timing *t, const char *client, const char *peer);
/* "WHO could not be reaped" / "WHO died from signal N (name) without a result" / "... exited". */
void nb_child_describe_exit(char *buf, size_t len, const char *who, int status);
void nb_child_link_release(struct nb_child_link *l);

#endif
