// SPDX-License-Identifier: MIT
/* Unit tests for the knob table: validation, sysfs and IRQ rows on a fixture tree, and the
 * ethtool rows through a scripted seam. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "knobs/ethtool_coalesce.h"
#include "napi_knobs.h"
#include "nb_test.h"

static char tmp_root[128], proc_root[160], sys_root[160];
static struct nb_paths fx;

/* Writes go to a copy so the fixture in the repo stays clean. */
static int setup_tree(void)
{
	if (nb_test_tree_copy("knobs/tree", tmp_root, sizeof(tmp_root)) < 0)
		return -1;
	snprintf(proc_root, sizeof(proc_root), "%s/proc", tmp_root);
	snprintf(sys_root, sizeof(sys_root), "%s/sys", tmp_root);
	fx = (struct nb_paths){ .proc = proc_root, .sys = sys_root };
	return 0;
}

static void teardown_tree(void)
{
	nb_test_tree_remove(tmp_root);
}

static const char *file_text(const char *root, const char *rel)
{
	static char buf[256];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (nb_read_file(path, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "<missing>");
	return buf;
}

static void test_table(void)
{
	static const char *const names[] = { "threaded", "gro_flush_timeout", "napi_defer_hard_irqs", "irq_suspend_timeout",
		"rx-usecs", "rx-frames", "tx-usecs", "tx-frames", "adaptive-rx", "adaptive-tx",
		"irq_affinity", "mtu" };
	size_t n = sizeof(names) / sizeof(names[0]);

	CHECK(nb_knob_count() == (int)n);
	for (size_t i = 0; i < n; i++) {
		int idx = nb_knob_find(names[i]);

		CHECK_MSG(idx >= 0, "%s not in the table", names[i]);
		CHECK(idx < 0 || !strcmp(nb_knob_name(idx), names[i]));
		CHECK(idx < 0 || strlen(nb_knob_help(idx)) > 20);
	}
	CHECK(nb_knob_find("rx_usecs") == -1);
	CHECK(nb_knob_find(NULL) == -1);
	CHECK(nb_knob_name(-1) == NULL && nb_knob_name(nb_knob_count()) == NULL);
	CHECK(nb_knob_help(nb_knob_count()) == NULL);
}

struct validate_case {
	const char *knob, *value;
	int want;
};

static const struct validate_case validate_cases[] = {
	{ "threaded", "0", 0 }, { "threaded", "1", 0 }, { "threaded", "2", 0 }, { "threaded", "3", -ERANGE },
	{ "threaded", "-1", -EINVAL }, { "threaded", "", -EINVAL }, { "threaded", "1 ", -EINVAL },
	{ "threaded", "0x1", -EINVAL }, { "threaded", "+1", -EINVAL },
	{ "gro_flush_timeout", "20000", 0 }, { "gro_flush_timeout", "0", 0 },
	{ "gro_flush_timeout", "4294967295", 0 }, { "gro_flush_timeout", "18446744073709551616", -ERANGE },
	{ "gro_flush_timeout", "99999999999999999999", -ERANGE }, { "gro_flush_timeout", "20us", -EINVAL },
	{ "napi_defer_hard_irqs", "3", 0 }, { "napi_defer_hard_irqs", "2147483648", -ERANGE },
	{ "mtu", "67", -ERANGE }, { "mtu", "68", 0 }, { "mtu", "1500", 0 }, { "mtu", "65535", 0 },
	{ "mtu", "65536", -ERANGE }, { "rx-usecs", "50", 0 }, { "tx-frames", "4294967295", 0 },
	{ "adaptive-rx", "1", 0 }, { "adaptive-rx", "2", -ERANGE }, { "adaptive-tx", "on", -EINVAL },
	{ "irq_affinity", "0", 0 }, { "irq_affinity", "0-1", 0 }, { "irq_affinity", "0,2-3", 0 },
	{ "irq_affinity", "1-0", -EINVAL }, { "irq_affinity", "0,", -EINVAL }, { "irq_affinity", "a", -EINVAL },
	{ "irq_affinity", "", -EINVAL }, { "irq_affinity", "-1", -EINVAL }, { "irq_affinity", "9999", -EINVAL },
	{ "irq_affinity", "24=0 25=1", 0 }, { "irq_affinity", "24=0-1", 0 }, { "irq_affinity", "24=0 ", -EINVAL },
	{ "irq_affinity", "rx:0,tx:1", 0 }, { "irq_affinity", "rx:0-1,tx:2,misc:0", 0 }, { "irq_affinity", "rx:0,2,tx:1", 0 },
	{ "irq_affinity", "TX:1", 0 }, { "irq_affinity", "rx:0,TX:1", 0 }, { "irq_affinity", "rx:0,rx:1", -EINVAL }, { "irq_affinity", "foo:0", -EINVAL },
	{ "irq_affinity", "rx:", -EINVAL }, { "irq_affinity", "rx:0,", -EINVAL }, { "irq_affinity", "rx:0,tx", -EINVAL },
	{ "irq_affinity", "rx0-tx1", -EINVAL },
	{ "irq_affinity", "=0", -EINVAL }, { "irq_affinity", "24=", -EINVAL }, { "irq_affinity", "24=0  25=1", -EINVAL },
	{ "bogus", "1", -EINVAL },
};

static void test_validate(void)
{
	for (size_t i = 0; i < sizeof(validate_cases) / sizeof(validate_cases[0]); i++) {
		const struct validate_case *c = &validate_cases[i];
		struct nb_err err = { 0 };
		int ret = nb_knob_validate(c->knob, c->value, &err);

		CHECK_MSG(ret == c->want, "%s=\"%s\": got %d, want %d (%s)", c->knob, c->value, ret, c->want, err.msg);
		if (c->want) {
			CHECK_MSG(strstr(err.msg, c->knob) != NULL, "message does not name the knob: %s", err.msg);
			CHECK_MSG(!c->value[0] || strstr(err.msg, c->value) != NULL || !strcmp(c->knob, "bogus"),
				  "message does not name the value: %s", err.msg);
		}
	}
	CHECK(nb_knob_validate("mtu", NULL, NULL) == -EINVAL);
}

static void test_sysfs_rows(void)
{
	struct nb_knob_target eth0 = { .paths = &fx, .iface = "eth0" };
	struct nb_knob_target lo = { .paths = &fx, .iface = "lo" };
	struct nb_knob_target gone = { .paths = &fx, .iface = "eth7" };
	struct nb_knob_target bad = { .paths = &fx, .iface = "../eth0" };
	static const struct { const char *knob, *before, *set; } rows[] = {
		{ "threaded", "0", "1" }, { "gro_flush_timeout", "20000", "12345" },
		{ "napi_defer_hard_irqs", "1", "3" }, { "mtu", "1500", "9000" },
	};
	char value[NB_KNOB_VALUE_MAX], readback[NB_KNOB_VALUE_MAX];
	struct nb_err err;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char rel[64];

		CHECK(nb_knob_read(&eth0, rows[i].knob, value, sizeof(value), &err) == 0);
		CHECK_STR(value, rows[i].before);
		CHECK(nb_knob_apply(&eth0, rows[i].knob, rows[i].set, readback, sizeof(readback), &err) == 0);
		CHECK_STR(readback, rows[i].set);
		/* The file holds exactly the value: a shorter write must not leave old digits behind. */
		snprintf(rel, sizeof(rel), "class/net/eth0/%s", rows[i].knob);
		CHECK_STR(file_text(sys_root, rel), rows[i].set);
	}
	CHECK(nb_knob_apply(&eth0, "gro_flush_timeout", "7", readback, sizeof(readback), &err) == 0);
	CHECK_STR(readback, "7");

	/* A missing attribute: -ENOENT, "unsupported", and the message names the file. */
	CHECK(nb_knob_read(&lo, "threaded", value, sizeof(value), &err) == -ENOENT);
	CHECK(nb_knob_unsupported(err.code));
	CHECK_MSG(strstr(err.msg, "class/net/lo/threaded") != NULL, "%s", err.msg);
	CHECK(nb_knob_write(&lo, "threaded", "1", &err) == -ENOENT);
	CHECK(access(nb_test_fixture("knobs/tree/sys/class/net/lo/threaded"), F_OK) != 0);
	CHECK_MSG(strstr(err.msg, "set threaded=1 on lo") != NULL, "%s", err.msg);

	/* Invalid values never reach the file. */
	CHECK(nb_knob_write(&eth0, "mtu", "12", &err) == -ERANGE);
	CHECK_STR(file_text(sys_root, "class/net/eth0/mtu"), "9000");
	CHECK(nb_knob_write(&eth0, "nosuch", "1", &err) == -EINVAL);

	CHECK(nb_knob_read(&gone, "mtu", value, sizeof(value), &err) == -ENODEV);
	CHECK_MSG(strstr(err.msg, "eth7") != NULL, "%s", err.msg);
	CHECK(nb_knob_read(&bad, "mtu", value, sizeof(value), &err) == -EINVAL);
	CHECK(nb_knob_write(&bad, "mtu", "1500", &err) == -EINVAL);
	CHECK(nb_knob_iface_check(&eth0, &err) == 0);
	CHECK(nb_knob_iface_check(&gone, &err) == -ENODEV);
}

