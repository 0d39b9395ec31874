// SPDX-License-Identifier: MIT
/* The iperf3 program as a traffic backend: where libiperf is not built in (a board's sysroot
 * without it) or is not wanted, the iperf3 tests run the board's own `iperf3 --json` instead,
 * and its JSON is read as libiperf's is. iperf_driver.c runs it inside its watched child. */
#ifndef NB_IPERF_PROG_H
#define NB_IPERF_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kit/nb_error.h"

/* One client test as the program is asked for it (iperf_driver.c fills it from its params). */
struct nb_iperf_prog_test {
	const char *host;
	int port;
	bool udp;
	bool reverse;
	int duration_s, omit_s, streams;
	uint64_t rate_bps;    /* 0: unlimited */
	int length;           /* --length; 0: the program's default (give UDP's explicitly) */
};

/* Which backend runs the iperf3 tests: the config's traffic_backend. */
enum nb_iperf_backend {
	NB_IPERF_BACKEND_AUTO = 0,  /* libiperf when built in, else the program */
	NB_IPERF_BACKEND_LIBIPERF,
	NB_IPERF_BACKEND_PROGRAM,
};

/* "auto", "libiperf", "iperf3" into *out; -EINVAL with the accepted names otherwise. */
int nb_iperf_backend_parse(const char *text, enum nb_iperf_backend *out, struct nb_err *err);
/* The report's name of a resolved backend: "libiperf" or "iperf3". */
const char *nb_iperf_backend_name(enum nb_iperf_backend b);
/* Was this nicbench built with libiperf? */
bool nb_iperf_have_libiperf(void);
/* AUTO resolved; -ENOTSUP naming the build when libiperf is asked for and not built in. */
int nb_iperf_backend_resolve(enum nb_iperf_backend want, enum nb_iperf_backend *out, struct nb_err *err);

/* Run `program --version` and keep its version ("3.12" of "iperf 3.12 (cJSON 1.7.15)") in
 * version: it says the program is there and which one it is, before any point runs.
 * -ENOENT and the like when it cannot be run, -EBADMSG when it is not iperf3. */
int nb_iperf_prog_probe(const char *program, char *version, size_t len, struct nb_err *err);

/* The command lines, pure: argv (NULL-terminated, pointing into store) of the client run
 * that iperf_driver.c's configure_client gives libiperf, and of a one-test server. -ENOSPC
 * when store or max is too small. */
struct nb_iperf_argv {
	char *argv[48];
	char store[1024];
};
int nb_iperf_prog_client_argv(const char *program, const struct nb_iperf_prog_test *t, int connect_ms,
			      struct nb_iperf_argv *a);
int nb_iperf_prog_server_argv(const char *program, const char *bind, int port, double interval_s,
			      struct nb_iperf_argv *a);

/* What one run of the program gave. */
struct nb_iperf_prog_out {
	char *json;          /* its stdout (the JSON), malloc'd; NULL when it wrote nothing */
	int wait_status;     /* waitpid status; -1 when it was not run or could not be reaped */
	char stderr_tail[256]; /* the end of what it wrote on stderr, "" when nothing */
	char error[256];     /* why it could not be run ("exec iperf3: No such file or directory"), "" */
};

/* Fork and exec argv with stdout and stderr piped back, then read both to their end and reap
 * it. started(ctx, pid) is called in the caller right after the fork (the traffic child
 * announces the worker's pid and its start marker there). The program dies with its caller
 * (PR_SET_PDEATHSIG). stdout over max_output bytes kills it. Returns 0 when it ran (out says
 * how), -errno when it could not be started (out->error says why). */
int nb_iperf_prog_run(char *const argv[], size_t max_output, void (*started)(void *ctx, pid_t pid), void *ctx,
		      struct nb_iperf_prog_out *out);
void nb_iperf_prog_out_release(struct nb_iperf_prog_out *out);

/* In a traffic child: one client attempt. Once the program is forked, its pid (the worker) and the
 * attempt's start marker go to report_fd (child_link.h). 0 when it ran, -errno (out->error) when not. */
int nb_iperf_prog_attempt(const char *program, const struct nb_iperf_prog_test *t, int connect_ms, int report_fd,
			  size_t max_output, struct nb_iperf_prog_out *out);

/* Does iperf3's JSON error text say the server was not ready yet (refused, busy, the control
 * connection dropped), so another attempt may succeed? libiperf tells the same by i_errno. */
bool nb_iperf_prog_error_retryable(const char *error_text);

#endif
