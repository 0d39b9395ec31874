// SPDX-License-Identifier: MIT
/* Generic-netlink plumbing over libmnl shared by the netdev and ethtool families: resolve a
 * family, send one request and run its answers, with the kernel's extended-ack text kept. */
#ifndef NB_GENL_H
#define NB_GENL_H

#ifndef NICBENCH_NO_LIBMNL
#include <libmnl/libmnl.h>
#else
/* A build without libmnl (static or cross, where its headers may be absent too): the types below
 * stay opaque and only nb_genl_open/close exist, answering that netlink is not built in. */
#include <linux/netlink.h>
struct mnl_socket;
typedef int (*mnl_cb_t)(const struct nlmsghdr *nlh, void *data);
#endif
#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"

#define NB_GENL_MAX_OPS 64

struct nb_genl {
	struct mnl_socket *nl;
	unsigned int portid, seq;
	uint16_t family_id;
	uint32_t version;
	int nops;
	uint32_t ops[NB_GENL_MAX_OPS];  /* command numbers the family lists */
	char *buf;                      /* MNL_SOCKET_BUFFER_SIZE-ish, owned */
	size_t buflen;
};

/* Open a socket and resolve family `name`. -ENOENT (err: "no generic netlink family NAME")
 * when the kernel does not have it; other -errno on socket failure. */
int nb_genl_open(struct nb_genl *g, const char *name, struct nb_err *err);
void nb_genl_close(struct nb_genl *g);

bool nb_genl_has_op(const struct nb_genl *g, uint32_t cmd);

/* Start a request: a netlink + genl header for cmd, NLM_F_REQUEST | flags (NLM_F_DUMP or
 * NLM_F_ACK). The message lives in g->buf until nb_genl_run. */
struct nlmsghdr *nb_genl_msg(struct nb_genl *g, uint8_t cmd, uint8_t version, uint16_t flags);

/* Send the message and run cb on each answer until the ack or the end of the dump.
 * Returns 0, or -errno with err = "<what>: <strerror> (<kernel's extended ack>)". */
int nb_genl_run(struct nb_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb, void *data, const char *what,
		struct nb_err *err);

/* A `uint` attribute: the kernel sends 4 bytes when the value fits, else 8. */
uint64_t nb_genl_attr_uint(const struct nlattr *a);

#endif
