// SPDX-License-Identifier: MIT
/* nb_err helpers: format, prefix and clear error messages without touching errno. */
#include "kit/nb_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int nb_err_set(struct nb_err *err, int code, const char *fmt, ...)
{
	int saved = errno;

	if (err) {
		/* an argument may point into err->msg (a reason a callee wrote): format beside it */
		char msg[sizeof(err->msg)];
		va_list ap;

		err->code = code;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		memcpy(err->msg, msg, sizeof(msg));
	}
	errno = saved;
	return code;
}

void nb_err_prefix(struct nb_err *err, const char *fmt, ...)
{
	char prefix[256];
	char old[sizeof(err->msg)];
	va_list ap;
	int saved = errno;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Truncating an over-long message is fine: the prefix carries the context. */
	size_t plen = strnlen(prefix, sizeof(err->msg) - 1);

	memcpy(err->msg, prefix, plen);
	snprintf(err->msg + plen, sizeof(err->msg) - plen, "%.*s", (int)(sizeof(err->msg) - plen - 1), old);
	errno = saved;
}

void nb_err_clear(struct nb_err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
