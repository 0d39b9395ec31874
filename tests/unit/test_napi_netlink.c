// SPDX-License-Identifier: MIT
/* The NAPI knobs on scripted netdev-netlink answers: the 6.1 path (no family: sysfs, and
 * irq_suspend_timeout unsupported), the 6.12 path (napi-get but no napi-set: sysfs, NAPIs
 * listed), the 6.13+ path (per NAPI, journal restores per NAPI and never through sysfs),
 * plus the attribute parsers and the qstats delta. */
#include <errno.h>
#include <limits.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <stdlib.h>
#include <unistd.h>

#include "knobs/journal.h"
#include "napi_knobs.h"
#include "nic/netdev_nl.h"
#include "nic/qstats.h"
#include "nb_test.h"

static char tmp_root[128], proc_root[160], sys_root[160];
static struct nb_paths fx;
static struct nb_knob_target eth0 = { .paths = &fx, .iface = "eth0" };

/* ---- a scripted kernel ---- */

struct kernel {
	struct nb_netdev_caps caps;
	int n;
	struct nb_napi napi[4];
	int nq;
	struct nb_netdev_queue q[4];
	int nqs;
	struct nb_qstats qs[4];
	int sets;          /* napi-set calls */
	bool no_busy_poll; /* threaded=2 refused as 6.18 does (ERANGE) */
};

static struct kernel k;

static int k_probe(void *ctx, struct nb_netdev_caps *caps, struct nb_err *err)
{
	(void)ctx; (void)err;
	*caps = k.caps;
	return 0;
}

static int k_napi_dump(void *ctx, uint32_t ifindex, struct nb_napi *out, int max, struct nb_err *err)
{
	(void)ctx; (void)err;
	if (ifindex != 2)
		return 0;
	for (int i = 0; i < k.n && i < max; i++)
		out[i] = k.napi[i];
	return k.n;
}

static int k_napi_set(void *ctx, const struct nb_napi_set *req, struct nb_err *err)
{
	(void)ctx;
	k.sets++;
	if (!k.caps.napi_set)
		return nb_err_set(err, -EOPNOTSUPP, "napi-set: Operation not supported");
	if (k.no_busy_poll && req->set_threaded && req->threaded > 1)
		return nb_err_set(err, -ERANGE, "napi-set on NAPI %u: Numerical result out of range (kernel: integer "
				  "out of range)", req->id);
	for (int i = 0; i < k.n; i++) {
		if (k.napi[i].id != req->id)
			continue;
		if (req->set_gro) k.napi[i].gro_flush_timeout = req->gro_flush_timeout;
		if (req->set_defer) k.napi[i].defer_hard_irqs = req->defer_hard_irqs;
		if (req->set_suspend) k.napi[i].irq_suspend_timeout = req->irq_suspend_timeout;
		if (req->set_threaded) k.napi[i].threaded = req->threaded;
		return 0;
	}
	return nb_err_set(err, -ENOENT, "napi-set on NAPI %u: No such file or directory", req->id);
}

static int k_queue_dump(void *ctx, uint32_t ifindex, struct nb_netdev_queue *out, int max, struct nb_err *err)
{
	(void)ctx; (void)err; (void)ifindex;
	for (int i = 0; i < k.nq && i < max; i++)
		out[i] = k.q[i];
	return k.nq;
}

static int k_qstats_dump(void *ctx, uint32_t ifindex, struct nb_qstats *out, int max, struct nb_err *err)
{
	(void)ctx; (void)ifindex;
	if (k.nqs == 0)
		return nb_err_set(err, -EOPNOTSUPP, "qstats-get: Operation not supported");
	for (int i = 0; i < k.nqs && i < max; i++)
		out[i] = k.qs[i];
	return k.nqs;
}

static const struct nb_netdev_ops scripted = {
	.probe = k_probe, .napi_dump = k_napi_dump, .napi_set = k_napi_set,
	.queue_dump = k_queue_dump, .qstats_dump = k_qstats_dump,
};

