/* Unit tests for iface_irqs: which /proc/interrupts lines belong to an interface. */
#include <errno.h>
#include <stdint.h>

#include "iface_irqs.h"
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
	int found;             /* expected return */
	int irqs[8];
	int ncpus;
	uint64_t per_cpu[4];
};

static const struct irq_case cases[] = {
	/* This machine: virtio-net names vectors after the virtio device, so eth0 has none. */
	{ "knobs/live-debian12", "eth0", 0, { 0 }, 2, { 0, 0 } },
	{ "knobs/live-debian12", "virtio2", 3, { 37, 38, 39 }, 2, { 4196, 6847 } },
	{ "knobs/live-debian12", "ttyS0", 1, { 26 }, 2, { 0, 14 } },
	/* ravb multi-IRQ naming "<ndev>:chN:what"; eth10's IRQ is not eth1's. */
	{ "knobs/ravb-rcar", "eth0", 6, { 44, 45, 46, 47, 48, 49 }, 4, { 213015, 7, 0, 0 } },
	{ "knobs/ravb-rcar", "eth1", 0, { 0 }, 4, { 0, 0, 0, 0 } },
	{ "knobs/ravb-rcar", "eth10", 1, { 50 }, 4, { 0, 0, 0, 0 } },
	/* Per-queue "-rx-0", exact name, shared "a, eth0"; CPU1 offline (header CPU0 CPU2). */
	{ "knobs/tree/proc", "eth0", 4, { 16, 24, 25, 26 }, 3, { 411, 0, 607 } },
	{ "knobs/tree/proc", "eth1", 1, { 27 }, 3, { 1000, 0, 2000 } },
	{ "knobs/tree/proc", "eth10", 1, { 28 }, 3, { 7, 0, 8 } },
	/* A line without an action ends in its trigger type: "17" must not claim "17-fasteoi". */
	{ "knobs/tree/proc", "17", 0, { 0 }, 3, { 0, 0, 0 } },
	{ "knobs/tree/proc", "ehci_hcd", 1, { 16 }, 3, { 10, 0, 5 } },
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
		n = nb_iface_irqs_parse(text, c->iface, irqs, 8, &err);
		CHECK_MSG(n == c->found, "case %zu (%s): found %d, want %d", i, c->iface, n, c->found);
		for (int k = 0; k < c->found && k < 8; k++)
			CHECK_MSG(irqs[k] == c->irqs[k], "case %zu irq[%d] = %d, want %d", i, k, irqs[k], c->irqs[k]);
		n = nb_iface_irq_counts_parse(text, c->iface, per_cpu, 4, &ncpus, &err);
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
	char proc[1024];
	int irqs[8];
	struct nb_err err;

	snprintf(proc, sizeof(proc), "%s", p.proc);
	p.proc = proc;
	CHECK(nb_iface_irqs(&p, "eth0", irqs, 8, &err) == 4);
	CHECK(nb_iface_irqs(&p, "bad/name", irqs, 8, &err) == -EINVAL);
	CHECK(nb_iface_irqs(&missing, "eth0", irqs, 8, &err) == -ENOENT);
	CHECK(strstr(err.msg, "/nonexistent-proc/interrupts") != NULL);
	/* The real machine must parse, whatever it has. */
	CHECK(nb_iface_irqs(&nb_paths_live, "lo", irqs, 8, &err) >= 0);
}

int main(void)
{
	test_name_rules();
	test_cases();
	test_truncation_and_errors();
	test_wrapper();
	return nb_test_done("iface_irqs");
}
