// SPDX-License-Identifier: MIT
/* Generic-netlink request/answer loop over libmnl, keeping the kernel's extended-ack text. */
#include "knobs/nb_genl.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#ifndef NICBENCH_NO_LIBMNL

/* Big enough for a dump batch; the kernel sizes dump skbs to the reader's buffer (up to 32k). */
#define NB_GENL_BUF (32 * 1024)

struct run_ctx {
	mnl_cb_t cb;
	void *data;
	int error;          /* negative errno from NLMSG_ERROR / NLMSG_DONE */
	char ext[256];      /* NLMSGERR_ATTR_MSG */
};

static void ext_ack(const struct nlmsghdr *nlh, const struct nlmsgerr *e, struct run_ctx *rc)
{
	const struct nlattr *a;
	size_t off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* Without NLM_F_CAPPED the kernel echoes our whole request before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			snprintf(rc->ext, sizeof(rc->ext), "%s", mnl_attr_get_str(a));
	}
}

static int on_error(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *rc = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		rc->error = -EBADMSG;
		return MNL_CB_ERROR;
	}
	ext_ack(nlh, e, rc);
	if (e->error == 0)
		return MNL_CB_STOP;  /* the ack of a do-request */
	rc->error = e->error;
	return MNL_CB_ERROR;
}

static int on_done(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *rc = data;

	/* A dump that failed part-way ends with DONE carrying the error and maybe an ext-ack. */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		int e = *(const int *)mnl_nlmsg_get_payload(nlh);

		if (e < 0) {
			rc->error = e;
			if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
				const struct nlattr *a;

				mnl_attr_for_each(a, nlh, sizeof(int)) {
					if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
					    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
						snprintf(rc->ext, sizeof(rc->ext), "%s", mnl_attr_get_str(a));
				}
			}
			return MNL_CB_ERROR;
		}
	}
	return MNL_CB_STOP;
}

static int on_data(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *rc = data;

	return rc->cb ? rc->cb(nlh, rc->data) : MNL_CB_OK;
}

static int fail(struct nb_err *err, int code, const char *what, const char *ext)
{
	return nb_err_set(err, code, "%s: %s%s%s%s", what, strerror(-code), ext && ext[0] ? " (kernel: " : "",
			  ext && ext[0] ? ext : "", ext && ext[0] ? ")" : "");
}

int nb_genl_run(struct nb_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what,
		struct nb_err *err)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = on_error,
		[NLMSG_DONE] = on_done,
	};
	struct run_ctx rc = { .cb = cb, .data = data };
	unsigned int seq = nlh->nlmsg_seq;
	int ret;

	if (mnl_socket_sendto(g->nl, nlh, nlh->nlmsg_len) < 0)
		return fail(err, -errno, what, NULL);
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(g->nl, g->buf, g->buflen);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail(err, -errno, what, NULL);
		}
		ret = mnl_cb_run2(g->buf, (size_t)n, seq, g->portid, on_data, &rc, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret == MNL_CB_ERROR || ret < 0) {
			int code = rc.error ? rc.error : -(errno ? errno : EIO);

			return fail(err, code, what, rc.ext);
		}
	}
}

struct nlmsghdr *nb_genl_msg(struct nb_genl *g, uint8_t cmd, uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(g->buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = g->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++g->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = version;
	return nlh;
}

uint64_t nb_genl_attr_uint(const struct nlattr *a)
{
	uint16_t len = mnl_attr_get_payload_len(a);

	if (len == sizeof(uint64_t))
		return mnl_attr_get_u64(a);
	if (len == sizeof(uint32_t))
		return mnl_attr_get_u32(a);
	return 0;
}

bool nb_genl_has_op(const struct nb_genl *g, uint32_t cmd)
{
	for (int i = 0; i < g->nops; i++) {
		if (g->ops[i] == cmd)
			return true;
	}
	return false;
}

static int op_cb(const struct nlattr *a, void *data)
{
	struct nb_genl *g = data;
	const struct nlattr *b;

	mnl_attr_for_each_nested(b, a) {
		if (mnl_attr_get_type(b) == CTRL_ATTR_OP_ID && mnl_attr_get_payload_len(b) >= 4 &&
		    g->nops < NB_GENL_MAX_OPS)
			g->ops[g->nops++] = mnl_attr_get_u32(b);
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nb_genl *g = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			g->family_id = mnl_attr_get_u16(a);
			break;
		case CTRL_ATTR_VERSION:
			g->version = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_OPS: {
			const struct nlattr *op;

			mnl_attr_for_each_nested(op, a)
				op_cb(op, g);
			break;
		}
		default:
			break;
		}
	}
	return MNL_CB_OK;
}

int nb_genl_open(struct nb_genl *g, const char *name, struct nb_err *err)
{
	struct nlmsghdr *nlh;
	char what[96];
	int one = 1, ret;

	memset(g, 0, sizeof(*g));
	g->buflen = NB_GENL_BUF;
	g->buf = malloc(g->buflen);
	if (!g->buf)
		return nb_err_set(err, -ENOMEM, "open generic netlink for %s: out of memory", name);
	g->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!g->nl || mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		nb_genl_close(g);
		return nb_err_set(err, ret, "open generic netlink socket for %s: %s", name, strerror(-ret));
	}
	/* Ask for the kernel's words on errors, and only our request's header echoed back. */
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = (unsigned int)time(NULL);
	g->family_id = GENL_ID_CTRL;
	nlh = nb_genl_msg(g, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	g->family_id = 0;
	snprintf(what, sizeof(what), "resolve generic netlink family %s", name);
	ret = nb_genl_run(g, nlh, family_cb, g, what, err);
	if (ret == -ENOENT || (ret == 0 && g->family_id == 0)) {
		nb_genl_close(g);
		return nb_err_set(err, -ENOENT, "no generic netlink family %s in this kernel", name);
	}
	if (ret) {
		nb_genl_close(g);
		return ret;
	}
	return 0;
}

void nb_genl_close(struct nb_genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	g->nl = NULL;
	g->buf = NULL;
}

#else /* NICBENCH_NO_LIBMNL: a static build without libmnl.a has no netlink at all */

int nb_genl_open(struct nb_genl *g, const char *name, struct nb_err *err)
{
	memset(g, 0, sizeof(*g));
	return nb_err_set(err, -ENOENT, "no generic netlink family %s: nicbench was built without libmnl", name);
}

void nb_genl_close(struct nb_genl *g)
{
	(void)g;
}

#endif
