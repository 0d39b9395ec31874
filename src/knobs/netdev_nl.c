// SPDX-License-Identifier: MIT
/* The netdev generic-netlink family: probe, napi-get/queue-get/qstats-get dumps and napi-set. */
#include "knobs/netdev_nl.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>

#include "knobs/nb_genl.h"

const char *const nb_qstat_names[NB_QSTAT_COUNT] = {
	"rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_alloc_fail", "rx_hw_drops",
	"rx_hw_drop_overruns", "rx_csum_complete", "rx_csum_unnecessary", "rx_csum_none", "rx_csum_bad",
	"rx_hw_gro_packets", "rx_hw_gro_bytes", "rx_hw_gro_wire_packets", "rx_hw_gro_wire_bytes",
	"rx_hw_drop_ratelimits", "tx_hw_drops", "tx_hw_drop_errors", "tx_csum_none", "tx_needs_csum",
	"tx_hw_gso_packets", "tx_hw_gso_bytes", "tx_hw_gso_wire_packets", "tx_hw_gso_wire_bytes",
	"tx_hw_drop_ratelimits", "tx_stop", "tx_wake",
};

#define NETDEV_GENL_VERSION 1

#ifndef NICBENCH_NO_LIBMNL

/* ---- pure parsers ---- */

/* Walk attributes of a payload that is not inside a netlink message (tests pass raw bytes). */
#define for_each_attr(a, buf, len) \
	for ((a) = (const struct nlattr *)(buf); mnl_attr_ok((a), (int)((const char *)(buf) + (len) - (const char *)(a))); \
	     (a) = mnl_attr_next(a))

static bool u32_ok(const struct nlattr *a)
{
	return mnl_attr_get_payload_len(a) >= sizeof(uint32_t);
}

static bool uint_ok(const struct nlattr *a)
{
	uint16_t l = mnl_attr_get_payload_len(a);

	return l == 4 || l == 8;
}

