// SPDX-License-Identifier: MIT
/* The knob table: each tunable is a row saying how to validate, read and write it. */
#include "napi_knobs.h"

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

#include "knobs/ethtool_coalesce.h"
#include "knobs/iface_irqs.h"
#include "knobs/mtu.h"
#include "knobs/netdev_nl.h"

/* More IRQs than this and irq_affinity refuses rather than silently skipping some. */
#define NB_KNOB_IRQS_MAX 256

struct knob_row;

/* One call's extras: which NAPI or queue a name addressed, whether a per-NAPI read must
 * list every NAPI (journal originals), the path a write must take, the path used. */
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

enum knob_syntax { KNOB_INTEGER, KNOB_CPU_LIST };

struct knob_row {
	const char *name;
	const char *help;
	enum knob_syntax syntax;
	unsigned long long min, max;   /* KNOB_INTEGER range */
	const char *sysfs_attr;        /* sysfs rows: attribute under /sys/class/net/IF/ */
	size_t coalesce_offset;        /* ethtool rows: __u32 field of struct ethtool_coalesce */
	const char *unsupported_why;   /* what EOPNOTSUPP means for this knob */
	enum napi_attr napi;           /* per-NAPI over netlink where the kernel has napi-set */
	knob_read_fn read;
	knob_write_fn write;
};

static int sysfs_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      char *value, size_t len, struct nb_err *err);
static int sysfs_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       const char *value, struct nb_err *err);
static int napi_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		     char *value, size_t len, struct nb_err *err);
static int napi_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
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
static int affinity_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			 char *value, size_t len, struct nb_err *err);
static int affinity_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  const char *value, struct nb_err *err);

/* knobs/mtu.c: down and up where the driver refuses a running change, then the carrier */
static int mtu_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		     const char *value, struct nb_err *err)
{
	struct nb_mtu_ctx ctx = { .paths = t->paths };

	(void)row, (void)c;
	return nb_mtu_set(&ctx, t->iface, value, NULL, err);
}

#define SYSFS_ROW(n, attr, lo, hi, why, h) \
	{ .name = n, .help = h, .syntax = KNOB_INTEGER, .min = lo, .max = hi, .sysfs_attr = attr, \
	  .unsupported_why = why, .read = sysfs_read, .write = sysfs_write }
/* A NAPI row: napi-set per NAPI where the kernel has it, the sysfs attribute (device-wide)
 * where it does not; attr NULL: no sysfs fallback at all. */
#define NAPI_ROW(n, attr, na, lo, hi, why, h) \
	{ .name = n, .help = h, .syntax = KNOB_INTEGER, .min = lo, .max = hi, .sysfs_attr = attr, \
	  .unsupported_why = why, .napi = na, .read = napi_read, .write = napi_write }
#define COALESCE_ROW(n, field, hi, h) \
	{ .name = n, .help = h, .syntax = KNOB_INTEGER, .min = 0, .max = hi, \
	  .coalesce_offset = offsetof(struct ethtool_coalesce, field), \
	  .unsupported_why = no_hw_coalesce, \
	  .read = coalesce_read, .write = coalesce_write }

static const char no_hw_coalesce[] = "driver has no hardware interrupt coalescing";

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
	{ .name = "irq_affinity", .syntax = KNOB_CPU_LIST, .read = affinity_read, .write = affinity_write,
	  .help = "CPU list (0, 0-1, 0,2) for all the interface's IRQs, or per IRQ: \"24=0 25=1\"" },
	{ .name = "mtu", .syntax = KNOB_INTEGER, .min = 68, .max = 65535, .sysfs_attr = "mtu", .read = sysfs_read,
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
static int parse_decimal(const char *s, size_t len, unsigned long long *out)
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

#define NB_CPU_MAX 8192 /* kernel NR_CPUS ceiling on the configs we target */

/* "0", "0-1", "0,2-3": the syntax of smp_affinity_list (strides "0-7:2" are left out). */
static int cpu_list_valid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start = i;
		unsigned long long lo, hi;
		const char *dash;

		while (i < len && s[i] != ',')
			i++;
		dash = memchr(s + start, '-', i - start);
		if (dash) {
			if (parse_decimal(s + start, (size_t)(dash - s - start), &lo) ||
			    parse_decimal(dash + 1, (size_t)(s + i - dash - 1), &hi) || lo > hi)
				return 0;
		} else if (parse_decimal(s + start, i - start, &lo)) {
			return 0;
		} else {
			hi = lo;
		}
		if (hi >= NB_CPU_MAX)
			return 0;
		if (i < len && ++i == len)  /* trailing comma */
			return 0;
	}
	return len > 0;
}

