/* Traffic through libiperf, one run in a forked child that the parent watches.
 * This file's .c is the only one that includes iperf_api.h. */
#ifndef NB_IPERF_DRIVER_H
#define NB_IPERF_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "metrics.h"
#include "nb_error.h"

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
};

enum nb_run_status { NB_RUN_OK = 0, NB_RUN_FAILED, NB_RUN_TIMEOUT };

struct nb_iperf_result {
	enum nb_run_status status;
	char error[512];       /* why, when not ok: "connect to 10.0.0.2:5201: Connection refused" */
	int iperf_errno;       /* libiperf i_errno, 0 when none */
	int attempts;          /* runs tried (retries on busy/refused/reset) */
	struct nb_metric_set metrics; /* throughput_bps, retransmits, lost_percent, jitter_ms,
				       * lost_packets, packets, iperf_host_cpu_pct, iperf_remote_cpu_pct */
	char *raw_json;        /* iperf's JSON output, malloc'd, NULL when none */
};

struct nb_iperf_run;

/* Fork the child and start the test. */
int nb_iperf_start(const struct nb_iperf_params *p, struct nb_iperf_run **out, struct nb_err *err);
pid_t nb_iperf_pid(const struct nb_iperf_run *r);
/* When traffic started (CLOCK_MONOTONIC seconds) of the attempt now running, or
 * a negative value while the child has not said so yet. Call nb_iperf_wait first. */
double nb_iperf_started_at(const struct nb_iperf_run *r);
/* Wait up to timeout_ms for news from the child (start marker, exit). Returns 1 when
 * the child has finished, 0 otherwise; enforces the watchdog (kills a late child). */
int nb_iperf_wait(struct nb_iperf_run *r, int timeout_ms);
/* Kill the child now (SIGINT handling); nb_iperf_finish still has to be called. */
void nb_iperf_kill(struct nb_iperf_run *r);
/* Reap the child, parse its JSON, fill res, free r. */
int nb_iperf_finish(struct nb_iperf_run *r, struct nb_iperf_result *res, struct nb_err *err);
void nb_iperf_result_release(struct nb_iperf_result *res);

#endif
