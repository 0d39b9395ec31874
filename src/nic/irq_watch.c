// SPDX-License-Identifier: MIT
/* Reads the NIC's IRQ affinities and looks for irqbalance, and compares two such readings. */
#include "nic/irq_watch.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kit/metric_table.h"
#include "kit/nb_paths.h"
#include "nic/iface_irqs.h"

static void read_affinities(const struct nb_knob_target *t, struct nb_irq_watch *w)
{
	struct nb_irq irqs[NB_IRQ_WATCH_MAX];
	int n = nb_irqs_find(t->paths, t->iface, t->irq_names, irqs, NB_IRQ_WATCH_MAX, NULL);

	if (n <= 0)  /* no IRQs (veth): nothing can move, and "0 moved" would claim a look */
		return;
	w->n = n < NB_IRQ_WATCH_MAX ? n : NB_IRQ_WATCH_MAX;
	for (int i = 0; i < w->n; i++) {
		char rel[64], path[PATH_MAX];

		w->irq[i] = irqs[i].irq;
		snprintf(w->name[i], sizeof(w->name[i]), "%s", irqs[i].name);
		snprintf(rel, sizeof(rel), "irq/%d/smp_affinity_list", irqs[i].irq);
		w->cpus[i][0] = '\0';
		if (!nb_path_join(path, sizeof(path), t->paths->proc, rel) &&
		    nb_read_file(path, w->cpus[i], sizeof(w->cpus[i])) < 0)
			w->cpus[i][0] = '\0';
	}
	w->irqs_read = true;
}

/* irqbalance by its comm: a daemon under another name is not found, and says so nowhere. */
static void find_irqbalance(const struct nb_knob_target *t, struct nb_irq_watch *w)
{
	DIR *d = opendir(t->paths->proc);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char rel[300], path[PATH_MAX], comm[32];
		int pid = 0;

		if (sscanf(de->d_name, "%d", &pid) != 1 || pid <= 0)
			continue;
		snprintf(rel, sizeof(rel), "%s/comm", de->d_name);
		if (nb_path_join(path, sizeof(path), t->paths->proc, rel) || nb_read_file(path, comm, sizeof(comm)) < 0)
			continue;
		if (!strcmp(comm, "irqbalance")) {
			w->irqbalance_pid = pid;
			break;
		}
	}
	closedir(d);
	w->procs_read = true;
}

void nb_irq_watch_take(const struct nb_knob_target *t, struct nb_irq_watch *w)
{
	memset(w, 0, sizeof(*w));
	if (!t || !t->paths || !nb_ifname_valid(t->iface))
		return;
	read_affinities(t, w);
	find_irqbalance(t, w);
}

int nb_irq_watch_moves(const struct nb_irq_watch *a, const struct nb_irq_watch *b, char *buf, size_t len)
{
	size_t used = 0;
	int moved = 0;

	if (len)
		buf[0] = '\0';
	if (!a->irqs_read || !b->irqs_read)
		return 0;
	for (int i = 0; i < b->n; i++) {
		for (int k = 0; k < a->n; k++) {
			if (a->irq[k] != b->irq[i] || !a->cpus[k][0] || !b->cpus[i][0] || !strcmp(a->cpus[k], b->cpus[i]))
				continue;
			moved++;
			if (used < len) {
				int w = snprintf(buf + used, len - used, "%s%d %s: %s -> %s", used ? ", " : "", b->irq[i],
						 b->name[i], a->cpus[k], b->cpus[i]);

				used += w > 0 ? (size_t)w : 0;
			}
		}
	}
	return moved;
}

void nb_irq_watch_metrics(const struct nb_irq_watch *a, const struct nb_irq_watch *b, struct nb_metric_set *out)
{
	char unused[8];

	if (a->procs_read && b->procs_read)
		nb_metrics_put(out, NB_M_IRQBALANCE_RUNNING, a->irqbalance_pid || b->irqbalance_pid ? 1 : 0);
	if (a->irqs_read && b->irqs_read)
		nb_metrics_put(out, NB_M_IRQ_AFFINITY_MOVED, nb_irq_watch_moves(a, b, unused, sizeof(unused)));
}
