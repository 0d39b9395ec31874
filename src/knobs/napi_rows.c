// SPDX-License-Identifier: MIT
/* The NAPI knob rows (per NAPI over netdev netlink where napi-set exists, sysfs elsewhere)
 * and the NAPI table that `knobs show` and the report list. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs/knob_row.h"
#include "knobs/napi_rows.h"
#include "nic/netdev_nl.h"


/* Threaded busy-poll (threaded=2) came in 6.19; older kernels refuse the value (6.18: napi-set
 * ERANGE "integer out of range", sysfs EINVAL). That is a kernel without the feature, not a
 * failed write: unsupported, with the reason. */
int nb_knob_busy_poll_refused(const struct knob_row *row, unsigned long long val, int code, struct nb_err *err)
{
	char kernel_said[sizeof(err->msg)];

	if (row->napi != NAPI_THREADED || val != 2 || (code != -ERANGE && code != -EINVAL))
		return code;
	snprintf(kernel_said, sizeof(kernel_said), "%s", err->msg);
	return nb_err_set(err, -EOPNOTSUPP, "%.400s; this kernel has no threaded busy-poll (threaded=2 needs Linux "
			  "6.19+)", kernel_said);
}


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

	if (nb_knob_attr_path(t, "ifindex", path, sizeof(path)) || nb_read_file(path, buf, sizeof(buf)) < 0 ||
	    nb_knob_parse_decimal(buf, strlen(buf), &v) || v == 0 || v > UINT32_MAX)
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

int nb_knob_napi_read(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
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
		return nb_knob_sysfs_read(row, t, c, value, len, err);
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
	return nb_knob_busy_poll_refused(row, val, ret, err);
}

int nb_knob_napi_write(const struct knob_row *row, const struct nb_knob_target *t, struct knob_call *c,
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
		return nb_knob_sysfs_write(row, t, c, value, err);
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
	if (!nb_knob_parse_decimal(value, strlen(value), &val)) {
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