/* NAPI 513 on IRQ 24, threaded with pid 4242; NAPI 514 beside it. 6.12 lists no values. */
static void kernel_as(int version)
{
	memset(&k, 0, sizeof(k));
	if (version >= 612) {
		k.caps = (struct nb_netdev_caps){ .family = true, .napi_get = true, .queue_get = true, .qstats_get = true };
		k.n = 2;
		k.napi[0] = (struct nb_napi){ .id = 513, .ifindex = 2, .has_irq = true, .irq = 24, .has_pid = true,
					      .pid = 4242 };
		k.napi[1] = (struct nb_napi){ .id = 514, .ifindex = 2 };
		k.nq = 2;
		k.q[0] = (struct nb_netdev_queue){ .id = 0, .type = NB_NETDEV_QUEUE_TYPE_RX, .has_napi = true, .napi_id = 513 };
		k.q[1] = (struct nb_netdev_queue){ .id = 1, .type = NB_NETDEV_QUEUE_TYPE_RX, .has_napi = true, .napi_id = 514 };
		snprintf(k.caps.why, sizeof(k.caps.why), "the netdev family has no napi-set (Linux 6.13+)");
	} else {
		snprintf(k.caps.why, sizeof(k.caps.why), "no netdev generic-netlink family (Linux 6.8+)");
	}
	if (version >= 618) {
		k.caps.napi_set = true;
		k.caps.why[0] = '\0';
		for (int i = 0; i < 2; i++) {
			struct nb_napi *n = &k.napi[i];

			n->has_defer = n->has_gro = n->has_suspend = n->has_threaded = true;
			n->threaded = 1;
		}
		k.napi[0].gro_flush_timeout = 7777;
		k.napi[0].defer_hard_irqs = 2;
		k.napi[1].gro_flush_timeout = 20000;
		k.napi[1].defer_hard_irqs = 1;
	}
	nb_netdev_set_ops(&scripted);
}

