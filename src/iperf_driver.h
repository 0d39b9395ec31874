// SPDX-License-Identifier: MIT
/* Traffic through libiperf, or the iperf3 program (traffic/iperf_prog.h) where libiperf is not
 * the backend, one run in a forked child that the parent watches.
 * This file's .c is the only one that includes iperf_api.h. */
#ifndef NB_IPERF_DRIVER_H
#define NB_IPERF_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "traffic/traffic_run.h"

struct nb_iperf_params {
	const char *host;
	int port;
	bool udp;
	bool reverse;          /* RX tests: the peer sends (iperf3 -R) */
	int duration_s;
	int omit_s;
	int streams;
	uint64_t rate_bps;     /* UDP target rate; 0 = unlimited (-b0) */
	int length;            /* UDP datagram / TCP write size; 0 = default (TCP 128K, UDP 1460) */
	int cpu;               /* pin the traffic process to this CPU; -1 = no pinning */
	int connect_timeout_ms;/* how long the child may take before traffic starts (retries included) */
	int grace_ms;          /* past duration + omit + grace the child is killed */
	const char *program;   /* run this iperf3 program with --json (traffic/iperf_prog.h) instead of
				* libiperf; NULL: libiperf */
};

/* What iperf3's client JSON says of a test (nb_iperf_parse_json). */
struct nb_iperf_result {
	enum nb_run_status status;
	char error[512];       /* why, when not ok: "connect to 10.0.0.2:5201: Connection refused" */
	struct nb_metric_set metrics; /* throughput_bps, retransmits, lost_percent, jitter_ms,
				       * lost_packets, packets, iperf_host_cpu_pct, iperf_remote_cpu_pct */
};

/* Fork the child and start the test, as the runner sees every traffic client
 * (traffic/traffic_run.h): nb_traffic_link's started_at is when the attempt now running began
 * sending (< 0 before the child says so); nb_traffic_finish reaps it, and its result's raw_json
 * is iperf3's JSON, client_errno libiperf's i_errno, attempts the runs tried (retries on
 * busy/refused/reset). */
int nb_iperf_start_traffic(const struct nb_iperf_params *p, struct nb_traffic_run **out, struct nb_err *err);

/* Defaults used when a field of nb_iperf_params is 0 (length for UDP only). */
#define NB_IPERF_UDP_DEFAULT_LENGTH 1460
#define NB_IPERF_DEFAULT_CONNECT_TIMEOUT_MS NB_TRAFFIC_DEFAULT_CONNECT_TIMEOUT_MS

/* Read iperf3's client JSON into res->status, res->error and res->metrics. A JSON with an "error" key gives FAILED with that text. Returns 0,
 * or -EBADMSG when json is not a JSON object (res->status FAILED). Pure: no I/O. */
int nb_iperf_parse_json(const char *json, struct nb_iperf_result *res, struct nb_err *err);

/* The peer side (nicbench serve): one libiperf server test per forked child, so
 * the parent can restart after errors and charge each test its own CPU time. */
struct nb_iperf_serve_params {
	const char *bind;          /* local address to listen on; NULL = all */
	int port;
	double stats_interval_s;   /* libiperf's interval statistics (iperf3 -s -i); 0 = off */
	const char *program;       /* serve with this iperf3 program (--one-off --json); NULL: libiperf */
};

struct nb_iperf_serve_result {
	enum nb_run_status status; /* OK: one test served to its end */
	char error[512];
	int iperf_errno;
	bool served;               /* a client got as far as a test (JSON has test_start) */
	bool stopped;              /* the child was stopped by nb_iperf_server_stop */
	char client[96];           /* "host:port" of the client's control connection, "" if unknown */
	char protocol[8];          /* "TCP" / "UDP", "" if unknown */
	bool reverse;              /* the server sent the data (client ran -R) */
	int streams;
	double test_s;             /* measured test length from the server's JSON; 0 if unknown */
	double wall_s;             /* the child's whole life, waiting for the client included */
	double cpu_user_s;         /* the server child's own CPU time (wait4 rusage) */
	double cpu_sys_s;
	struct nb_metric_set metrics; /* server view: throughput_bps, iperf_host_cpu_pct, UDP loss ... */
};

struct nb_iperf_server;

/* Fork a child that listens and serves exactly one test. */
int nb_iperf_server_start(const struct nb_iperf_serve_params *p, struct nb_iperf_server **out,
			  struct nb_err *err);
pid_t nb_iperf_server_pid(const struct nb_iperf_server *s);
/* A descriptor that turns readable when the child reports or exits (for poll). */
int nb_iperf_server_fd(const struct nb_iperf_server *s);
/* Read what the child sent; wait up to timeout_ms (-1 = forever). 1 when it ended. */
int nb_iperf_server_wait(struct nb_iperf_server *s, int timeout_ms);
/* Send sig to the child (forwarding SIGINT/SIGTERM); finish still has to be called. */
void nb_iperf_server_stop(struct nb_iperf_server *s, int sig);
/* Reap the child, fill res from its report and rusage, free s. Same return rule as nb_iperf_finish. */
int nb_iperf_server_finish(struct nb_iperf_server *s, struct nb_iperf_serve_result *res, struct nb_err *err);
/* libiperf's version string ("3.12"), for the run header; "none" in a build without libiperf. */
const char *nb_iperf_version(void);

#endif
