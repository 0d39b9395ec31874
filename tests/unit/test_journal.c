// SPDX-License-Identifier: MIT
/* Unit tests for the restore journal on a copied fixture tree: create, remember, restore,
 * leftover journals, hand-written and damaged files, and failures that keep the file. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs/ethtool_coalesce.h"
#include "knobs/journal.h"
#include "napi_knobs.h"
#include "nb_test.h"

static char tmp_root[128], proc_root[160], sys_root[160];
static struct nb_paths fx;

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

static const char *read_text(const char *path)
{
	static char buf[1024];

	if (nb_read_file(path, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "<missing>");
	return buf;
}

static const char *knob_value(const char *iface, const char *knob)
{
	static char value[sizeof(((struct nb_err *)0)->msg) + 2];
	struct nb_knob_target t = { .paths = &fx, .iface = iface };
	struct nb_err err;

	if (nb_knob_read(&t, knob, value, NB_KNOB_VALUE_MAX, &err))
		snprintf(value, sizeof(value), "<%s>", err.msg);
	return value;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		CHECK_MSG(0, "cannot write %s", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void test_default_path(void)
{
	char buf[64], tiny[8];

	CHECK(nb_journal_default_path("eth0", buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "/run/nicbench/eth0.journal");
	CHECK(nb_journal_default_path("eth0", tiny, sizeof(tiny)) == -ENAMETOOLONG);
}

/* The run's life cycle: journal before change, change, leftover refused, finish restores. */
static void test_create_remember_finish(void)
{
	static const struct { const char *knob, *set; } changes[] = {
		{ "threaded", "1" }, { "gro_flush_timeout", "12345" }, { "napi_defer_hard_irqs", "3" },
		{ "mtu", "9000" }, { "irq_affinity", "1" },
	};
	struct nb_knob_target eth0 = { .paths = &fx, .iface = "eth0" };
	char path[PATH_MAX], readback[NB_KNOB_VALUE_MAX];
	struct nb_journal *j = NULL, *again = NULL;
	struct nb_err err;

	/* Parent directories are created, as /run/nicbench is after a boot. */
	snprintf(path, sizeof(path), "%s/run/nicbench/eth0.journal", tmp_root);
	CHECK(nb_journal_create(path, &eth0, &j, &err) == 0);
	CHECK(j != NULL);
	if (!j)
		return;
	CHECK_STR(read_text(path), "nicbench-journal/1 iface=eth0");
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		char original[NB_KNOB_VALUE_MAX];

		CHECK(nb_knob_read(&eth0, changes[i].knob, original, sizeof(original), &err) == 0);
		CHECK(nb_journal_remember(j, changes[i].knob, original, &err) == 0);
		CHECK(nb_knob_apply(&eth0, changes[i].knob, changes[i].set, readback, sizeof(readback), &err) == 0);
	}
	/* A second change of a knob must not overwrite its true original. */
	CHECK(nb_journal_remember(j, "threaded", "1", &err) == 0);
	CHECK(nb_journal_remember(j, "nosuch", "1", &err) == -EINVAL);
	CHECK(nb_journal_remember(j, "rx-usecs", "15\n00", &err) == -EINVAL);
	CHECK_STR(read_text(path), "nicbench-journal/1 iface=eth0\nthreaded\t0\ngro_flush_timeout\t20000\n"
		  "napi_defer_hard_irqs\t1\nmtu\t1500\nirq_affinity\t0-1");
	CHECK(nb_journal_count(j) == 5);

	CHECK(nb_journal_create(path, &eth0, &again, &err) == -EEXIST);
	CHECK(again == NULL);
	CHECK_MSG(strstr(err.msg, "nicbench knobs restore --journal") != NULL, "%s", err.msg);

	CHECK(nb_journal_finish(j, &err) == 0);
	CHECK(access(path, F_OK) != 0);
	CHECK_STR(knob_value("eth0", "threaded"), "0");
	CHECK_STR(knob_value("eth0", "gro_flush_timeout"), "20000");
	CHECK_STR(knob_value("eth0", "napi_defer_hard_irqs"), "1");
	CHECK_STR(knob_value("eth0", "mtu"), "1500");
	CHECK_STR(knob_value("eth0", "irq_affinity"), "0-1");
	CHECK(nb_journal_finish(NULL, &err) == 0);

	/* Once finished, a new run may journal again. */
	CHECK(nb_journal_create(path, &eth0, &again, &err) == 0);
	nb_journal_free(again);
	CHECK(unlink(path) == 0);
	CHECK(nb_journal_create(path, &(struct nb_knob_target){ .paths = &fx, .iface = "a/b" }, &again, &err) == -EINVAL);
}

