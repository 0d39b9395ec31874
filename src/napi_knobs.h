// SPDX-License-Identifier: MIT
/* The knobs stage's front door: read, write and apply a knob; the table of knobs and its lookups are
 * src/knobs/knob_access.h. Writes never leave the named interface's own sysfs attributes and its
 * own IRQs. */
#ifndef NB_NAPI_KNOBS_H
#define NB_NAPI_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "knobs/knob_access.h"
#include "nic/knob_types.h"
#include "knobs/napi_rows.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"


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

#endif
