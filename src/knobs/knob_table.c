// SPDX-License-Identifier: MIT
/* The knob table: each tunable is a row saying how to validate, read and write it, and the entry
 * points that find a row and run it (the journal restores through them; src/napi_knobs.c is the
 * stage's front door over them). */
#include "knobs/knob_access.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/nic_names.h"
#include "knobs/ethtool_coalesce.h"
#include "knobs/knob_row.h"
#include "nic/mtu.h"


int nb_knob_sysfs_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      char *value, size_t len, struct nb_err *err);
int nb_knob_sysfs_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       const char *value, struct nb_err *err);
/* Where a coalescing error came from, for the message. */
static const char *coalesce_where(int set)
{
	if (nb_coalesce_last_via() == NB_VIA_ETHTOOL_NL)
		return set ? "ethtool netlink ETHTOOL_MSG_COALESCE_SET" : "ethtool netlink ETHTOOL_MSG_COALESCE_GET";
	return set ? "SIOCETHTOOL ETHTOOL_SCOALESCE" : "SIOCETHTOOL ETHTOOL_GCOALESCE";
}

static int coalesce_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			 char *value, size_t len, struct nb_err *err);
static int coalesce_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  const char *value, struct nb_err *err);

/* nic/mtu.c: down and up where the driver refuses a running change, then the carrier */
static int mtu_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		     const char *value, struct nb_err *err)
{
	struct nb_mtu_ctx ctx = { .paths = t->paths };

	(void)row, (void)c;
	return nb_mtu_set(&ctx, t->iface, value, NULL, err);
}

#define SYSFS_ROW(n, attr, lo, hi, why, h) \
	{ .name = n, .help = h, .syntax = NB_KNOB_INTEGER, .min = lo, .max = hi, .sysfs_attr = attr, \
	  .unsupported_why = why, .read = nb_knob_sysfs_read, .write = nb_knob_sysfs_write }
/* A NAPI row: napi-set per NAPI where the kernel has it, the sysfs attribute (device-wide)
 * where it does not; attr NULL: no sysfs fallback at all. */
#define NAPI_ROW(n, attr, na, lo, hi, why, h) \
	{ .name = n, .help = h, .syntax = NB_KNOB_INTEGER, .min = lo, .max = hi, .sysfs_attr = attr, \
	  .unsupported_why = why, .napi = na, .read = nb_knob_napi_read, .write = nb_knob_napi_write }
#define COALESCE_ROW(n, field, hi, h) \
	{ .name = n, .help = h, .syntax = NB_KNOB_INTEGER, .min = 0, .max = hi, \
	  .coalesce_offset = offsetof(struct ethtool_coalesce, field), \
	  .unsupported_why = no_hw_coalesce, \
	  .read = coalesce_read, .write = coalesce_write }

static const char no_hw_coalesce[] = "driver has no hardware interrupt coalescing";

/* " rx", " tx", ...: the role list (kit/nic_names.h) spelled into irq_affinity's help */
#define ROLE_WORD(e, name, doc) " " #name