/* "24=0-1 25=0": one CPU list per IRQ, the form a mixed affinity is read back in. */
static int irq_map_valid(const char *s)
{
	const char *p = s;

	while (*p) {
		const char *eq = strchr(p, '=');
		const char *end = strchr(p, ' ');
		unsigned long long irq;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end || parse_decimal(p, (size_t)(eq - p), &irq) || irq > INT_MAX ||
		    !cpu_list_valid(eq + 1, (size_t)(end - eq - 1)))
			return 0;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return 0;
	}
	return p != s;
}

static int validate_row(const struct knob_row *row, const char *value, struct nb_err *err)
{
	unsigned long long v;
	int ret;

	if (row->syntax == KNOB_CPU_LIST) {
		if (cpu_list_valid(value, strlen(value)) || irq_map_valid(value))
			return 0;
		return nb_err_set(err, -EINVAL, "knob %s: '%s' is not a CPU list (like 0, 0-1 or 0,2) "
				  "nor IRQ=list pairs (like \"24=0 25=1\")", row->name, value);
	}
	ret = parse_decimal(value, strlen(value), &v);
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

static int attr_path(const struct nb_knob_target *t, const char *attr, char *buf, size_t len)
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

/* Threaded busy-poll (threaded=2) came in 6.19; older kernels refuse the value (6.18: napi-set
 * ERANGE "integer out of range", sysfs EINVAL). That is a kernel without the feature, not a
 * failed write: unsupported, with the reason. */
static int busy_poll_refused(const struct knob_row *row, unsigned long long val, int code, struct nb_err *err)
{
	char kernel_said[sizeof(err->msg)];

	if (row->napi != NAPI_THREADED || val != 2 || (code != -ERANGE && code != -EINVAL))
		return code;
	snprintf(kernel_said, sizeof(kernel_said), "%s", err->msg);
	return nb_err_set(err, -EOPNOTSUPP, "%.400s; this kernel has no threaded busy-poll (threaded=2 needs Linux "
			  "6.19+)", kernel_said);
}

/* "<what> on eth0: <strerror> (<where>: <hint>)" */
static int knob_error(struct nb_err *err, int code, const char *what, const struct knob_row *row,
		      const struct nb_knob_target *t, const char *where)
{
	const char *hint = errno_hint(row, code);

	return nb_err_set(err, code, "%s on %s: %s (%s%s%s)", what, t->iface, strerror(-code),
			  where, hint ? ": " : "", hint ? hint : "");
}

/* ---- sysfs rows ---- */

static int sysfs_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      char *value, size_t len, struct nb_err *err)
{
	char path[PATH_MAX];
	long n;

	(void)c;
	if (attr_path(t, row->sysfs_attr, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "read %s on %s: path too long", row->name, t->iface);
	n = nb_read_file(path, value, len);
	if (n < 0) {
		char what[64];

		snprintf(what, sizeof(what), "read %s", row->name);
		return knob_error(err, (int)n, what, row, t, path);
	}
	return 0;
}

static int sysfs_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		       const char *value, struct nb_err *err)
{
	char path[PATH_MAX];
	char what[96];
	int ret;

	(void)c;
	if (attr_path(t, row->sysfs_attr, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "set %s on %s: path too long", row->name, t->iface);
	ret = nb_write_file(path, value);
	if (ret == 0)
		return 0;
	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	return busy_poll_refused(row, strtoull(value, NULL, 10), knob_error(err, ret, what, row, t, path), err);
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
		return knob_error(err, ret, what, row, t, coalesce_where(0));
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
		return knob_error(err, ret, what, row, t, coalesce_where(0));
	/* The netlink answer lists the driver's parameters: "unsupported" is known before any write. */
	if (nb_coalesce_supported(row->coalesce_offset) == 0)
		return nb_err_set(err, -EOPNOTSUPP, "%s on %s: %s (ETHTOOL_MSG_COALESCE_GET: the driver does not "
				  "offer this parameter)", what, t->iface, strerror(EOPNOTSUPP));
	*coalesce_field(&ec, row) = (__u32)strtoul(value, NULL, 10);
	ret = nb_coalesce_set(t->iface, &ec);
	if (ret)
		return knob_error(err, ret, what, row, t, coalesce_where(1));
	return 0;
}

/* ---- IRQ affinity row ---- */

static int iface_irq_list(const struct knob_row *row, const struct nb_knob_target *t, int *irqs,
			  const char *what, struct nb_err *err)
{
	int n = nb_iface_irqs(t->paths, t->iface, irqs, NB_KNOB_IRQS_MAX, err);

	if (n < 0) {
		nb_err_prefix(err, "%s %s on %s: ", what, row->name, t->iface);
		return n;
	}
	if (n == 0)
		return nb_err_set(err, -ENOENT, "%s has no IRQs in /proc/interrupts (none named %s, %s-* or %s:*)",
				  t->iface, t->iface, t->iface, t->iface);
	if (n > NB_KNOB_IRQS_MAX)
		return nb_err_set(err, -E2BIG, "%s %s on %s: %d IRQs, more than the %d nicbench handles",
				  what, row->name, t->iface, n, NB_KNOB_IRQS_MAX);
	return n;
}

static int irq_affinity_path(const struct nb_knob_target *t, int irq, char *buf, size_t len)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "irq/%d/smp_affinity_list", irq);
	return nb_path_join(buf, len, t->paths->proc, rel);
}

