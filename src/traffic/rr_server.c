// SPDX-License-Identifier: MIT
/* nicbench serve's RR child: TCP and UDP request/response on one port, epoll, optional think time. */
#include "traffic/rr_server.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "traffic/rr_proto.h"

struct nb_rr_server {
	pid_t pid;
	int fd;                /* the child's log pipe */
	char buf[4096];
	size_t len;
	bool eof, stopped, reaped;
	int status;
};

/* ---- child side ---- */

enum ev_kind { EV_LISTEN, EV_UDP, EV_TIMER, EV_CONN };

struct conn {
	enum ev_kind kind;     /* EV_CONN; first, so an epoll pointer tells its kind */
	int fd;
	uint32_t gen;          /* bumped on close: queued responses for an old connection are dropped */
	unsigned char *in;
	size_t in_len;
	unsigned char *out;
	size_t out_len, out_off, out_cap;
	uint64_t transactions;
	bool want_out;         /* EPOLLOUT is on: a response is waiting for socket space */
	double opened_at;
	double cpu_at_open;
	char peer[80];
	struct conn *next_dead;
};

struct tag { enum ev_kind kind; };

/* A response waiting for its think time; FIFO because every request waits equally long. */
struct pending {
	uint64_t due_ns;
	struct conn *conn;     /* NULL for UDP */
	uint32_t gen;
	uint32_t seq, resp_len;
	struct sockaddr_storage addr;
	socklen_t addrlen;
};

struct server {
	const struct nb_rr_serve_params *p;
	int log_fd, epfd, lfd, ufd, tfd;
	struct tag listen_tag, udp_tag, timer_tag;
	struct pending *q;
	size_t q_head, q_len, q_cap;
	unsigned char *scratch;   /* a response body: header + zeros */
	uint64_t udp_transactions;
	struct conn *dead;        /* closed; freed after the event batch once no response refers to them */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static void child_log(struct server *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void child_log(struct server *sv, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* a full pipe drops the line rather than stall the answers */
	if (write(sv->log_fd, line, (size_t)n) < 0)
		return;
}

static void format_addr(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?", port[8] = "?";

	getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host, sizeof(host), port, sizeof(port),
		    NI_NUMERICHOST | NI_NUMERICSERV);
	if (strchr(host, ':'))
		snprintf(buf, len, "[%s]:%s", host, port);
	else
		snprintf(buf, len, "%s:%s", host, port);
}

static int open_socket(const struct nb_rr_serve_params *p, int type, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = type, .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL, *ai;
	char port[8];
	int fd = -1, one = 1, zero = 0, rc, e = 0;

	snprintf(port, sizeof(port), "%d", p->port);
	if (!p->bind)
		hints.ai_family = AF_INET6;  /* the v6 any address takes IPv4 too (V6ONLY off) */
	rc = getaddrinfo(p->bind, port, &hints, &res);
	if (rc && !p->bind) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(NULL, port, &hints, &res);
	}
	if (rc) {
		snprintf(why, whylen, "resolve %s: %s", p->bind ? p->bind : "the any address", gai_strerror(rc));
		return -EINVAL;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && (type != SOCK_STREAM || listen(fd, 128) == 0))
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0 && !p->bind && hints.ai_family == AF_INET6) {
		/* a kernel without IPv6: the IPv4 any address then */
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p->port) };

		fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || (type == SOCK_STREAM && listen(fd, 128) < 0)) {
				e = errno;
				close(fd);
				fd = -1;
			}
		}
	}
	if (fd < 0) {
		snprintf(why, whylen, "listen on %s port %d (%s): %s", p->bind ? p->bind : "all addresses", p->port,
			 type == SOCK_STREAM ? "TCP" : "UDP", strerror(e));
		return -e;
	}
	return fd;
}

