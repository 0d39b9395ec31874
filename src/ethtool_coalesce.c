/* SIOCETHTOOL coalescing get/set, and the seam that lets tests replace it. */
#include "ethtool_coalesce.h"
#include "napi_knobs.h"

#include <errno.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* The ethtool ioctl works on any socket; an AF_INET datagram socket is the cheapest one
 * that exists in every network namespace, and it resolves iface in the caller's netns. */
static int ethtool_ioctl(const char *iface, void *cmd)
{
	struct ifreq ifr;
	int fd, ret = 0;

	if (strlen(iface) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, iface, strlen(iface));
	ifr.ifr_data = cmd;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int ioctl_get(void *ctx, const char *iface, struct ethtool_coalesce *ec)
{
	(void)ctx;
	memset(ec, 0, sizeof(*ec));
	ec->cmd = ETHTOOL_GCOALESCE;
	return ethtool_ioctl(iface, ec);
}

static int ioctl_set(void *ctx, const char *iface, const struct ethtool_coalesce *ec)
{
	struct ethtool_coalesce copy = *ec;

	(void)ctx;
	copy.cmd = ETHTOOL_SCOALESCE;
	return ethtool_ioctl(iface, &copy);
}

static const struct nb_coalesce_ops ioctl_ops = { .get = ioctl_get, .set = ioctl_set };
static const struct nb_coalesce_ops *active_ops = &ioctl_ops;

void nb_coalesce_set_ops(const struct nb_coalesce_ops *ops)
{
	active_ops = ops ? ops : &ioctl_ops;
}

int nb_coalesce_get(const char *iface, struct ethtool_coalesce *ec)
{
	return active_ops->get(active_ops->ctx, iface, ec);
}

int nb_coalesce_set(const char *iface, const struct ethtool_coalesce *ec)
{
	return active_ops->set(active_ops->ctx, iface, ec);
}

int nb_coalesce_last_via(void)
{
	return NB_VIA_IOCTL;
}
