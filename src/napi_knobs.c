// SPDX-License-Identifier: MIT
/* The knobs stage's front door: read, write and apply (write, then read back) a knob on an
 * interface. The rows and how each is reached live in src/knobs/ (knob_table.c and a file a
 * family); the journal that restores them is src/knobs/journal.c. */
#include "napi_knobs.h"

int nb_knob_read(const struct nb_knob_target *t, const char *name,
		 char *value, size_t len, struct nb_err *err)
{
	return nb_knob_read_via(t, name, false, value, len, NULL, err);
}

int nb_knob_write(const struct nb_knob_target *t, const char *name,
		  const char *value, struct nb_err *err)
{
	return nb_knob_write_via(t, name, value, NB_VIA_ANY, NULL, err);
}

int nb_knob_apply_via(const struct nb_knob_target *t, const char *name, const char *value, char *readback,
		      size_t len, enum nb_knob_via *via, struct nb_err *err)
{
	int ret = nb_knob_write_via(t, name, value, NB_VIA_ANY, via, err);

	if (ret)
		return ret;
	ret = nb_knob_read(t, name, readback, len, err);
	if (ret)
		nb_err_prefix(err, "after set %s=%s: ", name, value);
	return ret;
}

int nb_knob_apply(const struct nb_knob_target *t, const char *name, const char *value,
		  char *readback, size_t len, struct nb_err *err)
{
	return nb_knob_apply_via(t, name, value, readback, len, NULL, err);
}
