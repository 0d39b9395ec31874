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

#include "ethtool_coalesce.h"
#include "iface_irqs.h"

/* More IRQs than this and irq_affinity refuses rather than silently skipping some. */
#define NB_KNOB_IRQS_MAX 256

struct knob_row;

typedef int (*knob_read_fn)(const struct knob_row *row, const struct nb_knob_target *t,
			    char *value, size_t len, struct nb_err *err);
typedef int (*knob_write_fn)(const struct knob_row *row, const struct nb_knob_target *t,
			     const char *value, struct nb_err *err);

enum knob_syntax { KNOB_INTEGER, KNOB_CPU_LIST };

struct knob_row {
	const char *name;
	const char *help;
	enum knob_syntax syntax;
	unsigned long long min, max;   /* KNOB_INTEGER range */
	const char *sysfs_attr;        /* sysfs rows: attribute under /sys/class/net/IF/ */
	size_t coalesce_offset;        /* ethtool rows: __u32 field of struct ethtool_coalesce */
	const char *unsupported_why;   /* what EOPNOTSUPP means for this knob */
	knob_read_fn read;
	knob_write_fn write;
};

static int sysfs_read(const struct knob_row *row, const struct nb_knob_target *t,
		      char *value, size_t len, struct nb_err *err);
static int sysfs_write(const struct knob_row *row, const struct nb_knob_target *t,
		       const char *value, struct nb_err *err);
static int coalesce_read(const struct knob_row *row, const struct nb_knob_target *t,
			 char *value, size_t len, struct nb_err *err);
static int coalesce_write(const struct knob_row *row, const struct nb_knob_target *t,
			  const char *value, struct nb_err *err);
static int affinity_read(const struct knob_row *row, const struct nb_knob_target *t,
			 char *value, size_t len, struct nb_err *err);
static int affinity_write(const struct knob_row *row, const struct nb_knob_target *t,
			  const char *value, struct nb_err *err);

#define SYSFS_ROW(n, attr, lo, hi, why, h) \
	{ .name = n, .help = h, .syntax = KNOB_INTEGER, .min = lo, .max = hi, .sysfs_attr = attr, \
	  .unsupported_why = why, .read = sysfs_read, .write = sysfs_write }
#define COALESCE_ROW(n, field, hi, h) \
	{ .name = n, .help = h, .syntax = KNOB_INTEGER, .min = 0, .max = hi, \
	  .coalesce_offset = offsetof(struct ethtool_coalesce, field), \
	  .unsupported_why = no_hw_coalesce, \
	  .read = coalesce_read, .write = coalesce_write }

static const char no_hw_coalesce[] = "driver has no hardware interrupt coalescing";