static int affinity_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			 char *value, size_t len, struct nb_err *err)
{
	int irqs[NB_KNOB_IRQS_MAX];
	char first[NB_KNOB_VALUE_MAX], map[1024] = "";
	size_t used = 0;
	int mixed = 0;
	int n = iface_irq_list(row, t, irqs, "read", err);

	(void)c;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX], cpus[NB_KNOB_VALUE_MAX];
		long r;
		int w;

		if (irq_affinity_path(t, irqs[i], path, sizeof(path)))
			return nb_err_set(err, -ENAMETOOLONG, "read %s on %s: path too long", row->name, t->iface);
		r = nb_read_file(path, cpus, sizeof(cpus));
		if (r < 0)
			return nb_err_set(err, (int)r, "read %s on %s: IRQ %d: %s (%s)", row->name, t->iface,
					  irqs[i], strerror((int)-r), path);
		if (i == 0)
			snprintf(first, sizeof(first), "%s", cpus);
		else if (strcmp(first, cpus))
			mixed = 1;
		w = snprintf(map + used, sizeof(map) - used, "%s%d=%s", i ? " " : "", irqs[i], cpus);
		if (w < 0 || (size_t)w >= sizeof(map) - used)
			return nb_err_set(err, -ENOSPC, "read %s on %s: too many IRQs to list", row->name, t->iface);
		used += (size_t)w;
	}
	if (n < 0)
		return n;
	/* One list when all agree (the common case, and what a sweep sets); per-IRQ pairs
	 * otherwise so that a journal can put a hand-tuned spread back exactly. */
	if ((size_t)snprintf(value, len, "%s", mixed ? map : first) >= len)
		return nb_err_set(err, -ENOSPC, "read %s on %s: per-IRQ affinities \"%s\" do not fit %zu bytes",
				  row->name, t->iface, map, len);
	return 0;
}

