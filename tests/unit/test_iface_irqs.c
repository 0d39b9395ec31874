// SPDX-License-Identifier: MIT
/* Unit tests for iface_irqs: which /proc/interrupts lines belong to an interface. */
#include <errno.h>
#include <stdint.h>

#include "nic/iface_irqs.h"
#include "nic/irq_watch.h"
#include "nb_test.h"

static char *load_fixture(const char *rel)
{
	struct nb_paths p = { .proc = nb_test_fixture(rel), .sys = "/nonexistent" };
	char *text = NULL;
	struct nb_err err;

	/* nb_interrupts_read appends "/interrupts": point it at the fixture's directory. */
	if (nb_interrupts_read(&p, &text, &err))
		fprintf(stderr, "load %s: %s\n", rel, err.msg);
	return text;
}

struct irq_case {
	const char *fixture;   /* directory holding an "interrupts" file */
	const char *iface;
	const char *device;    /* parent device name, NULL for none */
	int found;             /* expected return */
	int irqs[8];
	int ncpus;
	uint64_t per_cpu[4];
};

static const struct irq_case cases[] = {
	/* This machine: virtio-net names vectors after the virtio device, so eth0 has none. */
	{ "knobs/live-debian12", "eth0", NULL, 0, { 0 }, 2, { 0, 0 } },
	{ "knobs/live-debian12", "virtio2", NULL, 3, { 37, 38, 39 }, 2, { 4196, 6847 } },
	{ "knobs/live-debian12", "ttyS0", NULL, 1, { 26 }, 2, { 0, 14 } },
	/* ravb multi-IRQ naming "<ndev>:chN:what"; eth10's IRQ is not eth1's. */
	{ "knobs/ravb-rcar", "eth0", NULL, 6, { 44, 45, 46, 47, 48, 49 }, 4, { 213015, 7, 0, 0 } },
	{ "knobs/ravb-rcar", "eth1", NULL, 0, { 0 }, 4, { 0, 0, 0, 0 } },
	{ "knobs/ravb-rcar", "eth10", NULL, 1, { 50 }, 4, { 0, 0, 0, 0 } },
	/* Per-queue "-rx-0", exact name, shared "a, eth0"; CPU1 offline (header CPU0 CPU2). */
	{ "knobs/tree/proc", "eth0", NULL, 4, { 16, 24, 25, 26 }, 3, { 411, 0, 607 } },
	{ "knobs/tree/proc", "eth1", NULL, 1, { 27 }, 3, { 1000, 0, 2000 } },
	{ "knobs/tree/proc", "eth10", NULL, 1, { 28 }, 3, { 7, 0, 8 } },
	/* A line without an action ends in its trigger type: "17" must not claim "17-fasteoi". */
	{ "knobs/tree/proc", "17", NULL, 0, { 0 }, 3, { 0, 0, 0 } },
	{ "knobs/tree/proc", "ehci_hcd", NULL, 1, { 16 }, 3, { 10, 0, 5 } },
	/* ravb since v6.9 names IRQs after the platform device (listing modelled on the R-Car E3
	 * one in upstream's fix for "eth%d:ch22:multi"); a second instance is not ours. */
	{ "knobs/ravb-612", "eth0", "e6800000.ethernet", 6, { 89, 90, 91, 92, 93, 94 }, 2, { 0, 42623 } },
	{ "knobs/ravb-612", "eth0", NULL, 0, { 0 }, 2, { 0, 0 } },
	{ "knobs/ravb-612", "eth1", "11c20000.ethernet", 1, { 96 }, 2, { 33, 44 } },
	/* virtio-net names its vectors after the virtio device: found through the device name. */
	{ "knobs/tree/proc", "eth3", "virtio2", 3, { 29, 31, 32 }, 3, { 8, 0, 10 } },
	{ "knobs/tree/proc", "eth2", "e6800000.ethernet", 2, { 60, 61 }, 3, { 120, 0, 140 } },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct irq_case *c = &cases[i];
		char *text = load_fixture(c->fixture);
		int irqs[8] = { 0 };
		uint64_t per_cpu[4];
		int ncpus = -1, n;
		struct nb_err err;

		CHECK(text != NULL);
		if (!text)
			continue;
		n = nb_iface_irqs_parse_dev(text, c->iface, c->device, irqs, 8, &err);
		CHECK_MSG(n == c->found, "case %zu (%s): found %d, want %d", i, c->iface, n, c->found);
		for (int k = 0; k < c->found && k < 8; k++)
			CHECK_MSG(irqs[k] == c->irqs[k], "case %zu irq[%d] = %d, want %d", i, k, irqs[k], c->irqs[k]);
		n = nb_iface_irq_counts_parse_dev(text, c->iface, c->device, per_cpu, 4, &ncpus, &err);
		CHECK_MSG(n == c->found, "case %zu counts: found %d", i, n);
		CHECK_MSG(ncpus == c->ncpus, "case %zu: ncpus %d, want %d", i, ncpus, c->ncpus);
		for (int k = 0; k < c->ncpus; k++)
			CHECK_MSG(per_cpu[k] == c->per_cpu[k], "case %zu cpu%d: %llu, want %llu", i, k,
				  (unsigned long long)per_cpu[k], (unsigned long long)c->per_cpu[k]);
		free(text);
	}
}

