// SPDX-License-Identifier: MIT
/* nicbench's control requests to its peer (`nicbench serve`): set the MTU of the peer's
 * interface that holds an address, and restore it at the end, on disconnect and on exit.
 * One text line a request and a reply on a TCP port of its own, beside iperf3's. */
#ifndef NB_PEER_CTL_H
#define NB_PEER_CTL_H

#include <stdbool.h>
#include <poll.h>
#include <stddef.h>

#include "kit/nb_error.h"

#define NB_CTL_VERSION 1
#define NB_CTL_DEFAULT_PORT 5401      /* iperf3 5201, rr 5301 */
#define NB_CTL_LINE_MAX 512
#define NB_CTL_MAX_CLIENTS 8

/* Requests, one line each:
 *   "NBCTL 1 MTU <address> <mtu>"   set the MTU of the interface that holds <address>
 *   "NBCTL 1 RESTORE"               put back everything this connection changed
 * Replies:
 *   "OK <iface> <old mtu> <new mtu> [note]"   (RESTORE: "OK restored <n>")
 *   "ERR <errno name> <message>"
 * A server that does not speak the request's version answers "ERR EPROTONOSUPPORT ...". */
enum nb_ctl_op { NB_CTL_MTU, NB_CTL_RESTORE };

struct nb_ctl_request {
	int version;
	enum nb_ctl_op op;
	char address[64];
	int mtu;
};

struct nb_ctl_reply {
	bool ok;
	int code;                 /* -errno of an ERR reply */
	char iface[16];
	int old_mtu, new_mtu;     /* MTU reply */
	int restored;             /* RESTORE reply */
	char text[NB_CTL_LINE_MAX]; /* note of OK, message of ERR */
};

/* Pure: the request line (with its newline) into buf; -ENOSPC when it does not fit. */
int nb_ctl_format_request(char *buf, size_t len, const struct nb_ctl_request *rq);
/* Pure: a request line (newline stripped) into rq; -EPROTONOSUPPORT for another version,
 * -EINVAL for anything else that is not a request, with err saying what. */
int nb_ctl_parse_request(const char *line, struct nb_ctl_request *rq, struct nb_err *err);
/* Pure: the reply line for rp, and its reverse. */
int nb_ctl_format_reply(char *buf, size_t len, enum nb_ctl_op op, const struct nb_ctl_reply *rp);
int nb_ctl_parse_reply(const char *line, enum nb_ctl_op op, struct nb_ctl_reply *rp, struct nb_err *err);

/* ---- the server, inside `nicbench serve` (one process, polled with the rest) ---- */
struct nb_ctl_server;
typedef void (*nb_ctl_log_fn)(const char *line);
int nb_ctl_server_start(const char *bind, int port, nb_ctl_log_fn log, struct nb_ctl_server **out,
			struct nb_err *err);
/* Fill up to max pollfd slots (listener and clients); returns how many. */
int nb_ctl_server_pollfds(const struct nb_ctl_server *s, struct pollfd *pfd, int max);
/* Serve what the slots filled by pollfds say is ready: accept, answer, restore on a drop. */
void nb_ctl_server_service(struct nb_ctl_server *s, const struct pollfd *pfd, int n);
/* Restore every client's changes and close (serve's exit). */
void nb_ctl_server_stop(struct nb_ctl_server *s);

/* ---- the client, inside `nicbench run` ---- */
struct nb_ctl_client;
/* Connect to host:port within timeout_s. -ECONNREFUSED (nothing listens: a plain iperf3 peer),
 * -ETIMEDOUT, or other -errno, with err saying so. */
int nb_ctl_client_connect(const char *host, int port, double timeout_s, struct nb_ctl_client **out,
			  struct nb_err *err);
/* Ask and wait (timeout_s) for the reply; a reply of ERR is its -errno with err = its message.
 * address NULL: the address this connection reached (the peer's end of the tested link). */
int nb_ctl_client_mtu(struct nb_ctl_client *c, const char *address, int mtu, double timeout_s,
		      struct nb_ctl_reply *rp, struct nb_err *err);
int nb_ctl_client_restore(struct nb_ctl_client *c, double timeout_s, struct nb_ctl_reply *rp, struct nb_err *err);
/* Close: the server restores what it still holds for this connection. */
void nb_ctl_client_close(struct nb_ctl_client *c);

#endif
