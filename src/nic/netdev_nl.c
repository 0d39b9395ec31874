// SPDX-License-Identifier: MIT
/* The netdev generic-netlink family: probe, napi-get/queue-get/qstats-get dumps and napi-set. */
#include "nic/netdev_nl.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>

#include "nic/nb_genl.h"

const char *const nb_qstat_names[NB_QSTAT_COUNT] = {
	"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_alloc_fail", "rx_hw_drops",
	"rx_hw_drop_overruns", "rx_csum_complete", "rx_csum_unnecessary", "rx_csum_none", "rx_csum_bad",
	"rx_hw_gro_packets", "rx_hw_gro_bytes", "rx_hw_gro_wire_packets", "rx_hw_gro_wire_bytes",
	"rx_hw_drop_ratelimits", "tx_hw_drops", "tx_hw_drop_errors", "tx_csum_none", "tx_needs_csum",
	"tx_hw_gso_packets", "tx_hw_gso_bytes", "tx_hw_gso_wire_packets", "tx_hw_gso_wire_bytes",
	"tx_hw_drop_ratelimits", "tx_stop", "tx_wake",
};

#define NETDEV_GENL_VERSION 1

/* ---- pure parsers ---- */

int nb_netdev_parse_napi(const void *attrs, int len, struct nb_napi *out)
{
	const struct nlattr *a;
	int rem;
	bool has_id = false;

	memset(out, 0, sizeof(*out));
	nb_genl_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case NB_NETDEV_A_NAPI_IFINDEX:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->ifindex = nla_get_u32(a);
			break;
		case NB_NETDEV_A_NAPI_ID:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->id = nla_get_u32(a);
			has_id = true;
			break;
		case NB_NETDEV_A_NAPI_IRQ:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->irq = nla_get_u32(a);
			out->has_irq = true;
			break;
		case NB_NETDEV_A_NAPI_PID:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->pid = nla_get_u32(a);
			out->has_pid = true;
			break;
		case NB_NETDEV_A_NAPI_DEFER_HARD_IRQS:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->defer_hard_irqs = nla_get_u32(a);
			out->has_defer = true;
			break;
		case NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT:
			if (!nb_genl_attr_uint_ok(a)) return -EINVAL;
			out->gro_flush_timeout = nb_genl_attr_uint(a);
			out->has_gro = true;
			break;
		case NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT:
			if (!nb_genl_attr_uint_ok(a)) return -EINVAL;
			out->irq_suspend_timeout = nb_genl_attr_uint(a);
			out->has_suspend = true;
			break;
		case NB_NETDEV_A_NAPI_THREADED:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->threaded = nla_get_u32(a);
			out->has_threaded = true;
			break;
		default:
			break;  /* newer kernels add attributes: not an error */
		}
	}
	return has_id ? 0 : -EINVAL;
}

int nb_netdev_parse_queue(const void *attrs, int len, struct nb_netdev_queue *out)
{
	const struct nlattr *a;
	int rem;
	bool has_id = false, has_type = false;

	memset(out, 0, sizeof(*out));
	nb_genl_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case NB_NETDEV_A_QUEUE_ID:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->id = nla_get_u32(a);
			has_id = true;
			break;
		case NB_NETDEV_A_QUEUE_TYPE:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->type = nla_get_u32(a);
			has_type = true;
			break;
		case NB_NETDEV_A_QUEUE_NAPI_ID:
			if (!nb_genl_attr_u32_ok(a)) return -EINVAL;
			out->napi_id = nla_get_u32(a);
			out->has_napi = true;
			break;
		default:
			break;
		}
	}
	return has_id && has_type ? 0 : -EINVAL;
}

int nb_netdev_parse_qstats(const void *attrs, int len, struct nb_qstats *out)
{
	const struct nlattr *a;
	int rem;
	bool has_id = false, has_type = false;

	memset(out, 0, sizeof(*out));
	nb_genl_for_each_attr(a, attrs, len, rem) {
		int t = nla_type(a);

		if (t == NB_NETDEV_A_QSTATS_QUEUE_ID && nb_genl_attr_u32_ok(a)) {
			out->id = nla_get_u32(a);
			has_id = true;
		} else if (t == NB_NETDEV_A_QSTATS_QUEUE_TYPE && nb_genl_attr_u32_ok(a)) {
			out->type = nla_get_u32(a);
			has_type = true;
		} else if (t >= NB_NETDEV_A_QSTATS_FIRST_COUNTER && t < NB_NETDEV_A_QSTATS_FIRST_COUNTER + NB_QSTAT_COUNT) {
			if (!nb_genl_attr_uint_ok(a))
				return -EINVAL;
			out->v[t - NB_NETDEV_A_QSTATS_FIRST_COUNTER] = nb_genl_attr_uint(a);
			out->present |= 1u << (t - NB_NETDEV_A_QSTATS_FIRST_COUNTER);
		}
	}
	return has_id && has_type ? 0 : -EINVAL;
}