static void conn_close(struct server *sv, struct conn *c, const char *why)
{
	double secs = (double)now_ns() / 1e9 - c->opened_at;

	child_log(sv, "TCP client %s: %llu transaction%s in %.2f s, server CPU %.3f s%s%s", c->peer,
		  (unsigned long long)c->transactions, c->transactions == 1 ? "" : "s", secs, cpu_s() - c->cpu_at_open,
		  why ? "; " : "", why ? why : "");
	epoll_ctl(sv->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	c->gen++;
	free(c->in);
	free(c->out);
	c->in = c->out = NULL;
	/* Later events of this batch and queued responses may still point at the struct:
	 * they see fd -1 and the new gen; dead_sweep frees it. */
	c->next_dead = sv->dead;
	sv->dead = c;
}

static void conn_want_out(struct server *sv, struct conn *c, bool want)
{
	struct epoll_event ev = { .events = EPOLLIN | (want ? EPOLLOUT : 0), .data.ptr = c };

	/* one epoll_ctl per change, not per response */
	if (c->want_out == want)
		return;
	c->want_out = want;
	epoll_ctl(sv->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Write what is buffered; false when the connection broke (and was closed). */
static bool conn_flush(struct server *sv, struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			conn_want_out(sv, c, true);
			return true;
		}
		if (n <= 0) {
			char why[128];

			snprintf(why, sizeof(why), "send: %s", strerror(errno));
			conn_close(sv, c, why);
			return false;
		}
		c->out_off += (size_t)n;
	}
	conn_want_out(sv, c, false);
	c->out_len = c->out_off = 0;
	return true;
}

static void respond_tcp(struct server *sv, struct conn *c, uint32_t seq, uint32_t resp_len)
{
	struct nb_rr_header h = { NB_RR_MAGIC, resp_len, resp_len, seq };

	if (c->fd < 0)
		return;
	if (c->out_cap - c->out_len < resp_len) {
		size_t ncap = c->out_len + resp_len + 4096;
		unsigned char *grown = realloc(c->out, ncap);

		if (!grown) {
			conn_close(sv, c, "out of memory for a response");
			return;
		}
		c->out = grown;
		c->out_cap = ncap;
	}
	memset(c->out + c->out_len, 0, resp_len);
	nb_rr_header_put(c->out + c->out_len, &h);
	c->out_len += resp_len;
	c->transactions++;
	/* responses already waiting for EPOLLOUT keep their order: append only */
	if (c->out_off == 0 && c->out_len == resp_len)
		conn_flush(sv, c);
}

static void respond_udp(struct server *sv, uint32_t seq, uint32_t resp_len, const struct sockaddr_storage *to,
			socklen_t tolen)
{
	struct nb_rr_header h = { NB_RR_MAGIC, resp_len, resp_len, seq };

	nb_rr_header_put(sv->scratch, &h);
	/* UDP: a full socket buffer drops the answer; the client counts it lost */
	sendto(sv->ufd, sv->scratch, resp_len, MSG_DONTWAIT, (const struct sockaddr *)to, tolen);
	sv->udp_transactions++;
}

static void timer_arm(struct server *sv)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (sv->q_len) {
		uint64_t due = sv->q[sv->q_head].due_ns;

		its.it_value.tv_sec = (time_t)(due / 1000000000ull);
		its.it_value.tv_nsec = (long)(due % 1000000000ull);
		if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
			its.it_value.tv_nsec = 1;
	}
	timerfd_settime(sv->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static int queue_push(struct server *sv, const struct pending *pd)
{
	if (sv->q_len == sv->q_cap) {
		size_t ncap = sv->q_cap ? sv->q_cap * 2 : 256;
		struct pending *nq = malloc(ncap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		for (size_t i = 0; i < sv->q_len; i++)
			nq[i] = sv->q[(sv->q_head + i) % sv->q_cap];
		free(sv->q);
		sv->q = nq;
		sv->q_cap = ncap;
		sv->q_head = 0;
	}
	sv->q[(sv->q_head + sv->q_len) % sv->q_cap] = *pd;
	sv->q_len++;
	if (sv->q_len == 1)
		timer_arm(sv);
	return 0;
}

/* A closed connection's struct is freed once no queued response refers to it. */
static bool queue_refers_to(const struct server *sv, const struct conn *c)
{
	for (size_t i = 0; i < sv->q_len; i++)
		if (sv->q[(sv->q_head + i) % sv->q_cap].conn == c)
			return true;
	return false;
}

static void dead_sweep(struct server *sv)
{
	struct conn **link = &sv->dead;

	while (*link) {
		struct conn *c = *link;

		if (queue_refers_to(sv, c)) {
			link = &c->next_dead;
			continue;
		}
		*link = c->next_dead;
		free(c);
	}
}

static void queue_run(struct server *sv)
{
	uint64_t now = now_ns(), expirations;

	if (read(sv->tfd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN)
		return;
	while (sv->q_len && sv->q[sv->q_head].due_ns <= now) {
		struct pending pd = sv->q[sv->q_head];

		sv->q_head = (sv->q_head + 1) % sv->q_cap;
		sv->q_len--;
		if (!pd.conn) {
			respond_udp(sv, pd.seq, pd.resp_len, &pd.addr, pd.addrlen);
		} else if (pd.conn->gen == pd.gen) {
			respond_tcp(sv, pd.conn, pd.seq, pd.resp_len);
		}
	}
	timer_arm(sv);
}

static void answer(struct server *sv, struct conn *c, const struct nb_rr_header *h, const struct sockaddr_storage *from,
		   socklen_t fromlen)
{
	struct pending pd;

	if (sv->p->think_us <= 0) {
		if (c)
			respond_tcp(sv, c, h->seq, h->resp_len);
		else
			respond_udp(sv, h->seq, h->resp_len, from, fromlen);
		return;
	}
	memset(&pd, 0, sizeof(pd));
	pd.due_ns = now_ns() + (uint64_t)sv->p->think_us * 1000u;
	pd.conn = c;
	pd.gen = c ? c->gen : 0;
	pd.seq = h->seq;
	pd.resp_len = h->resp_len;
	if (from) {
		memcpy(&pd.addr, from, fromlen);
		pd.addrlen = fromlen;
	}
	if (queue_push(sv, &pd) < 0)
		child_log(sv, "out of memory queueing a response; dropped");
}

static void conn_readable(struct server *sv, struct conn *c)
{
	ssize_t n;
	size_t off = 0;

	n = recv(c->fd, c->in + c->in_len, NB_RR_MAX_LEN * 2 - c->in_len, 0);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		char why[128] = "";

		if (n < 0)
			snprintf(why, sizeof(why), "recv: %s", strerror(errno));
		conn_close(sv, c, why[0] ? why : NULL);
		return;
	}
	c->in_len += (size_t)n;
	while (c->in_len - off >= NB_RR_HEADER_LEN) {
		struct nb_rr_header h;

		nb_rr_header_get(c->in + off, &h);
		if (!nb_rr_header_valid(&h)) {
			conn_close(sv, c, "not a nicbench rr request (bad header); closed");
			return;
		}
		if (c->in_len - off < h.req_len)
			break;
		off += h.req_len;
		answer(sv, c, &h, NULL, 0);
		if (c->fd < 0)
			return;
	}
	memmove(c->in, c->in + off, c->in_len - off);
	c->in_len -= off;
}

static void accept_all(struct server *sv)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int one = 1;
		int fd = accept4(sv->lfd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct epoll_event ev;
		struct conn *c;

		if (fd < 0)
			return;
		c = calloc(1, sizeof(*c));
		if (c)
			c->in = malloc(NB_RR_MAX_LEN * 2);
		if (!c || !c->in) {
			child_log(sv, "out of memory for a TCP client; refused");
			if (c)
				free(c);
			close(fd);
			continue;
		}
		c->kind = EV_CONN;
		c->fd = fd;
		c->opened_at = (double)now_ns() / 1e9;
		c->cpu_at_open = cpu_s();
		format_addr(&ss, c->peer, sizeof(c->peer));
		/* a request/response test must not wait for Nagle */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		ev.events = EPOLLIN;
		ev.data.ptr = c;
		epoll_ctl(sv->epfd, EPOLL_CTL_ADD, fd, &ev);
	}
}

/* Requests waiting on the UDP socket, taken in one recvmmsg: reading until EAGAIN cost one more system call per
 * transaction at one flow. Only the header is copied; MSG_TRUNC gives each datagram's real length. */
#define UDP_BATCH 64

static void udp_readable(struct server *sv)
{
	unsigned char hdr[UDP_BATCH][NB_RR_HEADER_LEN];
	struct sockaddr_storage from[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	struct mmsghdr msgs[UDP_BATCH];
	int n;

	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < UDP_BATCH; i++) {
		iov[i].iov_base = hdr[i];
		iov[i].iov_len = sizeof(hdr[i]);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &from[i];
		msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
	}
	n = recvmmsg(sv->ufd, msgs, UDP_BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
	for (int i = 0; i < n; i++) {
		struct nb_rr_header h;

		if (msgs[i].msg_len < NB_RR_HEADER_LEN)
			continue;
		nb_rr_header_get(hdr[i], &h);
		if (!nb_rr_header_valid(&h) || h.req_len != msgs[i].msg_len)
			continue;  /* not ours, or cut short: no answer */
		answer(sv, NULL, &h, &from[i], msgs[i].msg_hdr.msg_namelen);
	}
}

static void epoll_add(struct server *sv, int fd, struct tag *t)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = t };

	epoll_ctl(sv->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static void __attribute__((noreturn)) server_child(const struct nb_rr_serve_params *p, int log_fd, pid_t parent)
{
	struct server sv = { .p = p, .log_fd = log_fd, .listen_tag = { EV_LISTEN }, .udp_tag = { EV_UDP },
			     .timer_tag = { EV_TIMER } };
	char why[300];

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	{
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	fcntl(log_fd, F_SETFL, fcntl(log_fd, F_GETFL) | O_NONBLOCK);
	/* a think time of some microseconds must not be stretched by the default 50 us slack */
	prctl(PR_SET_TIMERSLACK, 1UL);
	sv.scratch = calloc(1, NB_RR_MAX_LEN);
	sv.lfd = open_socket(p, SOCK_STREAM, why, sizeof(why));
	sv.ufd = sv.lfd >= 0 ? open_socket(p, SOCK_DGRAM, why, sizeof(why)) : -1;
	if (sv.lfd < 0 || sv.ufd < 0 || !sv.scratch) {
		child_log(&sv, "error: %s", sv.scratch ? why : "out of memory");
		_exit(1);
	}
	sv.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	sv.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (sv.tfd < 0 || sv.epfd < 0) {
		child_log(&sv, "error: set up epoll and timerfd: %s", strerror(errno));
		_exit(1);
	}
	epoll_add(&sv, sv.lfd, &sv.listen_tag);
	epoll_add(&sv, sv.ufd, &sv.udp_tag);
	epoll_add(&sv, sv.tfd, &sv.timer_tag);
	child_log(&sv, "ready: TCP and UDP port %d on %s, think time %d us", p->port, p->bind ? p->bind : "all addresses",
		  p->think_us);
	for (;;) {
		struct epoll_event evs[64];
		int n = epoll_wait(sv.epfd, evs, 64, -1);

		if (n < 0 && errno != EINTR) {
			child_log(&sv, "error: epoll_wait: %s", strerror(errno));
			_exit(1);
		}
		for (int i = 0; i < n; i++) {
			struct tag *t = evs[i].data.ptr;

			switch (t->kind) {
			case EV_LISTEN: accept_all(&sv); break;
			case EV_UDP: udp_readable(&sv); break;
			case EV_TIMER: queue_run(&sv); break;
			case EV_CONN: {
				struct conn *c = (struct conn *)t;

				if (c->fd >= 0 && (evs[i].events & EPOLLOUT) && !conn_flush(&sv, c))
					break;
				if (c->fd >= 0 && (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
					conn_readable(&sv, c);
				break;
			}
			}
		}
		dead_sweep(&sv);
	}
}

/* ---- parent side ---- */

int nb_rr_server_start(const struct nb_rr_serve_params *p, struct nb_rr_server **out, struct nb_err *err)
{
	struct nb_rr_server *s;
	int fds[2];
	pid_t parent = getpid();

	*out = NULL;
	if (p->port < 1 || p->port > 65535)
		return nb_err_set(err, -EINVAL, "start the rr server: port %d out of range 1..65535", p->port);
	if (p->think_us < 0)
		return nb_err_set(err, -EINVAL, "start the rr server: think time %d us is negative", p->think_us);
	s = calloc(1, sizeof(*s));
	if (!s)
		return nb_err_set(err, -ENOMEM, "start the rr server: out of memory");
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(s);
		return nb_err_set(err, -errno, "start the rr server: pipe: %s", strerror(errno));
	}
	fflush(NULL);
	s->pid = fork();
	if (s->pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		free(s);
		return nb_err_set(err, -e, "start the rr server: fork: %s", strerror(e));
	}
	if (s->pid == 0) {
		close(fds[0]);
		server_child(p, fds[1], parent);
	}
	close(fds[1]);
	s->fd = fds[0];
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
	*out = s;
	return 0;
}

int nb_rr_server_fd(const struct nb_rr_server *s)
{
	return s->fd;
}

int nb_rr_server_poll(struct nb_rr_server *s, void (*log_line)(const char *line))
{
	while (!s->eof) {
		ssize_t n = read(s->fd, s->buf + s->len, sizeof(s->buf) - 1 - s->len);
		char *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			s->eof = true;
			break;
		}
		s->len += (size_t)n;
		s->buf[s->len] = '\0';
		while ((nl = strchr(s->buf, '\n'))) {
			*nl = '\0';
			if (log_line)
				log_line(s->buf);
			memmove(s->buf, nl + 1, s->len - (size_t)(nl + 1 - s->buf) + 1);
			s->len -= (size_t)(nl + 1 - s->buf);
		}
		if (s->len == sizeof(s->buf) - 1) {
			if (log_line)
				log_line(s->buf);
			s->len = 0;
		}
	}
	return s->eof ? 1 : 0;
}

void nb_rr_server_stop(struct nb_rr_server *s)
{
	if (!s || s->reaped)
		return;
	s->stopped = true;
	kill(s->pid, SIGTERM);
}

void nb_rr_server_finish(struct nb_rr_server *s, char *why, size_t len)
{
	if (!s)
		return;
	while (!s->reaped) {
		pid_t got = waitpid(s->pid, &s->status, 0);

		if (got == s->pid || (got < 0 && errno != EINTR)) {
			s->reaped = true;
			if (got < 0)
				s->status = -1;
		}
	}
	if (s->stopped)
		snprintf(why, len, "%s", "");
	else if (s->status == -1)
		snprintf(why, len, "the rr server child could not be reaped");
	else if (WIFSIGNALED(s->status))
		snprintf(why, len, "the rr server child died from signal %d (%s)", WTERMSIG(s->status),
			 strsignal(WTERMSIG(s->status)));
	else
		snprintf(why, len, "the rr server child exited with status %d", WEXITSTATUS(s->status));
	close(s->fd);
	free(s);
}