static int write_irq_affinity(const struct knob_row *row, const struct nb_knob_target *t, int irq,
			      const char *cpus, struct nb_err *err)
{
	char path[PATH_MAX];
	int ret;

	if (irq_affinity_path(t, irq, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "set %s on %s: path too long", row->name, t->iface);
	ret = nb_write_file(path, cpus);
	if (ret)
		return nb_err_set(err, ret, "set %s=%s on %s: IRQ %d: %s (%s%s)", row->name, cpus, t->iface,
				  irq, strerror(-ret), path,
				  ret == -EIO ? ": affinity managed by the kernel" :
				  ret == -EINVAL ? ": no online CPU in the list?" : "");
	return 0;
}

static int affinity_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  const char *value, struct nb_err *err)
{
	int irqs[NB_KNOB_IRQS_MAX];
	int n = iface_irq_list(row, t, irqs, "set", err);

	(void)c;
	if (n == -ENOENT)
		nb_err_prefix(err, "set %s=%s: ", row->name, value);
	if (n < 0)
		return n;
	if (cpu_list_valid(value, strlen(value))) {
		for (int i = 0; i < n; i++) {
			int ret = write_irq_affinity(row, t, irqs[i], value, err);

			if (ret)
				return ret;
		}
		return 0;
	}
	/* "IRQ=list" pairs: each IRQ must be one of this interface's, so a journal or config
	 * can never move another device's interrupts. */
	for (const char *p = value; *p;) {
		char cpus[NB_KNOB_VALUE_MAX];
		const char *eq = strchr(p, '='), *end = strchr(p, ' ');
		int irq = atoi(p), mine = 0, ret;

		if (!end)
			end = p + strlen(p);
		for (int i = 0; i < n; i++)
			mine |= irqs[i] == irq;
		if (!mine)
			return nb_err_set(err, -EPERM, "set %s on %s: IRQ %d does not belong to %s",
					  row->name, t->iface, irq, t->iface);
		snprintf(cpus, sizeof(cpus), "%.*s", (int)(end - eq - 1), eq + 1);
		ret = write_irq_affinity(row, t, irq, cpus, err);
		if (ret)
			return ret;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* ---- NAPI rows: per NAPI over netlink where napi-set exists, sysfs elsewhere ---- */

struct napi_view {
	struct nb_netdev_caps caps;
	uint32_t ifindex;
	int n;
	struct nb_napi napi[NB_NAPI_MAX];
};

static const char *napi_attr_name(enum napi_attr a)
{
	static const char *const names[] = { "", "gro-flush-timeout", "defer-hard-irqs", "irq-suspend-timeout",
					     "threaded" };

	return names[a];
}

static bool napi_has(const struct nb_napi *n, enum napi_attr a)
{
	switch (a) {
	case NAPI_GRO: return n->has_gro;
	case NAPI_DEFER: return n->has_defer;
	case NAPI_SUSPEND: return n->has_suspend;
	case NAPI_THREADED: return n->has_threaded;
	default: return false;
	}
}

static uint64_t napi_value(const struct nb_napi *n, enum napi_attr a)
{
	switch (a) {
	case NAPI_GRO: return n->gro_flush_timeout;
	case NAPI_DEFER: return n->defer_hard_irqs;
	case NAPI_SUSPEND: return n->irq_suspend_timeout;
	case NAPI_THREADED: return n->threaded;
	default: return 0;
	}
}

/* The kernel's NAPIs belong to the running system: a fixture tree under another root must
 * never be matched against them (a scripted backend stands in for the kernel in tests). */
static bool netlink_applies(const struct nb_knob_target *t)
{
	return nb_netdev_scripted() || !strcmp(t->paths->sys, "/sys");
}

static int read_ifindex(const struct nb_knob_target *t, uint32_t *ifindex)
{
	char path[PATH_MAX], buf[32];
	unsigned long long v;

	if (attr_path(t, "ifindex", path, sizeof(path)) || nb_read_file(path, buf, sizeof(buf)) < 0 ||
	    parse_decimal(buf, strlen(buf), &v) || v == 0 || v > UINT32_MAX)
		return -ENOENT;
	*ifindex = (uint32_t)v;
	return 0;
}

/* Fill v with the interface's NAPIs as napi-get lists them. 0, or -errno. v->n == 0 and a
 * reason in *why when there is no netlink view (no family, no napi-get, not live). */
static int napi_view_read(const struct nb_knob_target *t, struct napi_view *v, const char **why,
			  struct nb_err *err)
{
	int n, ret;

	memset(v, 0, sizeof(*v));
	*why = NULL;
	if (!netlink_applies(t) || read_ifindex(t, &v->ifindex)) {
		*why = "no netdev netlink view of this interface (not the live /sys)";
		return 0;
	}
	ret = nb_netdev_probe(&v->caps, err);
	if (ret)
		return ret;
	if (!v->caps.family || !v->caps.napi_get) {
		*why = v->caps.why;
		return 0;
	}
	n = nb_netdev_napi_dump(v->ifindex, v->napi, NB_NAPI_MAX, err);
	if (n < 0)
		return n;
	if (n > NB_NAPI_MAX)
		return nb_err_set(err, -E2BIG, "%s has %d NAPIs, more than the %d nicbench handles", t->iface, n,
				  NB_NAPI_MAX);
	v->n = n;
	return 0;
}

/* Which path a NAPI row takes: 1 per NAPI (v filled), 0 sysfs, or -errno (unsupported with why). */
static int napi_route(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      struct napi_view *v, const char *what, struct nb_err *err)
{
	bool need_napi = c->addr != ADDR_NONE || !row->sysfs_attr || c->want == NB_VIA_NAPI;
	char whybuf[160];
	const char *why;
	int ret;

	/* An original read through sysfs goes back through sysfs. */
	if (c->want == NB_VIA_SYSFS && row->sysfs_attr)
		return 0;
	ret = napi_view_read(t, v, &why, err);
	if (ret) {
		nb_err_prefix(err, "%s on %s: ", what, t->iface);
		return ret;
	}
	if (!why && !v->caps.napi_set) {
		why = v->caps.why;
	} else if (!why && v->n == 0) {
		why = "no NAPI instance (veth has NAPI only while up with GRO on)";
	} else if (!why && !napi_has(&v->napi[0], row->napi)) {
		snprintf(whybuf, sizeof(whybuf), "napi-get reports no per-NAPI %s on this kernel%s",
			 napi_attr_name(row->napi), row->napi == NAPI_THREADED ? " (Linux 6.17+)" : "");
		why = whybuf;
	}
	if (!why)
		return 1;
	if (!need_napi)
		return 0;
	/* Since 6.13 a sysfs write overwrites every NAPI's value: never the fallback for a
	 * per-NAPI original or an addressed NAPI. */
	return nb_err_set(err, -EOPNOTSUPP, "%s on %s: %s%s", what, t->iface,
			  c->want == NB_VIA_NAPI ? "the original was per-NAPI and sysfs would overwrite every NAPI: " :
			  c->addr != ADDR_NONE ? "one NAPI can only be set with napi-set: " : "",
			  why);
}

/* Index into v of the NAPI an @napiID / @queueN name addresses. */
static int napi_addressed(const struct nb_knob_target *t, const struct knob_call *c, const struct napi_view *v,
			  const char *what, struct nb_err *err)
{
	uint64_t id = c->addr_id;

	if (c->addr == ADDR_QUEUE) {
		struct nb_netdev_queue q[NB_NAPI_MAX * 2];
		int n = nb_netdev_queue_dump(v->ifindex, q, NB_NAPI_MAX * 2, err), found = -1;

		if (n < 0) {
			nb_err_prefix(err, "%s on %s: ", what, t->iface);
			return n;
		}
		for (int i = 0; i < n && i < NB_NAPI_MAX * 2; i++) {
			if (q[i].type == NB_NETDEV_QUEUE_TYPE_RX && q[i].id == c->addr_id)
				found = i;
		}
		if (found < 0)
			return nb_err_set(err, -EINVAL, "%s on %s: no RX queue %llu", what, t->iface, c->addr_id);
		if (!q[found].has_napi)
			return nb_err_set(err, -EOPNOTSUPP, "%s on %s: RX queue %llu is linked to no NAPI (the driver "
					  "does not report it; address the NAPI with @napiID)", what, t->iface, c->addr_id);
		id = q[found].napi_id;
	}
	for (int i = 0; i < v->n; i++) {
		if (v->napi[i].id == id)
			return i;
	}
	return nb_err_set(err, -EINVAL, "%s on %s: no NAPI %llu on this interface (nicbench knobs show lists them)",
			  what, t->iface, (unsigned long long)id);
}

static int napi_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		     char *value, size_t len, struct nb_err *err)
{
	struct napi_view *v = malloc(sizeof(*v));
	char what[64];
	size_t used = 0;
	bool same = true;
	int ret;

	if (!v)
		return nb_err_set(err, -ENOMEM, "read %s on %s: out of memory", row->name, t->iface);
	snprintf(what, sizeof(what), "read %s", row->name);
	ret = napi_route(row, t, c, v, what, err);
	if (ret == 0) {
		free(v);
		c->used = NB_VIA_SYSFS;
		return sysfs_read(row, t, c, value, len, err);
	}
	if (ret < 0)
		goto out;
	c->used = NB_VIA_NAPI;
	if (c->addr != ADDR_NONE) {
		ret = napi_addressed(t, c, v, what, err);
		if (ret >= 0) {
			snprintf(value, len, "%llu", (unsigned long long)napi_value(&v->napi[ret], row->napi));
			ret = 0;
		}
		goto out;
	}
	for (int i = 1; i < v->n; i++)
		same = same && napi_value(&v->napi[i], row->napi) == napi_value(&v->napi[0], row->napi);
	ret = 0;
	if (same && !c->explicit_map) {
		snprintf(value, len, "%llu", (unsigned long long)napi_value(&v->napi[0], row->napi));
		goto out;
	}
	/* "ID=value ID=value": the form a journal needs to put per-NAPI settings back exactly. */
	for (int i = 0; i < v->n; i++) {
		int w = snprintf(value + used, len - used, "%s%u=%llu", i ? " " : "", v->napi[i].id,
				 (unsigned long long)napi_value(&v->napi[i], row->napi));

		if (w < 0 || (size_t)w >= len - used) {
			ret = nb_err_set(err, -ENOSPC, "read %s on %s: %d per-NAPI values do not fit %zu bytes",
					 row->name, t->iface, v->n, len);
			break;
		}
		used += (size_t)w;
	}
out:
	free(v);
	return ret;
}

static int napi_set_one(const struct knob_row *row, const struct nb_knob_target *t, uint32_t id, uint64_t val,
			struct nb_err *err)
{
	struct nb_napi_set req = { .id = id };
	int ret;

	switch (row->napi) {
	case NAPI_GRO: req.set_gro = true; req.gro_flush_timeout = val; break;
	case NAPI_DEFER: req.set_defer = true; req.defer_hard_irqs = (uint32_t)val; break;
	case NAPI_SUSPEND: req.set_suspend = true; req.irq_suspend_timeout = val; break;
	case NAPI_THREADED: req.set_threaded = true; req.threaded = (uint32_t)val; break;
	default: return -EINVAL;
	}
	ret = nb_netdev_napi_set(&req, err);
	if (ret)
		nb_err_prefix(err, "set %s=%llu on %s NAPI %u: ", row->name, (unsigned long long)val, t->iface, id);
	return busy_poll_refused(row, val, ret, err);
}

static int napi_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
		      const char *value, struct nb_err *err)
{
	struct napi_view *v = malloc(sizeof(*v));
	unsigned long long val;
	char what[96];
	int ret;

	if (!v)
		return nb_err_set(err, -ENOMEM, "set %s on %s: out of memory", row->name, t->iface);
	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	ret = napi_route(row, t, c, v, what, err);
	if (ret == 0) {
		free(v);
		c->used = NB_VIA_SYSFS;
		return sysfs_write(row, t, c, value, err);
	}
	if (ret < 0)
		goto out;
	c->used = NB_VIA_NAPI;
	if (c->addr != ADDR_NONE) {
		ret = napi_addressed(t, c, v, what, err);
		if (ret >= 0)
			ret = napi_set_one(row, t, v->napi[ret].id, strtoull(value, NULL, 10), err);
		goto out;
	}
	ret = 0;
	if (!parse_decimal(value, strlen(value), &val)) {
		for (int i = 0; i < v->n && !ret; i++)
			ret = napi_set_one(row, t, v->napi[i].id, val, err);
		goto out;
	}
	/* "ID=value ..." pairs (validated): each NAPI must be this interface's own. */
	for (const char *p = value; *p && !ret;) {
		const char *eq = strchr(p, '='), *end = strchr(p, ' ');
		unsigned long long id = strtoull(p, NULL, 10);
		bool mine = false;

		if (!end)
			end = p + strlen(p);
		for (int i = 0; i < v->n; i++)
			mine = mine || v->napi[i].id == id;
		if (!mine)
			ret = nb_err_set(err, -EPERM, "%s on %s: NAPI %llu does not belong to %s", what, t->iface, id,
					 t->iface);
		else
			ret = napi_set_one(row, t, (uint32_t)id, strtoull(eq + 1, NULL, 10), err);
		p = *end ? end + 1 : end;
	}
out:
	free(v);
	return ret;
}

