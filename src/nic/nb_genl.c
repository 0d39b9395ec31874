// SPDX-License-Identifier: MIT
/* Generic-netlink request/answer loop over libnl-3, keeping the kernel's errno and extended-ack text. */
#include "nic/nb_genl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/socket.h>
#include <netlink/version.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct run_ctx {
	struct nb_genl *g;
	uint32_t seq;
	nb_genl_cb cb;
	void *data;
	bool done;          /* the ack, the end of the dump, or an error arrived */
	int seen;           /* messages of ours in this nl_recvmsgs() call */
	int error;          /* negative errno from NLMSG_ERROR / NLMSG_DONE / cb */
	char ext[256];      /* NLMSGERR_ATTR_MSG */
};

/* libnl folds errno into its own NLE_* codes; the few a socket can give, back to errno. */
static int nle_errno(int nle)
{
	static const struct { int nle, err; } map[] = {
		{ NLE_INTR, EINTR }, { NLE_BAD_SOCK, EBADF }, { NLE_AGAIN, EAGAIN }, { NLE_NOMEM, ENOMEM },
		{ NLE_INVAL, EINVAL }, { NLE_MSGSIZE, EMSGSIZE }, { NLE_OPNOTSUPP, EOPNOTSUPP },
		{ NLE_AF_NOSUPPORT, EAFNOSUPPORT }, { NLE_OBJ_NOTFOUND, ENOENT }, { NLE_MSG_TRUNC, EBADMSG },
		{ NLE_MSG_OVERFLOW, ENOBUFS }, { NLE_NOACCESS, EACCES }, { NLE_PERM, EPERM },
		{ NLE_DUMP_INTR, EINTR }, { NLE_NOADDR, EADDRNOTAVAIL }, { NLE_BUSY, EBUSY },
	};

	nle = nle < 0 ? -nle : nle;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (map[i].nle == nle)
			return -map[i].err;
	}
	return -EIO;
}

static void ext_msg(const void *tlvs, int len, struct run_ctx *rc)
{
	const struct nlattr *a;
	int rem;

	nb_genl_for_each_attr(a, tlvs, len, rem) {
		int n = nla_len(a);

		if (nla_type(a) == NLMSGERR_ATTR_MSG && n > 0 && ((const char *)nla_data(a))[n - 1] == '\0')
			snprintf(rc->ext, sizeof(rc->ext), "%s", (const char *)nla_data(a));
	}
}

