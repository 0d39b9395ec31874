// SPDX-License-Identifier: MIT
/* Private to the knob table and its row files: what a row is, one call's extras, and the
 * helpers the rows share. Nothing outside src/knobs/ includes this. */
#ifndef NB_KNOB_ROW_H
#define NB_KNOB_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/nb_error.h"
#include "knobs/knob_access.h"
#include "nic/knob_types.h"

struct knob_row;

/* One call's extras: which NAPI or queue a name addressed, whether a per-NAPI read must
 * list every NAPI or IRQ (journal originals), the path a write must take, the path used. */
struct knob_call {
	enum { ADDR_NONE, ADDR_NAPI, ADDR_QUEUE } addr;
	unsigned long long addr_id;
	bool explicit_map;
	enum nb_knob_via want;
	enum nb_knob_via used;
};

typedef int (*knob_read_fn)(const struct knob_row *row, const struct nb_knob_target *t,
			    struct knob_call *c, char *value, size_t len, struct nb_err *err);
typedef int (*knob_write_fn)(const struct knob_row *row, const struct nb_knob_target *t,
			     struct knob_call *c, const char *value, struct nb_err *err);

/* Which napi-get/napi-set attribute a row maps to (NAPI_NONE: sysfs, ethtool or procfs only). */
enum napi_attr { NAPI_NONE, NAPI_GRO, NAPI_DEFER, NAPI_SUSPEND, NAPI_THREADED };

struct knob_row {
	const char *name;
	const char *help;
	enum nb_knob_value_kind syntax;
	unsigned long long min, max;   /* NB_KNOB_INTEGER range */
	unsigned flags;                /* enum nb_knob_flag */
	const char *sysfs_attr;        /* sysfs rows: attribute under /sys/class/net/IF/ */
	size_t coalesce_offset;        /* ethtool rows: __u32 field of struct ethtool_coalesce */
	const char *unsupported_why;   /* what EOPNOTSUPP means for this knob */
	enum napi_attr napi;           /* per-NAPI over netlink where the kernel has napi-set */
	knob_read_fn read;
	knob_write_fn write;
};

/* Plain decimal, no sign or blank: 0, -EINVAL or -ERANGE. */
int nb_knob_parse_decimal(const char *s, size_t len, unsigned long long *out);
/* <sys>/class/net/IF/<attr>; -ENAMETOOLONG. */
int nb_knob_attr_path(const struct nb_knob_target *t, const char *attr, char *buf, size_t len);
/* "<what> on eth0: <strerror> (<where>: <hint>)"; returns code. */
int nb_knob_error(struct nb_err *err, int code, const char *what, const struct knob_row *row,
		  const struct nb_knob_target *t, const char *where);

/* sysfs rows (knob_table.c); the NAPI rows fall back to them. */
int nb_knob_sysfs_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       char *value, size_t len, struct nb_err *err);
int nb_knob_sysfs_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			const char *value, struct nb_err *err);

/* NAPI rows (knobs/napi_rows.c). */
int nb_knob_napi_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      char *value, size_t len, struct nb_err *err);
int nb_knob_napi_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       const char *value, struct nb_err *err);
/* threaded=2 refused by a kernel before 6.19 becomes -EOPNOTSUPP with the reason. */
int nb_knob_busy_poll_refused(const struct knob_row *row, unsigned long long val, int code, struct nb_err *err);

/* The IRQ affinity row (knobs/irq_affinity.c). */
int nb_knob_affinity_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  char *value, size_t len, struct nb_err *err);
int nb_knob_affinity_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			   const char *value, struct nb_err *err);
/* Pure: the point-id form of an irq_affinity value: "rx:0,tx:1" -> "rx0-tx1"; other forms
 * unchanged. 0 or -ENAMETOOLONG. */
int nb_irq_affinity_label(const char *value, char *buf, size_t len);
/* Pure syntax check of an irq_affinity value. */
int nb_knob_affinity_validate(const struct knob_row *row, const char *value, struct nb_err *err);

#endif
