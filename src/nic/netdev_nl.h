// SPDX-License-Identifier: MIT
/* The netdev generic-netlink family (napi-get, napi-set, queue-get, qstats-get) over libnl-3,
 * behind a seam so tests can script what a 6.1, 6.12 or 6.18 kernel answers. */
#ifndef NB_NETDEV_NL_H
#define NB_NETDEV_NL_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"

/* Numbers from Documentation/netlink/specs/netdev.yaml. Debian 12's linux-libc-dev (6.1)
 * has no <linux/netdev.h>, so they are defined here rather than included. */
enum {
	NB_NETDEV_CMD_QUEUE_GET = 10,
	NB_NETDEV_CMD_NAPI_GET = 11,
	NB_NETDEV_CMD_QSTATS_GET = 12,
	NB_NETDEV_CMD_NAPI_SET = 14,
};
enum {
	NB_NETDEV_A_NAPI_IFINDEX = 1,
	NB_NETDEV_A_NAPI_ID = 2,
	NB_NETDEV_A_NAPI_IRQ = 3,
	NB_NETDEV_A_NAPI_PID = 4,
	NB_NETDEV_A_NAPI_DEFER_HARD_IRQS = 5,
	NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT = 6,
	NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT = 7,
	NB_NETDEV_A_NAPI_THREADED = 8,
};
enum {
	NB_NETDEV_A_QUEUE_ID = 1,
	NB_NETDEV_A_QUEUE_IFINDEX = 2,
	NB_NETDEV_A_QUEUE_TYPE = 3,
	NB_NETDEV_A_QUEUE_NAPI_ID = 4,
};
enum { NB_NETDEV_QUEUE_TYPE_RX = 0, NB_NETDEV_QUEUE_TYPE_TX = 1 };
enum {
	NB_NETDEV_A_QSTATS_IFINDEX = 1,
	NB_NETDEV_A_QSTATS_QUEUE_TYPE = 2,
	NB_NETDEV_A_QSTATS_QUEUE_ID = 3,
	NB_NETDEV_A_QSTATS_SCOPE = 4,
	NB_NETDEV_A_QSTATS_FIRST_COUNTER = 8,  /* rx-packets; the counters run on from here */
};
#define NB_NETDEV_QSTATS_SCOPE_QUEUE 1

/* The per-queue counters nicbench records, in attribute order from rx-packets (8). */
#define NB_QSTAT_COUNT 27
/* "rx-alloc-fail" -> metric-friendly "rx_alloc_fail"; index i is attribute 8 + i. */
extern const char *const nb_qstat_names[NB_QSTAT_COUNT];

/* What the running kernel's netdev family offers. */
struct nb_netdev_caps {
	bool family;       /* false: no netdev family at all (6.1) */
	bool napi_get, napi_set, queue_get, qstats_get;
	char why[160];     /* when family is false or an op is missing: in words */
};

/* One NAPI instance as napi-get reports it; has_* says an attribute was in the answer. */
struct nb_napi {
	uint32_t id;
	uint32_t ifindex;
	bool has_irq, has_pid, has_defer, has_gro, has_suspend, has_threaded;
	uint32_t irq;
	uint32_t pid;        /* the napi/ thread, only while threaded */
	uint32_t defer_hard_irqs;
	uint64_t gro_flush_timeout;    /* ns */
	uint64_t irq_suspend_timeout;  /* ns */
	uint32_t threaded;   /* 0 off, 1 on, 2 busy-poll */
};

/* A napi-set request: only the set_* fields go to the kernel. */
struct nb_napi_set {
	uint32_t id;
	bool set_defer, set_gro, set_suspend, set_threaded;
	uint32_t defer_hard_irqs;
	uint64_t gro_flush_timeout, irq_suspend_timeout;
	uint32_t threaded;
};

struct nb_netdev_queue {
	uint32_t id;
	uint32_t type;      /* NB_NETDEV_QUEUE_TYPE_* */
	bool has_napi;
	uint32_t napi_id;
};

/* One queue's counters from qstats-get (scope queue); present bit i for nb_qstat_names[i]. */
struct nb_qstats {
	uint32_t type, id;
	uint32_t present;
	uint64_t v[NB_QSTAT_COUNT];
};

/* The backend. Dumps fill at most max entries and return how many the kernel listed (which
 * may exceed max, like snprintf) or -errno with err saying why (the kernel's extended-ack
 * text included). */
struct nb_netdev_ops {
	int (*probe)(void *ctx, struct nb_netdev_caps *caps, struct nb_err *err);
	int (*napi_dump)(void *ctx, uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err);
	int (*napi_set)(void *ctx, const struct nb_napi_set *req, struct nb_err *err);
	int (*queue_dump)(void *ctx, uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err);
	int (*qstats_dump)(void *ctx, uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err);
	void *ctx;
};

/* Replace the backend (tests); NULL goes back to the kernel. Also forgets the cached probe. */
void nb_netdev_set_ops(const struct nb_netdev_ops *ops);

/* True while a scripted backend is active: the kernel's NAPIs only match the live /sys. */
bool nb_netdev_scripted(void);

/* Probe once per process (the family is the same in every network namespace) and cache it.
 * Returns 0 with caps filled, also when there is no family (caps->family false). */
int nb_netdev_probe(struct nb_netdev_caps *caps, struct nb_err *err);

int nb_netdev_napi_dump(uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err);
int nb_netdev_napi_set(const struct nb_napi_set *req, struct nb_err *err);
int nb_netdev_queue_dump(uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err);
int nb_netdev_qstats_dump(uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err);

/* Pure parsers of one reply message's attributes (after the genl header), shared by the
 * kernel backend and by tests that feed captured bytes. Return 0 or -EINVAL. */
int nb_netdev_parse_napi(const void *attrs, int len, struct nb_napi *out);
int nb_netdev_parse_queue(const void *attrs, int len, struct nb_netdev_queue *out);
int nb_netdev_parse_qstats(const void *attrs, int len, struct nb_qstats *out);

#endif
