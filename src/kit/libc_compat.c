// SPDX-License-Identifier: MIT
/* strerrorname_np and sigabbrev_np where the C library has none (musl); see libc_compat.h. */
#if NB_LIBC_COMPAT
#include "kit/libc_compat.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>

#define NAME(x) { x, #x }

struct nb_named { int value; const char *name; };

/* The errors nicbench's messages name: sysfs, netlink, sockets, files, processes. */
static const struct nb_named errno_names[] = {
	NAME(EPERM), NAME(ENOENT), NAME(ESRCH), NAME(EINTR), NAME(EIO), NAME(ENXIO), NAME(E2BIG), NAME(ENOEXEC),
	NAME(EBADF), NAME(ECHILD), NAME(EAGAIN), NAME(ENOMEM), NAME(EACCES), NAME(EFAULT), NAME(EBUSY),
	NAME(EEXIST), NAME(EXDEV), NAME(ENODEV), NAME(ENOTDIR), NAME(EISDIR), NAME(EINVAL), NAME(ENFILE),
	NAME(EMFILE), NAME(ENOTTY), NAME(EFBIG), NAME(ENOSPC), NAME(ESPIPE), NAME(EROFS), NAME(EMLINK),
	NAME(EPIPE), NAME(EDOM), NAME(ERANGE), NAME(EDEADLK), NAME(ENAMETOOLONG), NAME(ENOSYS), NAME(ENOTEMPTY),
	NAME(ELOOP), NAME(ENOMSG), NAME(ENODATA), NAME(ETIME), NAME(EPROTO), NAME(EBADMSG), NAME(EOVERFLOW),
	NAME(EILSEQ), NAME(ENOTSOCK), NAME(EDESTADDRREQ), NAME(EMSGSIZE), NAME(EPROTOTYPE), NAME(ENOPROTOOPT),
	NAME(EPROTONOSUPPORT), NAME(EOPNOTSUPP), NAME(EAFNOSUPPORT), NAME(EADDRINUSE), NAME(EADDRNOTAVAIL),
	NAME(ENETDOWN), NAME(ENETUNREACH), NAME(ENETRESET), NAME(ECONNABORTED), NAME(ECONNRESET), NAME(ENOBUFS),
	NAME(EISCONN), NAME(ENOTCONN), NAME(ETIMEDOUT), NAME(ECONNREFUSED), NAME(EHOSTDOWN), NAME(EHOSTUNREACH),
	NAME(EALREADY), NAME(EINPROGRESS), NAME(ECANCELED), NAME(ENOMEDIUM), NAME(EOWNERDEAD), NAME(ERFKILL),
};

static const struct nb_named signal_names[] = {
	{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" }, { SIGILL, "ILL" }, { SIGTRAP, "TRAP" },
	{ SIGABRT, "ABRT" }, { SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" }, { SIGUSR1, "USR1" },
	{ SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" }, { SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
	{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" }, { SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" },
	{ SIGTTOU, "TTOU" }, { SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" }, { SIGVTALRM, "VTALRM" },
	{ SIGPROF, "PROF" }, { SIGWINCH, "WINCH" }, { SIGIO, "IO" }, { SIGPWR, "PWR" }, { SIGSYS, "SYS" },
};

static const char *lookup(const struct nb_named *t, size_t n, int value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

const char *strerrorname_np(int errnum)
{
	/* EWOULDBLOCK, ENOTSUP and EDEADLOCK are the same numbers as EAGAIN, EOPNOTSUPP and EDEADLK */
	return lookup(errno_names, sizeof(errno_names) / sizeof(errno_names[0]), errnum);
}

const char *sigabbrev_np(int sig)
{
	return lookup(signal_names, sizeof(signal_names) / sizeof(signal_names[0]), sig);
}
#else
/* ISO C wants something in a translation unit */
typedef int nb_libc_compat_unused;
#endif
