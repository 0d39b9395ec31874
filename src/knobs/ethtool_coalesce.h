// SPDX-License-Identifier: MIT
/* Hardware interrupt coalescing through ethtool netlink (SIOCETHTOOL as the fallback), behind
 * a seam so unit tests can script the kernel's answers (EOPNOTSUPP on veth, lo and ravb). */
#ifndef NB_ETHTOOL_COALESCE_H
#define NB_ETHTOOL_COALESCE_H

#include <linux/ethtool.h>
#include <stddef.h>

/* Both return 0 or -errno, like the ioctl they stand for. */
struct nb_coalesce_ops {
	int (*get)(void *ctx, const char *iface, struct ethtool_coalesce *ec);
	int (*set)(void *ctx, const char *iface, const struct ethtool_coalesce *ec);
	void *ctx;
};

/* Replace the backend (tests); NULL goes back to the kernel (netlink, then the ioctl). Not thread-safe: set it
 * before any knob is touched. */
void nb_coalesce_set_ops(const struct nb_coalesce_ops *ops);

/* Get / set on iface in the current network namespace: ETHTOOL_MSG_COALESCE_GET/SET, or
 * ETHTOOL_GCOALESCE / ETHTOOL_SCOALESCE where the kernel answers netlink with EOPNOTSUPP or
 * has no ethtool family. */
int nb_coalesce_get(const char *iface, struct ethtool_coalesce *ec);
int nb_coalesce_set(const char *iface, const struct ethtool_coalesce *ec);

/* The path the last nb_coalesce_get/set took (an enum nb_knob_via value). */
int nb_coalesce_last_via(void);

/* After a successful nb_coalesce_get over netlink: 1 when the driver supports the field at
 * `offset` of struct ethtool_coalesce, 0 when it does not; -1 when unknown (the ioctl path). */
int nb_coalesce_supported(size_t offset);

#endif