/* The default location names the simple command; only when /run is writable (root). */
static void test_leftover_default_path(void)
{
	struct nb_knob_target t = { .paths = &fx, .iface = "nbktest0" };
	char path[64];
	struct nb_journal *j = NULL, *again = NULL;
	struct nb_err err;

	nb_journal_default_path("nbktest0", path, sizeof(path));
	if (access("/run", W_OK) != 0 || access(path, F_OK) == 0)
		return;
	CHECK(nb_journal_create(path, &t, &j, &err) == 0);
	CHECK(nb_journal_create(path, &t, &again, &err) == -EEXIST);
	CHECK_MSG(strstr(err.msg, "run `nicbench knobs restore -i nbktest0`") != NULL, "%s", err.msg);
	nb_journal_free(j);
	unlink(path);
}

struct restore_case {
	const char *name;
	const char *journal;
	int want;
	const char *msg_part;      /* expected in the error message */
	int file_kept;
	const char *mtu, *threaded; /* eth0 values afterwards */
};

static const struct restore_case restore_cases[] = {
	{ "hand-written", "nicbench-journal/1 iface=eth0\nthreaded\t0\ngro_flush_timeout\t777\nmtu\t1400\n",
	  0, NULL, 0, "1400", "0" },
	/* Written before the change, so a torn last line is a knob never touched. */
	{ "torn last line", "nicbench-journal/1 iface=eth0\nmtu\t1280\nthreaded\t0", 0, NULL, 0, "1280", "1" },
	{ "first line wins", "nicbench-journal/1 iface=eth0\nmtu\t1300\nmtu\t9000\n", 0, NULL, 0, "1300", "1" },
	{ "header only", "nicbench-journal/1 iface=eth0\n", 0, NULL, 0, "9000", "1" },
	{ "not a journal", "hello\nmtu\t1500\n", -EINVAL, "not a nicbench journal", 1, "9000", "1" },
	{ "empty", "", -EINVAL, "empty", 1, "9000", "1" },
	{ "unknown knob", "nicbench-journal/1 iface=eth0\nspeed\t100\n", -EINVAL, "line 2: unknown knob 'speed'",
	  1, "9000", "1" },
	{ "no tab", "nicbench-journal/1 iface=eth0\nmtu 1500\n", -EINVAL, "line 2", 1, "9000", "1" },
	{ "bad iface", "nicbench-journal/1 iface=../x\nmtu\t1500\n", -EINVAL, "not a nicbench journal", 1, "9000", "1" },
	/* Every knob is tried; the file stays for a retry and the message says which failed. */
	{ "one fails", "nicbench-journal/1 iface=eth0\nthreaded\t7\nmtu\t1500\n", -ERANGE, "threaded", 1, "1500", "1" },
	{ "two fail", "nicbench-journal/1 iface=lo\nthreaded\t0\nirq_affinity\t0\nmtu\t1500\n", -ENOENT,
	  "2 knobs not restored (irq_affinity, threaded); first: set irq_affinity=0: lo has no IRQs", 1, "9000", "1" },
	{ "gone iface", "nicbench-journal/1 iface=eth9\nmtu\t1500\n", -ENODEV, "eth9", 1, "9000", "1" },
};

