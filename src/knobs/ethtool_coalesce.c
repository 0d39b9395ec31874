// SPDX-License-Identifier: MIT
/* Hardware coalescing get/set: ethtool generic netlink first (ETHTOOL_MSG_COALESCE_GET/SET,
 * whose GET answer tells which parameters the driver supports), SIOCETHTOOL as the fallback
 * on kernels or drivers without it, as ethtool(8) does; and the seam that lets tests replace it. */
#include "knobs/ethtool_coalesce.h"

#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <stdbool.h>
#include <stddef.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "nic/knob_types.h"
#include "nic/nb_genl.h"

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

/* ---- ethtool netlink ---- */

static int last_via = NB_VIA_IOCTL;
/* Fields the last netlink GET answered for: the kernel leaves out a parameter the driver
 * does not support (unless it is non-zero), so an absent one is unsupported. -1: unknown. */
static long long last_supported = -1;

/* ETHTOOL_A_COALESCE_* attribute <-> struct ethtool_coalesce field. */
static const struct {
	uint16_t attr;
	size_t offset;
	bool u8;
} nl_fields[] = {
#define F(a, f) { ETHTOOL_A_COALESCE_##a, offsetof(struct ethtool_coalesce, f), false }
	F(RX_USECS, rx_coalesce_usecs), F(RX_MAX_FRAMES, rx_max_coalesced_frames),
	F(RX_USECS_IRQ, rx_coalesce_usecs_irq), F(RX_MAX_FRAMES_IRQ, rx_max_coalesced_frames_irq),
	F(TX_USECS, tx_coalesce_usecs), F(TX_MAX_FRAMES, tx_max_coalesced_frames),
	F(TX_USECS_IRQ, tx_coalesce_usecs_irq), F(TX_MAX_FRAMES_IRQ, tx_max_coalesced_frames_irq),
	F(STATS_BLOCK_USECS, stats_block_coalesce_usecs),
	{ ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, offsetof(struct ethtool_coalesce, use_adaptive_rx_coalesce), true },
	{ ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, offsetof(struct ethtool_coalesce, use_adaptive_tx_coalesce), true },
	F(PKT_RATE_LOW, pkt_rate_low), F(RX_USECS_LOW, rx_coalesce_usecs_low),
	F(RX_MAX_FRAMES_LOW, rx_max_coalesced_frames_low), F(TX_USECS_LOW, tx_coalesce_usecs_low),
	F(TX_MAX_FRAMES_LOW, tx_max_coalesced_frames_low), F(PKT_RATE_HIGH, pkt_rate_high),
	F(RX_USECS_HIGH, rx_coalesce_usecs_high), F(RX_MAX_FRAMES_HIGH, rx_max_coalesced_frames_high),
	F(TX_USECS_HIGH, tx_coalesce_usecs_high), F(TX_MAX_FRAMES_HIGH, tx_max_coalesced_frames_high),
	F(RATE_SAMPLE_INTERVAL, rate_sample_interval),
#undef F
};
#define NL_FIELDS ((int)(sizeof(nl_fields) / sizeof(nl_fields[0])))

struct nl_get {
	struct ethtool_coalesce *ec;
	long long present;
};

static int nl_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_get *g = data;
	int len, rem;
	const struct nlattr *a, *attrs = nb_genl_attrs(nlh, &len);

	nb_genl_for_each_attr(a, attrs, len, rem) {
		for (int i = 0; i < NL_FIELDS; i++) {
			__u32 *field = (__u32 *)((char *)g->ec + nl_fields[i].offset);

			if (nla_type(a) != nl_fields[i].attr)
				continue;
			if (nl_fields[i].u8 && nla_len(a) >= 1)
				*field = nla_get_u8(a);
			else if (!nl_fields[i].u8 && nb_genl_attr_u32_ok(a))
				*field = nla_get_u32(a);
			else
				continue;
			g->present |= 1ll << i;
		}
	}
	return 0;
}