static void test_name_rules(void)
{
	static const struct { const char *action, *iface; int want; } rules[] = {
		{ "eth0", "eth0", 1 }, { "eth0-TxRx-3", "eth0", 1 }, { "eth0:ch22:multi", "eth0", 1 },
		{ "eth0:mac", "eth0", 1 }, { "eth01", "eth0", 0 }, { "eth10-rx-0", "eth1", 0 },
		{ "virtio0-input.0", "eth0", 0 }, { "eth", "eth0", 0 }, { "eth0", "", 0 },
	};
	static const struct { const char *action, *device; int want; } dev_rules[] = {
		{ "e6800000.ethernet", "e6800000.ethernet", 1 }, { "e6800000.ethernet:ch0:rx_be", "e6800000.ethernet", 1 },
		{ "e6800000.ethernetx", "e6800000.ethernet", 0 }, { "virtio2-input.0", "virtio2", 1 }, { "virtio20-input.0", "virtio2", 0 },
		{ "eth0-rx-0", NULL, 1 }, { "e6800000.ethernet", NULL, 0 }, { "x", "", 0 },
	};

	for (size_t i = 0; i < sizeof(dev_rules) / sizeof(dev_rules[0]); i++)
		CHECK_MSG(nb_irq_name_belongs_dev(dev_rules[i].action, "eth0", dev_rules[i].device) == dev_rules[i].want,
			  "%s vs device %s", dev_rules[i].action, dev_rules[i].device ? dev_rules[i].device : "(none)");

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		CHECK_MSG(nb_irq_name_belongs(rules[i].action, rules[i].iface) == rules[i].want,
			  "%s vs %s", rules[i].action, rules[i].iface);
}

static void test_truncation_and_errors(void)
{
	char *text = load_fixture("knobs/ravb-rcar");
	int irqs[2] = { 0 };
	struct nb_err err;

	CHECK(text != NULL);
	if (text) {
		/* More IRQs than room: the count is still the full count, like snprintf. */
		CHECK(nb_iface_irqs_parse(text, "eth0", irqs, 2, &err) == 6);
		CHECK(irqs[0] == 44 && irqs[1] == 45);
		free(text);
	}
	CHECK(nb_iface_irqs_parse("", "eth0", irqs, 2, &err) == -EINVAL);
	CHECK(nb_iface_irqs_parse("garbage here\n 1: 2 x eth0\n", "eth0", irqs, 2, &err) == -EINVAL);
	CHECK(strstr(err.msg, "garbage") != NULL);
}

