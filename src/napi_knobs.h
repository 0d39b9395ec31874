// SPDX-License-Identifier: MIT
/* The knob table: every tunable nicbench sweeps, as a row with read, write and read-back.
 * Writes never leave the named interface's own sysfs attributes and its own IRQs. */
#ifndef NB_NAPI_KNOBS_H
#define NB_NAPI_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/netdev_nl.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"

#define NB_KNOB_VALUE_MAX 64

struct nb_knob_target {
	const struct nb_paths *paths; /* sysfs/proc roots (nb_paths_live on a board) */
	const char *iface;            /* validated interface name */
};

/* Names: threaded, gro_flush_timeout, napi_defer_hard_irqs, irq_suspend_timeout, rx-usecs,
 * rx-frames, tx-usecs, tx-frames, adaptive-rx, adaptive-tx, irq_affinity, mtu.
 * The four NAPI knobs may address one NAPI or the NAPI of one RX queue:
 * "gro_flush_timeout@napi282" (NAPI id 282), "napi_defer_hard_irqs@queue0" (RX queue 0's NAPI). */
int nb_knob_count(void);
const char *nb_knob_name(int index);
/* Index of a knob by name (an @napiID/@queueN suffix allowed on the NAPI knobs), or -1
 * when nicbench does not know it. */
int nb_knob_find(const char *name);
/* One line for --help: what the knob is and which values it takes. */
const char *nb_knob_help(int index);

/* How a report writes a knob's value: true, with *number, for an integer knob's plain decimal
 * value ("threaded": 1); false for text: irq_affinity's CPU lists and the "282=7777 283=0" of
 * NAPIs that differ. Pure. */
bool nb_knob_value_number(const char *name, const char *value, unsigned long long *number);

/* Pure check of a value's syntax for a knob (config validation); no I/O. */
int nb_knob_validate(const char *name, const char *value, struct nb_err *err);

/* The path a knob was read or written through. A journal stores it so that restore takes
 * the same one (never sysfs for a per-NAPI original: since 6.13 a sysfs write overwrites
 * every NAPI of the device). */
enum nb_knob_via {
	NB_VIA_ANY,          /* as a write's wish: whichever the kernel offers, newest first */
	NB_VIA_SYSFS,        /* /sys/class/net/IF/<attr> */
	NB_VIA_NAPI,         /* netdev generic netlink: napi-get / napi-set per NAPI */
	NB_VIA_ETHTOOL_NL,   /* ethtool generic netlink (ETHTOOL_MSG_COALESCE_*) */
	NB_VIA_IOCTL,        /* SIOCETHTOOL */
	NB_VIA_PROCFS,       /* /proc/irq/N/smp_affinity_list */
};
const char *nb_knob_via_name(enum nb_knob_via via);  /* "sysfs", "napi-netlink", ... */
int nb_knob_via_parse(const char *s, enum nb_knob_via *via);

/* Read the current value as text. -EOPNOTSUPP or -ENOENT when the device does
 * not offer the knob (err says why); other -errno on failure. */
int nb_knob_read(const struct nb_knob_target *t, const char *name,
		 char *value, size_t len, struct nb_err *err);

/* Write a value. Same error convention as nb_knob_read. */
int nb_knob_write(const struct nb_knob_target *t, const char *name,
		  const char *value, struct nb_err *err);

/* Write, then read back into readback. The read-back value is what a report records. */
int nb_knob_apply(const struct nb_knob_target *t, const char *name, const char *value,
		  char *readback, size_t len, struct nb_err *err);

/* nb_knob_read, also saying which path answered. every_napi: a per-NAPI knob is given as
 * "ID=value ID=value" even when all NAPIs agree (the form a journal keeps). */
int nb_knob_read_via(const struct nb_knob_target *t, const char *name, bool every_napi, char *value, size_t len,
		     enum nb_knob_via *via, struct nb_err *err);
/* nb_knob_write through the path `want` (NB_VIA_ANY: the newest the kernel has); -EOPNOTSUPP
 * with the reason when that path is gone. *via (may be NULL) gets the path taken. */
int nb_knob_write_via(const struct nb_knob_target *t, const char *name, const char *value, enum nb_knob_via want,
		      enum nb_knob_via *via, struct nb_err *err);
int nb_knob_apply_via(const struct nb_knob_target *t, const char *name, const char *value, char *readback,
		      size_t len, enum nb_knob_via *via, struct nb_err *err);

/* Room for a journal original: one "ID=value" per NAPI. */
#define NB_KNOB_ORIGINAL_MAX 1024

#define NB_NAPI_MAX 64
#define NB_NAPI_QUEUES 8

/* One NAPI with what it serves and where it runs. */
struct nb_napi_info {
	struct nb_napi n;            /* napi-get's answer */
	char irq_cpus[64];           /* /proc/irq/N/smp_affinity_list; "" when no IRQ or unreadable */
	int thread_cpu;              /* CPU the napi/ thread last ran on (from napi-get's pid); -1: none */
	int nrx, ntx;
	uint32_t rx_queues[NB_NAPI_QUEUES], tx_queues[NB_NAPI_QUEUES];
};

struct nb_napi_table {
	bool listed;                 /* napi-get answered; false: why says why not */
	bool per_napi_set;           /* napi-set exists: the NAPI knobs go per NAPI */
	char why[192];
	char queues_why[192];        /* queue-get failed: the queue map is absent */
	int n;
	struct nb_napi_info napi[NB_NAPI_MAX];
};

/* List the interface's NAPIs (napi-get), their queues (queue-get), IRQ affinity and thread
 * CPU. 0 with listed false and why when the kernel has no such view; -errno on failure. */
int nb_napi_table_read(const struct nb_knob_target *t, struct nb_napi_table *tab, struct nb_err *err);

/* Check that t->iface is a valid name and exists under <sys>/class/net: -EINVAL for a bad
 * name, -ENODEV when there is no such interface (in this network namespace). */
int nb_knob_iface_check(const struct nb_knob_target *t, struct nb_err *err);

/* True for the codes nb_knob_read uses when the device does not offer a knob
 * (-EOPNOTSUPP, -ENOENT): a report records "unsupported", not a failure. */
int nb_knob_unsupported(int code);

#endif
