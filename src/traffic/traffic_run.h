// SPDX-License-Identifier: MIT
/* One traffic run, whichever client makes it (libiperf's, the rr client): the life cycle they
 * share (a watched child with a watchdog, then reap and verdict) and the one face the runner
 * sees (link to wait on and kill, finish into a plain result, what the result needs after the
 * measured window). A client is a struct nb_traffic_kind; iperf_driver.c and rr_run.c
 * each define one. */
#ifndef NB_TRAFFIC_RUN_H
#define NB_TRAFFIC_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "traffic/child_link.h"

enum nb_run_status { NB_RUN_OK = 0, NB_RUN_FAILED, NB_RUN_TIMEOUT };

/* How long a client may take to start its traffic when its params say 0. */
#define NB_TRAFFIC_DEFAULT_CONNECT_TIMEOUT_MS 5000

struct nb_hist;
struct nb_traffic_run;

/* What one run gave, in the terms every client shares. */
struct nb_traffic_result {
	enum nb_run_status status;
	char error[512];               /* why, when not ok */
	struct nb_metric_set metrics;  /* the client's own figures */
	int attempts;                  /* start markers: one per attempt (the iperf3 client retries) */
	int client_errno;              /* the client library's error code (libiperf's i_errno), 0 when none */
	char *raw_json;                /* the client's own output (iperf3's JSON), malloc'd; NULL when none */
	struct nb_hist *hist;          /* the window's latency, all flows merged (rr), malloc'd; NULL when none */
};

/* A kind of traffic client: what it does at each step of the shared life cycle. */
struct nb_traffic_kind {
	/* its report's layout and limits; .deadline and .on_late are nb_traffic_deadline and
	 * nb_traffic_late, with the run as ctx */
	struct nb_child_ops child;
	/* In the forked child: run the test, send markers and one report, _exit. */
	void (*child_main)(struct nb_traffic_run *r) __attribute__((noreturn));
	/* The child's report (nb_child_link_report) into res, status included. */
	void (*fill)(const struct nb_traffic_run *r, struct nb_traffic_result *res);
	/* After the window's metrics joined the client's in m, on an ok run: the figures that
	 * need both (rr: per transaction). NULL: none. */
	void (*derive)(struct nb_metric_set *m);
	/* cpu_other_pct is worked out for its runs (foreign load: a reason to repeat a point).
	 * The rr client's runs have gone without it so far. */
	bool figures_foreign_load;
};

/* The parent's end of a run. A client embeds it as the first member of its own run struct
 * (nb_traffic_finish frees that whole struct through this pointer). */
struct nb_traffic_run {
	const struct nb_traffic_kind *kind;
	char client[48];       /* "iperf3 client", "udp-rr client": names the child in messages */
	char test[48];         /* "iperf3 TCP RX", "udp-rr": names the test in messages */
	char peer[300];        /* "host:port", "[v6]:port" */
	struct nb_child_link link;
	struct nb_child_timing timing;
	char timeout_msg[512]; /* the watchdog's message, when it fired */
};

/* For a client's start: r (zeroed but for kind, client, test, peer and timing) gets its child.
 * In the child kind->child_main runs and never returns. 0 or -errno (r not forked). */
int nb_traffic_fork(struct nb_traffic_run *r, struct nb_err *err);
/* The shared watchdog, for a kind's child ops. */
double nb_traffic_deadline(const void *run);
void nb_traffic_late(void *run);

/* The watched child (child_link.h): nb_child_link_wait for news and the watchdog, started_at
 * for when the attempt now running began, pid, and nb_child_link_kill (finish still follows). */
struct nb_child_link *nb_traffic_link(struct nb_traffic_run *r);
/* Reap the child, fill res, free r. 0 whenever res describes the run, whatever its status
 * (FAILED and TIMEOUT are results, with res->error saying why); a negative errno only when
 * no result could be formed (res->status is then FAILED too). */
int nb_traffic_finish(struct nb_traffic_run *r, struct nb_traffic_result *res, struct nb_err *err);
void nb_traffic_result_release(struct nb_traffic_result *res);

/* "host:port", or "[host]:port" for an IPv6 address. */
void nb_traffic_format_peer(char *buf, size_t len, const char *host, int port);

#endif