static void test_wrapper(void)
{
	struct nb_paths p = { .proc = nb_test_fixture("knobs/tree/proc"), .sys = "/nonexistent" };
	struct nb_paths missing = { .proc = "/nonexistent-proc", .sys = "/nonexistent" };
	char proc[1024], sys[1024];
	int irqs[8];
	struct nb_err err;

	snprintf(proc, sizeof(proc), "%s", p.proc);
	p.proc = proc;
	snprintf(sys, sizeof(sys), "%s", nb_test_fixture("knobs/tree/sys"));
	p.sys = sys;
	char device[64];

	CHECK(nb_iface_irqs(&p, "eth0", irqs, 8, &err) == 4);
	/* The wrapper finds the parent device through <sys>/class/net/IF/device. */
	CHECK(nb_iface_irqs(&p, "eth2", irqs, 8, &err) == 2);
	CHECK(irqs[0] == 60 && irqs[1] == 61);
	CHECK(nb_iface_irqs(&p, "eth3", irqs, 8, &err) == 3);  /* virtio2-input.0 x2, virtio2-output.0 */
	CHECK(nb_iface_device_name(&p, "eth2", device, sizeof(device)) == 0);
	CHECK_STR(device, "e6800000.ethernet");
	CHECK(nb_iface_device_name(&p, "eth0", device, sizeof(device)) == -ENOENT);
	CHECK(nb_iface_device_name(&p, "eth2", device, 4) == -ENAMETOOLONG);
	CHECK(nb_iface_irqs(&p, "bad/name", irqs, 8, &err) == -EINVAL);
	CHECK(nb_iface_irqs(&missing, "eth0", irqs, 8, &err) == -ENOENT);
	CHECK(strstr(err.msg, "/nonexistent-proc/interrupts") != NULL);
	/* The real machine must parse, whatever it has. */
	CHECK(nb_iface_irqs(&nb_paths_live, "lo", irqs, 8, &err) >= 0);
}

/* Every truncation of real and crafted files (a read cut short, a line half written): no
 * crash, no read past the end (run under ASan in CI), only a count or -EINVAL. */
static void test_truncated_inputs(void)
{
	static const char *const fixtures[] = { "knobs/live-debian12", "knobs/ravb-rcar", "knobs/tree/proc" };

	for (size_t f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		char *text = load_fixture(fixtures[f]);
		size_t len = text ? strlen(text) : 0;
		int bad = 0;

		for (size_t cut = 0; cut <= len; cut++) {
			char *prefix = malloc(cut + 1);
			uint64_t per_cpu[4];
			int irqs[4], n, m;

			if (!prefix)
				break;
			memcpy(prefix, text, cut);
			prefix[cut] = '\0';
			n = nb_iface_irqs_parse_dev(prefix, "eth0", "e6800000.ethernet", irqs, 4, NULL);
			m = nb_iface_irq_counts_parse(prefix, "eth0", per_cpu, 4, NULL, NULL);
			bad += (n < 0 && n != -EINVAL) || (m < 0 && m != -EINVAL);
			free(prefix);
		}
		CHECK_MSG(bad == 0, "%s: %d truncations gave an unexpected error", fixtures[f], bad);
		free(text);
	}
}

static void test_role_guess(void)
{
	static const struct { const char *action; enum nb_irq_role want; } guesses[] = {
		{ "eth0-rx-0", NB_IRQ_RX }, { "eth0-tx-0", NB_IRQ_TX }, { "eth0", NB_IRQ_MISC },
		{ "eth0-TxRx-3", NB_IRQ_TXRX }, { "i40e-eth0-TxRx-0", NB_IRQ_TXRX }, { "virtio2-input.0", NB_IRQ_RX },
		{ "virtio2-output.0", NB_IRQ_TX }, { "virtio2-config", NB_IRQ_MISC }, { "eth0:ch0:rx_be", NB_IRQ_RX },
		{ "e6800000.ethernet:ch18:tx_be", NB_IRQ_TX }, { "eth0:ch22:multi", NB_IRQ_MISC },
		{ "vrx200_rx", NB_IRQ_RX }, { "xrx200_net_tx", NB_IRQ_TX }, { "xrx200_net_rx", NB_IRQ_RX },
		{ "eth0-rx0", NB_IRQ_RX }, { "eth0-rxq", NB_IRQ_MISC }, { "eth0:mac", NB_IRQ_MISC }, { "", NB_IRQ_MISC },
	};

	for (size_t i = 0; i < sizeof(guesses) / sizeof(guesses[0]); i++)
		CHECK_MSG(nb_irq_role_guess(guesses[i].action) == guesses[i].want, "%s: role %s, want %s",
			  guesses[i].action, nb_irq_role_name(nb_irq_role_guess(guesses[i].action)),
			  nb_irq_role_name(guesses[i].want));
}

