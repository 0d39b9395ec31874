// SPDX-License-Identifier: MIT
/* tcp-rr / udp-rr client: the flows in a forked child (epoll, CLOCK_MONOTONIC) and their open-loop
 * schedule; the parent's side of the run (rr_run.c) watches the child and reads its report. */
#include "traffic/rr_client.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "traffic/child_link.h"
#include "traffic/rr_child.h"
#include "kit/nb_paths.h"
#include "traffic/rr_proto.h"

/* Outstanding requests a flow can track; a power of two (the ring is indexed by seq). */
#define RING 4096u
/* How often an unanswered UDP probe is repeated while the run starts. */
#define PROBE_RETRY_MS 200

/* ---- the open-loop schedule (pure) ---- */

void nb_rr_schedule_init(struct nb_rr_schedule *s, uint64_t start_ns, double rate_tps, int flows)
{
	s->start_ns = start_ns;
	s->period_ns = rate_tps > 0 ? 1e9 / rate_tps : 0;
	s->next = 0;
	s->flows = flows > 0 ? flows : 1;
}

uint64_t nb_rr_schedule_due_ns(const struct nb_rr_schedule *s, uint64_t k)
{
	/* from k, not by adding periods up: no rounding drift over millions of transactions */
	return s->start_ns + (uint64_t)llround((double)k * s->period_ns);
}

int nb_rr_schedule_take(struct nb_rr_schedule *s, uint64_t now_ns, int *flow, uint64_t *due_ns)
{
	uint64_t due = nb_rr_schedule_due_ns(s, s->next);

	if (due > now_ns)
		return 0;
	*flow = (int)(s->next % (uint64_t)s->flows);
	*due_ns = due;
	s->next++;
	return 1;
}

/* ---- child side ---- */

enum slot_state { SLOT_FREE, SLOT_PENDING, SLOT_TIMED_OUT };

struct slot {
	uint64_t due_ns;
	uint32_t seq;
	uint8_t state;
};

struct flow {
	int fd;
	int index;
	uint32_t next_seq;     /* the next request's sequence number */
	uint32_t tail_seq;     /* the oldest request that may still be pending */
	struct slot ring[RING];
	unsigned char *out;    /* request bytes not yet taken by a TCP socket */
	size_t out_len, out_off;
	bool want_out;
	unsigned char *in;
	size_t in_len, in_cap;
	uint64_t done_in_window;
	struct nb_hist hist;
};

