// SPDX-License-Identifier: MIT
/* The sampler: cheap snapshots of kernel counters while traffic flows, and pure
 * functions that turn two snapshots into named metrics. */
#ifndef NB_CPU_SAMPLER_H
#define NB_CPU_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "sampling/peer_local.h"

#define NB_MAX_CPUS 256
#define NB_MAX_IRQS 64

struct nb_cpu_ticks {
	/* /proc/stat columns in USER_HZ ticks, in kernel order */
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
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
	bool peer_present;           /* the local peer's processes were read (nb_sampler_set_peer) */
	unsigned peer_generation;    /* which set of them */
	uint64_t peer_ticks;         /* their utime + stime + reaped children's; an exited one adds 0 */
};

struct nb_sampler_target {
	const struct nb_paths *paths;
	const char *iface;
	pid_t traffic_pid;  /* 0: none yet; see nb_sampler_set_traffic_pid */
};

struct nb_sampler;

/* Sources a snapshot reads (nb_sampler_set_sources). Costs per snapshot measured hot on the
 * 2-vCPU development VM (bench/sampler-cost; 3-4x more when the caches went cold in a 100 ms sleep): /proc/net/snmp is the dearest (~10-15 us),
 * then /proc/stat (~6 us), the 8 netdev statistics files (~1 us each), each /proc/PID/stat
 * (~2.5 us), softirqs and softnet_stat (~2 us each). */
enum nb_sample_source {
	NB_SRC_CPU = 1u << 0,       /* /proc/stat */
	NB_SRC_SOFTIRQS = 1u << 1,  /* /proc/softirqs */
	NB_SRC_IRQS = 1u << 2,      /* the interface's IRQ counts */
	NB_SRC_SOFTNET = 1u << 3,   /* /proc/net/softnet_stat */
	NB_SRC_UDP = 1u << 4,       /* /proc/net/snmp */
	NB_SRC_NETDEV = 1u << 5,    /* <sys>/class/net/IF/statistics */
	NB_SRC_NAPI = 1u << 6,      /* napi/<iface>-N kthreads */
	NB_SRC_TRAFFIC = 1u << 7,   /* the traffic process */
	NB_SRC_PEER = 1u << 8,      /* the local peer's processes */
	NB_SRC_ALL = 0x1ffu,
};

/* Open what can be kept open and find the interface's IRQs and NAPI threads. NAPI threads
 * are found by comm, which the kernel cuts to 15 characters: with interface names of 10 or
 * more characters, threads of interfaces sharing the first 10 are counted together.
 * Files stay open, so the <proc>/net files keep showing the network namespace the caller
 * was in at this call. -EINVAL for a bad interface name, -ENODEV when <sys>/class/net/<iface>
 * is missing (sysfs shows the network namespace it was mounted in), -ENOMEM. */
int nb_sampler_new(const struct nb_sampler_target *t, struct nb_sampler **out, struct nb_err *err);
void nb_sampler_set_traffic_pid(struct nb_sampler *s, pid_t pid);
/* The local peer's processes (a server and its descendants, nb_peer_tree), read at each full
 * snapshot; n = 0: none. A process that exits counts 0 from then on: its time is in its
 * parent's reaped-children time, and the parent is in the set. */
#define NB_MAX_PEER_PIDS 16
void nb_sampler_set_peer(struct nb_sampler *s, const int *pids, int n);
/* Which sources the following snapshots read (NB_SRC_ALL after nb_sampler_new). A skipped
 * source is absent from the snapshot, so its metrics are absent from any delta that uses it
 * (bench/sampler-cost prices the sources one by one this way). */
void nb_sampler_set_sources(struct nb_sampler *s, unsigned int sources);
/* Re-scan for napi/ threads (threaded may have changed between points) and IRQs. If the
 * set changed, snap.generation changes and metrics spanning the rescan are left out:
 * take a fresh first snapshot after a rescan. */
int nb_sampler_rescan(struct nb_sampler *s, struct nb_err *err);
/* Fill snap with the counters now. Missing sources leave *_present false; a source that
 * fails to read is missing, not an error. A napi thread or traffic process that exited
 * keeps its last CPU time. No allocation, one pread per open file. */
