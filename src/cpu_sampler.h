// SPDX-License-Identifier: MIT
/* The sampler: cheap snapshots of kernel counters while traffic flows. What a snapshot holds
 * and the pure functions over two of them are in sampling/snapshot.h. */
#ifndef NB_CPU_SAMPLER_H
#define NB_CPU_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "kit/nb_error.h"
#include "kit/nb_paths.h"
/* the stage's public parts: the snapshot and its deltas, and the foreign-load scans the runner
 * pairs with each measured window */
#include "sampling/foreign_load.h"
#include "sampling/snapshot.h"

struct nb_sampler_target {
	const struct nb_paths *paths;
	const char *iface;
	pid_t traffic_pid;  /* 0: none yet; see nb_sampler_set_traffic_pid */
	const char *irq_names;  /* the board's IRQ patterns (nb_irq_names_parse); NULL: by name */
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

/* Read the series' sources now: /proc/stat, the napi/ threads, rx_packets and tx_packets.
 * Like nb_sampler_snapshot, a source that fails to read is absent, not an error. */
void nb_sampler_series_snapshot(struct nb_sampler *s, struct nb_series_snapshot *snap);

#endif