struct client {
	const struct nb_rr_params *p;
	int report_fd;
	int epfd, tfd;
	struct flow *flows;
	unsigned char *req;    /* a request: header + zeros */
	char peer[300];
	uint64_t open_ns, close_ns, end_ns;
	struct nb_rr_schedule sched;
	bool open_loop;
	int udp_recv_flags;    /* MSG_DONTWAIT under epoll; 0 where the recv itself is the wait */
	uint64_t lost, late, unsent;
	uint64_t answered;     /* every answer, in the window or not */
	struct nb_rr_report rep;
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static void __attribute__((noreturn)) child_finish(struct client *c, const struct nb_hist *h)
{
	c->rep.has_hist = h ? 1 : 0;
	nb_child_send_report(c->report_fd, &c->rep, sizeof(c->rep), h, h ? sizeof(*h) : 0);
	_exit(0);
}

static void __attribute__((noreturn)) child_fail(struct client *c, enum nb_rr_report_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void __attribute__((noreturn)) child_fail(struct client *c, enum nb_rr_report_kind kind, const char *fmt, ...)
{
	va_list ap;

	c->rep.kind = kind;
	va_start(ap, fmt);
	vsnprintf(c->rep.message, sizeof(c->rep.message), fmt, ap);
	va_end(ap);
	child_finish(c, NULL);
}

static const char *proto_name(const struct client *c)
{
	return c->p->udp ? "udp-rr" : "tcp-rr";
}

static void flow_want_out(struct client *c, struct flow *f, bool want)
{
	struct epoll_event ev = { .events = EPOLLIN | (want ? EPOLLOUT : 0), .data.ptr = f };

	if (f->want_out == want)
		return;
	f->want_out = want;
	epoll_ctl(c->epfd, EPOLL_CTL_MOD, f->fd, &ev);
}

static void tcp_flush(struct client *c, struct flow *f)
{
	while (f->out_off < f->out_len) {
		ssize_t n = send(f->fd, f->out + f->out_off, f->out_len - f->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			flow_want_out(c, f, true);
			return;
		}
		if (n < 0)
			child_fail(c, NB_RR_REPORT_FAILED, "%s flow %d to %s: send: %s", proto_name(c), f->index, c->peer,
				   strerror(errno));
		f->out_off += (size_t)n;
	}
	f->out_len = f->out_off = 0;
	flow_want_out(c, f, false);
}

/* Send request seq (due at due_ns) on f; a full ring means the flow is RING behind. */
static void send_request(struct client *c, struct flow *f, uint64_t due_ns)
{
	struct nb_rr_header h = { NB_RR_MAGIC, (uint32_t)c->p->request, (uint32_t)c->p->response, f->next_seq };
	struct slot *s = &f->ring[f->next_seq & (RING - 1)];

	if (f->next_seq - f->tail_seq >= RING) {
		if (due_ns >= c->open_ns && due_ns < c->close_ns)
			c->unsent++;
		return;
	}
	s->due_ns = due_ns;
	s->seq = f->next_seq;
	s->state = SLOT_PENDING;
	f->next_seq++;
	nb_rr_header_put(c->req, &h);
	if (c->p->udp) {
		ssize_t n = send(f->fd, c->req, (size_t)c->p->request, MSG_DONTWAIT);

		/* a full socket buffer drops the request: it times out and counts as lost */
		if (n < 0 && errno == ECONNREFUSED)
			child_fail(c, NB_RR_REPORT_FAILED, "udp-rr flow %d to %s: send: %s (the rr server went away)", f->index,
				   c->peer, strerror(errno));
		return;
	}
	if (f->out_len == 0) {
		ssize_t n = send(f->fd, c->req, (size_t)c->p->request, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n == c->p->request)
			return;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: send: %s", f->index, c->peer, strerror(errno));
		if (n < 0)
			n = 0;
		memcpy(f->out, c->req + n, (size_t)c->p->request - (size_t)n);
		f->out_len = (size_t)c->p->request - (size_t)n;
		f->out_off = 0;
		flow_want_out(c, f, true);
		return;
	}
	if (f->out_len + (size_t)c->p->request > (size_t)c->p->request * RING)
		child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: more than %u requests unsent", f->index, c->peer, RING);
	memcpy(f->out + f->out_len, c->req, (size_t)c->p->request);
	f->out_len += (size_t)c->p->request;
}

static bool in_window(const struct client *c, uint64_t due_ns)
{
	return due_ns >= c->open_ns && due_ns < c->close_ns;
}

static void advance_tail(struct flow *f)
{
	while (f->tail_seq != f->next_seq && f->ring[f->tail_seq & (RING - 1)].state != SLOT_PENDING)
		f->tail_seq++;
}

/* A response for seq arrived at t. */
static void complete(struct client *c, struct flow *f, uint32_t seq, uint64_t t)
{
	struct slot *s = &f->ring[seq & (RING - 1)];

	if (s->seq != seq || s->state == SLOT_FREE)
		return;  /* a duplicate, or one so late its slot was reused */
	c->answered++;
	if (s->state == SLOT_TIMED_OUT) {
		if (in_window(c, s->due_ns)) {
			c->late++;
			c->lost--;
		}
		s->state = SLOT_FREE;
		return;
	}
	s->state = SLOT_FREE;
	/* past the timeout but before the loop's tick declared it lost: late all the same */
	if (c->p->udp && t >= s->due_ns + (uint64_t)c->p->timeout_ms * 1000000ull) {
		if (in_window(c, s->due_ns))
			c->late++;
	} else if (in_window(c, s->due_ns)) {
		nb_hist_record(&f->hist, t > s->due_ns ? t - s->due_ns : 0);
		f->done_in_window++;
	}
	advance_tail(f);
	if (!c->open_loop && t < c->close_ns)
		send_request(c, f, t);
}

static void tcp_readable(struct client *c, struct flow *f)
{
	size_t off = 0;
	uint64_t t;
	ssize_t n = recv(f->fd, f->in + f->in_len, f->in_cap - f->in_len, 0);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0)
		child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: %s", f->index, c->peer,
			   n == 0 ? "the rr server closed the connection" : strerror(errno));
	t = now_ns();
	f->in_len += (size_t)n;
	while (f->in_len - off >= (size_t)c->p->response) {
		struct nb_rr_header h;

		nb_rr_header_get(f->in + off, &h);
		if (h.magic != NB_RR_MAGIC || h.resp_len != (uint32_t)c->p->response ||
		    f->tail_seq == f->next_seq || h.seq != f->tail_seq)
			child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: a response that is not the answer to request %u "
				   "(magic 0x%08x, length %u, seq %u): is that port a nicbench rr server?",
				   f->index, c->peer, f->tail_seq, h.magic, h.resp_len, h.seq);
		off += (size_t)c->p->response;
		complete(c, f, h.seq, t);
	}
	memmove(f->in, f->in + off, f->in_len - off);
	f->in_len -= off;
}