static void test_restore_file(void)
{
	char path[PATH_MAX], mtu_path[PATH_MAX], thr_path[PATH_MAX];
	struct nb_err err;

	snprintf(path, sizeof(path), "%s/left.journal", tmp_root);
	snprintf(mtu_path, sizeof(mtu_path), "%s/class/net/eth0/mtu", sys_root);
	snprintf(thr_path, sizeof(thr_path), "%s/class/net/eth0/threaded", sys_root);
	for (size_t i = 0; i < sizeof(restore_cases) / sizeof(restore_cases[0]); i++) {
		const struct restore_case *c = &restore_cases[i];
		int ret;

		nb_write_file(mtu_path, "9000");
		nb_write_file(thr_path, "1");
		write_text(path, c->journal);
		err = (struct nb_err){ 0 };
		ret = nb_journal_restore_file(path, &fx, &err);
		CHECK_MSG(ret == c->want, "%s: got %d, want %d (%s)", c->name, ret, c->want, err.msg);
		if (c->msg_part)
			CHECK_MSG(strstr(err.msg, c->msg_part) != NULL, "%s: message: %s", c->name, err.msg);
		CHECK_MSG((access(path, F_OK) == 0) == c->file_kept, "%s: file kept %d", c->name, !c->file_kept);
		CHECK_MSG(!strcmp(knob_value("eth0", "mtu"), c->mtu), "%s: mtu %s", c->name, knob_value("eth0", "mtu"));
		CHECK_MSG(!strcmp(knob_value("eth0", "threaded"), c->threaded), "%s: threaded %s", c->name,
			  knob_value("eth0", "threaded"));
		unlink(path);
	}
	CHECK(nb_journal_restore_file(path, &fx, &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, "no journal at") != NULL, "%s", err.msg);
}

/* A driver that rounds: the write succeeds but the read-back differs, and restore says so. */
static int rounding_get(void *ctx, const char *iface, struct ethtool_coalesce *ec)
{
	(void)iface;
	*ec = *(struct ethtool_coalesce *)ctx;
	return 0;
}

static int rounding_set(void *ctx, const char *iface, const struct ethtool_coalesce *ec)
{
	struct ethtool_coalesce *state = ctx;

	(void)iface;
	*state = *ec;
	state->rx_coalesce_usecs -= state->rx_coalesce_usecs % 16;
	return 0;
}

static void test_readback_mismatch(void)
{
	struct ethtool_coalesce state = { .rx_coalesce_usecs = 32 };
	struct nb_coalesce_ops ops = { .get = rounding_get, .set = rounding_set, .ctx = &state };
	char path[PATH_MAX];
	struct nb_journal *j;
	struct nb_err err;

	nb_coalesce_set_ops(&ops);
	snprintf(path, sizeof(path), "%s/round.journal", tmp_root);
	write_text(path, "nicbench-journal/1 iface=eth0\nrx-usecs\t50\n");
	CHECK(nb_journal_load(path, &fx, &j, &err) == 0);
	if (j) {
		const char *knob, *value;

		CHECK_STR(nb_journal_iface(j), "eth0");
		CHECK(nb_journal_entry(j, 0, &knob, &value) == 0);
		CHECK_STR(knob, "rx-usecs");
		CHECK_STR(value, "50");
		CHECK(nb_journal_entry(j, 1, &knob, &value) == -ERANGE);
		CHECK(nb_journal_remember(j, "mtu", "1500", &err) == -EBADF);
		CHECK(nb_journal_restore(j, &err) == -EIO);
		CHECK_MSG(strstr(err.msg, "restore rx-usecs=50 on eth0") && strstr(err.msg, "reports 48"), "%s", err.msg);
		CHECK(nb_journal_finish(j, &err) == -EIO);
		CHECK_MSG(strstr(err.msg, "kept") != NULL, "%s", err.msg);
	}
	CHECK(access(path, F_OK) == 0);
	unlink(path);
	nb_coalesce_set_ops(NULL);
}

/* What the other knobs looked like when the coalescing restore ran. */
struct order_probe {
	struct ethtool_coalesce ec;
	char mtu_then[16], threaded_then[16];
};

static int probe_get(void *ctx, const char *iface, struct ethtool_coalesce *ec)
{
	(void)iface;
	*ec = ((struct order_probe *)ctx)->ec;
	return 0;
}

static int probe_set(void *ctx, const char *iface, const struct ethtool_coalesce *ec)
{
	struct order_probe *probe = ctx;

	(void)iface;
	probe->ec = *ec;
	snprintf(probe->mtu_then, sizeof(probe->mtu_then), "%s", knob_value("eth0", "mtu"));
	snprintf(probe->threaded_then, sizeof(probe->threaded_then), "%s", knob_value("eth0", "threaded"));
	return 0;
}

