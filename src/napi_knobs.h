// SPDX-License-Identifier: MIT
/* The knob table: every tunable nicbench sweeps, as a row with read, write and read-back.
 * Writes never leave the named interface's own sysfs attributes and its own IRQs. */
#ifndef NB_NAPI_KNOBS_H
#define NB_NAPI_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knob_access.h"
#include "knobs/knob_types.h"
#include "knobs/napi_rows.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"


/* Names: threaded, gro_flush_timeout, napi_defer_hard_irqs, irq_suspend_timeout, rx-usecs,
 * rx-frames, tx-usecs, tx-frames, adaptive-rx, adaptive-tx, irq_affinity, mtu.
 * The four NAPI knobs may address one NAPI or the NAPI of one RX queue:
 * "gro_flush_timeout@napi282" (NAPI id 282), "napi_defer_hard_irqs@queue0" (RX queue 0's NAPI). */
int nb_knob_count(void);
const char *nb_knob_name(int index);
/* One line for --help: what the knob is and which values it takes. */
const char *nb_knob_help(int index);

/* How a report writes a knob's value: true, with *number, for an integer knob's plain decimal
 * value ("threaded": 1); false for text: irq_affinity's CPU lists and the "282=7777 283=0" of
 * NAPIs that differ. Pure. */
bool nb_knob_value_number(const char *name, const char *value, unsigned long long *number);

/* Pure: a value as a point id shows it: irq_affinity's "rx:0,tx:1" is "rx0-tx1", other values
 * are copied. 0 or -ENAMETOOLONG. */
int nb_knob_value_label(const char *name, const char *value, char *buf, size_t len);

/* Pure check of a value's syntax for a knob (config validation); no I/O. */
int nb_knob_validate(const char *name, const char *value, struct nb_err *err);


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

int nb_knob_apply_via(const struct nb_knob_target *t, const char *name, const char *value, char *readback,
		      size_t len, enum nb_knob_via *via, struct nb_err *err);

/* Check that t->iface is a valid name and exists under <sys>/class/net: -EINVAL for a bad
 * name, -ENODEV when there is no such interface (in this network namespace). */
int nb_knob_iface_check(const struct nb_knob_target *t, struct nb_err *err);

/* True for the codes nb_knob_read uses when the device does not offer a knob
 * (-EOPNOTSUPP, -ENOENT): a report records "unsupported", not a failure. */
int nb_knob_unsupported(int code);

#endif