static void udp_readable(struct client *c, struct flow *f)
{
	/* closed loop expects one answer: a second recv would only say EAGAIN */
	int budget = c->open_loop ? 64 : 1;

	for (int i = 0; i < budget; i++) {
		ssize_t n = recv(f->fd, f->in, f->in_cap, c->udp_recv_flags);
		struct nb_rr_header h;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n < 0)
			child_fail(c, NB_RR_REPORT_FAILED, "udp-rr flow %d to %s: recv: %s%s", f->index, c->peer, strerror(errno),
				   errno == ECONNREFUSED ? " (the rr server went away)" : "");
		if (n < NB_RR_HEADER_LEN)
			continue;
		nb_rr_header_get(f->in, &h);
		if (h.magic != NB_RR_MAGIC || h.resp_len != (uint32_t)n)
			continue;
		complete(c, f, h.seq, now_ns());
	}
}

/* Declare UDP requests older than the timeout lost; a closed-loop flow then goes on. */
static void expire(struct client *c, struct flow *f, uint64_t t)
{
	uint64_t timeout = (uint64_t)c->p->timeout_ms * 1000000ull;

	while (f->tail_seq != f->next_seq) {
		struct slot *s = &f->ring[f->tail_seq & (RING - 1)];

		if (s->state == SLOT_PENDING) {
			if (s->due_ns + timeout > t)
				return;
			s->state = SLOT_TIMED_OUT;
			if (in_window(c, s->due_ns))
				c->lost++;
			if (!c->open_loop && t < c->close_ns) {
				f->tail_seq++;
				send_request(c, f, t);
				continue;
			}
		}
		f->tail_seq++;
	}
}

static uint64_t next_expiry(const struct client *c)
{
	uint64_t timeout = (uint64_t)c->p->timeout_ms * 1000000ull, next = UINT64_MAX;

	for (int i = 0; i < c->p->flows; i++) {
		const struct flow *f = &c->flows[i];

		if (f->tail_seq != f->next_seq) {
			uint64_t due = f->ring[f->tail_seq & (RING - 1)].due_ns + timeout;

			next = due < next ? due : next;
		}
	}
	return next;
}