static void test_names_parse(void)
{
	static const struct { const char *spec; int want, n; const char *first; int guess; enum nb_irq_role role; } specs[] = {
		{ "rx:vrx200_rx tx:vrx200_tx", 0, 2, "vrx200_rx", 0, NB_IRQ_RX },
		{ "  eth0   11c20000.ethernet ", 0, 2, "eth0", 1, NB_IRQ_MISC },
		{ "eth0:ch0:rx_be", 0, 1, "eth0:ch0:rx_be", 1, NB_IRQ_MISC },  /* "eth0" is no role */
		{ "TX:*-tx-*", 0, 1, "*-tx-*", 0, NB_IRQ_TX },
		{ "", 0, 0, NULL, 0, NB_IRQ_MISC },
		{ "rx:", -EINVAL, 0, NULL, 0, NB_IRQ_MISC },
		{ "rx:0123456789012345678901234567890123456789012345678901234567890123", -EINVAL, 0, NULL, 0, NB_IRQ_MISC },
		{ "a b c d e f g h i j k l m n o p q", -EINVAL, 0, NULL, 0, NB_IRQ_MISC },
	};

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct nb_irq_names names;
		struct nb_err err = { 0 };
		int ret = nb_irq_names_parse(specs[i].spec, &names, &err);

		CHECK_MSG(ret == specs[i].want, "'%s': %d (%s)", specs[i].spec, ret, err.msg);
		if (ret)
			continue;
		CHECK_MSG(names.n == specs[i].n, "'%s': %d patterns", specs[i].spec, names.n);
		if (specs[i].first) {
			CHECK_STR(names.p[0].pattern, specs[i].first);
			CHECK(names.p[0].guess == (specs[i].guess != 0));
			CHECK(specs[i].guess || names.p[0].role == specs[i].role);
		}
	}
	CHECK(nb_irq_names_parse(NULL, &(struct nb_irq_names){ 0 }, NULL) == 0);
}

/* A board's patterns alone decide: lantiq's IRQs name neither eth0 nor its device, and the
 * serial port's asc_rx/asc_tx must stay out. */
