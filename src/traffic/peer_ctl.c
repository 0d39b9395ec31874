// SPDX-License-Identifier: MIT
/* The peer control requests (peer_ctl.h): the line format, serve's side that sets and restores
 * its interface's MTU, and run's side that asks. */
#include "traffic/peer_ctl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kit/nb_paths.h"
#include "kit/nb_time.h"
#include "nic/mtu.h"

#define NB_CTL_MAX_CHANGES 4

/* ---- the line format (pure) ---- */

int nb_ctl_format_request(char *buf, size_t len, const struct nb_ctl_request *rq)
{
	int n;

	if (rq->op == NB_CTL_MTU)
		n = snprintf(buf, len, "NBCTL %d MTU %s %d\n", rq->version, rq->address, rq->mtu);
	else
		n = snprintf(buf, len, "NBCTL %d RESTORE\n", rq->version);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int nb_ctl_parse_request(const char *line, struct nb_ctl_request *rq, struct nb_err *err)
{
	char op[16] = "", extra[2] = "";
	int fields;

	memset(rq, 0, sizeof(*rq));
	if (sscanf(line, "NBCTL %d %15s", &rq->version, op) != 2)
		return nb_err_set(err, -EINVAL, "not a nicbench control request: '%.80s'", line);
	if (rq->version != NB_CTL_VERSION)
		return nb_err_set(err, -EPROTONOSUPPORT, "control request version %d; this serve speaks %d",
				  rq->version, NB_CTL_VERSION);
	if (!strcmp(op, "RESTORE")) {
		rq->op = NB_CTL_RESTORE;
		if (sscanf(line, "NBCTL %*d RESTORE %1s", extra) == 1)
			return nb_err_set(err, -EINVAL, "RESTORE takes no arguments: '%.80s'", line);
		return 0;
	}
	if (strcmp(op, "MTU"))
		return nb_err_set(err, -EINVAL, "unknown control request '%s' (known: MTU, RESTORE)", op);
	rq->op = NB_CTL_MTU;
	fields = sscanf(line, "NBCTL %*d MTU %63s %d %1s", rq->address, &rq->mtu, extra);
	if (fields != 2)
		return nb_err_set(err, -EINVAL, "MTU wants an address and an MTU: '%.80s'", line);
	if (rq->mtu < 68 || rq->mtu > 65535)
		return nb_err_set(err, -ERANGE, "MTU %d is outside 68..65535", rq->mtu);
	return 0;
}

static int errno_by_name(const char *name)
{
	for (int e = 1; e < 200; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name))
			return e;
	}
	return EIO;
}

