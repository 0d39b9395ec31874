// SPDX-License-Identifier: MIT
/* A differential flame graph as self-contained SVG: frames sized by the new side's samples,
 * coloured by how their share moved from the base side (red grew, blue shrank). */
#ifndef NB_FLAMEGRAPH_H
#define NB_FLAMEGRAPH_H

#include <stdio.h>

#include "kit/nb_error.h"
#include "sampling/kprofile.h"

struct nb_flame_opts {
	int width;          /* px; 0: 1200 */
	double min_frame_px; /* narrower frames are left out (and counted in the footer); 0: 0.5 */
	const char *title;  /* escaped on output; NULL: "Differential flame graph" */
};

/* Write the SVG of new against base (folded stacks, root first) to out. A frame's share is
 * its inclusive samples over its side's total; the fill's hue says the sign of new - base and
 * its strength the size, saturating at 5 points. Every frame has a <title> with both shares.
 * No scripts, styles or links: the file shows as it is. 0, -EINVAL (new has no samples) or
 * -ENOMEM. */
int nb_flamegraph_diff_svg(const struct nb_folded *base, const struct nb_folded *new_side,
			   const struct nb_flame_opts *opts, FILE *out);

/* The flame graph of one set of folded stacks (a single report's point): frames sized by samples,
 * in warm colours that tell neighbours apart and mean nothing more; every frame's <title> has its
 * share and samples. 0, -EINVAL (no samples) or -ENOMEM. */
int nb_flamegraph_svg(const struct nb_folded *set, const struct nb_flame_opts *opts, FILE *out);

/* Read a folded-stacks file (as `nicbench run` writes beside its report) into set, merging.
 * -errno with "stacks not read: PATH: why" in err when it cannot be read; a malformed line as
 * nb_folded_parse says it. */
int nb_folded_load(const char *path, struct nb_folded *set, struct nb_err *err);

#endif
