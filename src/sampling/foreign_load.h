// SPDX-License-Identifier: MIT
/* Foreign load: CPU time that is neither the test's nor nicbench's (NB_FOREIGN_LOAD_PCT), told
 * apart by identity (pid, parent, kernel-thread flag, the local peer's process tree), and the
 * idle check that watches the machine before a sweep. */
#ifndef NB_SAMPLING_FOREIGN_LOAD_H
#define NB_SAMPLING_FOREIGN_LOAD_H

#include <stdbool.h>

#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "sampling/peer_local.h"

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

#endif