/* ---- the NAPI table (knobs show, the report) ---- */

static void napi_info_fill(const struct nb_knob_target *t, struct nb_napi_info *ni)
{
	char path[PATH_MAX], rel[64], buf[1024];

	ni->thread_cpu = -1;
	if (ni->n.has_irq) {
		snprintf(rel, sizeof(rel), "irq/%u/smp_affinity_list", ni->n.irq);
		if (!nb_path_join(path, sizeof(path), t->paths->proc, rel))
			nb_read_file(path, ni->irq_cpus, sizeof(ni->irq_cpus));
	}
	if (ni->n.has_pid) {
		const char *p;

		snprintf(rel, sizeof(rel), "%u/stat", ni->n.pid);
		/* Field 39 (processor): the CPU the thread last ran on. Fields count from after
		 * the ")" that ends the command name, which may itself hold spaces. */
		if (!nb_path_join(path, sizeof(path), t->paths->proc, rel) && nb_read_file(path, buf, sizeof(buf)) > 0 &&
		    (p = strrchr(buf, ')'))) {
			int field = 2;

			for (; *p && field < 39; p++) {
				if (*p == ' ')
					field++;
			}
			if (field == 39 && *p >= '0' && *p <= '9')
				ni->thread_cpu = atoi(p);
		}
	}
}