int nb_netdev_parse_napi(const void *attrs, int len, struct nb_napi *out)
{
	const struct nlattr *a;
	bool has_id = false;

	memset(out, 0, sizeof(*out));
	for_each_attr(a, attrs, len) {
		switch (mnl_attr_get_type(a)) {
		case NB_NETDEV_A_NAPI_IFINDEX:
			if (!u32_ok(a)) return -EINVAL;
			out->ifindex = mnl_attr_get_u32(a);
			break;
		case NB_NETDEV_A_NAPI_ID:
			if (!u32_ok(a)) return -EINVAL;
			out->id = mnl_attr_get_u32(a);
			has_id = true;
			break;
		case NB_NETDEV_A_NAPI_IRQ:
			if (!u32_ok(a)) return -EINVAL;
			out->irq = mnl_attr_get_u32(a);
			out->has_irq = true;
			break;
		case NB_NETDEV_A_NAPI_PID:
			if (!u32_ok(a)) return -EINVAL;
			out->pid = mnl_attr_get_u32(a);
			out->has_pid = true;
			break;
		case NB_NETDEV_A_NAPI_DEFER_HARD_IRQS:
			if (!u32_ok(a)) return -EINVAL;
			out->defer_hard_irqs = mnl_attr_get_u32(a);
			out->has_defer = true;
			break;
		case NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT:
			if (!uint_ok(a)) return -EINVAL;
			out->gro_flush_timeout = nb_genl_attr_uint(a);
			out->has_gro = true;
			break;
		case NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT:
			if (!uint_ok(a)) return -EINVAL;
			out->irq_suspend_timeout = nb_genl_attr_uint(a);
			out->has_suspend = true;
			break;
		case NB_NETDEV_A_NAPI_THREADED:
			if (!u32_ok(a)) return -EINVAL;
			out->threaded = mnl_attr_get_u32(a);
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
	bool has_id = false, has_type = false;

	memset(out, 0, sizeof(*out));
	for_each_attr(a, attrs, len) {
		switch (mnl_attr_get_type(a)) {
		case NB_NETDEV_A_QUEUE_ID:
			if (!u32_ok(a)) return -EINVAL;
			out->id = mnl_attr_get_u32(a);
			has_id = true;
			break;
		case NB_NETDEV_A_QUEUE_TYPE:
			if (!u32_ok(a)) return -EINVAL;
			out->type = mnl_attr_get_u32(a);
			has_type = true;
			break;
		case NB_NETDEV_A_QUEUE_NAPI_ID:
			if (!u32_ok(a)) return -EINVAL;
			out->napi_id = mnl_attr_get_u32(a);
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
	bool has_id = false, has_type = false;

	memset(out, 0, sizeof(*out));
	for_each_attr(a, attrs, len) {
		int t = mnl_attr_get_type(a);

		if (t == NB_NETDEV_A_QSTATS_QUEUE_ID && u32_ok(a)) {
			out->id = mnl_attr_get_u32(a);
			has_id = true;
		} else if (t == NB_NETDEV_A_QSTATS_QUEUE_TYPE && u32_ok(a)) {
			out->type = mnl_attr_get_u32(a);
			has_type = true;
		} else if (t >= NB_NETDEV_A_QSTATS_FIRST_COUNTER && t < NB_NETDEV_A_QSTATS_FIRST_COUNTER + NB_QSTAT_COUNT) {
			if (!uint_ok(a))
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
	const void *attrs = mnl_nlmsg_get_payload_offset(nlh, sizeof(struct genlmsghdr));
	int len = (int)(mnl_nlmsg_get_payload_len(nlh) - sizeof(struct genlmsghdr));
	const struct nlattr *a;
	uint32_t ifindex = 0;
	char tmp[sizeof(struct nb_qstats) > sizeof(struct nb_napi) ? sizeof(struct nb_qstats) : sizeof(struct nb_napi)];

	for_each_attr(a, attrs, len) {
		if (mnl_attr_get_type(a) == d->attr_ifindex && u32_ok(a))
			ifindex = mnl_attr_get_u32(a);
	}
	if (ifindex != d->ifindex)
		return MNL_CB_OK;
	if (d->parse(attrs, len, tmp)) {
		d->bad++;
		return MNL_CB_OK;
	}
	if (d->n < d->max)
		memcpy((char *)d->out + (size_t)d->n * d->size, tmp, d->size);
	d->n++;
	return MNL_CB_OK;
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
	struct nlmsghdr *nlh;
	int ret = open_family(&g, what, err);

	if (ret)
		return ret;
	nlh = nb_genl_msg(&g, cmd, NETDEV_GENL_VERSION, NLM_F_DUMP);
	if (cmd == NB_NETDEV_CMD_QSTATS_GET) {
		mnl_attr_put_u32(nlh, NB_NETDEV_A_QSTATS_IFINDEX, d->ifindex);
		mnl_attr_put_u32(nlh, NB_NETDEV_A_QSTATS_SCOPE, NB_NETDEV_QSTATS_SCOPE_QUEUE);
	} else {
		mnl_attr_put_u32(nlh, d->attr_ifindex, d->ifindex);
	}
	ret = nb_genl_run(&g, nlh, dump_cb, d, what, err);
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

/* The kernel stores gro-flush-timeout and irq-suspend-timeout as 64-bit: send 8 bytes when
 * the value needs them, 4 otherwise (the policy takes both for `uint`). */
static void put_uint(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	if (v > UINT32_MAX)
		mnl_attr_put_u64(nlh, type, v);
	else
		mnl_attr_put_u32(nlh, type, (uint32_t)v);
}

static int kernel_napi_set(void *ctx, const struct nb_napi_set *req, struct nb_err *err)
{
	struct nb_genl g;
	struct nlmsghdr *nlh;
	char what[64];
	int ret;

	(void)ctx;
	snprintf(what, sizeof(what), "napi-set on NAPI %u", req->id);
	ret = open_family(&g, what, err);
	if (ret)
		return ret;
	nlh = nb_genl_msg(&g, NB_NETDEV_CMD_NAPI_SET, NETDEV_GENL_VERSION, NLM_F_ACK);
	mnl_attr_put_u32(nlh, NB_NETDEV_A_NAPI_ID, req->id);
	if (req->set_defer)
		mnl_attr_put_u32(nlh, NB_NETDEV_A_NAPI_DEFER_HARD_IRQS, req->defer_hard_irqs);
	if (req->set_gro)
		put_uint(nlh, NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, req->gro_flush_timeout);
	if (req->set_suspend)
		put_uint(nlh, NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, req->irq_suspend_timeout);
	if (req->set_threaded)
		mnl_attr_put_u32(nlh, NB_NETDEV_A_NAPI_THREADED, req->threaded);
	ret = nb_genl_run(&g, nlh, NULL, NULL, what, err);
	nb_genl_close(&g);
	return ret;
}

#else /* NICBENCH_NO_LIBMNL */

static int kernel_probe(void *ctx, struct nb_netdev_caps *caps, struct nb_err *err)
{
	(void)ctx; (void)err;
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->why, sizeof(caps->why), "nicbench was built without libmnl (static build): no netdev netlink");
	return 0;
}

static int kernel_napi_dump(void *ctx, uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err)
{
	(void)ctx; (void)ifindex; (void)out; (void)max;
	return nb_err_set(err, -EOPNOTSUPP, "napi-get: nicbench was built without libmnl");
}

static int kernel_napi_set(void *ctx, const struct nb_napi_set *req, struct nb_err *err)
{
	(void)ctx; (void)req;
	return nb_err_set(err, -EOPNOTSUPP, "napi-set: nicbench was built without libmnl");
}

static int kernel_queue_dump(void *ctx, uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err)
{
	(void)ctx; (void)ifindex; (void)out; (void)max;
	return nb_err_set(err, -EOPNOTSUPP, "queue-get: nicbench was built without libmnl");
}

static int kernel_qstats_dump(void *ctx, uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err)
{
	(void)ctx; (void)ifindex; (void)out; (void)max;
	return nb_err_set(err, -EOPNOTSUPP, "qstats-get: nicbench was built without libmnl");
}

#endif

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
