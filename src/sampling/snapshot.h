// SPDX-License-Identifier: MIT
/* A snapshot of the kernel counters the sampler reads, the lighter snapshot of the raw series,
 * and the pure functions that turn two of them into named metrics (sampling/cpu_delta.c). */
#ifndef NB_SAMPLING_SNAPSHOT_H
#define NB_SAMPLING_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kit/metrics.h"
#include "nic/iface_irqs.h"

#define NB_MAX_CPUS 256
#define NB_MAX_IRQS 64  /* the NIC's IRQs the sampler follows one by one */

struct nb_cpu_ticks {
	/* /proc/stat columns in USER_HZ ticks, in kernel order */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
};

/* A counter the kernel names (a statistics file, a /proc/net/snmp column) and the uint64_t of
 * struct nb_snapshot it lands in: the sampler's tables of such counters share this row. */
struct nb_snapshot_field {
	const char *name;
	size_t offset;
};

/* One moment's counters. *_present says whether the kernel gave the counter. */
struct nb_snapshot {
	double t;                 /* CLOCK_MONOTONIC seconds */
	long clk_tck;             /* ticks per second of the *_ticks fields (sysconf(_SC_CLK_TCK)) */
	unsigned int generation;  /* changes when a rescan changed the IRQ or NAPI thread set */
	int ncpus;                /* highest cpuN in /proc/stat + 1 (offline CPUs leave holes) */
	int ncpus_online;         /* cpuN lines in /proc/stat (sysconf when /proc/stat is missing) */
	bool cpu_all_present;     /* the "cpu" line: every CPU's ticks summed by the kernel */
	struct nb_cpu_ticks cpu_all;
	bool cpu_present[NB_MAX_CPUS];  /* a cpuN line was there (the CPU is online) */
	struct nb_cpu_ticks cpu[NB_MAX_CPUS];
	bool softirqs_present;
	uint64_t net_rx[NB_MAX_CPUS], net_tx[NB_MAX_CPUS];  /* /proc/softirqs */
	bool irqs_present;        /* the interface has IRQs in /proc/interrupts */
	uint64_t irq_count[NB_MAX_CPUS];                    /* summed over the interface's IRQs */
	bool irq_role_present[NB_IRQ_ROLES];                /* the interface has IRQs of that role */
	uint64_t irq_role_count[NB_IRQ_ROLES];              /* each role's IRQs summed over CPUs */
	int nirq_each;                                      /* the NIC's IRQs one by one, up to NB_MAX_IRQS: */
	int irq_each[NB_MAX_IRQS];                          /* their numbers */
	uint64_t irq_each_count[NB_MAX_IRQS];               /* and counts summed over CPUs */
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
	pid_t traffic_pid;
	uint64_t traffic_ticks;      /* utime + stime of the traffic process and its threads */
	int traffic_cpu;             /* CPU the traffic process last ran on (stat field 39); -1 unknown */
	bool peer_present;           /* the local peer's processes were read (nb_sampler_set_peer) */
	unsigned peer_generation;    /* which set of them */
	uint64_t peer_ticks;         /* their utime + stime + reaped children's; an exited one adds 0 */
};

/* Fewer packets than this in an interval: no kernel_cpu_ns_per_packet (the idle kernel's time
 * over a handful of ARP and ACK packets is no cost of the work). */
#define NB_COST_MIN_PACKETS 1000

