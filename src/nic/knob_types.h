// SPDX-License-Identifier: MIT
/* The interface a knob or a reading is aimed at, and the path a knob value took: shared by the
 * knob table, the NIC's own readers (qstats, IRQ watch) and the sampler, so it lives at nic/. */
#ifndef NB_KNOB_TYPES_H
#define NB_KNOB_TYPES_H

#include "kit/nb_paths.h"

#define NB_KNOB_VALUE_MAX 64
/* Room for a journal original: one "ID=value" per NAPI or IRQ. */
#define NB_KNOB_ORIGINAL_MAX 1024

struct nb_knob_target {
	const struct nb_paths *paths; /* sysfs/proc roots (nb_paths_live on a board) */
	const char *iface;            /* validated interface name */
	/* The board's IRQ name patterns ("rx:xrx200_net_rx tx:*_tx*", nb_irq_names_parse); NULL or
	 * "": the interface's IRQs are found by the drivers' usual names. */
	const char *irq_names;
};

/* The path a knob was read or written through. A journal stores it so that restore takes
 * the same one (never sysfs for a per-NAPI original: since 6.13 a sysfs write overwrites
 * every NAPI of the device). */
enum nb_knob_via {
	NB_VIA_ANY,          /* as a write's wish: whichever the kernel offers, newest first */
	NB_VIA_SYSFS,        /* /sys/class/net/IF/<attr> */
	NB_VIA_NAPI,         /* netdev generic netlink: napi-get / napi-set per NAPI */
	NB_VIA_ETHTOOL_NL,   /* ethtool generic netlink (ETHTOOL_MSG_COALESCE_*) */
	NB_VIA_IOCTL,        /* SIOCETHTOOL */
	NB_VIA_PROCFS,       /* /proc/irq/N/smp_affinity_list */
};

#endif
