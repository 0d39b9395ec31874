// SPDX-License-Identifier: MIT
/* The knob table's entry points (src/knobs/knob_table.c): the knobs' names and help, finding a row,
 * checking a value, reading and writing through a chosen path (what the journal restores
 * through). src/napi_knobs.h includes this. */
#ifndef NB_KNOB_ACCESS_H
#define NB_KNOB_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/nb_error.h"
#include "nic/knob_types.h"

/* Index of a knob by name (an @napiID/@queueN suffix allowed on the NAPI knobs), or -1
 * when nicbench does not know it. */
int nb_knob_find(const char *name);
const char *nb_knob_via_name(enum nb_knob_via via);  /* "sysfs", "napi-netlink", ... */
int nb_knob_via_parse(const char *s, enum nb_knob_via *via);
/* nb_knob_read, also saying which path answered. every_napi: a per-NAPI knob is given as
 * "ID=value ID=value" even when all NAPIs agree (the form a journal keeps). */
int nb_knob_read_via(const struct nb_knob_target *t, const char *name, bool every_napi, char *value, size_t len,
		     enum nb_knob_via *via, struct nb_err *err);
/* nb_knob_write through the path `want` (NB_VIA_ANY: the newest the kernel has); -EOPNOTSUPP
 * with the reason when that path is gone. *via (may be NULL) gets the path taken. */
int nb_knob_write_via(const struct nb_knob_target *t, const char *name, const char *value, enum nb_knob_via want,
		      enum nb_knob_via *via, struct nb_err *err);

/* Names: threaded, gro_flush_timeout, napi_defer_hard_irqs, irq_suspend_timeout, rx-usecs,
 * rx-frames, tx-usecs, tx-frames, adaptive-rx, adaptive-tx, irq_affinity, mtu.
 * The four NAPI knobs may address one NAPI or the NAPI of one RX queue:
 * "gro_flush_timeout@napi282" (NAPI id 282), "napi_defer_hard_irqs@queue0" (RX queue 0's NAPI). */
int nb_knob_count(void);
const char *nb_knob_name(int index);
/* One line for --help: what the knob is and which values it takes. */
const char *nb_knob_help(int index);

/* The kind of value a knob's row takes. A CPU list has commas inside one value, so a sweep's
 * values of it are separated by '/' (--knob irq_affinity=0/1/0,1). */
enum nb_knob_value_kind { NB_KNOB_INTEGER, NB_KNOB_CPU_LIST };
/* The row's kind; NB_KNOB_INTEGER for a name nicbench does not know. Pure. */
enum nb_knob_value_kind nb_knob_value_kind(const char *name);

/* What a knob's row says of it beyond its values. */
enum nb_knob_flag {
	/* set on the peer as well (nicbench serve follows it): a link's two ends must agree */
	NB_KNOB_BOTH_ENDS = 1u << 0,
	/* restored before every other knob: changing it may reset the device (rings reallocated,
	 * IRQs requested again, coalescing reprogrammed), which would undo what came before */
	NB_KNOB_RESTORE_FIRST = 1u << 1,
};
/* Does the row of knob `name` (an @napi/@queue suffix allowed) carry the flag? Pure. */
bool nb_knob_has(const char *name, enum nb_knob_flag flag);

/* How a report writes a knob's value: true, with *number, for an integer knob's plain decimal
 * value ("threaded": 1); false for text: irq_affinity's CPU lists and the "282=7777 283=0" of
 * NAPIs that differ. Pure. */
bool nb_knob_value_number(const char *name, const char *value, unsigned long long *number);

/* Pure: a value as a point id shows it: irq_affinity's "rx:0,tx:1" is "rx0-tx1", other values
 * are copied. 0 or -ENAMETOOLONG. */
int nb_knob_value_label(const char *name, const char *value, char *buf, size_t len);

/* Pure check of a value's syntax for a knob (config validation); no I/O. */
int nb_knob_validate(const char *name, const char *value, struct nb_err *err);


/* Check that t->iface is a valid name and exists under <sys>/class/net: -EINVAL for a bad
 * name, -ENODEV when there is no such interface (in this network namespace). */
int nb_knob_iface_check(const struct nb_knob_target *t, struct nb_err *err);

/* True for the codes nb_knob_read uses when the device does not offer a knob
 * (-EOPNOTSUPP, -ENOENT): a report records "unsupported", not a failure. */
int nb_knob_unsupported(int code);

#endif
