// SPDX-License-Identifier: MIT
/* The IRQ affinity knob row: the interface's IRQs (by name, or by the board's patterns and
 * their roles) and their /proc/irq/N/smp_affinity_list. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/nb_print.h"
#include "nic/iface_irqs.h"
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


/* "rx:0,tx:1", "rx:0-1,tx:2,misc:0": a CPU list per IRQ role. A CPU list runs until a ','
 * that starts the next "role:". Fills cpus[role] ("" for a role not given). */
static int role_form_parse(const char *s, char cpus[NB_IRQ_ROLES][NB_KNOB_VALUE_MAX])
{
	const char *p = s;

	for (int r = 0; r < NB_IRQ_ROLES; r++)
		cpus[r][0] = '\0';
	while (*p) {
		const char *colon = strchr(p, ':'), *end;
		enum nb_irq_role role;

		if (!colon || nb_irq_role_parse(p, (size_t)(colon - p), &role) || cpus[role][0])
			return -EINVAL;
		for (end = colon + 1; *end && !(*end == ',' && isalpha((unsigned char)end[1])); end++)
			;
		if (!cpu_list_valid(colon + 1, (size_t)(end - colon - 1)) ||
		    (size_t)(end - colon - 1) >= NB_KNOB_VALUE_MAX)
			return -EINVAL;
		memcpy(cpus[role], colon + 1, (size_t)(end - colon - 1));
		cpus[role][end - colon - 1] = '\0';
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -EINVAL;
	}
	return p != s ? 0 : -EINVAL;
}

int nb_knob_affinity_validate(const struct knob_row *row, const char *value, struct nb_err *err)
{
	char cpus[NB_IRQ_ROLES][NB_KNOB_VALUE_MAX], roles[64] = "";

	if (cpu_list_valid(value, strlen(value)) || irq_map_valid(value) || role_form_parse(value, cpus) == 0)
		return 0;
	for (int k = 0; k < NB_IRQ_ROLES; k++)
		nb_appendf(roles, sizeof(roles), "%s%s", k ? ", " : "", nb_irq_role_name(nb_irq_role_shown(k)));
	return nb_err_set(err, -EINVAL, "knob %s: '%s' is not a CPU list (like 0, 0-1 or 0,2), nor a CPU list per "
			  "IRQ role (like rx:0,tx:1; roles %s, each once), nor IRQ=list pairs (like \"24=0 25=1\")",
			  row->name, value, roles);
}