int nb_ctl_format_reply(char *buf, size_t len, enum nb_ctl_op op, const struct nb_ctl_reply *rp)
{
	int n;

	if (!rp->ok) {
		const char *name = strerrorname_np(-rp->code);

		n = snprintf(buf, len, "ERR %s %s\n", name ? name : "EIO", rp->text);
	} else if (op == NB_CTL_RESTORE) {
		n = snprintf(buf, len, "OK restored %d\n", rp->restored);
	} else {
		n = snprintf(buf, len, "OK %s %d %d%s%s\n", rp->iface, rp->old_mtu, rp->new_mtu, rp->text[0] ? " " : "",
			     rp->text);
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int nb_ctl_parse_reply(const char *line, enum nb_ctl_op op, struct nb_ctl_reply *rp, struct nb_err *err)
{
	char name[32];
	int used = 0;

	memset(rp, 0, sizeof(*rp));
	if (sscanf(line, "ERR %31s %n", name, &used) == 1 && used > 0) {
		rp->code = -errno_by_name(name);
		snprintf(rp->text, sizeof(rp->text), "%s", line + used);
		return 0;
	}
	rp->ok = true;
	if (op == NB_CTL_RESTORE) {
		if (sscanf(line, "OK restored %d", &rp->restored) == 1)
			return 0;
	} else if (sscanf(line, "OK %15s %d %d %n", rp->iface, &rp->old_mtu, &rp->new_mtu, &used) >= 3) {
		if (used > 0)
			snprintf(rp->text, sizeof(rp->text), "%s", line + used);
		return 0;
	}
	rp->ok = false;
	return nb_err_set(err, -EPROTO, "the peer's control reply is not one nicbench knows: '%.80s'", line);
}

/* ---- line I/O over a socket ---- */

struct line_buf {
	char data[NB_CTL_LINE_MAX];
	size_t used;
};

/* Take one line out of lb into line (NUL-terminated, no newline): 1, or 0 when none is whole. */
static int take_line(struct line_buf *lb, char *line, size_t len)
{
	char *nl = memchr(lb->data, '\n', lb->used);
	size_t n;

	if (!nl)
		return 0;
	n = (size_t)(nl - lb->data);
	snprintf(line, len, "%.*s", (int)n, lb->data);
	if (line[0] && line[strlen(line) - 1] == '\r')  /* a hand-typed request (nc -C) */
		line[strlen(line) - 1] = '\0';
	memmove(lb->data, nl + 1, lb->used - n - 1);
	lb->used -= n + 1;
	return 1;
}

/* ---- the server ---- */

struct ctl_change {
	char iface[16];
	int original;
};

struct ctl_conn {
	int fd;                    /* -1: free slot */
	char who[64];
	struct line_buf in;
	int nchanges;
	struct ctl_change changes[NB_CTL_MAX_CHANGES];
};

struct nb_ctl_server {
	int listen_fd;
	nb_ctl_log_fn log;
	struct ctl_conn conns[NB_CTL_MAX_CLIENTS];
};

static void ctl_log(const struct nb_ctl_server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctl_log(const struct nb_ctl_server *s, const char *fmt, ...)
{
	char line[NB_CTL_LINE_MAX + 128];
	va_list ap;

	if (!s->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->log(line);
}

int nb_ctl_server_start(const char *bind_addr, int port, nb_ctl_log_fn log, struct nb_ctl_server **out,
			struct nb_err *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res = NULL;
	struct nb_ctl_server *s;
	char service[16];
	int one = 1, rc;

	snprintf(service, sizeof(service), "%d", port);
	if (!bind_addr)
		hints.ai_family = AF_INET6;  /* dual-stack: v4 clients arrive as mapped addresses */
	rc = getaddrinfo(bind_addr, service, &hints, &res);
	if (rc)
		return nb_err_set(err, -EINVAL, "control port %s:%d: %s", bind_addr ? bind_addr : "*", port,
				  gai_strerror(rc));
	s = calloc(1, sizeof(*s));
	if (!s) {
		freeaddrinfo(res);
		return nb_err_set(err, -ENOMEM, "control port %d: out of memory", port);
	}
	s->log = log;
	for (int i = 0; i < NB_CTL_MAX_CLIENTS; i++)
		s->conns[i].fd = -1;
	s->listen_fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->listen_fd >= 0) {
		setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(s->listen_fd, res->ai_addr, res->ai_addrlen) < 0 || listen(s->listen_fd, 4) < 0) {
			rc = -errno;
			close(s->listen_fd);
			s->listen_fd = -1;
		}
	} else {
		rc = -errno;
	}
	freeaddrinfo(res);
	if (s->listen_fd < 0) {
		free(s);
		return nb_err_set(err, rc, "control port %s:%d (peer MTU requests): %s", bind_addr ? bind_addr : "*",
				  port, strerror(-rc));
	}
	*out = s;
	return 0;
}

int nb_ctl_server_pollfds(const struct nb_ctl_server *s, struct pollfd *pfd, int max)
{
	int n = 0;

	if (!s || max < 1)
		return 0;
	pfd[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
	for (int i = 0; i < NB_CTL_MAX_CLIENTS && n < max; i++)
		pfd[n++] = (struct pollfd){ .fd = s->conns[i].fd, .events = POLLIN };
	return n;
}

/* The interface that holds address (numeric, v4 or v6), into iface. */
static int iface_of_address(const char *address, char *iface, size_t len)
{
	unsigned char want[16];
	int family = strchr(address, ':') ? AF_INET6 : AF_INET;
	struct ifaddrs *ifa, *i;
	int rc = -EADDRNOTAVAIL;

	if (inet_pton(family, address, want) != 1)
		return -EINVAL;
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		const void *have;

		if (!i->ifa_addr || i->ifa_addr->sa_family != family)
			continue;
		have = family == AF_INET ? (const void *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr
					 : (const void *)&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
		if (!memcmp(have, want, family == AF_INET ? 4 : 16)) {
			snprintf(iface, len, "%s", i->ifa_name);
			rc = 0;
			break;
		}
	}
	freeifaddrs(ifa);
	return rc;
}

static int read_mtu(const char *iface, int *mtu)
{
	int n = nb_mtu_read(&nb_paths_live, iface);

	if (n < 0)
		return n;
	*mtu = n;
	return 0;
}

static int set_mtu(const char *iface, int mtu, char *note, size_t len, struct nb_err *err)
{
	struct nb_mtu_ctx ctx = { .paths = &nb_paths_live };
	struct nb_mtu_outcome o;
	char value[16];
	int rc;

	snprintf(value, sizeof(value), "%d", mtu);
	rc = nb_mtu_set(&ctx, iface, value, &o, err);
	nb_mtu_describe(&o, note, len);
	return rc;
}

static void handle_mtu(struct nb_ctl_server *s, struct ctl_conn *c, const struct nb_ctl_request *rq,
		       struct nb_ctl_reply *rp)
{
	struct nb_err err = { 0 };
	int rc = iface_of_address(rq->address, rp->iface, sizeof(rp->iface));
	int k;

	if (rc < 0) {
		rp->code = rc;
		snprintf(rp->text, sizeof(rp->text), "no interface of the peer holds %s", rq->address);
		return;
	}
	rc = read_mtu(rp->iface, &rp->old_mtu);
	if (rc < 0) {
		rp->code = rc;
		snprintf(rp->text, sizeof(rp->text), "read the mtu of %s: %s", rp->iface, strerror(-rc));
		return;
	}
	for (k = 0; k < c->nchanges && strcmp(c->changes[k].iface, rp->iface); k++)
		;
	if (k == c->nchanges) {
		if (k == NB_CTL_MAX_CHANGES) {
			rp->code = -ENOSPC;
			snprintf(rp->text, sizeof(rp->text), "this connection changed %d interfaces already", k);
			return;
		}
		/* remembered before the change: a failed write may have half-happened (down, not up) */
		snprintf(c->changes[k].iface, sizeof(c->changes[k].iface), "%s", rp->iface);
		c->changes[k].original = rp->old_mtu;
		c->nchanges++;
	}
	rc = set_mtu(rp->iface, rq->mtu, rp->text, sizeof(rp->text), &err);
	if (rc < 0) {
		rp->code = rc;
		snprintf(rp->text, sizeof(rp->text), "%s", err.msg);
		return;
	}
	rp->ok = true;
	read_mtu(rp->iface, &rp->new_mtu);
	ctl_log(s, "mtu of %s %d -> %d for %s%s%s", rp->iface, rp->old_mtu, rp->new_mtu, c->who,
		rp->text[0] ? ": " : "", rp->text);
}

static int restore_conn(struct nb_ctl_server *s, struct ctl_conn *c, const char *why)
{
	int restored = 0;

	for (int k = c->nchanges - 1; k >= 0; k--) {
		struct nb_err err = { 0 };
		char note[160];

		if (set_mtu(c->changes[k].iface, c->changes[k].original, note, sizeof(note), &err) < 0) {
			ctl_log(s, "restore mtu %d on %s (%s): %s", c->changes[k].original, c->changes[k].iface, why,
				err.msg);
			continue;
		}
		restored++;
		ctl_log(s, "mtu of %s restored to %d (%s)%s%s", c->changes[k].iface, c->changes[k].original, why,
			note[0] ? ": " : "", note);
	}
	c->nchanges = 0;
	return restored;
}

static void drop_conn(struct nb_ctl_server *s, struct ctl_conn *c, const char *why)
{
	restore_conn(s, c, why);
	close(c->fd);
	c->fd = -1;
	c->in.used = 0;
}

static void answer(struct nb_ctl_server *s, struct ctl_conn *c, const char *line)
{
	struct nb_ctl_request rq;
	struct nb_ctl_reply rp = { 0 };
	struct nb_err err = { 0 };
	char out[NB_CTL_LINE_MAX + 64];
	int rc = nb_ctl_parse_request(line, &rq, &err);

	if (rc < 0) {
		rp.code = rc;
		snprintf(rp.text, sizeof(rp.text), "%s", err.msg);
	} else if (rq.op == NB_CTL_RESTORE) {
		rp.ok = true;
		rp.restored = restore_conn(s, c, "the run asked");
	} else {
		handle_mtu(s, c, &rq, &rp);
	}
	if (nb_ctl_format_reply(out, sizeof(out), rc < 0 ? NB_CTL_MTU : rq.op, &rp) == 0)
		nb_write_all(c->fd, out, strlen(out));
}

static void accept_one(struct nb_ctl_server *s)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[48] = "?";
	int fd = accept4(s->listen_fd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), NULL, 0, NI_NUMERICHOST);
	for (int i = 0; i < NB_CTL_MAX_CLIENTS; i++) {
		if (s->conns[i].fd < 0) {
			s->conns[i].fd = fd;
			snprintf(s->conns[i].who, sizeof(s->conns[i].who), "%s", host);
			return;
		}
	}
	nb_write_all(fd, "ERR EBUSY too many control connections\n", 39);
	close(fd);
}

void nb_ctl_server_service(struct nb_ctl_server *s, const struct pollfd *pfd, int n)
{
	if (!s)
		return;
	for (int i = 1; i < n; i++) {
		struct ctl_conn *c = &s->conns[i - 1];
		char line[NB_CTL_LINE_MAX];
		ssize_t got;

		if (c->fd < 0 || pfd[i].fd != c->fd || !pfd[i].revents)
			continue;
		got = read(c->fd, c->in.data + c->in.used, sizeof(c->in.data) - c->in.used);
		if (got <= 0) {
			drop_conn(s, c, "the run disconnected");
			continue;
		}
		c->in.used += (size_t)got;
		while (take_line(&c->in, line, sizeof(line)))
			answer(s, c, line);
		if (c->in.used == sizeof(c->in.data))
			drop_conn(s, c, "request line too long");
	}
	if (n > 0 && pfd[0].revents & POLLIN)
		accept_one(s);
}

void nb_ctl_server_stop(struct nb_ctl_server *s)
{
	if (!s)
		return;
	for (int i = 0; i < NB_CTL_MAX_CLIENTS; i++)
		if (s->conns[i].fd >= 0)
			drop_conn(s, &s->conns[i], "serve is stopping");
	close(s->listen_fd);
	free(s);
}

/* ---- the client ---- */

struct nb_ctl_client {
	int fd;
	struct line_buf in;
};

int nb_ctl_client_connect(const char *host, int port, double timeout_s, struct nb_ctl_client **out,
			  struct nb_err *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res = NULL;
	struct nb_ctl_client *c;
	char service[16];
	struct pollfd pfd;
	int fd, rc, soerr = 0;
	socklen_t sl = sizeof(soerr);

	snprintf(service, sizeof(service), "%d", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc)
		return nb_err_set(err, -EINVAL, "peer control %s:%d: %s", host, port, gai_strerror(rc));
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		rc = -errno;
		freeaddrinfo(res);
		return nb_err_set(err, rc, "peer control %s:%d: socket: %s", host, port, strerror(-rc));
	}
	rc = connect(fd, res->ai_addr, res->ai_addrlen) < 0 ? -errno : 0;
	freeaddrinfo(res);
	if (rc == -EINPROGRESS) {
		pfd = (struct pollfd){ .fd = fd, .events = POLLOUT };
		rc = poll(&pfd, 1, (int)(timeout_s * 1000)) == 1 ? 0 : -ETIMEDOUT;
		if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr)
			rc = -soerr;
	}
	if (rc < 0) {
		close(fd);
		return nb_err_set(err, rc, "connect to the peer's control port %s:%d: %s", host, port, strerror(-rc));
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return nb_err_set(err, -ENOMEM, "peer control: out of memory");
	}
	c->fd = fd;
	*out = c;
	return 0;
}