/* ---- the kernel backend ---- */

static int open_family(struct nb_genl *g, const char *what, struct nb_err *err)
{
	int ret = nb_genl_open(g, "netdev", err);

	if (ret)
		nb_err_prefix(err, "%s: ", what);
	return ret;
}

static int kernel_probe(void *ctx, struct nb_netdev_caps *caps, struct nb_err *err)
{
	struct nb_genl g;
	int ret;

	(void)ctx;
	memset(caps, 0, sizeof(*caps));
	ret = nb_genl_open(&g, "netdev", err);
	if (ret == -ENOENT) {
		snprintf(caps->why, sizeof(caps->why), "no netdev generic-netlink family (Linux 6.8+)");
		nb_err_clear(err);
		return 0;
	}
	if (ret)
		return ret;
	caps->family = true;
	caps->napi_get = nb_genl_has_op(&g, NB_NETDEV_CMD_NAPI_GET);
	caps->napi_set = nb_genl_has_op(&g, NB_NETDEV_CMD_NAPI_SET);
	caps->queue_get = nb_genl_has_op(&g, NB_NETDEV_CMD_QUEUE_GET);
	caps->qstats_get = nb_genl_has_op(&g, NB_NETDEV_CMD_QSTATS_GET);
	if (!caps->napi_set)
		snprintf(caps->why, sizeof(caps->why), "the netdev family has no napi-set (Linux 6.13+)%s",
			 caps->napi_get ? "" : " nor napi-get (6.8+)");
	nb_genl_close(&g);
	return 0;
}

struct dump_ctx {
	void *out;
	int max, n;
	size_t size;
	int (*parse)(const void *attrs, int len, void *out);
	uint32_t ifindex;
	int attr_ifindex;
	int bad;
};

/* Keep only the interface's entries: napi-get's ifindex filter exists, but a kernel that
 * ignores it (or a scripted answer) must not hand us another device's NAPIs. */
static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_ctx *d = data;
	int len, rem;
	const struct nlattr *a, *attrs = nb_genl_attrs(nlh, &len);
	uint32_t ifindex = 0;
	char tmp[sizeof(struct nb_qstats) > sizeof(struct nb_napi) ? sizeof(struct nb_qstats) : sizeof(struct nb_napi)];

	nb_genl_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) == d->attr_ifindex && nb_genl_attr_u32_ok(a))
			ifindex = nla_get_u32(a);
	}
	if (ifindex != d->ifindex)
		return 0;
	if (d->parse(attrs, len, tmp)) {
		d->bad++;
		return 0;
	}
	if (d->n < d->max)
		memcpy((char *)d->out + (size_t)d->n * d->size, tmp, d->size);
	d->n++;
	return 0;
}

static int parse_napi_any(const void *attrs, int len, void *out)
{
	return nb_netdev_parse_napi(attrs, len, out);
}

static int parse_queue_any(const void *attrs, int len, void *out)
{
	return nb_netdev_parse_queue(attrs, len, out);
}

static int parse_qstats_any(const void *attrs, int len, void *out)
{
	return nb_netdev_parse_qstats(attrs, len, out);
}

static int kernel_dump(uint8_t cmd, const char *what, struct dump_ctx *d, struct nb_err *err)
{
	struct nb_genl g;
	struct nl_msg *msg;
	bool built;
	int ret = open_family(&g, what, err);

	if (ret)
		return ret;
	msg = nb_genl_msg(&g, cmd, NETDEV_GENL_VERSION, NLM_F_DUMP);
	if (cmd == NB_NETDEV_CMD_QSTATS_GET)
		built = msg && !nla_put_u32(msg, NB_NETDEV_A_QSTATS_IFINDEX, d->ifindex) &&
			!nla_put_u32(msg, NB_NETDEV_A_QSTATS_SCOPE, NB_NETDEV_QSTATS_SCOPE_QUEUE);
	else
		built = msg && !nla_put_u32(msg, d->attr_ifindex, d->ifindex);
	ret = nb_genl_run(&g, msg, built, dump_cb, d, what, err);
	nb_genl_close(&g);
	if (ret)
		return ret;
	if (d->bad)
		return nb_err_set(err, -EBADMSG, "%s: %d malformed answer%s from the kernel", what, d->bad,
				  d->bad == 1 ? "" : "s");
	return d->n;
}