int nb_irq_affinity_label(const char *value, char *buf, size_t len)
{
	char cpus[NB_IRQ_ROLES][NB_KNOB_VALUE_MAX];
	size_t used = 0;

	if (role_form_parse(value, cpus))
		return (size_t)snprintf(buf, len, "%s", value) < len ? 0 : -ENAMETOOLONG;
	for (int k = 0; k < NB_IRQ_ROLES; k++) {
		enum nb_irq_role r = nb_irq_role_shown(k);
		int n;

		if (!cpus[r][0])
			continue;
		n = snprintf(buf + used, len - used, "%s%s%s", used ? "-" : "", nb_irq_role_name(r), cpus[r]);
		if (n < 0 || (size_t)n >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	return 0;
}

/* The interface's IRQs, by the board's patterns when the target has them. */
static int iface_irq_list(const struct knob_row *row, const struct nb_knob_target *t, struct nb_irq *irqs,
			  const char *what, struct nb_err *err)
{
	int n = nb_irqs_find(t->paths, t->iface, t->irq_names, irqs, NB_KNOB_IRQS_MAX, err);

	if (n < 0) {
		nb_err_prefix(err, "%s %s on %s: ", what, row->name, t->iface);
		return n;
	}
	if (n == 0 && t->irq_names && *t->irq_names)
		return nb_err_set(err, -ENOENT, "%s has no IRQs in /proc/interrupts (none matches the board's "
				  "irq_names \"%s\")", t->iface, t->irq_names);
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

/* How the IRQs' affinities differ, for the form a read gives. */
struct affinity_seen {
	char first[NB_KNOB_VALUE_MAX];
	char role[NB_IRQ_ROLES][NB_KNOB_VALUE_MAX];
	bool mixed, role_mixed;
	char map[1024];
	size_t used;
};

int nb_knob_affinity_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			  char *value, size_t len, struct nb_err *err)
{
	struct nb_irq *irqs = calloc(NB_KNOB_IRQS_MAX, sizeof(*irqs));
	struct affinity_seen *seen = calloc(1, sizeof(*seen));
	int n, ret = 0;

	if (!irqs || !seen) {
		free(irqs);
		free(seen);
		return nb_err_set(err, -ENOMEM, "read %s on %s: out of memory", row->name, t->iface);
	}
	n = iface_irq_list(row, t, irqs, "read", err);
	for (int i = 0; i < n && !ret; i++) {
		char path[PATH_MAX], cpus[NB_KNOB_VALUE_MAX];
		char *role_cpus = seen->role[irqs[i].role];
		long r;
		int w;

		if (irq_affinity_path(t, irqs[i].irq, path, sizeof(path))) {
			ret = nb_err_set(err, -ENAMETOOLONG, "read %s on %s: path too long", row->name, t->iface);
			break;
		}
		r = nb_read_file(path, cpus, sizeof(cpus));
		if (r < 0) {
			ret = nb_err_set(err, (int)r, "read %s on %s: IRQ %d (%s): %s (%s)", row->name, t->iface,
					 irqs[i].irq, irqs[i].name, strerror((int)-r), path);
			break;
		}
		if (i == 0)
			snprintf(seen->first, sizeof(seen->first), "%s", cpus);
		else if (strcmp(seen->first, cpus))
			seen->mixed = true;
		if (!role_cpus[0])
			snprintf(role_cpus, NB_KNOB_VALUE_MAX, "%s", cpus);
		else if (strcmp(role_cpus, cpus))
			seen->role_mixed = true;
		w = snprintf(seen->map + seen->used, sizeof(seen->map) - seen->used, "%s%d=%s", i ? " " : "",
			     irqs[i].irq, cpus);
		if (w < 0 || (size_t)w >= sizeof(seen->map) - seen->used)
			ret = nb_err_set(err, -ENOSPC, "read %s on %s: too many IRQs to list", row->name, t->iface);
		else
			seen->used += (size_t)w;
	}
	if (n < 0)
		ret = n;
	if (!ret) {
		/* One list when all agree (the common case, and what a whole-NIC sweep sets); a list per
		 * role when each role agrees (what a role sweep sets: "rx:0,tx:1"); per-IRQ pairs
		 * otherwise, and always for a journal, so that a hand-tuned spread goes back exactly. */
		char roles[NB_IRQ_ROLES * (NB_KNOB_VALUE_MAX + 6)];
		const char *form = seen->first;

		if (seen->mixed && (c->explicit_map || seen->role_mixed)) {
			form = seen->map;
		} else if (seen->mixed) {
			size_t used = 0;

			for (int k = 0; k < NB_IRQ_ROLES; k++) {
				enum nb_irq_role r = nb_irq_role_shown(k);

				if (seen->role[r][0])
					used += (size_t)snprintf(roles + used, sizeof(roles) - used, "%s%s:%s", used ? "," : "",
								 nb_irq_role_name(r), seen->role[r]);
			}
			form = roles;
		}
		if ((size_t)snprintf(value, len, "%s", form) >= len)
			ret = nb_err_set(err, -ENOSPC, "read %s on %s: per-IRQ affinities \"%s\" do not fit %zu bytes",
					 row->name, t->iface, seen->map, len);
	}
	free(irqs);
	free(seen);
	return ret;
}

static int write_irq_affinity(const struct knob_row *row, const struct nb_knob_target *t, const struct nb_irq *irq,
			      const char *cpus, struct nb_err *err)
{
	char path[PATH_MAX];
	int ret;

	if (irq_affinity_path(t, irq->irq, path, sizeof(path)))
		return nb_err_set(err, -ENAMETOOLONG, "set %s on %s: path too long", row->name, t->iface);
	ret = nb_write_file(path, cpus);
	if (ret)
		return nb_err_set(err, ret, "set %s=%s on %s: IRQ %d (%s): %s (%s%s)", row->name, cpus, t->iface,
				  irq->irq, irq->name, strerror(-ret), path,
				  ret == -EIO ? ": the kernel will not move this IRQ: its affinity is kernel-managed "
						"(managed MSI-X vectors) or its interrupt controller cannot steer it "
						"(an i8259 XT-PIC, say)" :
				  ret == -EINVAL ? ": no online CPU in the list?" : "");
	return 0;
}

/* "rx:0,tx:1": each role's IRQs get its list; roles not named keep theirs. A role the NIC has
 * no IRQ of is unsupported here (-ENOENT), never silently skipped. */
static int write_roles(const struct knob_row *row, const struct nb_knob_target *t, const struct nb_irq *irqs,
		       int n, const char *value, struct nb_err *err)
{
	char cpus[NB_IRQ_ROLES][NB_KNOB_VALUE_MAX];

	if (role_form_parse(value, cpus))
		return nb_err_set(err, -EINVAL, "set %s=%s on %s: not a CPU list per role", row->name, value, t->iface);
	for (int r = 0; r < NB_IRQ_ROLES; r++) {
		int have = 0;

		for (int i = 0; i < n; i++)
			have += cpus[r][0] && irqs[i].role == (enum nb_irq_role)r;
		if (cpus[r][0] && !have) {
			char list[512] = "";
			size_t used = 0;

			for (int i = 0; i < n && used < sizeof(list); i++)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%d %s (%s)", i ? ", " : "",
							 irqs[i].irq, irqs[i].name, nb_irq_role_name(irqs[i].role));
			return nb_err_set(err, -ENOENT, "set %s=%s on %s: no %s IRQ among the interface's: %s", row->name,
					  value, t->iface, nb_irq_role_name((enum nb_irq_role)r), list);
		}
	}
	for (int i = 0; i < n; i++) {
		const char *want = cpus[irqs[i].role];
		int ret = want[0] ? write_irq_affinity(row, t, &irqs[i], want, err) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

static int write_all(const struct knob_row *row, const struct nb_knob_target *t, const struct nb_irq *irqs, int n,
		     const char *value, struct nb_err *err)
{
	if (cpu_list_valid(value, strlen(value))) {
		for (int i = 0; i < n; i++) {
			int ret = write_irq_affinity(row, t, &irqs[i], value, err);

			if (ret)
				return ret;
		}
		return 0;
	}
	if (!irq_map_valid(value))
		return write_roles(row, t, irqs, n, value, err);
	/* "IRQ=list" pairs: each IRQ must be one of this interface's, so a journal or config
	 * can never move another device's interrupts. */
	for (const char *p = value; *p;) {
		char cpus[NB_KNOB_VALUE_MAX];
		const char *eq = strchr(p, '='), *end = strchr(p, ' ');
		int irq = atoi(p), mine = -1, ret;

		if (!end)
			end = p + strlen(p);
		for (int i = 0; i < n; i++)
			mine = irqs[i].irq == irq ? i : mine;
		if (mine < 0)
			return nb_err_set(err, -EPERM, "set %s on %s: IRQ %d does not belong to %s",
					  row->name, t->iface, irq, t->iface);
		snprintf(cpus, sizeof(cpus), "%.*s", (int)(end - eq - 1), eq + 1);
		ret = write_irq_affinity(row, t, &irqs[mine], cpus, err);
		if (ret)
			return ret;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int nb_knob_affinity_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
			   const char *value, struct nb_err *err)
{
	struct nb_irq *irqs = calloc(NB_KNOB_IRQS_MAX, sizeof(*irqs));
	int n, ret;

	(void)c;
	if (!irqs)
		return nb_err_set(err, -ENOMEM, "set %s on %s: out of memory", row->name, t->iface);
	n = iface_irq_list(row, t, irqs, "set", err);
	if (n == -ENOENT)
		nb_err_prefix(err, "set %s=%s: ", row->name, value);
	ret = n < 0 ? n : write_all(row, t, irqs, n, value, err);
	free(irqs);
	return ret;
}