int nb_napi_table_read(const struct nb_knob_target *t, struct nb_napi_table *tab, struct nb_err *err)
{
	struct napi_view *v;
	struct nb_netdev_queue q[NB_NAPI_MAX * 2];
	const char *why;
	int ret, nq;

	memset(tab, 0, sizeof(*tab));
	v = malloc(sizeof(*v));
	if (!v)
		return nb_err_set(err, -ENOMEM, "list NAPIs of %s: out of memory", t->iface);
	ret = napi_view_read(t, v, &why, err);
	if (ret) {
		nb_err_prefix(err, "list NAPIs of %s: ", t->iface);
		free(v);
		return ret;
	}
	if (why) {
		snprintf(tab->why, sizeof(tab->why), "%s", why);
		free(v);
		return 0;
	}
	tab->listed = true;
	tab->per_napi_set = v->caps.napi_set;
	if (!v->caps.napi_set)
		snprintf(tab->why, sizeof(tab->why), "%s", v->caps.why);
	tab->n = v->n;
	for (int i = 0; i < v->n; i++) {
		tab->napi[i].n = v->napi[i];
		napi_info_fill(t, &tab->napi[i]);
	}
	nq = v->caps.queue_get ? nb_netdev_queue_dump(v->ifindex, q, NB_NAPI_MAX * 2, err) : 0;
	if (nq < 0) {
		/* The queue map is a detail: the NAPIs themselves are still worth listing. */
		snprintf(tab->queues_why, sizeof(tab->queues_why), "%.190s", err->msg);
		nb_err_clear(err);
		nq = 0;
	}
	for (int k = 0; k < nq && k < NB_NAPI_MAX * 2; k++) {
		if (!q[k].has_napi)
			continue;
		for (int i = 0; i < tab->n; i++) {
			struct nb_napi_info *ni = &tab->napi[i];

			if (ni->n.id != q[k].napi_id)
				continue;
			if (q[k].type == NB_NETDEV_QUEUE_TYPE_RX && ni->nrx < NB_NAPI_QUEUES)
				ni->rx_queues[ni->nrx++] = q[k].id;
			else if (q[k].type == NB_NETDEV_QUEUE_TYPE_TX && ni->ntx < NB_NAPI_QUEUES)
				ni->tx_queues[ni->ntx++] = q[k].id;
		}
	}
	free(v);
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
		if (!arg || parse_decimal(arg, strlen(arg), &id) || id > UINT32_MAX)
			return NULL;
		if (c) {
			c->addr = kind;
			c->addr_id = id;
		}
	}
	return row;
}

int nb_knob_find(const char *name)
{
	const struct knob_row *row = find_row(name, NULL);

	return row ? (int)(row - knobs) : -1;
}

bool nb_knob_value_number(const char *name, const char *value, unsigned long long *number)
{
	const struct knob_row *row = find_row(name, NULL);

	/* 2^53: the largest whole number every JSON reader (jq's doubles) keeps exactly */
	return row && row->syntax == KNOB_INTEGER && value && parse_decimal(value, strlen(value), number) == 0 &&
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
	if (row->read == affinity_read)
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

int nb_knob_read(const struct nb_knob_target *t, const char *name,
		 char *value, size_t len, struct nb_err *err)
{
	return nb_knob_read_via(t, name, false, value, len, NULL, err);
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
			if (!eq || eq > end || parse_decimal(p, (size_t)(eq - p), &id) || id > UINT32_MAX ||
			    parse_decimal(eq + 1, (size_t)(end - eq - 1), &v) || v < row->min || v > row->max ||
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
