/* The sampler: cheap snapshots of kernel counters while traffic flows, and pure
 * functions that turn two snapshots into named metrics. */
#ifndef NB_CPU_SAMPLER_H
#define NB_CPU_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "metrics.h"
#include "nb_error.h"
#include "nb_paths.h"

#define NB_MAX_CPUS 256
#define NB_MAX_IRQS 64

struct nb_cpu_ticks {
	/* /proc/stat columns in USER_HZ ticks, in kernel order */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
};

/* One moment's counters. *_present says whether the kernel gave the counter. */
struct nb_snapshot {
	double t;                 /* CLOCK_MONOTONIC seconds */
	int ncpus;
	struct nb_cpu_ticks cpu[NB_MAX_CPUS];
	bool softirqs_present;
	uint64_t net_rx[NB_MAX_CPUS], net_tx[NB_MAX_CPUS];  /* /proc/softirqs */
	bool irqs_present;        /* the interface has IRQs in /proc/interrupts */
	uint64_t irq_count[NB_MAX_CPUS];                    /* summed over the interface's IRQs */
	bool softnet_present;
	uint64_t softnet_processed, softnet_dropped, softnet_time_squeeze; /* summed over CPUs */
	bool udp_present;
	uint64_t udp_in_datagrams, udp_no_ports, udp_in_errors, udp_rcvbuf_errors,
		 udp_sndbuf_errors, udp_in_csum_errors;
	bool netdev_present;
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped, tx_dropped,
		 rx_errors, tx_errors;
	bool napi_threads_present;  /* at least one napi/<iface>-N thread exists */
	int napi_threads;
	uint64_t napi_thread_ticks;  /* utime + stime summed, clock ticks */
	bool traffic_present;
	uint64_t traffic_ticks;      /* utime + stime of the traffic process and its threads */
};

struct nb_sampler_target {
	const struct nb_paths *paths;
	const char *iface;
	pid_t traffic_pid;  /* 0: none yet; see nb_sampler_set_traffic_pid */
};

struct nb_sampler;

/* Open what can be kept open and find the interface's IRQs and NAPI threads. */
int nb_sampler_new(const struct nb_sampler_target *t, struct nb_sampler **out, struct nb_err *err);
void nb_sampler_set_traffic_pid(struct nb_sampler *s, pid_t pid);
/* Re-scan for napi/ threads (threaded may have changed between points). */
int nb_sampler_rescan(struct nb_sampler *s, struct nb_err *err);
/* Fill snap with the counters now. Missing sources leave *_present false. */
int nb_sampler_snapshot(struct nb_sampler *s, struct nb_snapshot *snap, struct nb_err *err);
void nb_sampler_free(struct nb_sampler *s);

/* Pure: metrics over the interval a -> b. Names (percent of the whole machine unless
 * per-CPU): cpu_busy_pct, user_pct, system_pct, irq_pct, softirq_pct, cpuN_busy_pct,
 * cpuN_softirq_pct, napi_thread_pct, traffic_proc_pct, net_rx_softirqs_per_s,
 * net_tx_softirqs_per_s, interrupts_per_s, rx_packets_per_s, tx_packets_per_s,
 * rx_dropped, tx_dropped, softnet_dropped, time_squeeze, udp_in_errors, udp_rcvbuf_errors, ... */
void nb_snapshot_delta(const struct nb_snapshot *a, const struct nb_snapshot *b,
		       struct nb_metric_set *out);

#endif