static const struct knob_row knobs[] = {
	NAPI_ROW("threaded", "threaded", NAPI_THREADED, 0, 2,
		 "device has no NAPI; veth has NAPI only while up with GRO on",
		 "0 = poll in softirq, 1 = in a napi/ kernel thread, 2 = it also busy-polls"),
	/* The kernel stores an unsigned long (6.18 takes 2^64-1 on x86_64) and
	 * napi_defer_hard_irqs an int capped at S32_MAX. */
	NAPI_ROW("gro_flush_timeout", "gro_flush_timeout", NAPI_GRO, 0, ULONG_MAX, NULL,
		 "ns the IRQ stays masked and GRO held after a poll (software coalescing)"),
	NAPI_ROW("napi_defer_hard_irqs", "napi_defer_hard_irqs", NAPI_DEFER, 0, INT32_MAX, NULL,
		 "empty polls before the IRQ is re-enabled (with gro_flush_timeout > 0)"),
	NAPI_ROW("irq_suspend_timeout", NULL, NAPI_SUSPEND, 0, ULONG_MAX, NULL,
		 "ns the IRQ stays suspended while busy polling finds work (6.13+)"),
	COALESCE_ROW("rx-usecs", rx_coalesce_usecs, UINT32_MAX,
		     "hardware: microseconds to delay an RX interrupt after a packet (ethtool -C)"),
	COALESCE_ROW("rx-frames", rx_max_coalesced_frames, UINT32_MAX,
		     "hardware: RX frames that raise an interrupt before rx-usecs ends (ethtool -C)"),
	COALESCE_ROW("tx-usecs", tx_coalesce_usecs, UINT32_MAX,
		     "hardware: microseconds to delay a TX-completion interrupt (ethtool -C)"),
	COALESCE_ROW("tx-frames", tx_max_coalesced_frames, UINT32_MAX,
		     "hardware: TX completions that raise an interrupt early (ethtool -C)"),
	COALESCE_ROW("adaptive-rx", use_adaptive_rx_coalesce, 1,
		     "hardware: 1 = the driver tunes RX coalescing itself, 0 = fixed values"),
	COALESCE_ROW("adaptive-tx", use_adaptive_tx_coalesce, 1,
		     "hardware: 1 = the driver tunes TX coalescing itself, 0 = fixed values"),
	{ .name = "irq_affinity", .syntax = NB_KNOB_CPU_LIST, .read = nb_knob_affinity_read, .write = nb_knob_affinity_write,
	  .help = "CPU list (0, 0-1, 0,2) for all the interface's IRQs, per IRQ role (rx:0,tx:1; roles:"
		  NB_IRQ_ROLE_LIST(ROLE_WORD) "), or per IRQ: \"24=0 25=1\"" },
	{ .name = "mtu", .syntax = NB_KNOB_INTEGER, .flags = NB_KNOB_BOTH_ENDS | NB_KNOB_RESTORE_FIRST, .min = 68, .max = 65535, .sysfs_attr = "mtu", .read = nb_knob_sysfs_read,
	  .write = mtu_write, .help = "MTU in bytes, 68..65535 (the device may allow less); the peer follows "
				     "when it is nicbench serve" },
};

#define KNOB_COUNT ((int)(sizeof(knobs) / sizeof(knobs[0])))

int nb_knob_count(void)
{
	return KNOB_COUNT;
}

const char *nb_knob_name(int index)
{
	return index >= 0 && index < KNOB_COUNT ? knobs[index].name : NULL;
}

const char *nb_knob_help(int index)
{
	return index >= 0 && index < KNOB_COUNT ? knobs[index].help : NULL;
}

/* ---- validation (pure) ---- */

/* Plain decimal only: sysfs and the ioctl take unsigned numbers, and a sign, blank or
 * hex prefix in a config is more likely a typo than an intent. */
int nb_knob_parse_decimal(const char *s, size_t len, unsigned long long *out)
{
	unsigned long long v = 0;

	if (len == 0 || len > 20)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (ULLONG_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int validate_row(const struct knob_row *row, const char *value, struct nb_err *err)
{
	unsigned long long v;
	int ret;

	if (row->syntax == NB_KNOB_CPU_LIST)
		return nb_knob_affinity_validate(row, value, err);
	ret = nb_knob_parse_decimal(value, strlen(value), &v);
	if (ret == -EINVAL)
		return nb_err_set(err, -EINVAL, "knob %s: '%s' is not a non-negative decimal integer",
				  row->name, value);
	if (ret || v < row->min || v > row->max)
		return nb_err_set(err, -ERANGE, "knob %s: %s is outside %llu..%llu", row->name, value,
				  row->min, row->max);
	return 0;
}


/* ---- file helpers ---- */

static int iface_dir(const struct nb_knob_target *t, char *buf, size_t len)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "class/net/%s", t->iface);
	return nb_path_join(buf, len, t->paths->sys, rel);
}

int nb_knob_iface_check(const struct nb_knob_target *t, struct nb_err *err)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!t || !t->paths || !nb_ifname_valid(t->iface))
		return nb_err_set(err, -EINVAL, "invalid interface name '%s'",
				  t && t->iface ? t->iface : "");
	if (iface_dir(t, dir, sizeof(dir)))
		return nb_err_set(err, -ENAMETOOLONG, "interface %s: path too long under %s",
				  t->iface, t->paths->sys);
	if (stat(dir, &st) < 0)
		return nb_err_set(err, errno == ENOENT ? -ENODEV : -errno, "interface %s: %s: %s",
				  t->iface, errno == ENOENT ? "no such interface in this network namespace" :
				  "cannot look it up", dir);
	return 0;
}

