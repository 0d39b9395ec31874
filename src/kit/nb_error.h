// SPDX-License-Identifier: MIT
/* One error convention for nicbench: functions return 0 or -errno and fill a
 * struct nb_err with a message that says what was being done, to what, and why. */
#ifndef NB_ERROR_H
#define NB_ERROR_H

#include <stddef.h>

struct nb_err {
	int code;       /* negative errno, 0 when no error */
	char msg[512];  /* "set threaded=1 on eth0: Operation not supported (device has no NAPI)" */
};

/* Record an error and return `code` (a negative errno) so callers can write
 * `return nb_err_set(err, -EINVAL, "...")`. `err` may be NULL. errno is preserved. */
int nb_err_set(struct nb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message with more context ("apply point 3: " + msg). */
void nb_err_prefix(struct nb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void nb_err_clear(struct nb_err *err);

#endif
