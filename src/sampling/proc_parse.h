// SPDX-License-Identifier: MIT
/* Pure parsers for the /proc and /sys text the sampler reads: no I/O, no allocation,
 * hand-written because they run every 100 ms while traffic flows. */
#ifndef NB_PROC_PARSE_H
#define NB_PROC_PARSE_H

#include <stdint.h>

#include "sampling/snapshot.h"

/* /proc/stat: the "cpu" and "cpuN" lines (all ten columns; missing trailing columns of old
 * kernels read as 0). Fills cpu_all, cpu[], cpu_present[], ncpus, ncpus_online. Returns
 * the number of cpuN lines, -EINVAL without a "cpu" line. */
int nb_parse_proc_stat(const char *text, struct nb_snapshot *snap);
/* The same file for the raw series: only the "cpu" line's ticks and the number of cpuN lines.
 * Returns that number, -EINVAL without a "cpu" line. */
int nb_parse_proc_stat_total(const char *text, struct nb_cpu_ticks *all, int *online);

/* /proc/softirqs: the NET_TX and NET_RX rows, columns mapped to CPUs by the "CPUn" header.
 * Fills net_tx[] and net_rx[]. Returns 0, -ENOENT when a row is missing, -EINVAL. */
int nb_parse_softirqs(const char *text, struct nb_snapshot *snap);

/* /proc/net/softnet_stat: hex columns 1-3 (processed, dropped, time_squeeze) summed over
 * the rows; extra columns (13 on 6.1, 15 on 6.4+) are ignored. Returns rows, -EINVAL. */
int nb_parse_softnet(const char *text, struct nb_snapshot *snap);

/* /proc/net/snmp: the "Udp:" header and value lines, matched by column name. Returns 0,
 * -ENOENT when the lines or a needed column are missing. */
int nb_parse_snmp_udp(const char *text, struct nb_snapshot *snap);

/* /proc/PID/stat: utime + stime (fields 14 and 15, counted after the ")" that ends the
 * command name, which may itself hold spaces and parentheses). Returns 0 or -EINVAL. */
int nb_parse_pid_stat_ticks(const char *text, uint64_t *ticks);

/* /proc/PID/stat: the parent (field 4), the flags (field 9) and utime + stime + cutime + cstime
 * (fields 14-17), a process's time with that of the children it reaped. Returns 0 or -EINVAL. */
int nb_parse_pid_stat_all(const char *text, int *ppid, unsigned *flags, uint64_t *ticks);

/* /sys/kernel/irq/N/per_cpu_count: "3,0,17"; each count is added to per_cpu[cpu] for
 * cpu < max. Returns the number of counts or -EINVAL. */
int nb_parse_per_cpu_count(const char *text, uint64_t *per_cpu, int max);

/* A decimal sysfs value with optional trailing whitespace. Returns 0 or -EINVAL. */
int nb_parse_u64(const char *text, uint64_t *out);

#endif