/* Pure: metrics over the interval a -> b. A metric whose source was missing in either
 * snapshot, whose counter went backwards (CPU hotplug, 32-bit wrap) or whose interval is
 * not positive is left out; nothing is ever reported as a negative or made-up 0.
 *
 * CPU convention: every machine-wide *_pct is percent of all online CPUs' time, like
 * top's summary line (100 = every CPU busy; on a 1-core board the same as one CPU);
 * cpuN_*_pct is percent of that one CPU.
 *   cpu_busy_pct     (total - idle - iowait) / total; steal counts as busy
 *   cpu_unaccounted_pct  wall time x online CPUs that no /proc/stat column holds (tickless
 *                    kernels lose interrupt work taken from idle, VMs may lose unreported
 *                    steal): cpu_busy_pct may be short by up to this much
 *   user_pct         user + nice (guest time is already inside user)
 *   steal_pct        time a hypervisor gave this guest's CPUs to others (a VM's host load)
 *   system_pct, irq_pct, softirq_pct
 *   napi_thread_pct  CPU time of the interface's napi/<iface>-N kthreads (it shows as
 *                    system time, so it is part of system_pct, not softirq_pct)
 *   traffic_proc_pct CPU time of the traffic process (all its threads)
 *   peer_proc_pct    CPU time of the local peer's server and its descendants
 *                    (both: ticks / clk_tck / interval / b.ncpus_online)
 *   napi_threads     how many napi/ kthreads were found (at the last rescan)
 *   traffic_cpu_open, traffic_cpu_close  the CPU the traffic process (its main thread) last
 *                    ran on at each edge of the interval (a sample, not a share)
 *   cpuN_busy_pct, cpuN_user_pct, cpuN_system_pct, cpuN_irq_pct, cpuN_softirq_pct
 * Rates per second: net_rx_softirqs_per_s, net_tx_softirqs_per_s, interrupts_per_s
 * (the interface's IRQs, all CPUs), irq_rx_per_s, irq_tx_per_s, irq_txrx_per_s, irq_misc_per_s
 * (the IRQs of one role, for the roles the interface has), cpuN_interrupts_per_s (the
 * interface's IRQs taken on CPU N), rx_packets_per_s, tx_packets_per_s, rx_bytes_per_s,
 * tx_bytes_per_s, softnet_processed_per_s, udp_in_datagrams_per_s.
 * Counts over the interval: rx_dropped, tx_dropped, rx_errors, tx_errors, softnet_dropped,
 * time_squeeze, udp_in_errors, udp_rcvbuf_errors, udp_sndbuf_errors, udp_no_ports,
 * udp_in_csum_errors.
 * kernel_cpu_ns_per_packet  (system + irq + softirq ticks of all CPUs) / clk_tck x 1e9 over the
 *                  packets the interface received and sent; left out below NB_COST_MIN_PACKETS.
 * Machine-wide metrics are put first, so a set too small for many CPUs loses per-CPU ones. */
void nb_snapshot_delta(const struct nb_snapshot *a, const struct nb_snapshot *b,
		       struct nb_metric_set *out);

/* ---- the raw series ----
 * Between the window's edges the runner keeps a few machine-wide figures every interval.
 * A series snapshot holds only what they need, so taking one costs a /proc/stat read, the
 * napi/ threads' stat files and two sysfs counters, and no per-CPU bookkeeping: at a 100 ms
 * interval that wake is most of nicbench's own CPU while traffic flows. */
enum nb_series_field {
	NB_SERIES_CPU_BUSY, NB_SERIES_SOFTIRQ, NB_SERIES_IRQ, NB_SERIES_NAPI_THREAD,
	NB_SERIES_RX_PPS, NB_SERIES_TX_PPS, NB_SERIES_FIELDS
};
/* Named as the metrics of nb_snapshot_delta they sample: cpu_busy_pct, softirq_pct, ... */
extern const char *const nb_series_field_names[NB_SERIES_FIELDS];

struct nb_series_snapshot {
	double t;
	long clk_tck;
	unsigned int generation;
	int ncpus_online;
	bool cpu_all_present;
	struct nb_cpu_ticks cpu_all;
	bool napi_threads_present;
	uint64_t napi_thread_ticks;
	bool packets_present;
	uint64_t rx_packets, tx_packets;
};

/* The series part of a full snapshot (the window's first point). Pure. */
void nb_series_from_snapshot(const struct nb_snapshot *full, struct nb_series_snapshot *out);
/* Pure: the series over a -> b, with the same arithmetic and the same rules for absent or
 * backwards counters as nb_snapshot_delta; a figure it would leave out is NAN here. */
void nb_series_delta(const struct nb_series_snapshot *a, const struct nb_series_snapshot *b,
		     double out[NB_SERIES_FIELDS]);

#endif
