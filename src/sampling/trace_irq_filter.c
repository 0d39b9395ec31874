// SPDX-License-Identifier: MIT
/* The tracepoint filter of the interface's IRQs (irq == N || ...): the IRQs the sampler counts, so the
 * traced hardirqs_per_s and the counted interrupts_per_s are of the same IRQs. */
#include "sampling/napi_trace.h"

#include "nic/iface_irqs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int nb_trace_irq_filter(const struct nb_paths *paths, const char *iface, const char *irq_names, char *filter,
			size_t len, struct nb_err *err)
{
	struct nb_irq found[256];
	int irqs[256], n;
	size_t used = 0;

	/* the same IRQs the sampler counts (the board's patterns, else by name), so hardirqs_per_s
	 * and interrupts_per_s agree */
	n = nb_irqs_find(paths, iface, irq_names, found, 256, err);
	if (n < 0)
		return n;
	if (n > 256)
		return nb_err_set(err, -ENOSPC, "find IRQs of %s: %d IRQs, more than 256", iface, n);
	for (int i = 0; i < n; i++)
		irqs[i] = found[i].irq;
	qsort(irqs, (size_t)n, sizeof(irqs[0]), int_cmp);
	if (len > 0)
		filter[0] = '\0';
	for (int i = 0; i < n; i++) {
		int w = snprintf(filter + used, len - used, "%sirq == %d", i ? " || " : "", irqs[i]);

		if (w < 0 || (size_t)w >= len - used)
			return nb_err_set(err, -ENOSPC, "find IRQs of %s: %d IRQs do not fit a filter", iface, n);
		used += (size_t)w;
	}
	return n;
}