static void test_board_patterns(void)
{
	char *lantiq = load_fixture("knobs/lantiq-xrx200");
	char *tree = load_fixture("knobs/tree/proc");
	struct nb_irq_names names;
	struct nb_irq irqs[8];
	int each[8];
	uint64_t per_cpu[4], per_role[NB_IRQ_ROLES], each_n[8];
	int ncpus;
	struct nb_irq_match by_name = { .iface = "eth0" }, board = { .iface = "eth0", .names = &names };

	CHECK(lantiq && tree);
	if (!lantiq || !tree)
		goto out;
	CHECK(nb_irqs_parse(lantiq, &by_name, irqs, 8, NULL) == 0);
	CHECK(nb_irq_names_parse("rx:vrx200_rx* rx:xrx200_net_rx* tx:vrx200_tx* tx:xrx200_net_tx*", &names, NULL) == 0);
	CHECK(nb_irqs_parse(lantiq, &board, irqs, 8, NULL) == 2);
	CHECK(irqs[0].irq == 72 && irqs[0].role == NB_IRQ_RX);
	CHECK_STR(irqs[0].name, "vrx200_rx");
	CHECK(irqs[1].irq == 73 && irqs[1].role == NB_IRQ_TX);
	CHECK(nb_irq_counts_parse(lantiq, &board, per_cpu, 4, &ncpus, per_role, each, each_n, 8, NULL) == 2);
	CHECK(ncpus == 2 && per_cpu[0] == 812344 && per_cpu[1] == 403327);
	CHECK(per_role[NB_IRQ_RX] == 812344 && per_role[NB_IRQ_TX] == 403327 && per_role[NB_IRQ_MISC] == 0);
	/* one by one: each IRQ's own count, summed over CPUs */
	CHECK(each[0] == 72 && each_n[0] == 812344 && each[1] == 73 && each_n[1] == 403327);
	/* guessed roles: the name's words, not the pattern's */
	CHECK(nb_irq_names_parse("vrx200_*", &names, NULL) == 0);
	CHECK(nb_irqs_parse(lantiq, &board, irqs, 8, NULL) == 2);
	CHECK(irqs[0].role == NB_IRQ_RX && irqs[1].role == NB_IRQ_TX);

	/* e1000e-style vectors: by name all three with roles guessed; patterns for rx and tx leave
	 * the misc vector out, and no longer see the shared "ehci_hcd:usb1, eth0" either */
	CHECK(nb_irqs_parse(tree, &by_name, irqs, 8, NULL) == 4);
	CHECK(irqs[0].irq == 16 && irqs[0].role == NB_IRQ_MISC);
	CHECK(irqs[1].irq == 24 && irqs[1].role == NB_IRQ_RX);
	CHECK(irqs[2].irq == 25 && irqs[2].role == NB_IRQ_TX);
	CHECK(irqs[3].irq == 26 && irqs[3].role == NB_IRQ_MISC);
	CHECK(nb_irq_names_parse("rx:eth0-rx-* tx:eth0-tx-*", &names, NULL) == 0);
	CHECK(nb_irqs_parse(tree, &board, irqs, 8, NULL) == 2);
	CHECK(irqs[0].irq == 24 && irqs[1].irq == 25);
	CHECK(nb_irq_counts_parse(tree, &board, per_cpu, 4, &ncpus, per_role, NULL, NULL, 0, NULL) == 2);
	CHECK(per_role[NB_IRQ_RX] == 300 && per_role[NB_IRQ_TX] == 700);
	CHECK(per_cpu[0] == 400 && per_cpu[2] == 600);
	/* at most max_each are kept; all are counted */
	CHECK(nb_irq_counts_parse(tree, &by_name, per_cpu, 4, &ncpus, per_role, each, each_n, 2, NULL) == 4);
	CHECK(each[0] == 16 && each[1] == 24 && each_n[1] == 300);
out:
	free(lantiq);
	free(tree);
}

/* The watch on the fixture tree: affinities read, moves named, irqbalance absent (not 0 when
 * /proc cannot be walked). */
static void test_irq_watch(void)
{
	char proc[1024], sys[1024], moves[256];
	struct nb_paths p;
	struct nb_knob_target t = { .paths = &p, .iface = "eth0", .irq_names = "rx:eth0-rx-* tx:eth0-tx-*" };
	struct nb_irq_watch a, b;
	struct nb_metric_set m = { 0 };
	double v;

	snprintf(proc, sizeof(proc), "%s", nb_test_fixture("knobs/tree/proc"));
	snprintf(sys, sizeof(sys), "%s", nb_test_fixture("knobs/tree/sys"));
	p = (struct nb_paths){ .proc = proc, .sys = sys };
	nb_irq_watch_take(&t, &a);
	CHECK(a.irqs_read && a.n == 2 && a.irq[0] == 24 && a.irq[1] == 25);
	CHECK_STR(a.name[0], "eth0-rx-0");
	CHECK(a.cpus[0][0] != '\0');
	CHECK(a.procs_read && a.irqbalance_pid == 0);
	b = a;
	snprintf(b.cpus[1], sizeof(b.cpus[1]), "%s", strcmp(a.cpus[1], "1") ? "1" : "0");
	b.irqbalance_pid = 4242;
	CHECK(nb_irq_watch_moves(&a, &b, moves, sizeof(moves)) == 1);
	CHECK_MSG(strstr(moves, "25 eth0-tx-0: ") != NULL, "%s", moves);
	nb_irq_watch_metrics(&a, &b, &m);
	CHECK(nb_metrics_get(&m, "irqbalance_running", &v) && v == 1);
	CHECK(nb_metrics_get(&m, "irq_affinity_moved", &v) && v == 1);
	b.procs_read = false;
	b.irqs_read = false;
	m = (struct nb_metric_set){ 0 };
	nb_irq_watch_metrics(&a, &b, &m);
	CHECK(!nb_metrics_get(&m, "irqbalance_running", &v) && !nb_metrics_get(&m, "irq_affinity_moved", &v));
}

