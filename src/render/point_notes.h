// SPDX-License-Identifier: MIT
/* The lines under a point's row in report's text, Markdown and HTML: the MTU on both ends, the NIC's IRQs by role and
 * by CPU, the traffic's CPU and irqbalance, page_pool recycling, the ethtool -S counters that
 * moved and the kernel log, each only where the report measured it. */
#ifndef NB_RENDER_POINT_NOTES_H
#define NB_RENDER_POINT_NOTES_H

#include "compare/compare_load.h"
#include "render/view.h"

#define NB_NOTE_LINE_MAX 320
#define NB_NOTE_LINES 8

/* Fill up to max lines for point p (x: its extras from the report file, or NULL); returns how many. */
int nb_render_point_notes(const struct nb_cmp_point *p, const struct nb_rv_series *x,
			  char (*lines)[NB_NOTE_LINE_MAX], int max);

#endif
