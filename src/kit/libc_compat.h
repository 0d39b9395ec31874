// SPDX-License-Identifier: MIT
/* glibc's strerrorname_np and sigabbrev_np for a C library without them (musl: the soft-float mips
 * build). CMake force-includes this header and compiles libc_compat.c only where the libc lacks them. */
#ifndef NB_LIBC_COMPAT_H
#define NB_LIBC_COMPAT_H

/* "ENOENT" for ENOENT; NULL for a number it does not know, as glibc's. */
const char *strerrorname_np(int errnum);
/* "INT" for SIGINT; NULL for a number it does not know, as glibc's. */
const char *sigabbrev_np(int sig);

#endif
