// SPDX-License-Identifier: MIT
/* The MTU knob's write on a copied sysfs tree, with a scripted driver: a running change, an
 * EBUSY answered by down-set-up, a link that does not come back, a value the driver refuses. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "nic/mtu.h"
#include "kit/nb_paths.h"
#include "nb_test.h"

/* A driver like one whose ndo_change_mtu answers EBUSY while running; bringing it up
 * restores the carrier unless link_dies. */
struct fake_driver {
	const char *root;          /* the tree's sys directory */
	bool busy_while_up;
	bool link_dies;
	int writes, downs, ups;
	int write_error;           /* forced answer of every write (-EINVAL), 0: none */
};

static void put(const struct fake_driver *d, const char *attr, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/net/eth0/%s", d->root, attr);
	CHECK(nb_write_file(path, value) == 0);
}

static int fake_write_mtu(void *arg, const char *path, const char *value)
{
	struct fake_driver *d = arg;
	char flags[32] = "";
	char fpath[PATH_MAX];

	d->writes++;
	if (d->write_error)
		return d->write_error;
	snprintf(fpath, sizeof(fpath), "%s/class/net/eth0/flags", d->root);
	nb_read_file(fpath, flags, sizeof(flags));
	if (d->busy_while_up && strcmp(flags, "0x1003") == 0)
		return -EBUSY;
	return nb_write_file(path, value);
}

static int fake_set_admin_up(void *arg, const char *iface, const char *flags_path, bool up)
{
	struct fake_driver *d = arg;

	CHECK_STR(iface, "eth0");
	CHECK(strstr(flags_path, "/class/net/eth0/flags") != NULL);
	if (up) {
		d->ups++;
		put(d, "flags", "0x1003");
		put(d, "operstate", d->link_dies ? "down" : "up");
		put(d, "carrier", d->link_dies ? "0" : "1");
	} else {
		d->downs++;
		put(d, "flags", "0x1002");
		put(d, "operstate", "down");
		put(d, "carrier", "0");
	}
	return 0;
}

static void read_mtu(const char *root, char *buf, size_t len)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/class/net/eth0/mtu", root);
	if (nb_read_file(path, buf, len) < 0)
		snprintf(buf, len, "?");
}

static const struct {
	const char *name;
	bool busy_while_up, link_dies;
	int write_error;
	int want_rc;
	const char *want_mtu;
	int want_downs;
	bool want_down_up;
	const char *want_msg;      /* in err.msg (error) or the description (success) */
} cases[] = {
	{ "running change taken", false, false, 0, 0, "9000", 0, false, "" },
	{ "EBUSY: down, set, up", true, false, 0, 0, "9000", 1, true,
	  "set with the interface down and up: the driver refused a running change (EBUSY)" },
	{ "EBUSY and the link stays down", true, true, 0, -ENOLINK, "9000", 1, true,
	  "the link did not come back within 0.2 s (operstate down, no carrier)" },
	{ "EINVAL is the value's fault: no down/up", false, false, -EINVAL, -EINVAL, "1500", 0, false,
	  "Invalid argument" },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char tree[256], sys[300], mtu[16], desc[256];
		struct fake_driver d = { .busy_while_up = cases[i].busy_while_up, .link_dies = cases[i].link_dies,
					 .write_error = cases[i].write_error };
		struct nb_mtu_ops ops = { fake_write_mtu, fake_set_admin_up, &d };
		struct nb_paths paths = { .proc = "/nonexistent", .sys = NULL };
		struct nb_mtu_ctx ctx = { .paths = &paths, .ops = &ops, .carrier_timeout_s = 0.2, .poll_ms = 10 };
		struct nb_mtu_outcome o;
		struct nb_err err = { 0 };
		int rc;

		if (nb_test_tree_copy("knobs/mtu-tree", tree, sizeof(tree))) {
			CHECK_MSG(0, "%s: copy fixture", cases[i].name);
			continue;
		}
		snprintf(sys, sizeof(sys), "%s/sys", tree);
		paths.sys = sys;
		d.root = sys;
		rc = nb_mtu_set(&ctx, "eth0", "9000", &o, &err);
		CHECK_MSG(rc == cases[i].want_rc, "%s: rc %d, want %d (%s)", cases[i].name, rc, cases[i].want_rc, err.msg);
		read_mtu(sys, mtu, sizeof(mtu));
		CHECK_MSG(strcmp(mtu, cases[i].want_mtu) == 0, "%s: mtu %s", cases[i].name, mtu);
		CHECK_MSG(d.downs == cases[i].want_downs && d.ups == cases[i].want_downs, "%s: %d downs, %d ups",
			  cases[i].name, d.downs, d.ups);
		CHECK_MSG(o.down_up == cases[i].want_down_up, "%s: down_up", cases[i].name);
		CHECK_MSG(o.carrier_waited == (cases[i].write_error == 0), "%s: carrier awaited", cases[i].name);
		nb_mtu_describe(&o, desc, sizeof(desc));
		if (rc)
			CHECK_MSG(strstr(err.msg, cases[i].want_msg) != NULL, "%s: '%s'", cases[i].name, err.msg);
		else
			CHECK_MSG(strncmp(desc, cases[i].want_msg, strlen(cases[i].want_msg)) == 0 &&
				  (cases[i].want_msg[0] || !desc[0]), "%s: '%s'", cases[i].name, desc);
		CHECK(nb_mtu_last_outcome()->down_up == o.down_up);
		nb_test_tree_remove(tree);
	}
}

static void test_refusal_decision(void)
{
	CHECK(nb_mtu_refusal_needs_down_up(-EBUSY));
	CHECK(!nb_mtu_refusal_needs_down_up(-EINVAL));
	CHECK(!nb_mtu_refusal_needs_down_up(-EOPNOTSUPP));
	CHECK(!nb_mtu_refusal_needs_down_up(0));
}

int main(void)
{
	test_refusal_decision();
	test_cases();
	return nb_test_done("mtu");
}
