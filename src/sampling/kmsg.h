// SPDX-License-Identifier: MIT
/* The kernel log lines of a point, read from /dev/kmsg: warnings and worse, and lines that
 * name the interface or a transmit timeout, capped in count and length. */
#ifndef NB_KMSG_H
#define NB_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_KMSG_MAX_LINES 32
#define NB_KMSG_LINE_MAX 200
#define NB_KMSG_WARNING 4  /* syslog level: kept when <= this */

struct nb_kmsg_line {
	int level;           /* 0 emerg .. 7 debug */
	uint64_t seq;
	uint64_t ts_us;      /* since boot, as the kernel stamps it */
	char text[NB_KMSG_LINE_MAX];  /* cut, when longer */
};

struct nb_kmsg_log {
	bool present;        /* false: why (no /dev/kmsg, not readable) */
	char why[160];
	int n;
	int over_cap;        /* kept lines past NB_KMSG_MAX_LINES: counted, not stored */
	int lost;            /* records overwritten in the ring before they were read */
	struct nb_kmsg_line line[NB_KMSG_MAX_LINES];
};

/* Pure: one /dev/kmsg record "PRI,SEQ,TS,FLAGS[,...];TEXT\n[ KEY=VALUE\n...]". 0 or -EINVAL. */
int nb_kmsg_parse(const char *rec, size_t len, struct nb_kmsg_line *out);

/* Pure: keep a line at level <= max_level, or naming iface (as a word), "NETDEV WATCHDOG" or
 * "timed out". */
bool nb_kmsg_wanted(const struct nb_kmsg_line *l, const char *iface, int max_level);

/* Pure: add a wanted line (or count it past the cap). */
void nb_kmsg_log_add(struct nb_kmsg_log *log, const struct nb_kmsg_line *l);

struct nb_kmsg;

/* Open /dev/kmsg at its end. Never fails: a reader that cannot read says why in every log. */
struct nb_kmsg *nb_kmsg_open(const char *path, const char *iface);
void nb_kmsg_close(struct nb_kmsg *k);
/* Drop what was logged since the last read (between points). */
void nb_kmsg_skip(struct nb_kmsg *k);
/* Append what was logged since the last read to log (marked present, or not with why). */
void nb_kmsg_collect(struct nb_kmsg *k, struct nb_kmsg_log *log);

#endif