int nb_knob_attr_path(const struct nb_knob_target *t, const char *attr, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (iface_dir(t, dir, sizeof(dir)))
		return -ENAMETOOLONG;
	return nb_path_join(buf, len, dir, attr);
}

/* What an errno means for a knob, in words a user can act on. */
static const char *errno_hint(const struct knob_row *row, int code)
{
	switch (code) {
	case -EOPNOTSUPP:
		return row->unsupported_why ? row->unsupported_why : "the device does not offer it";
	case -ENOENT:
		return "no such attribute: kernel too old?";
	case -EINVAL:
		return "the device refuses this value";
	case -EACCES:
	case -EPERM:
		return "needs root";
	case -ENODEV:
		return "no such interface in this network namespace";
	default:
		return NULL;
	}
}
/* "<what> on eth0: <strerror> (<where>: <hint>)" */
int nb_knob_error(struct nb_err *err, int code, const char *what, const struct knob_row *row,
		      const struct nb_knob_target *t, const char *where)
{
	const char *hint = errno_hint(row, code);

	return nb_err_set(err, code, "%s on %s: %s (%s%s%s)", what, t->iface, strerror(-code),
			  where, hint ? ": " : "", hint ? hint : "");
}

/* ---- sysfs rows ---- */

int nb_knob_sysfs_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      char *value, size_t len, struct nb_err *err)
{
	char path[PATH_MAX];
	long n;

	(void)c;
	if (nb_knob_attr_path(t, row->sysfs_attr, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "read %s on %s: path too long", row->name, t->iface);
	n = nb_read_file(path, value, len);
	if (n < 0) {
		char what[64];

		snprintf(what, sizeof(what), "read %s", row->name);
		return nb_knob_error(err, (int)n, what, row, t, path);
	}
	return 0;
}

int nb_knob_sysfs_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       const char *value, struct nb_err *err)
{
	char path[PATH_MAX];
	char what[96];
	int ret;

	(void)c;
	if (nb_knob_attr_path(t, row->sysfs_attr, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "set %s on %s: path too long", row->name, t->iface);
	ret = nb_write_file(path, value);
	if (ret == 0)
		return 0;
	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	return nb_knob_busy_poll_refused(row, strtoull(value, NULL, 10), nb_knob_error(err, ret, what, row, t, path), err);
}

/* ---- ethtool coalescing rows ---- */

static __u32 *coalesce_field(struct ethtool_coalesce *ec, const struct knob_row *row)
{
	return (__u32 *)((char *)ec + row->coalesce_offset);
}

static int coalesce_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			 char *value, size_t len, struct nb_err *err)
{
	struct ethtool_coalesce ec;
	char what[64];
	int ret = nb_coalesce_get(t->iface, &ec);

	(void)c;
	snprintf(what, sizeof(what), "read %s", row->name);
	if (ret)
		return nb_knob_error(err, ret, what, row, t, coalesce_where(0));
	if (nb_coalesce_supported(row->coalesce_offset) == 0)
		return nb_err_set(err, -EOPNOTSUPP, "%s on %s: %s (ETHTOOL_MSG_COALESCE_GET: the driver does not "
				  "offer this parameter)", what, t->iface, strerror(EOPNOTSUPP));
	snprintf(value, len, "%u", (unsigned)*coalesce_field(&ec, row));
	return 0;
}

/* The ioctl sets every field at once: read the current set, change one, write it back. */
static int coalesce_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  const char *value, struct nb_err *err)
{
	struct ethtool_coalesce ec;
	char what[96];
	int ret;

	(void)c;
	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	ret = nb_coalesce_get(t->iface, &ec);
	if (ret)
		return nb_knob_error(err, ret, what, row, t, coalesce_where(0));
	/* The netlink answer lists the driver's parameters: "unsupported" is known before any write. */
	if (nb_coalesce_supported(row->coalesce_offset) == 0)
		return nb_err_set(err, -EOPNOTSUPP, "%s on %s: %s (ETHTOOL_MSG_COALESCE_GET: the driver does not "
				  "offer this parameter)", what, t->iface, strerror(EOPNOTSUPP));
	*coalesce_field(&ec, row) = (__u32)strtoul(value, NULL, 10);
	ret = nb_coalesce_set(t->iface, &ec);
	if (ret)
		return nb_knob_error(err, ret, what, row, t, coalesce_where(1));
	return 0;
}

