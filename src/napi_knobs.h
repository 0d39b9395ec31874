/* The knob table: every tunable nicbench sweeps, as a row with read, write and read-back.
 * Writes never leave the named interface's own sysfs attributes and its own IRQs. */
#ifndef NB_NAPI_KNOBS_H
#define NB_NAPI_KNOBS_H

#include <stddef.h>

#include "nb_error.h"
#include "nb_paths.h"

#define NB_KNOB_VALUE_MAX 64

struct nb_knob_target {
	const struct nb_paths *paths; /* sysfs/proc roots (nb_paths_live on a board) */
	const char *iface;            /* validated interface name */
};

/* Names: threaded, gro_flush_timeout, napi_defer_hard_irqs, rx-usecs, rx-frames,
 * tx-usecs, tx-frames, adaptive-rx, adaptive-tx, irq_affinity, mtu. */
int nb_knob_count(void);
const char *nb_knob_name(int index);
/* Index of a knob by name, or -1 when nicbench does not know it. */
int nb_knob_find(const char *name);
/* One line for --help: what the knob is and which values it takes. */
const char *nb_knob_help(int index);

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

/* Check that t->iface is a valid name and exists under <sys>/class/net: -EINVAL for a bad
 * name, -ENODEV when there is no such interface (in this network namespace). */
int nb_knob_iface_check(const struct nb_knob_target *t, struct nb_err *err);

/* True for the codes nb_knob_read uses when the device does not offer a knob
 * (-EOPNOTSUPP, -ENOENT): a report records "unsupported", not a failure. */
int nb_knob_unsupported(int code);

#endif