static int kernel_napi_dump(void *ctx, uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err)
{
	struct dump_ctx d = { .out = out, .max = max, .size = sizeof(*out), .parse = parse_napi_any,
			      .ifindex = ifindex, .attr_ifindex = NB_NETDEV_A_NAPI_IFINDEX };
	char what[64];

	(void)ctx;
	snprintf(what, sizeof(what), "napi-get dump for ifindex %u", ifindex);
	return kernel_dump(NB_NETDEV_CMD_NAPI_GET, what, &d, err);
}

static int kernel_queue_dump(void *ctx, uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err)
{
	struct dump_ctx d = { .out = out, .max = max, .size = sizeof(*out), .parse = parse_queue_any,
			      .ifindex = ifindex, .attr_ifindex = NB_NETDEV_A_QUEUE_IFINDEX };
	char what[64];

	(void)ctx;
	snprintf(what, sizeof(what), "queue-get dump for ifindex %u", ifindex);
	return kernel_dump(NB_NETDEV_CMD_QUEUE_GET, what, &d, err);
}

static int kernel_qstats_dump(void *ctx, uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err)
{
	struct dump_ctx d = { .out = out, .max = max, .size = sizeof(*out), .parse = parse_qstats_any,
			      .ifindex = ifindex, .attr_ifindex = NB_NETDEV_A_QSTATS_IFINDEX };
	char what[64];

	(void)ctx;
	snprintf(what, sizeof(what), "qstats-get (scope queue) for ifindex %u", ifindex);
	return kernel_dump(NB_NETDEV_CMD_QSTATS_GET, what, &d, err);
}

static int kernel_napi_set(void *ctx, const struct nb_napi_set *req, struct nb_err *err)
{
	struct nb_genl g;
	struct nl_msg *msg;
	char what[64];
	bool built;
	int ret;

	(void)ctx;
	snprintf(what, sizeof(what), "napi-set on NAPI %u", req->id);
	ret = open_family(&g, what, err);
	if (ret)
		return ret;
	msg = nb_genl_msg(&g, NB_NETDEV_CMD_NAPI_SET, NETDEV_GENL_VERSION, NLM_F_ACK);
	/* gro-flush-timeout and irq-suspend-timeout are `uint`: 8 bytes only when the value needs them. */
	built = msg && !nla_put_u32(msg, NB_NETDEV_A_NAPI_ID, req->id) &&
		(!req->set_defer || !nla_put_u32(msg, NB_NETDEV_A_NAPI_DEFER_HARD_IRQS, req->defer_hard_irqs)) &&
		(!req->set_gro || !nb_genl_put_uint(msg, NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, req->gro_flush_timeout)) &&
		(!req->set_suspend ||
		 !nb_genl_put_uint(msg, NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, req->irq_suspend_timeout)) &&
		(!req->set_threaded || !nla_put_u32(msg, NB_NETDEV_A_NAPI_THREADED, req->threaded));
	ret = nb_genl_run(&g, msg, built, NULL, NULL, what, err);
	nb_genl_close(&g);
	return ret;
}


static const struct nb_netdev_ops kernel_ops = {
	.probe = kernel_probe, .napi_dump = kernel_napi_dump, .napi_set = kernel_napi_set,
	.queue_dump = kernel_queue_dump, .qstats_dump = kernel_qstats_dump,
};
static const struct nb_netdev_ops *active = &kernel_ops;
static bool probed;
static struct nb_netdev_caps cached;

void nb_netdev_set_ops(const struct nb_netdev_ops *ops)
{
	active = ops ? ops : &kernel_ops;
	probed = false;
}

bool nb_netdev_scripted(void)
{
	return active != &kernel_ops;
}

int nb_netdev_probe(struct nb_netdev_caps *caps, struct nb_err *err)
{
	if (!probed) {
		int ret = active->probe(active->ctx, &cached, err);

		if (ret)
			return ret;
		probed = true;
	}
	*caps = cached;
	return 0;
}

int nb_netdev_napi_dump(uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err)
{
	return active->napi_dump(active->ctx, ifindex, out, max, err);
}

int nb_netdev_napi_set(const struct nb_napi_set *req, struct nb_err *err)
{
	return active->napi_set(active->ctx, req, err);
}

int nb_netdev_queue_dump(uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err)
{
	return active->queue_dump(active->ctx, ifindex, out, max, err);
}

int nb_netdev_qstats_dump(uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err)
{
	return active->qstats_dump(active->ctx, ifindex, out, max, err);
}