/* Only answers to our request: a dump's parts and the ack carry its sequence number and our port. */
static int on_seq_check(struct nl_msg *msg, void *arg)
{
	struct run_ctx *rc = arg;
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_seq != rc->seq || (nlh->nlmsg_pid && nlh->nlmsg_pid != rc->g->portid))
		return NL_SKIP;
	rc->seen++;
	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
		rc->error = -EINTR;  /* the list changed while it was dumped: ask again */
		rc->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct run_ctx *rc = arg;
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	int off = (int)sizeof(*e);

	(void)nla;
	/* Without NLM_F_CAPPED the kernel echoes our whole request before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += (int)(e->msg.nlmsg_len - sizeof(e->msg));
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off < nlmsg_datalen(nlh))
		ext_msg((const char *)e + off, nlmsg_datalen(nlh) - off, rc);
	rc->error = e->error;
	rc->done = true;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct run_ctx *rc = arg;

	(void)msg;
	rc->done = true;
	return NL_STOP;
}

/* A dump that failed part-way ends with DONE carrying the error and maybe an ext-ack. */
static int on_done(struct nl_msg *msg, void *arg)
{
	struct run_ctx *rc = arg;
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int len = nlmsg_datalen(nlh);

	rc->done = true;
	if (len >= (int)sizeof(int)) {
		int e;

		memcpy(&e, nlmsg_data(nlh), sizeof(e));
		if (e < 0) {
			rc->error = e;
			if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
				ext_msg((const char *)nlmsg_data(nlh) + sizeof(int), len - (int)sizeof(int), rc);
		}
	}
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct run_ctx *rc = arg;
	int ret = rc->cb ? rc->cb(nlmsg_hdr(msg), rc->data) : 0;

	if (ret < 0) {
		rc->error = ret;
		rc->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

static int fail(struct nb_err *err, int code, const char *what, const char *ext)
{
	return nb_err_set(err, code, "%s: %s%s%s%s", what, strerror(-code), ext && ext[0] ? " (kernel: " : "",
			  ext && ext[0] ? ext : "", ext && ext[0] ? ")" : "");
}

int nb_genl_run(struct nb_genl *g, struct nl_msg *msg, bool built, nb_genl_cb cb, void *data, const char *what,
		struct nb_err *err)
{
	struct run_ctx rc = { .g = g, .cb = cb, .data = data };
	struct nl_cb *cbs;
	int ret;

	if (!msg)
		return fail(err, -ENOMEM, what, NULL);
	if (!built) {
		nlmsg_free(msg);
		return fail(err, -EMSGSIZE, what, NULL);
	}
	rc.seq = nlmsg_hdr(msg)->nlmsg_seq;
	ret = nl_send_auto(g->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return fail(err, nle_errno(ret), what, NULL);
	cbs = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cbs)
		return fail(err, -ENOMEM, what, NULL);
	nl_cb_set(cbs, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_check, &rc);
	nl_cb_set(cbs, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &rc);
	nl_cb_set(cbs, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &rc);
	nl_cb_set(cbs, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &rc);
	nl_cb_err(cbs, NL_CB_CUSTOM, on_error, &rc);
	while (!rc.done) {
		rc.seen = 0;
		ret = nl_recvmsgs(g->sk, cbs);
		if (rc.done)
			break;
		if (ret < 0 || rc.seen == 0) {  /* a socket error, or a read that brought nothing of ours */
			rc.error = ret < 0 ? nle_errno(ret) : -EPROTO;
			break;
		}
	}
	nl_cb_put(cbs);
	return rc.error ? fail(err, rc.error, what, rc.ext) : 0;
}

struct nl_msg *nb_genl_msg(struct nb_genl *g, uint8_t cmd, uint8_t version, uint16_t flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, ++g->seq, g->family_id, 0, NLM_F_REQUEST | flags, cmd, version)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

const struct nlattr *nb_genl_attrs(const struct nlmsghdr *nlh, int *len)
{
	const struct genlmsghdr *gh = nlmsg_data(nlh);

	*len = nlmsg_datalen(nlh) - GENL_HDRLEN;
	if (*len < 0) {
		*len = 0;
		return NULL;
	}
	return genlmsg_attrdata(gh, 0);
}

bool nb_genl_attr_u32_ok(const struct nlattr *a)
{
	return nla_len(a) >= (int)sizeof(uint32_t);
}

bool nb_genl_attr_uint_ok(const struct nlattr *a)
{
	return nla_len(a) == 4 || nla_len(a) == 8;
}

uint64_t nb_genl_attr_uint(const struct nlattr *a)
{
	if (nla_len(a) == (int)sizeof(uint64_t))
		return nla_get_u64(a);
	if (nla_len(a) == (int)sizeof(uint32_t))
		return nla_get_u32(a);
	return 0;
}

int nb_genl_put_uint(struct nl_msg *msg, int type, uint64_t v)
{
	return v > UINT32_MAX ? nla_put_u64(msg, type, v) : nla_put_u32(msg, type, (uint32_t)v);
}

const char *nb_genl_paths(void)
{
	static char buf[160];

	/* The library's own numbers: a dynamic build may run on another libnl than it was built with. */
	snprintf(buf, sizeof(buf), "netdev netlink (napi-get, napi-set, queue-get, qstats-get), ethtool netlink "
		 "(coalesce); libnl %d.%d.%d", nl_ver_maj, nl_ver_min, nl_ver_mic);
	return buf;
}

bool nb_genl_has_op(const struct nb_genl *g, uint32_t cmd)
{
	for (int i = 0; i < g->nops; i++) {
		if (g->ops[i] == cmd)
			return true;
	}
	return false;
}

static void add_ops(struct nb_genl *g, const struct nlattr *ops)
{
	const struct nlattr *op, *b;
	int rem, rem2;

	nla_for_each_nested(op, ops, rem) {
		nla_for_each_nested(b, op, rem2) {
			if (nla_type(b) == CTRL_ATTR_OP_ID && nb_genl_attr_u32_ok(b) && g->nops < NB_GENL_MAX_OPS)
				g->ops[g->nops++] = nla_get_u32(b);
		}
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nb_genl *g = data;
	const struct nlattr *a, *attrs;
	int len, rem;

	attrs = nb_genl_attrs(nlh, &len);
	nb_genl_for_each_attr(a, attrs, len, rem) {
		switch (nla_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			if (nla_len(a) >= (int)sizeof(uint16_t))
				g->family_id = nla_get_u16(a);
			break;
		case CTRL_ATTR_VERSION:
			if (nb_genl_attr_u32_ok(a))
				g->version = nla_get_u32(a);
			break;
		case CTRL_ATTR_OPS:
			add_ops(g, a);
			break;
		default:
			break;
		}
	}
	return 0;
}

int nb_genl_open(struct nb_genl *g, const char *name, struct nb_err *err)
{
	struct nl_msg *msg;
	char what[96];
	int one = 1, ret, fd;

	memset(g, 0, sizeof(*g));
	g->sk = nl_socket_alloc();
	if (!g->sk)
		return nb_err_set(err, -ENOMEM, "open generic netlink for %s: out of memory", name);
	ret = nl_connect(g->sk, NETLINK_GENERIC);
	if (ret < 0) {
		ret = nle_errno(ret);
		nb_genl_close(g);
		return nb_err_set(err, ret, "open generic netlink socket for %s: %s", name, strerror(-ret));
	}
	fd = nl_socket_get_fd(g->sk);
	/* Not inherited by iperf3 or the --setup shell. */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	/* Ask for the kernel's words on errors, and only our request's header echoed back. */
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Our own sequence check (on_seq_check) and NLM_F_ACK only where asked for. */
	nl_socket_disable_auto_ack(g->sk);
	nl_socket_disable_seq_check(g->sk);
	g->portid = nl_socket_get_local_port(g->sk);
	g->seq = (uint32_t)time(NULL);
	g->family_id = GENL_ID_CTRL;
	msg = nb_genl_msg(g, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	g->family_id = 0;
	snprintf(what, sizeof(what), "resolve generic netlink family %s", name);
	ret = nb_genl_run(g, msg, msg && nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) == 0, family_cb, g, what,
			  err);
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
	if (g->sk)
		nl_socket_free(g->sk);
	g->sk = NULL;
}
