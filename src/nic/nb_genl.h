// SPDX-License-Identifier: MIT
/* Generic-netlink plumbing over libnl-3 shared by the netdev and ethtool families: resolve a
 * family, send one request and run its answers, with the kernel's extended-ack text kept. */
#ifndef NB_GENL_H
#define NB_GENL_H

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"

#define NB_GENL_MAX_OPS 64

struct nb_genl {
	struct nl_sock *sk;
	uint32_t portid, seq;
	uint16_t family_id;
	uint32_t version;
	int nops;
	uint32_t ops[NB_GENL_MAX_OPS];  /* command numbers the family lists */
};

/* Called for each answer (not for acks or the end of a dump): 0 to go on, -errno to stop. */
typedef int (*nb_genl_cb)(const struct nlmsghdr *nlh, void *data);

/* Open a socket and resolve family `name`. -ENOENT (err: "no generic netlink family NAME")
 * when the kernel does not have it; other -errno on socket failure. */
int nb_genl_open(struct nb_genl *g, const char *name, struct nb_err *err);
void nb_genl_close(struct nb_genl *g);

bool nb_genl_has_op(const struct nb_genl *g, uint32_t cmd);

/* Start a request: a netlink + genl header for cmd, NLM_F_REQUEST | flags (NLM_F_DUMP or
 * NLM_F_ACK). NULL when out of memory. The caller adds attributes with nla_put_*() and
 * hands the message to nb_genl_run, which frees it. */
struct nl_msg *nb_genl_msg(struct nb_genl *g, uint8_t cmd, uint8_t version, uint16_t flags);

/* Send msg (built is false when an nla_put_*() failed: then only freed, -EMSGSIZE) and run cb
 * on each answer until the ack or the end of the dump. Returns 0, or -errno with
 * err = "<what>: <strerror> (kernel: <extended ack>)". */
int nb_genl_run(struct nb_genl *g, struct nl_msg *msg, bool built, nb_genl_cb cb, void *data, const char *what,
		struct nb_err *err);

/* The attributes after the genl header of an answer. */
const struct nlattr *nb_genl_attrs(const struct nlmsghdr *nlh, int *len);

/* Attribute checks for parsers of untrusted bytes. */
bool nb_genl_attr_u32_ok(const struct nlattr *a);
bool nb_genl_attr_uint_ok(const struct nlattr *a);

/* A `uint` attribute: the kernel sends 4 bytes when the value fits, else 8. */
uint64_t nb_genl_attr_uint(const struct nlattr *a);

/* Put a `uint`: 8 bytes only when the value needs them (the policy takes both). */
int nb_genl_put_uint(struct nl_msg *msg, int type, uint64_t v);

/* The netlink paths this binary has, in words, for `nicbench --version`. */
const char *nb_genl_paths(void);

/* Walk attributes of a payload that is not inside a netlink message (tests pass raw bytes). */
#define nb_genl_for_each_attr(a, buf, len, rem) \
	for ((a) = (const struct nlattr *)(buf), (rem) = (len); nla_ok((a), (rem)); (a) = nla_next((a), &(rem)))

#endif