static const char *sysfs(const char *attr)
{
	static char buf[64];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/net/eth0/%s", sys_root, attr);
	if (nb_read_file(path, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "<missing>");
	return buf;
}

static int setup(void)
{
	if (nb_test_tree_copy("netlink/tree", tmp_root, sizeof(tmp_root)) < 0)
		return -1;
	snprintf(proc_root, sizeof(proc_root), "%s/proc", tmp_root);
	snprintf(sys_root, sizeof(sys_root), "%s/sys", tmp_root);
	fx = (struct nb_paths){ .proc = proc_root, .sys = sys_root };
	return 0;
}

/* ---- 6.1: no netdev family ---- */

static void test_61(void)
{
	char v[NB_KNOB_ORIGINAL_MAX], jpath[PATH_MAX];
	enum nb_knob_via via = NB_VIA_ANY;
	struct nb_napi_table tab;
	struct nb_qstats_snap qs;
	struct nb_journal *j;
	struct nb_err err = { 0 };
	FILE *f;

	kernel_as(601);
	CHECK(nb_knob_read_via(&eth0, "gro_flush_timeout", true, v, sizeof(v), &via, &err) == 0);
	CHECK_STR(v, "20000");
	CHECK(via == NB_VIA_SYSFS);
	CHECK(nb_knob_write_via(&eth0, "napi_defer_hard_irqs", "4", NB_VIA_ANY, &via, &err) == 0);
	CHECK(via == NB_VIA_SYSFS);
	CHECK_STR(sysfs("napi_defer_hard_irqs"), "4");
	CHECK(nb_knob_read(&eth0, "irq_suspend_timeout", v, sizeof(v), &err) == -EOPNOTSUPP);
	CHECK_MSG(strstr(err.msg, "no netdev generic-netlink family"), "why: %s", err.msg);
	CHECK(nb_knob_write(&eth0, "gro_flush_timeout@napi513", "5", &err) == -EOPNOTSUPP);
	CHECK_MSG(strstr(err.msg, "only be set with napi-set"), "why: %s", err.msg);
	CHECK(k.sets == 0);
	CHECK(nb_napi_table_read(&eth0, &tab, &err) == 0);
	CHECK(!tab.listed && strstr(tab.why, "no netdev"));
	nb_qstats_snapshot(&eth0, &qs);
	CHECK(!qs.present && strstr(qs.why, "no netdev"));
	/* the journal keeps the sysfs path, and restores through it */
	snprintf(jpath, sizeof(jpath), "%s/j61", tmp_root);
	CHECK(nb_journal_create(jpath, &eth0, &j, &err) == 0);
	CHECK(nb_journal_remember_current(j, "gro_flush_timeout", &err) == 0);
	CHECK(nb_knob_write(&eth0, "gro_flush_timeout", "0", &err) == 0);
	f = fopen(jpath, "r");
	CHECK(f && fgets(v, sizeof(v), f) && fgets(v, sizeof(v), f));
	if (f)
		fclose(f);
	CHECK_STR(v, "gro_flush_timeout\t20000\tvia=sysfs\n");
	CHECK(nb_journal_finish(j, &err) == 0);
	CHECK_STR(sysfs("gro_flush_timeout"), "20000");
}

/* ---- 6.12: napi-get and qstats, no napi-set ---- */

static void test_612(void)
{
	char v[NB_KNOB_ORIGINAL_MAX];
	enum nb_knob_via via = NB_VIA_ANY;
	struct nb_napi_table tab;
	struct nb_err err = { 0 };

	kernel_as(612);
	CHECK(nb_knob_read_via(&eth0, "gro_flush_timeout", false, v, sizeof(v), &via, &err) == 0);
	CHECK_STR(v, "20000");
	CHECK(via == NB_VIA_SYSFS);
	CHECK(nb_knob_write_via(&eth0, "threaded", "1", NB_VIA_ANY, &via, &err) == 0);
	CHECK(via == NB_VIA_SYSFS && k.sets == 0);
	CHECK_STR(sysfs("threaded"), "1");
	CHECK(nb_knob_read(&eth0, "irq_suspend_timeout", v, sizeof(v), &err) == -EOPNOTSUPP);
	CHECK_MSG(strstr(err.msg, "no napi-set (Linux 6.13+)"), "why: %s", err.msg);
	CHECK(nb_napi_table_read(&eth0, &tab, &err) == 0);
	CHECK(tab.listed && !tab.per_napi_set && tab.n == 2);
	CHECK(tab.napi[0].n.id == 513 && tab.napi[0].n.irq == 24);
	CHECK_STR(tab.napi[0].irq_cpus, "0-1");
	CHECK(tab.napi[0].thread_cpu == 1);  /* field 39 of the fixture's /proc/4242/stat */
	CHECK(tab.napi[0].nrx == 1 && tab.napi[0].rx_queues[0] == 0);
	CHECK(tab.napi[1].nrx == 1 && tab.napi[1].rx_queues[0] == 1);
	CHECK(!tab.napi[0].n.has_gro);  /* 6.12's napi-get gives no values: absent, not 0 */
}

/* ---- 6.13+: per NAPI ---- */

static void test_618(void)
{
	char v[NB_KNOB_ORIGINAL_MAX], jpath[PATH_MAX];
	enum nb_knob_via via = NB_VIA_ANY;
	struct nb_journal *j;
	struct nb_err err = { 0 };

	kernel_as(618);
	CHECK(nb_knob_read_via(&eth0, "gro_flush_timeout", false, v, sizeof(v), &via, &err) == 0);
	CHECK_STR(v, "513=7777 514=20000");
	CHECK(via == NB_VIA_NAPI);
	CHECK(nb_knob_read(&eth0, "gro_flush_timeout@napi514", v, sizeof(v), &err) == 0);
	CHECK_STR(v, "20000");
	CHECK(nb_knob_read(&eth0, "napi_defer_hard_irqs@queue0", v, sizeof(v), &err) == 0);
	CHECK_STR(v, "2");
	CHECK(nb_knob_read(&eth0, "gro_flush_timeout@napi999", v, sizeof(v), &err) == -EINVAL);
	CHECK(nb_knob_read(&eth0, "gro_flush_timeout@queue7", v, sizeof(v), &err) == -EINVAL);
	CHECK(nb_knob_find("mtu@napi513") == -1 && nb_knob_find("threaded@napi") == -1);
	CHECK(nb_knob_validate("gro_flush_timeout", "513=1 514=2", &err) == 0);
	CHECK(nb_knob_validate("gro_flush_timeout", "513=1 ", &err) == -EINVAL);
	CHECK(nb_knob_validate("gro_flush_timeout@napi513", "513=1", &err) != 0);

	/* a run: originals per NAPI into the journal, a sweep value on every NAPI, restore */
	snprintf(jpath, sizeof(jpath), "%s/j618", tmp_root);
	CHECK(nb_journal_create(jpath, &eth0, &j, &err) == 0);
	CHECK(nb_journal_remember_current(j, "gro_flush_timeout", &err) == 0);
	CHECK(nb_journal_remember_current(j, "irq_suspend_timeout", &err) == 0);
	CHECK(nb_knob_apply_via(&eth0, "gro_flush_timeout", "50000", v, sizeof(v), &via, &err) == 0);
	CHECK_STR(v, "50000");
	CHECK(via == NB_VIA_NAPI);
	CHECK(nb_knob_write(&eth0, "irq_suspend_timeout", "2000000", &err) == 0);
	CHECK(k.napi[0].irq_suspend_timeout == 2000000 && k.napi[1].irq_suspend_timeout == 2000000);
	CHECK(nb_journal_finish(j, &err) == 0);
	CHECK(k.napi[0].gro_flush_timeout == 7777 && k.napi[1].gro_flush_timeout == 20000);
	CHECK(k.napi[0].irq_suspend_timeout == 0 && k.napi[1].irq_suspend_timeout == 0);
	CHECK_STR(sysfs("gro_flush_timeout"), "20000");  /* never written */

	/* a journal left by a killed run, restored on a kernel that lost napi-set: refused,
	 * sysfs untouched, the journal kept for a later try */
	CHECK(nb_journal_create(jpath, &eth0, &j, &err) == 0);
	CHECK(nb_journal_remember_current(j, "gro_flush_timeout", &err) == 0);
	CHECK(nb_knob_write(&eth0, "gro_flush_timeout", "1", &err) == 0);
	nb_journal_free(j);
	kernel_as(612);
	CHECK(nb_journal_restore_file(jpath, &fx, &err) == -EOPNOTSUPP);
	CHECK_MSG(strstr(err.msg, "sysfs would overwrite every NAPI"), "why: %s", err.msg);
	CHECK_STR(sysfs("gro_flush_timeout"), "20000");
	CHECK(access(jpath, F_OK) == 0);
	kernel_as(618);
	k.napi[0].gro_flush_timeout = k.napi[1].gro_flush_timeout = 1;
	CHECK(nb_journal_restore_file(jpath, &fx, &err) == 0);
	CHECK(k.napi[0].gro_flush_timeout == 7777 && k.napi[1].gro_flush_timeout == 20000);
	CHECK(access(jpath, F_OK) != 0);

	/* a NAPI map may only name this interface's NAPIs */
	CHECK(nb_knob_write(&eth0, "napi_defer_hard_irqs", "513=3 600=1", &err) == -EPERM);

	/* threaded busy-poll (2): taken where the kernel has it, "unsupported" with the reason
	 * where it refuses the value as 6.18 does; a busy-poll original goes back as 2 */
	CHECK(nb_knob_validate("threaded", "2", &err) == 0 && nb_knob_validate("threaded", "3", &err) == -ERANGE);
	CHECK(nb_knob_apply(&eth0, "threaded", "2", v, sizeof(v), &err) == 0);
	CHECK_STR(v, "2");
	CHECK(nb_knob_write(&eth0, "threaded@napi514", "0", &err) == 0);
	CHECK(nb_journal_create(jpath, &eth0, &j, &err) == 0);
	CHECK(nb_journal_remember_current(j, "threaded", &err) == 0);
	CHECK(nb_knob_write(&eth0, "threaded", "1", &err) == 0);
	CHECK(nb_journal_finish(j, &err) == 0);
	CHECK(k.napi[0].threaded == 2 && k.napi[1].threaded == 0);
	k.no_busy_poll = true;
	CHECK(nb_knob_write(&eth0, "threaded", "2", &err) == -EOPNOTSUPP);
	CHECK(nb_knob_unsupported(err.code));
	CHECK_MSG(strstr(err.msg, "integer out of range") && strstr(err.msg, "needs Linux 6.19+"), "why: %s", err.msg);
	CHECK(nb_knob_write(&eth0, "threaded", "1", &err) == 0);
}

/* ---- parsers and the qstats delta ---- */

/* The attributes of a message built with libnl, as the parsers get them from a reply. */
static const void *payload(struct nl_msg *msg, int *len)
{
	*len = nlmsg_datalen(nlmsg_hdr(msg));
	return nlmsg_data(nlmsg_hdr(msg));
}

static void test_parse(void)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nb_napi n;
	struct nb_qstats q;
	const void *p;
	int len;

	CHECK(msg && nlmsg_put(msg, 0, 0, 0, 0, 0));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_NAPI_ID, 282) && !nla_put_u32(msg, NB_NETDEV_A_NAPI_IFINDEX, 2));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 7777));          /* uint in 4 bytes */
	CHECK(!nla_put_u64(msg, NB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, 5000000000ull)); /* and in 8 */
	CHECK(!nla_put_u32(msg, 99, 1));  /* a newer kernel's attribute */
	p = payload(msg, &len);
	CHECK(nb_netdev_parse_napi(p, len, &n) == 0);
	CHECK(n.id == 282 && n.gro_flush_timeout == 7777 && n.irq_suspend_timeout == 5000000000ull);
	CHECK(n.has_gro && n.has_suspend && !n.has_defer && !n.has_irq && !n.has_pid);
	/* cut inside the last attribute: the parser stops at the whole ones */
	CHECK(nb_netdev_parse_napi(p, len - 2, &n) == 0 && n.id == 282);
	CHECK(nb_netdev_parse_napi(p, 3, &n) == -EINVAL);  /* not even one attribute header */
	nlmsg_free(msg);

	msg = nlmsg_alloc();
	CHECK(msg && nlmsg_put(msg, 0, 0, 0, 0, 0));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_QSTATS_QUEUE_TYPE, NB_NETDEV_QUEUE_TYPE_TX));
	CHECK(!nla_put_u32(msg, NB_NETDEV_A_QSTATS_QUEUE_ID, 3));
	CHECK(!nla_put_u64(msg, NB_NETDEV_A_QSTATS_FIRST_COUNTER + 25, 12));  /* tx-stop */
	p = payload(msg, &len);
	CHECK(nb_netdev_parse_qstats(p, len, &q) == 0);
	CHECK(q.id == 3 && q.type == NB_NETDEV_QUEUE_TYPE_TX && q.present == 1u << 25 && q.v[25] == 12);
	CHECK_STR(nb_qstat_names[25], "tx_stop");
	CHECK_STR(nb_qstat_names[4], "rx_alloc_fail");
	nlmsg_free(msg);

	msg = nlmsg_alloc();
	CHECK(msg && nlmsg_put(msg, 0, 0, 0, 0, 0));
	CHECK(!nla_put_u16(msg, NB_NETDEV_A_NAPI_ID, 1));  /* too short: malformed */
	p = payload(msg, &len);
	CHECK(nb_netdev_parse_napi(p, len, &n) == -EINVAL);
	nlmsg_free(msg);
}

