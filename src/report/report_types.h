// SPDX-License-Identifier: MIT
/* What report.h's callers and report/'s helpers share: the outcome of assembling a run record
 * into a report. report.h includes it, so the helpers need not include their own spine. */
#ifndef NB_REPORT_TYPES_H
#define NB_REPORT_TYPES_H

#include <limits.h>
#include <stdbool.h>

struct nb_assembly_info {
	char report_path[PATH_MAX];
	int points, incomplete;
	bool torn;   /* the record ended in a record cut short (not assembled) */
};

#endif