static void timer_arm(struct client *c, uint64_t at_ns)
{
	struct itimerspec its = { { 0, 0 }, { (time_t)(at_ns / 1000000000ull), (long)(at_ns % 1000000000ull) } };

	if (at_ns == 0)
		its.it_value.tv_nsec = 1;
	timerfd_settime(c->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void send_due(struct client *c, uint64_t t)
{
	int flow;
	uint64_t due;

	while (nb_rr_schedule_due_ns(&c->sched, c->sched.next) < c->close_ns &&
	       nb_rr_schedule_take(&c->sched, t, &flow, &due))
		send_request(c, &c->flows[flow], due);
	if (nb_rr_schedule_due_ns(&c->sched, c->sched.next) < c->close_ns)
		timer_arm(c, nb_rr_schedule_due_ns(&c->sched, c->sched.next));
}

static bool all_answered(const struct client *c)
{
	for (int i = 0; i < c->p->flows; i++)
		if (c->flows[i].tail_seq != c->flows[i].next_seq)
			return false;
	return true;
}

static int resolve(struct client *c, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = c->p->udp ? SOCK_DGRAM : SOCK_STREAM };
	struct addrinfo *res = NULL;
	char port[8];
	int rc;

	snprintf(port, sizeof(port), "%d", c->p->port);
	rc = getaddrinfo(c->p->host, port, &hints, &res);
	if (rc || !res)
		child_fail(c, NB_RR_REPORT_FAILED, "%s: resolve %s: %s", proto_name(c), c->p->host,
			   rc ? gai_strerror(rc) : "no address");
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int ms_until(uint64_t deadline)
{
	uint64_t t = now_ns();

	if (t >= deadline)
		return 0;
	return (int)((deadline - t + 999999) / 1000000);
}

/* Connect every flow and get one answer on each before the clock starts. */
static void connect_flows(struct client *c, uint64_t deadline)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	unsigned char buf[NB_RR_MAX_LEN];
	int one = 1;

	resolve(c, &ss, &sslen);
	for (int i = 0; i < c->p->flows; i++) {
		struct flow *f = &c->flows[i];
		struct pollfd pfd;
		int soerr = 0;
		socklen_t elen = sizeof(soerr);

		f->index = i;
		f->fd = socket(ss.ss_family, (c->p->udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (f->fd < 0)
			child_fail(c, NB_RR_REPORT_FAILED, "%s flow %d: socket: %s", proto_name(c), i, strerror(errno));
		if (!c->p->udp)
			setsockopt(f->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (connect(f->fd, (struct sockaddr *)&ss, sslen) < 0 && errno != EINPROGRESS)
			child_fail(c, NB_RR_REPORT_FAILED, "%s flow %d: connect to %s: %s", proto_name(c), i, c->peer, strerror(errno));
		pfd.fd = f->fd;
		pfd.events = POLLOUT;
		if (poll(&pfd, 1, ms_until(deadline)) == 0)
			child_fail(c, NB_RR_REPORT_TIMEOUT, "%s flow %d: connect to %s: no answer within the connect timeout (%.1f s)",
				   proto_name(c), i, c->peer, c->p->connect_timeout_ms / 1000.0);
		getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &soerr, &elen);
		if (soerr)
			child_fail(c, NB_RR_REPORT_FAILED, "%s flow %d: connect to %s: %s%s", proto_name(c), i, c->peer,
				   strerror(soerr), soerr == ECONNREFUSED ? " (is `nicbench serve` running there, rr port?)" : "");
	}
	/* one probe transaction per flow (seq 0), repeated for UDP until answered */
	for (int i = 0; i < c->p->flows; i++) {
		struct flow *f = &c->flows[i];
		struct nb_rr_header h = { NB_RR_MAGIC, (uint32_t)c->p->request, (uint32_t)c->p->response, 0 };
		size_t got = 0;
		bool answered = false;

		nb_rr_header_put(c->req, &h);
		while (!answered) {
			struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
			int wait = ms_until(deadline);
			ssize_t n;

			if (got == 0 && send(f->fd, c->req, (size_t)c->p->request, MSG_NOSIGNAL) != c->p->request && !c->p->udp)
				child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: send the first request: %s", i, c->peer,
					   strerror(errno));
			if (wait == 0)
				child_fail(c, NB_RR_REPORT_TIMEOUT, "%s flow %d: no answer from the rr server %s within the connect "
					   "timeout (%.1f s): a hung or foreign peer?", proto_name(c), i, c->peer,
					   c->p->connect_timeout_ms / 1000.0);
			if (poll(&pfd, 1, c->p->udp && wait > PROBE_RETRY_MS ? PROBE_RETRY_MS : wait) <= 0)
				continue;
			n = recv(f->fd, buf + got, c->p->udp ? sizeof(buf) : (size_t)c->p->response - got, 0);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n <= 0)
				child_fail(c, NB_RR_REPORT_FAILED, "%s flow %d to %s: first answer: %s%s", proto_name(c), i, c->peer,
					   n == 0 ? "connection closed by the peer" : strerror(errno),
					   n < 0 && errno == ECONNREFUSED ? " (no rr server on that port: is `nicbench serve` running?)" : "");
			if (c->p->udp) {
				nb_rr_header_get(buf, &h);
				answered = n == c->p->response && h.magic == NB_RR_MAGIC && h.seq == 0;
				continue;
			}
			got += (size_t)n;
			if (got == (size_t)c->p->response) {
				nb_rr_header_get(buf, &h);
				if (h.magic != NB_RR_MAGIC || h.seq != 0)
					child_fail(c, NB_RR_REPORT_FAILED, "tcp-rr flow %d to %s: the first answer is not a nicbench rr "
						   "response: is that port a nicbench rr server?", i, c->peer);
				answered = true;
			}
		}
		f->next_seq = f->tail_seq = 1;
	}
}

/* The periodic wake of a closed loop: a quarter of the UDP timeout, so a loss is noticed at most 25% late;
 * TCP only needs the window's end. */
static uint64_t closed_loop_tick_ns(const struct client *c)
{
	uint64_t tick = c->p->udp ? (uint64_t)c->p->timeout_ms * 250000ull : 50000000ull;

	return tick < 1000000 ? 1000000 : tick;
}

static bool run_over(const struct client *c, uint64_t t)
{
	return t >= c->end_ns || (t >= c->close_ns && all_answered(c));
}

/* One closed-loop flow waits in a blocking recv bounded by SO_RCVTIMEO: one system call fewer per
 * transaction than epoll_wait + recv, for the same answer. Many flows, or open loop, need the epoll loop. */
static void run_one_flow(struct client *c)
{
	struct flow *f = &c->flows[0];
	uint64_t tick = closed_loop_tick_ns(c);
	struct timeval tv = { (time_t)(tick / 1000000000ull), (suseconds_t)(tick % 1000000000ull / 1000) };
	int fl = fcntl(f->fd, F_GETFL);

	if (fl < 0 || fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ||
	    setsockopt(f->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		child_fail(c, NB_RR_REPORT_FAILED, "%s flow 0 to %s: make the socket a blocking one with a receive timeout: %s",
			   proto_name(c), c->peer, strerror(errno));
	c->udp_recv_flags = 0;
	send_request(c, f, now_ns());
	for (;;) {
		uint64_t t = now_ns();

		if (c->p->udp)
			expire(c, f, t);
		if (run_over(c, t))
			break;
		/* a receive timeout returns EAGAIN, which both readers take as "nothing yet" */
		if (c->p->udp)
			udp_readable(c, f);
		else
			tcp_readable(c, f);
	}
}

static void run_flows(struct client *c)
{
	struct epoll_event evs[64];
	uint64_t t0 = now_ns(), drain_ns = (uint64_t)c->p->timeout_ms * 1000000ull;
	double start_s = (double)t0 / 1e9;

	c->open_ns = t0 + (uint64_t)c->p->omit_s * 1000000000ull;
	c->close_ns = c->open_ns + (uint64_t)c->p->duration_s * 1000000000ull;
	c->end_ns = c->close_ns + drain_ns;
	nb_child_send_marker(c->report_fd, start_s);
	if (!c->open_loop && c->p->flows == 1) {
		run_one_flow(c);
		return;
	}
	for (int i = 0; i < c->p->flows; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &c->flows[i] };

		epoll_ctl(c->epfd, EPOLL_CTL_ADD, c->flows[i].fd, &ev);
	}
	if (c->open_loop) {
		nb_rr_schedule_init(&c->sched, t0, c->p->rate_tps, c->p->flows);
		send_due(c, t0);
	} else {
		uint64_t tick = closed_loop_tick_ns(c);
		struct itimerspec its;

		its.it_interval.tv_sec = its.it_value.tv_sec = (time_t)(tick / 1000000000ull);
		its.it_interval.tv_nsec = its.it_value.tv_nsec = (long)(tick % 1000000000ull);
		timerfd_settime(c->tfd, 0, &its, NULL);
		for (int i = 0; i < c->p->flows; i++)
			send_request(c, &c->flows[i], t0);
	}
	for (;;) {
		uint64_t t = now_ns(), wake = c->end_ns;
		int n, wait_ms;

		if (c->p->udp) {
			for (int i = 0; i < c->p->flows; i++)
				expire(c, &c->flows[i], t);
			if (next_expiry(c) < wake)
				wake = next_expiry(c);
		}
		if (run_over(c, t))
			break;
		if (!c->open_loop && t < c->close_ns && c->close_ns < wake)
			wake = c->close_ns;
		/* Closed loop waits without a timeout: arming and cancelling a timer on every wait
		 * costs a few microseconds per transaction in a VM (each one is a timer-register
		 * write), which sockperf's blocking recv does not pay. The periodic tick armed in
		 * run_flows wakes the loop for UDP timeouts and the window's end instead. */
		wait_ms = c->open_loop ? ms_until(wake) : -1;
		n = epoll_wait(c->epfd, evs, 64, wait_ms);
		if (n < 0 && errno != EINTR)
			child_fail(c, NB_RR_REPORT_FAILED, "%s: epoll_wait: %s", proto_name(c), strerror(errno));
		for (int i = 0; i < n; i++) {
			struct flow *f = evs[i].data.ptr;

			if (!f) {
				uint64_t exp;

				if (read(c->tfd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
					child_fail(c, NB_RR_REPORT_FAILED, "%s: read the schedule timer: %s", proto_name(c),
						   strerror(errno));
				continue;
			}
			if (!c->p->udp && (evs[i].events & EPOLLOUT))
				tcp_flush(c, f);
			if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
				if (c->p->udp)
					udp_readable(c, f);
				else
					tcp_readable(c, f);
			}
		}
		if (c->open_loop)
			send_due(c, now_ns());
	}
}

void nb_rr_client_child(const struct nb_rr_params *p, int report_fd, pid_t parent)
{
	struct client c = { .p = p, .report_fd = report_fd };
	struct nb_hist *merged;
	uint64_t deadline, transactions = 0;

	nb_child_setup(parent);
	/* the open-loop timer is due at exact nanoseconds; the default 50 us slack would skew it */
	prctl(PR_SET_TIMERSLACK, 1UL);
	nb_traffic_format_peer(c.peer, sizeof(c.peer), p->host, p->port);
	if (p->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(p->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(&c, NB_RR_REPORT_FAILED, "pin the %s client to CPU %d: %s", p->udp ? "udp-rr" : "tcp-rr", p->cpu,
				   strerror(errno));
	}
	/* a little before the parent's watchdog, so the child can say what it was waiting for */
	deadline = now_ns() + (uint64_t)(p->connect_timeout_ms > 400 ? p->connect_timeout_ms - 200 : p->connect_timeout_ms) *
				      1000000ull;
	c.open_loop = p->rate_tps > 0;
	c.udp_recv_flags = MSG_DONTWAIT;
	c.flows = calloc((size_t)p->flows, sizeof(*c.flows));
	c.req = calloc(1, NB_RR_MAX_LEN);
	merged = calloc(1, sizeof(*merged));
	if (!c.flows || !c.req || !merged)
		child_fail(&c, NB_RR_REPORT_FAILED, "%s: out of memory for %d flows", proto_name(&c), p->flows);
	for (int i = 0; i < p->flows; i++) {
		struct flow *f = &c.flows[i];

		f->fd = -1;
		f->in_cap = p->udp ? NB_RR_MAX_LEN + 1 : (size_t)p->response * 4 + 65536;
		f->in = malloc(f->in_cap);
		f->out = p->udp ? NULL : malloc((size_t)p->request * RING);
		if (!f->in || (!p->udp && !f->out))
			child_fail(&c, NB_RR_REPORT_FAILED, "%s: out of memory for %d flows", proto_name(&c), p->flows);
	}
	c.epfd = epoll_create1(EPOLL_CLOEXEC);
	c.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (c.epfd < 0 || c.tfd < 0)
		child_fail(&c, NB_RR_REPORT_FAILED, "%s: set up epoll and timerfd: %s", proto_name(&c), strerror(errno));
	{
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };

		epoll_ctl(c.epfd, EPOLL_CTL_ADD, c.tfd, &ev);
	}
	connect_flows(&c, deadline);
	/* The scheduler's own runtime of this process: exact, where /proc/stat ticks miss the short runs that
	 * a request/response client is made of. */
	c.rep.cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	run_flows(&c);
	c.rep.cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c.rep.cpu_ns;
	c.rep.answered = c.answered;
	for (int i = 0; i < p->flows; i++) {
		nb_hist_merge(merged, &c.flows[i].hist);
		transactions += c.flows[i].done_in_window;
	}
	c.rep.transactions = transactions;
	c.rep.lost = c.lost;
	c.rep.late = c.late;
	c.rep.unsent = c.unsent;
	if (!p->udp) {
		for (int i = 0; i < p->flows; i++)
			if (c.flows[i].done_in_window == 0)
				child_fail(&c, NB_RR_REPORT_TIMEOUT,
					   "tcp-rr flow %d to %s: no response in the measured window (%d s): the rr server hung?",
					   i, c.peer, p->duration_s);
	} else if (transactions == 0) {
		child_fail(&c, NB_RR_REPORT_FAILED, "udp-rr to %s: no transaction completed in the measured window "
			   "(%llu lost, %llu late)", c.peer, (unsigned long long)c.lost, (unsigned long long)c.late);
	}
	child_finish(&c, merged);
}