static void test_qstats(void)
{
	static struct nb_qstats_snap a, b;
	static struct nb_qstats_delta d;
	struct nb_metric_set m = { 0 };
	double v;

	kernel_as(612);
	k.nqs = 2;
	k.qs[0] = (struct nb_qstats){ .type = 0, .id = 0, .present = 0x13, .v = { 100, 9000, 0, 0, 1 } };
	k.qs[1] = (struct nb_qstats){ .type = 1, .id = 0, .present = 1u << 25, .v = { [25] = 5 } };
	nb_qstats_snapshot(&eth0, &a);
	CHECK(a.present && a.n == 2);
	k.qs[0].v[0] = 250;
	k.qs[0].v[1] = 8000;  /* went backwards: the queue was reset, so absent */
	k.qs[0].v[4] = 3;
	k.qs[1].v[25] = 9;
	nb_qstats_snapshot(&eth0, &b);
	nb_qstats_delta(&a, &b, &d);
	CHECK(d.present && d.n == 2);
	CHECK(d.q[0].v[0] == 150 && !(d.q[0].present & 2) && d.q[0].v[4] == 2);
	CHECK(d.total.v[25] == 4);
	nb_qstats_metrics(&d, &m);
	CHECK(nb_metrics_get(&m, "qstats_rx_packets", &v) && v == 150);
	CHECK(nb_metrics_get(&m, "qstats_tx_stop", &v) && v == 4);
	CHECK(!nb_metrics_get(&m, "qstats_rx_bytes", &v));
	CHECK(!nb_metrics_get(&m, "qstats_rx_hw_drops", &v));  /* never given: absent, not 0 */
	k.nqs = 0;
	nb_qstats_snapshot(&eth0, &b);
	CHECK(!b.present && strstr(b.why, "gives no per-queue statistics"));
	nb_qstats_delta(&a, &b, &d);
	CHECK(!d.present && d.why[0]);
}

int main(void)
{
	if (setup() < 0) {
		fprintf(stderr, "cannot copy the fixture tree\n");
		return 1;
	}
	test_61();
	test_612();
	test_618();
	test_parse();
	test_qstats();
	nb_netdev_set_ops(NULL);
	nb_test_tree_remove(tmp_root);
	return nb_test_done("napi_netlink");
}
