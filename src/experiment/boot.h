// SPDX-License-Identifier: MIT
/* One boot of an experiment: the user's hook, `CMD KERNEL ROUND OUT` through /bin/sh, with its
 * output in a log file, and the signals that stop ab passed on to it. */
#ifndef NB_BOOT_H
#define NB_BOOT_H

#include <stdbool.h>

#include "kit/nb_error.h"

/* Catch SIGINT and SIGTERM: a hook that is running gets the signal too (its process group), and
 * nb_boot_interrupted() says so from then on. */
int nb_boot_signals_install(struct nb_err *err);
bool nb_boot_interrupted(void);

/* Run `CMD "$@"` through /bin/sh -c with $1 KERNEL, $2 ROUND, $3 OUT (the hook's words are the
 * shell's; the three arguments are never parsed by it), stdin /dev/null, stdout and stderr into
 * log_path. *status: the hook's exit code, or 128 + the signal that ended it. Returns 0 when it
 * ran; -EINTR when ab was interrupted meanwhile (the hook was stopped and waited for); -errno
 * when it could not be started. */
int nb_boot_run(const char *cmd, const char *kernel, const char *round, const char *out, const char *log_path,
		int *status, struct nb_err *err);

#endif