/* lan743x names every vector "lan743x": its IRQs are found as the PCI device's MSI vectors
 * (tests/fixtures/knobs/lan743x-imx6, laid out as sysfs links it). */
static void test_msi_irqs(void)
{
	char proc[1024], sys[1024];
	struct nb_paths p = { .proc = proc, .sys = sys };
	struct nb_irq found[8];
	struct nb_err err = { 0 };
	int msi[8], irqs[8], ncpus = 0;
	uint64_t per_cpu[8], per_role[NB_IRQ_ROLES];
	char *text;

	snprintf(proc, sizeof(proc), "%s", nb_test_fixture("knobs/lan743x-imx6/proc"));
	snprintf(sys, sizeof(sys), "%s", nb_test_fixture("knobs/lan743x-imx6/sys"));
	CHECK(nb_iface_msi_irqs(&p, "eth0", msi, 8) == 5);
	CHECK(msi[0] == 298 && msi[4] == 302);
	CHECK(nb_iface_msi_irqs(&p, "eth0", msi, 2) == 5 && msi[0] == 298 && msi[1] == 299);
	CHECK(nb_iface_msi_irqs(&p, "eth1", msi, 8) == -ENOENT);
	CHECK(nb_iface_msi_irqs(&p, "../eth0", msi, 8) == -EINVAL);
	/* by name nothing: neither eth0 nor 0000:01:00.0 names a vector */
	text = load_fixture("knobs/lan743x-imx6/proc");
	CHECK(text && nb_iface_irqs_parse_dev(text, "eth0", "0000:01:00.0", irqs, 8, &err) == 0);
	/* found: the five vectors, not the root port's PCIe PME on MSI 0 nor fec's lines */
	CHECK_MSG(nb_irqs_find(&p, "eth0", NULL, found, 8, &err) == 5, "%s", err.msg);
	CHECK(found[0].irq == 298 && found[4].irq == 302);
	CHECK_STR(found[1].name, "lan743x");
	CHECK(found[1].role == NB_IRQ_MISC);
	CHECK(nb_iface_irqs(&p, "eth0", irqs, 8, &err) == 5);
	/* the counts by number: CPU0 has vectors 298..300, CPU1 301, CPU2 302 */
	{
		struct nb_irq_match m = { .iface = "eth0", .device = "0000:01:00.0", .by_number = msi, .n_by_number = 5 };

		CHECK(nb_iface_msi_irqs(&p, "eth0", msi, 8) == 5);
		CHECK(nb_irq_counts_parse(text, &m, per_cpu, 8, &ncpus, per_role, NULL, NULL, 0, &err) == 5);
		CHECK(ncpus == 4 && per_cpu[0] == 14 + 182311 + 90244 && per_cpu[1] == 88102 && per_cpu[2] == 91577);
		CHECK(per_role[NB_IRQ_MISC] == 14 + 182311 + 90244 + 88102 + 91577);
	}
	/* a board's names still decide alone: a pattern that matches nothing finds nothing */
	CHECK(nb_irqs_find(&p, "eth0", "rx:nothing*", found, 8, &err) == 0);
	free(text);
}

int main(void)
{
	test_msi_irqs();
	test_irq_watch();
	test_role_guess();
	test_names_parse();
	test_board_patterns();
	test_name_rules();
	test_cases();
	test_truncation_and_errors();
	test_wrapper();
	test_truncated_inputs();
	return nb_test_done("iface_irqs");
}
