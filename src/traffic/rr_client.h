// SPDX-License-Identifier: MIT
/* tcp-rr and udp-rr: request/response flows against nicbench serve's rr port, in a forked
 * child the parent watches (as the iperf driver does), with latency from a merged histogram. */
#ifndef NB_RR_CLIENT_H
#define NB_RR_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "traffic/latency_hist.h"
#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "traffic/traffic_run.h"

struct nb_rr_params {
	const char *host;
	int port;
	bool udp;
	int flows;             /* connections (TCP) or sockets (UDP), each one transaction at a time when closed */
	int request, response; /* bytes, header included (16..65507) */
	double rate_tps;       /* open loop: transactions per second across all flows; 0 = closed loop */
	int timeout_ms;        /* UDP: a request unanswered this long is lost */
	int duration_s, omit_s;
	int cpu;               /* pin the client child; -1 = no */
	int connect_timeout_ms;
	int grace_ms;
};

/* The open-loop schedule: transaction k is due at start + k / rate and goes to flow k % flows.
 * Latency counts from the due time, not from when the send happened, so a client that
 * falls behind (or a server that stalls it) cannot hide the delay (no coordinated omission). */
struct nb_rr_schedule {
	uint64_t start_ns;
	double period_ns;
	uint64_t next;         /* index of the next transaction to send */
	int flows;
};

void nb_rr_schedule_init(struct nb_rr_schedule *s, uint64_t start_ns, double rate_tps, int flows);
uint64_t nb_rr_schedule_due_ns(const struct nb_rr_schedule *s, uint64_t k);
/* Take the next transaction if it is due at now_ns: 1 with its flow and due time, 0 when not yet. */
int nb_rr_schedule_take(struct nb_rr_schedule *s, uint64_t now_ns, int *flow, uint64_t *due_ns);

/* Start a tcp-rr or udp-rr run as the runner sees every traffic client (traffic/traffic_run.h):
 * nb_traffic_link's started_at is when the flows were connected and the run began; finish it with
 * nb_traffic_finish (0 whenever the result describes the run, FAILED/TIMEOUT included). The
 * result's metrics are rr_transactions_per_s, rr_latency_*_us, UDP lost/late..., its hist the
 * window's latency, all flows merged; the kind's derive adds the per-transaction figures
 * (nb_rr_derive_metrics). */
int nb_rr_start_traffic(const struct nb_rr_params *p, struct nb_traffic_run **out, struct nb_err *err);

/* Metrics per transaction from the window's system metrics and rr_transactions_per_s:
 * cpu_us_per_transaction (busy CPU time of all CPUs, the cpuN_busy_pct sum), and
 * interrupts_per_transaction / napi_polls_per_transaction where their rates exist. Pure. */
void nb_rr_derive_metrics(struct nb_metric_set *m);

/* Put the histogram's figures into m: rr_latency_{p50,p90,p99,p999,max,mean,min}_us. */
void nb_rr_latency_metrics(const struct nb_hist *h, struct nb_metric_set *m);

#endif