int nb_sampler_snapshot(struct nb_sampler *s, struct nb_snapshot *snap, struct nb_err *err);
void nb_sampler_free(struct nb_sampler *s);

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
 *   cpuN_busy_pct, cpuN_user_pct, cpuN_system_pct, cpuN_irq_pct, cpuN_softirq_pct
 * Rates per second: net_rx_softirqs_per_s, net_tx_softirqs_per_s, interrupts_per_s
 * (the interface's IRQs, all CPUs), rx_packets_per_s, tx_packets_per_s, rx_bytes_per_s,
 * tx_bytes_per_s, softnet_processed_per_s, udp_in_datagrams_per_s.
 * Counts over the interval: rx_dropped, tx_dropped, rx_errors, tx_errors, softnet_dropped,
 * time_squeeze, udp_in_errors, udp_rcvbuf_errors, udp_sndbuf_errors, udp_no_ports,
 * udp_in_csum_errors.
 * Machine-wide metrics are put first, so a set too small for many CPUs loses per-CPU ones. */
void nb_snapshot_delta(const struct nb_snapshot *a, const struct nb_snapshot *b,
		       struct nb_metric_set *out);

/* ---- foreign load: CPU that is neither the test nor nicbench (NB_FOREIGN_LOAD_PCT) ---- */

/* Pure: from a run's merged metrics, put cpu_other_pct = cpu_busy_pct minus what is the
 * test's own: irq_pct and softirq_pct (the network stack's, whoever was interrupted),
 * napi_thread_pct, traffic_proc_pct, nicbench itself (nicbench_cpu_ms_per_s) and the local
 * peer: peer_proc_pct when it was found by its socket, else with peer_local its iperf3
 * server's self-report (iperf_remote_cpu_pct, % of one core). Never below 0.
 * Interrupt ticks charged to a process count twice, so this is a lower bound. Left out when
 * a term it needs is absent (then it cannot tell foreign load from the test's own). */
void nb_metrics_put_cpu_other(struct nb_metric_set *m, int ncpus, bool peer_local);

/* Foreign load measured from the other processes' own CPU time: the residual above misses
 * what it cannot tell from the test (a compiler at half the machine during a TCP TX run read
 * 0), and reads the peer's share from iperf3's self-report. A scan keeps, per process that is
 * neither a kernel thread, nicbench or its children, nor the local peer (found: its server and
 * descendants; not found but peer_local: an iperf3 by name), its user and system ticks plus
 * those of its reaped children, so that a build's short-lived compilers count through their
 * make or shell. */
struct nb_foreign_scan;

struct nb_foreign_scan *nb_foreign_scan_new(void);
void nb_foreign_scan_free(struct nb_foreign_scan *s);
/* Scan <proc>/PID/stat now; self is nicbench's pid. Returns 0, -errno. */
int nb_foreign_scan_take(const struct nb_paths *paths, int self, bool peer_local, const struct nb_peer_local *peer,
			 struct nb_foreign_scan *s);
/* The peer's servers and their descendants now, into pids (at most max): one /proc walk.
 * Returns how many, or -errno. */
int nb_peer_tree(const struct nb_paths *paths, const struct nb_peer_local *peer, int *pids, int max);
/* The other processes' CPU between two scans, % of ncpus CPUs; NAN when it cannot tell. A
 * process only in the later scan started in between and counts whole; so does a child a
 * process reaps in between (its cutime), which can overstate: capped at 100%. */
double nb_foreign_scan_pct(const struct nb_foreign_scan *open, const struct nb_foreign_scan *close, int ncpus);
/* Whether the scan holds pid (counted as another program's). */
bool nb_foreign_scan_has(const struct nb_foreign_scan *s, int pid);
/* Pure: cpu_other_pct becomes the larger of the residual (nb_metrics_put_cpu_other) and the
 * measured share, which each miss what the other sees (the residual subtracts ticks charged
 * twice; the scan misses a process that came and went unreaped). NAN: unchanged. */
void nb_metrics_raise_cpu_other(struct nb_metric_set *m, double measured_pct);

#define NB_IDLE_BUSIEST 3
struct nb_idle_check {
	double seconds;           /* how long the machine was watched */
	bool busy_present;        /* /proc/stat could be read at both ends */
	double busy_pct;          /* busy share of all CPUs, nicbench itself left out */
	int nbusiest;
	struct {
		int pid;
		char comm[16];
		double core_pct;  /* % of one core over the check */
	} busiest[NB_IDLE_BUSIEST];
};

/* Watch the machine for `seconds` before the first point: <proc>/stat and every
 * <proc>/PID/stat at both ends; the busiest processes that were there at both ends
 * (this process left out). Processes that come and go inside the check count in busy_pct
 * only. Returns 0, -ENOMEM, or -ENOENT when <proc>/stat is unreadable. */
int nb_idle_check_run(const struct nb_paths *paths, double seconds, struct nb_idle_check *out, struct nb_err *err);

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

/* Read the series' sources now: /proc/stat, the napi/ threads, rx_packets and tx_packets.
 * Like nb_sampler_snapshot, a source that fails to read is absent, not an error. */
void nb_sampler_series_snapshot(struct nb_sampler *s, struct nb_series_snapshot *snap);
/* The series part of a full snapshot (the window's first point). Pure. */
void nb_series_from_snapshot(const struct nb_snapshot *full, struct nb_series_snapshot *out);
/* Pure: the series over a -> b, with the same arithmetic and the same rules for absent or
 * backwards counters as nb_snapshot_delta; a figure it would leave out is NAN here. */
void nb_series_delta(const struct nb_series_snapshot *a, const struct nb_series_snapshot *b,
		     double out[NB_SERIES_FIELDS]);

#endif
