// SPDX-License-Identifier: MIT
/* The IRQ affinity knob row: the interface's IRQs (by name, or by the board's patterns and
 * their roles) and their /proc/irq/N/smp_affinity_list. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/iface_irqs.h"
#include "knobs/knob_row.h"

/* More IRQs than this and irq_affinity refuses rather than silently skipping some. */
#define NB_KNOB_IRQS_MAX 256

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
			if (nb_knob_parse_decimal(s + start, (size_t)(dash - s - start), &lo) ||
			    nb_knob_parse_decimal(dash + 1, (size_t)(s + i - dash - 1), &hi) || lo > hi)
				return 0;
		} else if (nb_knob_parse_decimal(s + start, i - start, &lo)) {
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
		if (!eq || eq > end || nb_knob_parse_decimal(p, (size_t)(eq - p), &irq) || irq > INT_MAX ||
		    !cpu_list_valid(eq + 1, (size_t)(end - eq - 1)))
			return 0;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return 0;
	}
	return p != s;
}


int nb_knob_affinity_validate(const struct knob_row *row, const char *value, struct nb_err *err)
{
	if (cpu_list_valid(value, strlen(value)) || irq_map_valid(value))
		return 0;
	return nb_err_set(err, -EINVAL, "knob %s: '%s' is not a CPU list (like 0, 0-1 or 0,2) "
			  "nor IRQ=list pairs (like \"24=0 25=1\")", row->name, value);
}

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

int nb_knob_affinity_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
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

int nb_knob_affinity_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
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