static const struct knob_row knobs[] = {
	SYSFS_ROW("threaded", "threaded", 0, 1,
		  "device has no NAPI; veth has NAPI only while up with GRO on",
		  "0 = NAPI polls in softirq context, 1 = in a napi/<iface>-<id> kernel thread"),
	/* The kernel stores an unsigned long (6.18 takes 2^64-1 on x86_64) and
	 * napi_defer_hard_irqs an int capped at S32_MAX. */
	SYSFS_ROW("gro_flush_timeout", "gro_flush_timeout", 0, ULONG_MAX, NULL,
		  "ns to keep the IRQ masked and GRO held after a poll (software coalescing); 0 = off"),
	SYSFS_ROW("napi_defer_hard_irqs", "napi_defer_hard_irqs", 0, INT32_MAX, NULL,
		  "empty polls before the IRQ is re-enabled (with gro_flush_timeout > 0); 0 = off"),
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
	SYSFS_ROW("mtu", "mtu", 68, 65535, NULL, "MTU in bytes, 68..65535 (the device may allow less)"),
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

int nb_knob_find(const char *name)
{
	for (int i = 0; name && i < KNOB_COUNT; i++) {
		if (!strcmp(knobs[i].name, name))
			return i;
	}
	return -1;
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

int nb_knob_validate(const char *name, const char *value, struct nb_err *err)
{
	int idx = nb_knob_find(name);

	if (idx < 0)
		return nb_err_set(err, -EINVAL, "unknown knob '%s' (nicbench knobs --help lists them)",
				  name ? name : "");
	if (!value)
		return nb_err_set(err, -EINVAL, "knob %s: no value", name);
	return validate_row(&knobs[idx], value, err);
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

/* "<what> on eth0: <strerror> (<where>: <hint>)" */
static int knob_error(struct nb_err *err, int code, const char *what, const struct knob_row *row,
		      const struct nb_knob_target *t, const char *where)
{
	const char *hint = errno_hint(row, code);

	return nb_err_set(err, code, "%s on %s: %s (%s%s%s)", what, t->iface, strerror(-code),
			  where, hint ? ": " : "", hint ? hint : "");
}

/* ---- sysfs rows ---- */

static int sysfs_read(const struct knob_row *row, const struct nb_knob_target *t,
		      char *value, size_t len, struct nb_err *err)
{
	char path[PATH_MAX];
	long n;

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

static int sysfs_write(const struct knob_row *row, const struct nb_knob_target *t,
		       const char *value, struct nb_err *err)
{
	char path[PATH_MAX];
	char what[96];
	int ret;

	if (attr_path(t, row->sysfs_attr, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "set %s on %s: path too long", row->name, t->iface);
	ret = nb_write_file(path, value);
	if (ret == 0)
		return 0;
	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	return knob_error(err, ret, what, row, t, path);
}

/* ---- ethtool coalescing rows ---- */

static __u32 *coalesce_field(struct ethtool_coalesce *ec, const struct knob_row *row)
{
	return (__u32 *)((char *)ec + row->coalesce_offset);
}

static int coalesce_read(const struct knob_row *row, const struct nb_knob_target *t,
			 char *value, size_t len, struct nb_err *err)
{
	struct ethtool_coalesce ec;
	char what[64];
	int ret = nb_coalesce_get(t->iface, &ec);

	if (ret) {
		snprintf(what, sizeof(what), "read %s", row->name);
		return knob_error(err, ret, what, row, t, "SIOCETHTOOL ETHTOOL_GCOALESCE");
	}
	snprintf(value, len, "%u", (unsigned)*coalesce_field(&ec, row));
	return 0;
}

/* The ioctl sets every field at once: read the current set, change one, write it back. */
static int coalesce_write(const struct knob_row *row, const struct nb_knob_target *t,
			  const char *value, struct nb_err *err)
{
	struct ethtool_coalesce ec;
	char what[96];
	int ret;

	snprintf(what, sizeof(what), "set %s=%s", row->name, value);
	ret = nb_coalesce_get(t->iface, &ec);
	if (ret)
		return knob_error(err, ret, what, row, t, "SIOCETHTOOL ETHTOOL_GCOALESCE");
	*coalesce_field(&ec, row) = (__u32)strtoul(value, NULL, 10);
	ret = nb_coalesce_set(t->iface, &ec);
	if (ret)
		return knob_error(err, ret, what, row, t, "SIOCETHTOOL ETHTOOL_SCOALESCE");
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

static int affinity_read(const struct knob_row *row, const struct nb_knob_target *t,
			 char *value, size_t len, struct nb_err *err)
{
	int irqs[NB_KNOB_IRQS_MAX];
	char first[NB_KNOB_VALUE_MAX], map[1024] = "";
	size_t used = 0;
	int mixed = 0;
	int n = iface_irq_list(row, t, irqs, "read", err);

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

static int affinity_write(const struct knob_row *row, const struct nb_knob_target *t,
			  const char *value, struct nb_err *err)
{
	int irqs[NB_KNOB_IRQS_MAX];
	int n = iface_irq_list(row, t, irqs, "set", err);

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

/* ---- public entry points ---- */

static const struct knob_row *lookup(const struct nb_knob_target *t, const char *name,
				     const char *what, struct nb_err *err, int *ret)
{
	int idx = nb_knob_find(name);

	*ret = 0;
	if (!t || !t->paths || !nb_ifname_valid(t->iface)) {
		*ret = nb_err_set(err, -EINVAL, "%s %s: invalid interface name '%s'", what, name ? name : "",
				  t && t->iface ? t->iface : "");
		return NULL;
	}
	if (idx < 0) {
		*ret = nb_err_set(err, -EINVAL, "%s on %s: unknown knob '%s'", what, t->iface, name ? name : "");
		return NULL;
	}
	/* -ENODEV up front, so a vanished interface is not reported as a missing attribute. */
	*ret = nb_knob_iface_check(t, err);
	if (*ret) {
		nb_err_prefix(err, "%s %s: ", what, name);
		return NULL;
	}
	return &knobs[idx];
}

int nb_knob_read(const struct nb_knob_target *t, const char *name,
		 char *value, size_t len, struct nb_err *err)
{
	int ret;
	const struct knob_row *row = lookup(t, name, "read", err, &ret);

	if (!row)
		return ret;
	if (len == 0)
		return nb_err_set(err, -EINVAL, "read %s on %s: no room for the value", name, t->iface);
	value[0] = '\0';
	return row->read(row, t, value, len, err);
}

int nb_knob_write(const struct nb_knob_target *t, const char *name,
		  const char *value, struct nb_err *err)
{
	int ret;
	const struct knob_row *row = lookup(t, name, "set", err, &ret);

	if (!row)
		return ret;
	ret = validate_row(row, value ? value : "", err);
	if (ret) {
		nb_err_prefix(err, "set on %s: ", t->iface);
		return ret;
	}
	return row->write(row, t, value, err);
}

int nb_knob_apply(const struct nb_knob_target *t, const char *name, const char *value,
		  char *readback, size_t len, struct nb_err *err)
{
	int ret = nb_knob_write(t, name, value, err);

	if (ret)
		return ret;
	ret = nb_knob_read(t, name, readback, len, err);
	if (ret)
		nb_err_prefix(err, "after set %s=%s: ", name, value);
	return ret;
}

int nb_knob_unsupported(int code)
{
	return code == -EOPNOTSUPP || code == -ENOENT;
}