static int client_ask(struct nb_ctl_client *c, const struct nb_ctl_request *rq, double timeout_s,
		      struct nb_ctl_reply *rp, struct nb_err *err)
{
	char out[NB_CTL_LINE_MAX], line[NB_CTL_LINE_MAX];
	double give_up = nb_monotonic_s() + timeout_s;
	int rc;

	if (nb_ctl_format_request(out, sizeof(out), rq) < 0)
		return nb_err_set(err, -ENOSPC, "peer control request too long");
	rc = nb_write_all(c->fd, out, strlen(out));
	if (rc < 0)
		return nb_err_set(err, rc, "send to the peer's control port: %s", strerror(-rc));
	while (!take_line(&c->in, line, sizeof(line))) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		double left = give_up - nb_monotonic_s();
		ssize_t got;

		if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			return nb_err_set(err, -ETIMEDOUT, "the peer did not answer a control request in %.0f s",
					  timeout_s);
		got = read(c->fd, c->in.data + c->in.used, sizeof(c->in.data) - c->in.used);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (got <= 0)
			return nb_err_set(err, -ECONNRESET, "the peer closed its control connection");
		c->in.used += (size_t)got;
		if (c->in.used == sizeof(c->in.data))
			return nb_err_set(err, -EPROTO, "the peer's control reply is too long");
	}
	rc = nb_ctl_parse_reply(line, rq->op, rp, err);
	if (rc < 0)
		return rc;
	if (!rp->ok)
		return nb_err_set(err, rp->code, "%s", rp->text);
	return 0;
}

int nb_ctl_client_mtu(struct nb_ctl_client *c, const char *address, int mtu, double timeout_s,
		      struct nb_ctl_reply *rp, struct nb_err *err)
{
	struct nb_ctl_request rq = { .version = NB_CTL_VERSION, .op = NB_CTL_MTU, .mtu = mtu };
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (address) {
		snprintf(rq.address, sizeof(rq.address), "%s", address);
	} else if (getpeername(c->fd, (struct sockaddr *)&ss, &sl) < 0 ||
		   getnameinfo((struct sockaddr *)&ss, sl, rq.address, sizeof(rq.address), NULL, 0, NI_NUMERICHOST)) {
		return nb_err_set(err, -errno ? -errno : -EINVAL, "the peer's address on its control connection: %s",
				  strerror(errno));
	}
	return client_ask(c, &rq, timeout_s, rp, err);
}

int nb_ctl_client_restore(struct nb_ctl_client *c, double timeout_s, struct nb_ctl_reply *rp, struct nb_err *err)
{
	struct nb_ctl_request rq = { .version = NB_CTL_VERSION, .op = NB_CTL_RESTORE };

	return client_ask(c, &rq, timeout_s, rp, err);
}

void nb_ctl_client_close(struct nb_ctl_client *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}