/* ---- public entry points ---- */

/* "gro_flush_timeout@napi282" / "...@queue0": the row and the address. */
static const struct knob_row *find_row(const char *name, struct knob_call *c)
{
	const char *at = name ? strchr(name, '@') : NULL;
	size_t base = at ? (size_t)(at - name) : (name ? strlen(name) : 0);
	const struct knob_row *row = NULL;

	if (c)
		memset(c, 0, sizeof(*c));
	for (int i = 0; name && i < KNOB_COUNT; i++) {
		if (strlen(knobs[i].name) == base && !strncmp(knobs[i].name, name, base))
			row = &knobs[i];
	}
	if (!row || !at)
		return row;
	if (row->napi == NAPI_NONE)
		return NULL;
	{
		const char *arg = NULL;
		unsigned long long id;
		int kind = 0;

		/* No '=' or ':' in the address: --knob splits NAME=VALUES at the first '=' and an
		 * axis of several knobs at ':'. */
		if (!strncmp(at + 1, "napi", 4)) {
			arg = at + 5;
			kind = ADDR_NAPI;
		} else if (!strncmp(at + 1, "queue", 5)) {
			arg = at + 6;
			kind = ADDR_QUEUE;
		}
		if (!arg || nb_knob_parse_decimal(arg, strlen(arg), &id) || id > UINT32_MAX)
			return NULL;
		if (c) {
			c->addr = kind;
			c->addr_id = id;
		}
	}
	return row;
}

int nb_knob_value_label(const char *name, const char *value, char *buf, size_t len)
{
	if (value && nb_knob_value_kind(name) == NB_KNOB_CPU_LIST)
		return nb_irq_affinity_label(value, buf, len);
	return (size_t)snprintf(buf, len, "%s", value ? value : "") < len ? 0 : -ENAMETOOLONG;
}

int nb_knob_find(const char *name)
{
	const struct knob_row *row = find_row(name, NULL);

	return row ? (int)(row - knobs) : -1;
}

enum nb_knob_value_kind nb_knob_value_kind(const char *name)
{
	const struct knob_row *row = name ? find_row(name, NULL) : NULL;

	return row ? row->syntax : NB_KNOB_INTEGER;
}

bool nb_knob_has(const char *name, enum nb_knob_flag flag)
{
	const struct knob_row *row = name ? find_row(name, NULL) : NULL;

	return row && (row->flags & flag);
}

bool nb_knob_value_number(const char *name, const char *value, unsigned long long *number)
{
	const struct knob_row *row = find_row(name, NULL);

	/* 2^53: the largest whole number every JSON reader (jq's doubles) keeps exactly */
	return row && row->syntax == NB_KNOB_INTEGER && value && nb_knob_parse_decimal(value, strlen(value), number) == 0 &&
	       *number <= (1ULL << 53);
}

static const struct knob_row *lookup(const struct nb_knob_target *t, const char *name,
				     const char *what, struct knob_call *c, struct nb_err *err, int *ret)
{
	const struct knob_row *row = find_row(name, c);

	*ret = 0;
	if (!t || !t->paths || !nb_ifname_valid(t->iface)) {
		*ret = nb_err_set(err, -EINVAL, "%s %s: invalid interface name '%s'", what, name ? name : "",
				  t && t->iface ? t->iface : "");
		return NULL;
	}
	if (!row) {
		*ret = nb_err_set(err, -EINVAL, "%s on %s: unknown knob '%s'", what, t->iface, name ? name : "");
		return NULL;
	}
	/* -ENODEV up front, so a vanished interface is not reported as a missing attribute. */
	*ret = nb_knob_iface_check(t, err);
	if (*ret) {
		nb_err_prefix(err, "%s %s: ", what, name);
		return NULL;
	}
	return row;
}

