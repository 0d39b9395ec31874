// SPDX-License-Identifier: MIT
/* The RR side of nicbench serve: one long-lived child answers tcp-rr and udp-rr on one port. */
#ifndef NB_RR_SERVER_H
#define NB_RR_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "kit/nb_error.h"

struct nb_rr_serve_params {
	const char *bind;      /* local address; NULL = all (IPv6 any, which takes IPv4 too) */
	int port;              /* TCP and UDP */
	int think_us;          /* service time per request before the response goes out (0: none) */
};

struct nb_rr_server;

/* Fork the child; it listens on TCP and UDP and serves every client until stopped. */
int nb_rr_server_start(const struct nb_rr_serve_params *p, struct nb_rr_server **out, struct nb_err *err);
/* Readable when the child has a log line or has exited (for poll). */
int nb_rr_server_fd(const struct nb_rr_server *s);
/* Take the child's log lines (each handed to log_line) without blocking; 1 when the child
 * has ended (call finish then), 0 while it runs. */
int nb_rr_server_poll(struct nb_rr_server *s, void (*log_line)(const char *line));
void nb_rr_server_stop(struct nb_rr_server *s);
/* Reap the child and free s; why says how it ended ("" after nb_rr_server_stop). */
void nb_rr_server_finish(struct nb_rr_server *s, char *why, size_t len);

#endif