static void test_irq_affinity(void)
{
	struct nb_knob_target eth0 = { .paths = &fx, .iface = "eth0" };
	struct nb_knob_target eth1 = { .paths = &fx, .iface = "eth1" };
	struct nb_knob_target lo = { .paths = &fx, .iface = "lo" };
	char value[NB_KNOB_VALUE_MAX];
	struct nb_err err;
	char path[PATH_MAX];

	CHECK(nb_knob_read(&eth0, "irq_affinity", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "0-1");
	CHECK(nb_knob_apply(&eth0, "irq_affinity", "1", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "1");
	/* Every IRQ of eth0 (shared 16, 24, 25, 26) moved; eth1's and eth10's did not. */
	CHECK_STR(file_text(proc_root, "irq/16/smp_affinity_list"), "1");
	CHECK_STR(file_text(proc_root, "irq/26/smp_affinity_list"), "1");
	CHECK_STR(file_text(proc_root, "irq/27/smp_affinity_list"), "0-1");
	CHECK_STR(file_text(proc_root, "irq/28/smp_affinity_list"), "0-1");

	/* A spread that each role agrees on reads back per role; a journal (every_napi) reads it
	 * per IRQ. */
	snprintf(path, sizeof(path), "%s/irq/24/smp_affinity_list", proc_root);
	CHECK(nb_write_file(path, "0") == 0);
	CHECK(nb_knob_read(&eth0, "irq_affinity", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "rx:0,tx:1,misc:1");
	CHECK(nb_knob_read_via(&eth0, "irq_affinity", true, value, sizeof(value), NULL, &err) == 0);
	CHECK_STR(value, "16=1 24=0 25=1 26=1");
	/* A hand-tuned spread within a role reads back per IRQ, and that form writes back. */
	CHECK(nb_knob_apply(&eth0, "irq_affinity", "16=0 24=0-1 25=0 26=1", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "16=0 24=0-1 25=0 26=1");

	/* By role: rx and tx IRQs move, the misc ones (16 shared, 26 "eth0") keep theirs. */
	CHECK(nb_knob_apply(&eth0, "irq_affinity", "rx:1,tx:0", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "16=0 24=1 25=0 26=1");
	CHECK(nb_knob_apply(&eth0, "irq_affinity", "rx:1,tx:0,misc:0-1", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "rx:1,tx:0,misc:0-1");
	CHECK_STR(file_text(proc_root, "irq/16/smp_affinity_list"), "0-1");
	CHECK_STR(file_text(proc_root, "irq/27/smp_affinity_list"), "0-1");
	/* A role the NIC has no IRQ of: unsupported, nothing written. */
	CHECK(nb_knob_write(&eth0, "irq_affinity", "rx:0,txrx:0", &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, "no txrx IRQ") && strstr(err.msg, "24 eth0-rx-0 (rx)"), "%s", err.msg);
	CHECK_STR(file_text(proc_root, "irq/24/smp_affinity_list"), "1");
	CHECK(nb_knob_write(&eth1, "irq_affinity", "rx:0", &err) == -ENOENT);
	CHECK(nb_knob_unsupported(err.code));

	/* A board's patterns alone pick the IRQs: the misc vectors are no longer the NIC's. */
	{
		struct nb_knob_target board = { .paths = &fx, .iface = "eth0", .irq_names = "rx:eth0-rx-* tx:*-tx-0" };
		struct nb_knob_target none = { .paths = &fx, .iface = "eth0", .irq_names = "rx:vrx200_rx" };

		CHECK(nb_knob_apply(&board, "irq_affinity", "rx:0,tx:1", value, sizeof(value), &err) == 0);
		CHECK_STR(value, "rx:0,tx:1");
		CHECK(nb_knob_apply(&board, "irq_affinity", "0", value, sizeof(value), &err) == 0);
		CHECK_STR(value, "0");
		CHECK_STR(file_text(proc_root, "irq/16/smp_affinity_list"), "0-1");
		CHECK(nb_knob_write(&board, "irq_affinity", "16=1", &err) == -EPERM);
		CHECK(nb_knob_read(&none, "irq_affinity", value, sizeof(value), &err) == -ENOENT);
		CHECK_MSG(strstr(err.msg, "irq_names \"rx:vrx200_rx\"") != NULL, "%s", err.msg);
	}
	CHECK(nb_knob_apply(&eth0, "irq_affinity", "16=0 24=0-1 25=0 26=0", value, sizeof(value), &err) == 0);

	/* Another interface's IRQ is refused and left alone. */
	CHECK(nb_knob_write(&eth0, "irq_affinity", "16=1 27=1", &err) == -EPERM);
	CHECK_MSG(strstr(err.msg, "IRQ 27 does not belong to eth0") != NULL, "%s", err.msg);
	CHECK_STR(file_text(proc_root, "irq/27/smp_affinity_list"), "0-1");

	CHECK(nb_knob_read(&eth1, "irq_affinity", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "0-1");

	CHECK(nb_knob_read(&lo, "irq_affinity", value, sizeof(value), &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, "lo has no IRQs in /proc/interrupts") != NULL, "%s", err.msg);
	CHECK(nb_knob_write(&lo, "irq_affinity", "0", &err) == -ENOENT);

	/* An IRQ listed in /proc/interrupts whose /proc/irq entry is gone. */
	snprintf(path, sizeof(path), "%s/irq/26/smp_affinity_list", proc_root);
	CHECK(unlink(path) == 0);
	CHECK(nb_knob_read(&eth0, "irq_affinity", value, sizeof(value), &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, "IRQ 26") != NULL, "%s", err.msg);
}

/* The scripted kernel: one coalescing state and the errors to answer with. */
struct fake_nic {
	struct ethtool_coalesce ec;
	int get_ret, set_ret;
	int gets, sets;
	char last_iface[16];
};

static int fake_get(void *ctx, const char *iface, struct ethtool_coalesce *ec)
{
	struct fake_nic *nic = ctx;

	nic->gets++;
	snprintf(nic->last_iface, sizeof(nic->last_iface), "%s", iface);
	if (nic->get_ret)
		return nic->get_ret;
	*ec = nic->ec;
	return 0;
}

static int fake_set(void *ctx, const char *iface, const struct ethtool_coalesce *ec)
{
	struct fake_nic *nic = ctx;

	nic->sets++;
	snprintf(nic->last_iface, sizeof(nic->last_iface), "%s", iface);
	if (nic->set_ret)
		return nic->set_ret;
	nic->ec = *ec;
	return 0;
}

static void test_coalesce_rows(void)
{
	struct fake_nic nic = { .ec = { .rx_coalesce_usecs = 8, .rx_max_coalesced_frames = 1,
					.tx_coalesce_usecs = 7 } };
	struct nb_coalesce_ops ops = { .get = fake_get, .set = fake_set, .ctx = &nic };
	struct nb_knob_target eth0 = { .paths = &fx, .iface = "eth0" };
	char value[NB_KNOB_VALUE_MAX];
	struct nb_err err;

	nb_coalesce_set_ops(&ops);
	CHECK(nb_knob_read(&eth0, "rx-usecs", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "8");
	CHECK_STR(nic.last_iface, "eth0");
	/* Changing one field keeps the others: get, change, set. */
	CHECK(nb_knob_apply(&eth0, "rx-usecs", "50", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "50");
	CHECK(nic.ec.rx_coalesce_usecs == 50 && nic.ec.tx_coalesce_usecs == 7 && nic.ec.rx_max_coalesced_frames == 1);
	CHECK(nb_knob_apply(&eth0, "adaptive-rx", "1", value, sizeof(value), &err) == 0);
	CHECK(nic.ec.use_adaptive_rx_coalesce == 1 && nic.ec.use_adaptive_tx_coalesce == 0);
	CHECK(nb_knob_apply(&eth0, "tx-frames", "4294967295", value, sizeof(value), &err) == 0);
	CHECK_STR(value, "4294967295");

	/* veth, lo, ravb: the get already answers EOPNOTSUPP; nothing is set. */
	nic.get_ret = -EOPNOTSUPP;
	nic.sets = 0;
	CHECK(nb_knob_read(&eth0, "tx-usecs", value, sizeof(value), &err) == -EOPNOTSUPP);
	CHECK(nb_knob_unsupported(err.code));
	CHECK_MSG(strstr(err.msg, "no hardware interrupt coalescing") != NULL, "%s", err.msg);
	CHECK(nb_knob_write(&eth0, "tx-usecs", "10", &err) == -EOPNOTSUPP);
	CHECK(nic.sets == 0);

	/* A driver that reads but refuses a value. */
	nic.get_ret = 0;
	nic.set_ret = -EINVAL;
	CHECK(nb_knob_write(&eth0, "rx-frames", "1000", &err) == -EINVAL);
	CHECK(!nb_knob_unsupported(err.code));
	CHECK_MSG(strstr(err.msg, "set rx-frames=1000 on eth0") && strstr(err.msg, "refuses"), "%s", err.msg);
	CHECK(nic.ec.rx_max_coalesced_frames == 1);

	/* Range checks happen before the kernel is asked. */
	nic.set_ret = 0;
	nic.sets = 0;
	CHECK(nb_knob_write(&eth0, "adaptive-tx", "5", &err) == -ERANGE);
	CHECK(nic.sets == 0);
	nb_coalesce_set_ops(NULL);
}

/* The report's type for each value: numbers for the numeric knobs, text for lists and mixes. */
static void test_value_number(void)
{
	static const struct {
		const char *knob, *value;
		bool number;
		unsigned long long want;
	} cases[] = {
		{ "threaded", "1", true, 1 },
		{ "gro_flush_timeout", "20000", true, 20000 },
		{ "gro_flush_timeout@napi282", "7777", true, 7777 },
		{ "napi_defer_hard_irqs@queue0", "2", true, 2 },
		{ "mtu", "1500", true, 1500 },
		{ "rx-usecs", "0", true, 0 },
		{ "gro_flush_timeout", "282=7777 283=0", false, 0 }, /* NAPIs that differ */
		{ "irq_affinity", "0", false, 0 },                   /* a CPU list, even of one CPU */
		{ "irq_affinity", "0-1", false, 0 },
		{ "threaded", "", false, 0 },
		{ "threaded", "-1", false, 0 },
		{ "gro_flush_timeout", "18446744073709551615", false, 0 }, /* past what JSON readers keep exactly */
		{ "warp_speed", "1", false, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long long num = 0;
		bool got = nb_knob_value_number(cases[i].knob, cases[i].value, &num);

		CHECK_MSG(got == cases[i].number && (!got || num == cases[i].want), "%s=%s", cases[i].knob,
			  cases[i].value);
	}
}

static void test_value_label(void)
{
	static const struct { const char *knob, *value, *want; } cases[] = {
		{ "irq_affinity", "rx:0,tx:1", "rx0-tx1" }, { "irq_affinity", "tx:1,rx:0-1", "rx0-1-tx1" },
		{ "irq_affinity", "rx:0,2,misc:1", "rx0,2-misc1" }, { "irq_affinity", "0-1", "0-1" },
		{ "irq_affinity", "24=0 25=1", "24=0 25=1" }, { "threaded", "1", "1" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(nb_knob_value_label(cases[i].knob, cases[i].value, buf, sizeof(buf)) == 0);
		CHECK_STR(buf, cases[i].want);
	}
	CHECK(nb_knob_value_label("irq_affinity", "rx:0,tx:1", buf, 4) == -ENAMETOOLONG);
}

/* What a row says of its knob, asked by name: the value kind that picks a sweep's separator,
 * the knob set on both ends and the one restored first. */
static void test_row_properties(void)
{
	CHECK(nb_knob_value_kind("irq_affinity") == NB_KNOB_CPU_LIST);
	CHECK(nb_knob_value_kind("threaded") == NB_KNOB_INTEGER);
	CHECK(nb_knob_value_kind("gro_flush_timeout@napi282") == NB_KNOB_INTEGER);
	CHECK(nb_knob_value_kind("no_such_knob") == NB_KNOB_INTEGER && nb_knob_value_kind(NULL) == NB_KNOB_INTEGER);
	CHECK(nb_knob_has("mtu", NB_KNOB_BOTH_ENDS) && nb_knob_has("mtu", NB_KNOB_RESTORE_FIRST));
	CHECK(!nb_knob_has("threaded", NB_KNOB_BOTH_ENDS) && !nb_knob_has("rx-usecs", NB_KNOB_RESTORE_FIRST));
	CHECK(!nb_knob_has("no_such_knob", NB_KNOB_BOTH_ENDS) && !nb_knob_has(NULL, NB_KNOB_RESTORE_FIRST));
	/* one knob at most is set on the peer: the runner sends the peer one value per point */
	{
		int both = 0;

		for (int i = 0; i < nb_knob_count(); i++)
			both += nb_knob_has(nb_knob_name(i), NB_KNOB_BOTH_ENDS);
		CHECK_MSG(both == 1, "%d knobs set on both ends", both);
	}
}

int main(void)
{
	test_value_label();
	test_row_properties();
	test_table();
	test_value_number();
	test_validate();
	if (setup_tree()) {
		fprintf(stderr, "cannot copy the fixture tree\n");
		return 1;
	}
	test_sysfs_rows();
	test_irq_affinity();
	test_coalesce_rows();
	teardown_tree();
	return nb_test_done("knobs");
}