/* mtu first (a driver may reset the device on an MTU change), then newest change first. */
static void test_restore_order(void)
{
	struct order_probe probe = { .ec = { .rx_coalesce_usecs = 99 } };
	struct nb_coalesce_ops ops = { .get = probe_get, .set = probe_set, .ctx = &probe };
	char path[PATH_MAX], mtu_path[PATH_MAX], thr_path[PATH_MAX];
	struct nb_err err;

	snprintf(path, sizeof(path), "%s/order.journal", tmp_root);
	snprintf(mtu_path, sizeof(mtu_path), "%s/class/net/eth0/mtu", sys_root);
	snprintf(thr_path, sizeof(thr_path), "%s/class/net/eth0/threaded", sys_root);
	nb_write_file(mtu_path, "9000");
	nb_write_file(thr_path, "1");
	write_text(path, "nicbench-journal/1 iface=eth0\nrx-usecs\t5\nthreaded\t0\nmtu\t1500\n");
	nb_coalesce_set_ops(&ops);
	CHECK(nb_journal_restore_file(path, &fx, &err) == 0);
	nb_coalesce_set_ops(NULL);
	CHECK(probe.ec.rx_coalesce_usecs == 5);
	CHECK_STR(probe.mtu_then, "1500");
	CHECK_STR(probe.threaded_then, "0");
}

/* A board's IRQ patterns go into the journal with its header, so a restore after a crash moves
 * back exactly the IRQs they pick (here eth0-rx-0 and eth0-tx-0, not the misc vectors). */
static void test_irq_names_kept(void)
{
	char path[PATH_MAX], irq24[PATH_MAX], irq25[PATH_MAX], irq26[PATH_MAX], before24[64], before25[64];
	struct nb_knob_target board = { .paths = &fx, .iface = "eth0", .irq_names = "rx:eth0-rx-* tx:eth0-tx-*" };
	struct nb_journal *j = NULL;
	struct nb_err err = { 0 };
	char readback[NB_KNOB_VALUE_MAX];
	FILE *f;
	char text[512] = "";

	snprintf(path, sizeof(path), "%s/irq.journal", tmp_root);
	snprintf(irq24, sizeof(irq24), "%s/irq/24/smp_affinity_list", proc_root);
	snprintf(irq25, sizeof(irq25), "%s/irq/25/smp_affinity_list", proc_root);
	snprintf(irq26, sizeof(irq26), "%s/irq/26/smp_affinity_list", proc_root);
	write_text(irq24, "0\n");
	write_text(irq25, "1\n");
	write_text(irq26, "0-1\n");
	snprintf(before24, sizeof(before24), "%s", read_text(irq24));
	snprintf(before25, sizeof(before25), "%s", read_text(irq25));
	CHECK(nb_journal_create(path, &board, &j, &err) == 0);
	CHECK_MSG(nb_journal_remember_current(j, "irq_affinity", &err) == 0, "%s", err.msg);
	CHECK(nb_knob_apply(&board, "irq_affinity", "rx:1,tx:0", readback, sizeof(readback), &err) == 0);
	CHECK_STR(readback, "rx:1,tx:0");
	nb_journal_free(j);  /* as if killed */
	f = fopen(path, "r");
	if (f) {
		size_t n = fread(text, 1, sizeof(text) - 1, f);

		text[n] = '\0';
		fclose(f);
	}
	CHECK_MSG(strstr(text, "@irq_names\trx:eth0-rx-* tx:eth0-tx-*\n") != NULL, "%s", text);
	CHECK_MSG(strstr(text, "irq_affinity\t24=0 25=1") != NULL, "%s", text);
	CHECK_MSG(nb_journal_restore_file(path, &fx, &err) == 0, "%s", err.msg);
	CHECK_STR(read_text(irq24), before24);
	CHECK_STR(read_text(irq25), before25);
	CHECK_STR(read_text(irq26), "0-1");
	CHECK(access(path, F_OK) != 0);
}

int main(void)
{
	test_default_path();
	if (setup_tree()) {
		fprintf(stderr, "cannot copy the fixture tree\n");
		return 1;
	}
	test_create_remember_finish();
	test_leftover_default_path();
	test_restore_file();
	test_readback_mismatch();
	test_restore_order();
	test_irq_names_kept();
	teardown_tree();
	return nb_test_done("journal");
}
