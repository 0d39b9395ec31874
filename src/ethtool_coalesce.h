/* Hardware interrupt coalescing through SIOCETHTOOL, behind a seam so unit tests can
 * script the kernel's answers (EOPNOTSUPP on veth, lo and ravb). */
#ifndef NB_ETHTOOL_COALESCE_H
#define NB_ETHTOOL_COALESCE_H

#include <linux/ethtool.h>

/* Both return 0 or -errno, like the ioctl they stand for. */
struct nb_coalesce_ops {
	int (*get)(void *ctx, const char *iface, struct ethtool_coalesce *ec);
	int (*set)(void *ctx, const char *iface, const struct ethtool_coalesce *ec);
	void *ctx;
};

/* Replace the backend (tests); NULL goes back to the ioctl. Not thread-safe: set it
 * before any knob is touched. */
void nb_coalesce_set_ops(const struct nb_coalesce_ops *ops);

/* ETHTOOL_GCOALESCE / ETHTOOL_SCOALESCE on iface in the current network namespace. */
int nb_coalesce_get(const char *iface, struct ethtool_coalesce *ec);
int nb_coalesce_set(const char *iface, const struct ethtool_coalesce *ec);

/* The path the last nb_coalesce_get/set took (an enum nb_knob_via value). */
int nb_coalesce_last_via(void);

#endif
