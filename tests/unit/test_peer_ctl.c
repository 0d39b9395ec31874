// SPDX-License-Identifier: MIT
/* The peer control lines: requests and replies both ways, and the lines a server must refuse. */
#include <errno.h>
#include <string.h>

#include "nb_test.h"
#include "traffic/peer_ctl.h"

static void test_request_round_trip(void)
{
	struct nb_ctl_request rq = { .version = NB_CTL_VERSION, .op = NB_CTL_MTU, .address = "10.200.1.2", .mtu = 9000 };
	struct nb_ctl_request back;
	struct nb_err err = { 0 };
	char line[NB_CTL_LINE_MAX];

	CHECK(nb_ctl_format_request(line, sizeof(line), &rq) == 0);
	CHECK_STR(line, "NBCTL 1 MTU 10.200.1.2 9000\n");
	line[strlen(line) - 1] = '\0';
	CHECK(nb_ctl_parse_request(line, &back, &err) == 0);
	CHECK(back.op == NB_CTL_MTU && back.mtu == 9000 && back.version == 1);
	CHECK_STR(back.address, "10.200.1.2");

	rq.op = NB_CTL_RESTORE;
	CHECK(nb_ctl_format_request(line, sizeof(line), &rq) == 0);
	CHECK_STR(line, "NBCTL 1 RESTORE\n");
	CHECK(nb_ctl_format_request(line, 8, &rq) == -ENOSPC);
}

static const struct {
	const char *line;
	int rc;
	const char *msg;
} bad_requests[] = {
	{ "GET / HTTP/1.1", -EINVAL, "not a nicbench control request" },
	{ "NBCTL 2 MTU 10.0.0.1 9000", -EPROTONOSUPPORT, "version 2; this serve speaks 1" },
	{ "NBCTL 1 JUMP", -EINVAL, "unknown control request 'JUMP'" },
	{ "NBCTL 1 MTU 10.0.0.1", -EINVAL, "MTU wants an address and an MTU" },
	{ "NBCTL 1 MTU 10.0.0.1 9000 extra", -EINVAL, "MTU wants an address and an MTU" },
	{ "NBCTL 1 MTU 10.0.0.1 67", -ERANGE, "outside 68..65535" },
	{ "NBCTL 1 MTU 10.0.0.1 65536", -ERANGE, "outside 68..65535" },
	{ "NBCTL 1 RESTORE now", -EINVAL, "RESTORE takes no arguments" },
	{ "", -EINVAL, "not a nicbench control request" },
};

static void test_bad_requests(void)
{
	for (size_t i = 0; i < sizeof(bad_requests) / sizeof(bad_requests[0]); i++) {
		struct nb_ctl_request rq;
		struct nb_err err = { 0 };
		int rc = nb_ctl_parse_request(bad_requests[i].line, &rq, &err);

		CHECK_MSG(rc == bad_requests[i].rc, "'%s': rc %d", bad_requests[i].line, rc);
		CHECK_MSG(strstr(err.msg, bad_requests[i].msg) != NULL, "'%s': '%s'", bad_requests[i].line, err.msg);
	}
}

static void test_replies(void)
{
	struct nb_ctl_reply rp = { .ok = true, .iface = "veth1", .old_mtu = 1500, .new_mtu = 9000 };
	struct nb_ctl_reply back;
	struct nb_err err = { 0 };
	char line[NB_CTL_LINE_MAX + 64];

	CHECK(nb_ctl_format_reply(line, sizeof(line), NB_CTL_MTU, &rp) == 0);
	CHECK_STR(line, "OK veth1 1500 9000\n");
	CHECK(nb_ctl_parse_reply("OK veth1 1500 9000", NB_CTL_MTU, &back, &err) == 0);
	CHECK(back.ok && back.old_mtu == 1500 && back.new_mtu == 9000 && !back.text[0]);
	CHECK_STR(back.iface, "veth1");

	snprintf(rp.text, sizeof(rp.text), "set with the interface down and up: the driver refused a running change (EBUSY)");
	CHECK(nb_ctl_format_reply(line, sizeof(line), NB_CTL_MTU, &rp) == 0);
	line[strlen(line) - 1] = '\0';
	CHECK(nb_ctl_parse_reply(line, NB_CTL_MTU, &back, &err) == 0);
	CHECK_STR(back.text, rp.text);

	memset(&rp, 0, sizeof(rp));
	rp.code = -EADDRNOTAVAIL;
	snprintf(rp.text, sizeof(rp.text), "no interface of the peer holds 10.9.9.9");
	CHECK(nb_ctl_format_reply(line, sizeof(line), NB_CTL_MTU, &rp) == 0);
	CHECK_STR(line, "ERR EADDRNOTAVAIL no interface of the peer holds 10.9.9.9\n");
	line[strlen(line) - 1] = '\0';
	CHECK(nb_ctl_parse_reply(line, NB_CTL_MTU, &back, &err) == 0);
	CHECK(!back.ok && back.code == -EADDRNOTAVAIL);
	CHECK_STR(back.text, "no interface of the peer holds 10.9.9.9");

	rp = (struct nb_ctl_reply){ .ok = true, .restored = 2 };
	CHECK(nb_ctl_format_reply(line, sizeof(line), NB_CTL_RESTORE, &rp) == 0);
	CHECK_STR(line, "OK restored 2\n");
	CHECK(nb_ctl_parse_reply("OK restored 2", NB_CTL_RESTORE, &back, &err) == 0 && back.restored == 2);

	CHECK(nb_ctl_parse_reply("SSH-2.0-OpenSSH_9.2", NB_CTL_MTU, &back, &err) == -EPROTO);
	CHECK(strstr(err.msg, "not one nicbench knows") != NULL);
	CHECK(nb_ctl_parse_reply("ERR EWHATEVER odd", NB_CTL_MTU, &back, &err) == 0 && back.code == -EIO);
}

int main(void)
{
	test_request_round_trip();
	test_bad_requests();
	test_replies();
	return nb_test_done("peer_ctl");
}
