// SPDX-License-Identifier: MIT
/* Host (uname, cmdline, config hash, CPU model) and interface (ethtool drvinfo, MTU, speed) facts. */
#include "sampling/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nic/mtu.h"

/* FNV-1a is enough to tell two kernel configs apart; it is not a security hash. */
static int hash_file(const char *path, char *out, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			h ^= buf[i];
			h *= 1099511628211ULL;
		}
	}
	close(fd);
	if (n < 0)
		return -EIO;
	snprintf(out, len, "fnv1a64:%016llx", (unsigned long long)h);
	return 0;
}

static void read_cpu_model(const struct nb_paths *paths, char *out, size_t len)
{
	/* x86 says "model name", arm64 often only "CPU part", riscv "uarch"/"isa", MIPS "cpu model" (its "isa" line
	 * lists instruction sets, not the core) */
	static const char *const keys[] = { "model name", "Model", "cpu model", "uarch", "Hardware", "isa", "CPU part" };
	char path[512];
	char line[512];
	FILE *f;

	out[0] = '\0';
	if (nb_path_join(path, sizeof(path), paths->proc, "cpuinfo") < 0 || !(f = fopen(path, "re")))
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && !out[0]; k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!colon || strncmp(line, keys[k], strlen(keys[k])))
				continue;
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(out, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

void nb_host_info_read(const struct nb_paths *paths, struct nb_host_info *h)
{
	struct utsname u;
	char path[512];

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
		snprintf(h->release, sizeof(h->release), "%s", u.release);
		snprintf(h->version, sizeof(h->version), "%s", u.version);
	}
	if (nb_path_join(path, sizeof(path), paths->proc, "cmdline") == 0)
		nb_read_file(path, h->cmdline, sizeof(h->cmdline));
	if (nb_path_join(path, sizeof(path), paths->proc, "config.gz") == 0)
		hash_file(path, h->config_hash, sizeof(h->config_hash));
	h->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	read_cpu_model(paths, h->cpu_model, sizeof(h->cpu_model));
}

bool nb_iface_exists(const struct nb_paths *paths, const char *iface)
{
	char path[512];

	if (!nb_ifname_valid(iface))
		return false;
	snprintf(path, sizeof(path), "%s/class/net/%s", paths->sys, iface);
	return access(path, F_OK) == 0;
}

int nb_iface_info_read(const struct nb_paths *paths, const char *iface, struct nb_iface_info *info,
		       struct nb_err *err)
{
	struct ethtool_drvinfo drv = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	char path[512], buf[64];
	int fd;

	memset(info, 0, sizeof(*info));
	info->mtu = -1;
	info->speed_mbps = -1;
	if (!nb_iface_exists(paths, iface))
		return nb_err_set(err, -ENODEV, "interface %s: not found in this network namespace (%s/class/net/%s)",
				  iface, paths->sys, iface);
	snprintf(info->name, sizeof(info->name), "%s", iface);
	info->mtu = nb_mtu_read(paths, iface);
	if (info->mtu < 0)
		info->mtu = -1;
	/* speed reads EINVAL while the link is down and -1 on virtual links: both mean unknown */
	snprintf(path, sizeof(path), "%s/class/net/%s/speed", paths->sys, iface);
	if (nb_read_file(path, buf, sizeof(buf)) > 0 && atol(buf) > 0)
		info->speed_mbps = atol(buf);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	ifr.ifr_data = (void *)&drv;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
			snprintf(info->driver, sizeof(info->driver), "%.32s", drv.driver);
			snprintf(info->driver_version, sizeof(info->driver_version), "%.32s", drv.version);
			snprintf(info->firmware, sizeof(info->firmware), "%.32s", drv.fw_version);
			snprintf(info->bus_info, sizeof(info->bus_info), "%.32s", drv.bus_info);
		}
		close(fd);
	}
	return 0;
}
