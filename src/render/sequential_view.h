// SPDX-License-Identifier: MIT
/* The sequential verdict as compare's text and JSON show it. */
#ifndef NB_SEQUENTIAL_VIEW_H
#define NB_SEQUENTIAL_VIEW_H

#include "kit/nb_print.h"

struct nb_cmp_result;

/* One line per gated metric judged sequentially (text), or a "sequential" object (JSON); nothing
 * without --sequential, so that outputs stay as they were. */
void nb_render_sequential(struct nb_print *out, const struct nb_cmp_result *r);

#endif
