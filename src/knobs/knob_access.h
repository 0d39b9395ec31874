// SPDX-License-Identifier: MIT
/* The knob table's entry points that the journal restores through, declared below the table so
 * that src/knobs/ never includes src/napi_knobs.h; src/napi_knobs.c defines them and
 * src/napi_knobs.h includes this. */
#ifndef NB_KNOB_ACCESS_H
#define NB_KNOB_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/nb_error.h"
#include "knobs/knob_types.h"

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

#endif