/* The request with its header nest naming the device; NULL when it could not be built. */
static struct nl_msg *nl_request(struct nb_genl *g, uint8_t cmd, const char *iface)
{
	struct nl_msg *msg = nb_genl_msg(g, cmd, ETHTOOL_GENL_VERSION, NLM_F_ACK);
	struct nlattr *hdr = msg ? nla_nest_start(msg, ETHTOOL_A_COALESCE_HEADER) : NULL;

	if (!hdr || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, iface) || nla_nest_end(msg, hdr)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* -ENOENT when the kernel has no ethtool family (before 5.6): the caller falls back. */
static int nl_get(const char *iface, struct ethtool_coalesce *ec, long long *present)
{
	struct nb_genl g;
	struct nl_get st = { .ec = ec };
	int ret = nb_genl_open(&g, ETHTOOL_GENL_NAME, NULL);

	if (ret)
		return ret;
	memset(ec, 0, sizeof(*ec));
	ret = nb_genl_run(&g, nl_request(&g, ETHTOOL_MSG_COALESCE_GET, iface), true, nl_get_cb, &st,
			  "ETHTOOL_MSG_COALESCE_GET", NULL);
	nb_genl_close(&g);
	*present = st.present;
	return ret;
}

/* Send only what the driver supports: a SET naming an unsupported parameter is refused. */
static int nl_set(const char *iface, const struct ethtool_coalesce *ec, long long supported)
{
	struct nb_genl g;
	struct nl_msg *msg;
	bool built;
	int ret = nb_genl_open(&g, ETHTOOL_GENL_NAME, NULL);

	if (ret)
		return ret;
	msg = nl_request(&g, ETHTOOL_MSG_COALESCE_SET, iface);
	built = msg != NULL;
	for (int i = 0; built && i < NL_FIELDS; i++) {
		__u32 v = *(const __u32 *)((const char *)ec + nl_fields[i].offset);

		if (!(supported & (1ll << i)))
			continue;
		if (nl_fields[i].u8)
			built = !nla_put_u8(msg, nl_fields[i].attr, (uint8_t)v);
		else
			built = !nla_put_u32(msg, nl_fields[i].attr, v);
	}
	ret = nb_genl_run(&g, msg, built, NULL, NULL, "ETHTOOL_MSG_COALESCE_SET", NULL);
	nb_genl_close(&g);
	return ret;
}

static int kernel_get(void *ctx, const char *iface, struct ethtool_coalesce *ec)
{
	long long present = 0;
	int ret = nl_get(iface, ec, &present);

	/* ethtool(8)'s rule: netlink first, the ioctl when netlink says it cannot. */
	if (ret == -ENOENT || ret == -EOPNOTSUPP) {
		last_via = NB_VIA_IOCTL;
		last_supported = -1;
		return ioctl_get(ctx, iface, ec);
	}
	last_via = NB_VIA_ETHTOOL_NL;
	last_supported = ret ? -1 : present;
	return ret;
}

static int kernel_set(void *ctx, const char *iface, const struct ethtool_coalesce *ec)
{
	struct ethtool_coalesce cur;
	long long present = 0;
	int ret = nl_get(iface, &cur, &present);

	if (ret == -ENOENT || ret == -EOPNOTSUPP) {
		last_via = NB_VIA_IOCTL;
		return ioctl_set(ctx, iface, ec);
	}
	if (ret)
		return ret;
	last_via = NB_VIA_ETHTOOL_NL;
	return nl_set(iface, ec, present);
}

static const struct nb_coalesce_ops kernel_ops = { .get = kernel_get, .set = kernel_set };
static const struct nb_coalesce_ops *active_ops = &kernel_ops;

void nb_coalesce_set_ops(const struct nb_coalesce_ops *ops)
{
	active_ops = ops ? ops : &kernel_ops;
	last_via = NB_VIA_IOCTL;
	last_supported = -1;
}

int nb_coalesce_supported(size_t offset)
{
	if (last_supported < 0)
		return -1;
	for (int i = 0; i < NL_FIELDS; i++) {
		if (nl_fields[i].offset == offset)
			return (last_supported >> i) & 1;
	}
	return -1;
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
	return last_via;
}
