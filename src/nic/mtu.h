// SPDX-License-Identifier: MIT
/* Setting an interface's MTU the way a running driver allows: a plain write, or down-set-up
 * when the driver refuses a running change, then a bounded wait for the carrier. */
#ifndef NB_KNOBS_MTU_H
#define NB_KNOBS_MTU_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/nb_error.h"
#include "kit/nb_paths.h"

#define NB_MTU_CARRIER_TIMEOUT_S 10.0
/* IPv4 20 + UDP 8: a datagram of MTU - 28 bytes fills one frame (IPv6: MTU - 48). */
#define NB_MTU_UDP4_OVERHEAD 28
#define NB_MTU_UDP6_OVERHEAD 48

/* The writes, so a test can inject a driver that answers EBUSY. NULL members: the live ones
 * (sysfs for the MTU, SIOCSIFFLAGS for up/down). Each returns 0 or -errno. */
struct nb_mtu_ops {
	int (*write_mtu)(void *arg, const char *path, const char *value);
	int (*set_admin_up)(void *arg, const char *iface, const char *flags_path, bool up);
	void *arg;
};

struct nb_mtu_ctx {
	const struct nb_paths *paths;  /* sysfs root: mtu, flags, carrier, operstate */
	const struct nb_mtu_ops *ops;  /* NULL: live */
	double carrier_timeout_s;      /* 0: NB_MTU_CARRIER_TIMEOUT_S */
	int poll_ms;                   /* 0: 50 */
};

/* What one change took, for the report. */
struct nb_mtu_outcome {
	bool set;                /* this outcome describes a change */
	bool down_up;            /* the interface was taken down, set, and brought up */
	int refused;             /* the errno the running change was refused with (EBUSY), 0 */
	bool carrier_waited;     /* the interface was up: the carrier was awaited */
	double carrier_s;        /* how long the carrier took to come back */
};

/* The interface's MTU now (<sys>/class/net/IFACE/mtu), or -errno. */
int nb_mtu_read(const struct nb_paths *paths, const char *iface);

/* Pure: does this answer of a running MTU write mean "take it down and try again"? */
bool nb_mtu_refusal_needs_down_up(int rc);

/* Set the MTU of iface to value (decimal text), down and up if the driver refuses a running
 * change, then wait for the carrier when the interface was up. 0, or -errno with err saying
 * what failed; -ENOLINK when the carrier did not come back in time. out may be NULL. */
int nb_mtu_set(const struct nb_mtu_ctx *ctx, const char *iface, const char *value, struct nb_mtu_outcome *out,
	       struct nb_err *err);

/* The outcome of the last nb_mtu_set in this process (the knob table's writes go through it). */
const struct nb_mtu_outcome *nb_mtu_last_outcome(void);

/* One sentence for the report: "set with the interface down and up: the driver refused a
 * running change (EBUSY); carrier back after 1.20 s". Empty for a plain change. */
void nb_mtu_describe(const struct nb_mtu_outcome *o, char *buf, size_t len);

#endif