/* The path a row without a NAPI side always takes. */
static enum nb_knob_via fixed_via(const struct knob_row *row)
{
	if (row->read == coalesce_read)
		return nb_coalesce_last_via();
	if (row->read == nb_knob_affinity_read)
		return NB_VIA_PROCFS;
	return NB_VIA_SYSFS;
}

int nb_knob_read_via(const struct nb_knob_target *t, const char *name, bool every_napi, char *value, size_t len,
		     enum nb_knob_via *via, struct nb_err *err)
{
	struct knob_call c;
	int ret;
	const struct knob_row *row = lookup(t, name, "read", &c, err, &ret);

	if (!row)
		return ret;
	if (len == 0)
		return nb_err_set(err, -EINVAL, "read %s on %s: no room for the value", name, t->iface);
	value[0] = '\0';
	c.explicit_map = every_napi;
	ret = row->read(row, t, &c, value, len, err);
	if (via)
		*via = row->napi ? c.used : fixed_via(row);
	return ret;
}

/* Values of a NAPI row may also be "ID=value ID=value" (what a mixed read gives back). */
static int validate_value(const struct knob_row *row, const char *value, bool addressed, struct nb_err *err)
{
	if (row->napi != NAPI_NONE && !addressed && strchr(value, '=')) {
		for (const char *p = value; *p;) {
			const char *eq = strchr(p, '='), *end = strchr(p, ' ');
			unsigned long long id, v;

			if (!end)
				end = p + strlen(p);
			if (!eq || eq > end || nb_knob_parse_decimal(p, (size_t)(eq - p), &id) || id > UINT32_MAX ||
			    nb_knob_parse_decimal(eq + 1, (size_t)(end - eq - 1), &v) || v < row->min || v > row->max ||
			    (*end && !end[1]))
				return nb_err_set(err, -EINVAL, "knob %s: '%s' is neither a number in %llu..%llu nor "
						  "NAPI=value pairs (like \"282=20000 283=0\")", row->name, value,
						  row->min, row->max);
			p = *end ? end + 1 : end;
		}
		return 0;
	}
	return validate_row(row, value, err);
}

int nb_knob_validate(const char *name, const char *value, struct nb_err *err)
{
	struct knob_call c;
	const struct knob_row *row = find_row(name, &c);

	if (!row)
		return nb_err_set(err, -EINVAL, "unknown knob '%s' (nicbench knobs --help lists them; "
				  "@napiID and @queueN go only with threaded, gro_flush_timeout, "
				  "napi_defer_hard_irqs and irq_suspend_timeout)", name ? name : "");
	if (!value)
		return nb_err_set(err, -EINVAL, "knob %s: no value", name);
	return validate_value(row, value, c.addr != ADDR_NONE, err);
}

int nb_knob_write_via(const struct nb_knob_target *t, const char *name, const char *value, enum nb_knob_via want,
		      enum nb_knob_via *via, struct nb_err *err)
{
	struct knob_call c;
	int ret;
	const struct knob_row *row = lookup(t, name, "set", &c, err, &ret);

	if (!row)
		return ret;
	ret = validate_value(row, value ? value : "", c.addr != ADDR_NONE, err);
	if (ret) {
		nb_err_prefix(err, "set on %s: ", t->iface);
		return ret;
	}
	c.want = want;
	ret = row->write(row, t, &c, value, err);
	if (via)
		*via = row->napi ? c.used : fixed_via(row);
	return ret;
}

const char *nb_knob_via_name(enum nb_knob_via via)
{
	static const char *const names[] = { "any", "sysfs", "napi-netlink", "ethtool-netlink", "ethtool-ioctl",
					     "procfs" };

	return via >= 0 && via < (int)(sizeof(names) / sizeof(names[0])) ? names[via] : "unknown";
}

int nb_knob_via_parse(const char *s, enum nb_knob_via *via)
{
	for (int v = NB_VIA_ANY; v <= NB_VIA_PROCFS; v++) {
		if (!strcmp(s, nb_knob_via_name((enum nb_knob_via)v))) {
			*via = (enum nb_knob_via)v;
			return 0;
		}
	}
	return -EINVAL;
}

int nb_knob_unsupported(int code)
{
	return code == -EOPNOTSUPP || code == -ENOENT;
}
