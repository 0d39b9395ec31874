// SPDX-License-Identifier: MIT
/* What a report says about the machine and the interface, so that it describes itself. */
#ifndef NB_SYSINFO_H
#define NB_SYSINFO_H

#include <stdbool.h>

#include "kit/nb_error.h"
#include "kit/nb_paths.h"

struct nb_host_info {
	char hostname[256];
	char release[128];
	char version[256];
	char cmdline[2048];
	char config_hash[40];    /* "fnv1a64:<hex>" of /proc/config.gz; empty when absent */
	int cpus;
	char cpu_model[256];
};

struct nb_iface_info {
	char name[16];
	char driver[64];
	char driver_version[64];
	char firmware[64];
	char bus_info[64];
	int mtu;                 /* -1 when unknown */
	long speed_mbps;         /* -1 when the link does not say (veth, link down) */
};

void nb_host_info_read(const struct nb_paths *paths, struct nb_host_info *h);

/* -ENODEV with a clear message when the interface does not exist in this namespace. */
int nb_iface_info_read(const struct nb_paths *paths, const char *iface, struct nb_iface_info *info,
		       struct nb_err *err);

/* Does /sys/class/net/IFACE exist? */
bool nb_iface_exists(const struct nb_paths *paths, const char *iface);

#endif
