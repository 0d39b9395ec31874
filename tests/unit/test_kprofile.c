// SPDX-License-Identifier: MIT
/* Tests for kprofile: kallsyms parsing and lookup on a real excerpt, folding and idle
 * detection. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling/kprofile.h"
#include "nb_test.h"

struct lookup_case {
	unsigned long long addr;
	const char *symbol; /* NULL: below the first text symbol */
};

/* Addresses against tests/fixtures/trace/kallsyms-excerpt (this machine's /proc/kallsyms). */
static const struct lookup_case lookup_cases[] = {
	{ 0xffffffff80ffffffULL, NULL },
	{ 0xffffffff81000000ULL, "_text" },                       /* three names share it: the last wins */
	{ 0xffffffff82203230ULL, "_raw_spin_unlock_irqrestore" }, /* exact start */
	{ 0xffffffff8220326fULL, "_raw_spin_unlock_irqrestore" }, /* last byte */
	{ 0xffffffff82203270ULL, "__pfx__raw_read_trylock" },     /* the next one */
	{ 0xffffffff82400000ULL, "__pfx__raw_read_trylock" },     /* data symbols are not code */
};

static void test_kallsyms_excerpt(void)
{
	struct nb_kallsyms *ks = NULL;
	struct nb_err err = { 0 };

	CHECK_MSG(nb_kallsyms_load(nb_test_fixture("trace/kallsyms-excerpt"), &ks, &err) == 0, "%s", err.msg);
	if (!ks)
		return;
	CHECK(nb_kallsyms_count(ks) > 10);
	for (size_t i = 0; i < sizeof(lookup_cases) / sizeof(lookup_cases[0]); i++) {
		const char *got = nb_kallsyms_lookup(ks, lookup_cases[i].addr);

		if (!lookup_cases[i].symbol)
			CHECK_MSG(got == NULL, "%llx -> %s", lookup_cases[i].addr, got);
		else
			CHECK_MSG(got && !strcmp(got, lookup_cases[i].symbol), "%llx -> %s, want %s",
				  lookup_cases[i].addr, got ? got : "(null)", lookup_cases[i].symbol);
	}
	nb_kallsyms_free(ks);
}

static int write_tmp(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/nb_kprofile_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

struct load_case {
	const char *name;
	const char *text;
	int rc;
	unsigned long long addr;
	const char *symbol;
};

static const struct load_case load_cases[] = {
	{ "module symbols carry their module",
	  "ffffffffc0001000 t veth_poll\t[veth]\nffffffffc0001400 t veth_xmit\t[veth]\n", 0, 0xffffffffc0001010ULL,
	  "veth_poll [veth]" },
	{ "hidden addresses (kptr_restrict)", "0000000000000000 T _text\n0000000000000000 t veth_poll\n", -EACCES, 0,
	  NULL },
	{ "no text symbols", "ffffffff82400000 D __start_rodata\n", -ENOENT, 0, NULL },
	{ "empty file", "", -ENOENT, 0, NULL },
	{ "garbage lines are skipped", "not a line\nffffffff81000000 T _text\nzz\n", 0, 0xffffffff81000001ULL, "_text" },
};

static void test_kallsyms_cases(void)
{
	for (size_t i = 0; i < sizeof(load_cases) / sizeof(load_cases[0]); i++) {
		const struct load_case *c = &load_cases[i];
		struct nb_kallsyms *ks = NULL;
		struct nb_err err = { 0 };
		char path[64];
		int rc;

		if (write_tmp(path, sizeof(path), c->text) < 0) {
			CHECK_MSG(0, "%s: cannot write a temp file", c->name);
			continue;
		}
		rc = nb_kallsyms_load(path, &ks, &err);
		CHECK_MSG(rc == c->rc, "%s: rc %d (%s)", c->name, rc, err.msg);
		if (c->rc == -EACCES)
			CHECK_MSG(strstr(err.msg, "kptr_restrict") != NULL, "%s: %s", c->name, err.msg);
		if (c->symbol) {
			const char *got = nb_kallsyms_lookup(ks, c->addr);

			CHECK_MSG(got && !strcmp(got, c->symbol), "%s: %s", c->name, got ? got : "(null)");
		}
		nb_kallsyms_free(ks);
		unlink(path);
	}
}

static void test_fold(void)
{
	struct nb_profile_acc *acc = NULL;
	struct nb_profile p;

	CHECK(nb_profile_acc_new(&acc) == 0);
	if (!acc)
		return;
	/* 6 idle-loop samples of the idle task, 4 kernel, 2 user; idle names from a busy task are work */
	for (int i = 0; i < 6; i++)
		nb_profile_acc_add_kernel(acc, "pv_native_safe_halt", 0);
	for (int i = 0; i < 3; i++)
		nb_profile_acc_add_kernel(acc, "net_rx_action", 0); /* softirq on the idle task is work */
	nb_profile_acc_add_kernel(acc, "default_idle_call", 1234);
	nb_profile_acc_add_user(acc, "iperf3");
	nb_profile_acc_add_user(acc, "iperf3");
	nb_profile_acc_result(acc, &p);
	CHECK(p.samples == 6);
	CHECK_NEAR(p.idle_pct, 50.0, 1e-9);
	CHECK(p.n == 3);
	CHECK_STR(p.top[0].symbol, "net_rx_action");
	CHECK_NEAR(p.top[0].share_pct, 50.0, 1e-9);
	CHECK_STR(p.top[1].symbol, "[user] iperf3");
	CHECK_STR(p.top[2].symbol, "default_idle_call");

	/* more than NB_PROFILE_TOP distinct symbols, and a reset */
	nb_profile_acc_reset(acc);
	for (int i = 0; i < 400; i++) {
		char sym[32];

		snprintf(sym, sizeof(sym), "fn_%03d", i);
		for (int k = 0; k <= i % 7; k++)
			nb_profile_acc_add_kernel(acc, sym, 42);
	}
	nb_profile_acc_add_kernel(acc, NULL, 42);
	nb_profile_acc_result(acc, &p);
	CHECK(p.n == NB_PROFILE_TOP);
	CHECK(p.top[0].share_pct >= p.top[NB_PROFILE_TOP - 1].share_pct);
	CHECK_STR(p.top[0].symbol, "fn_006");
	CHECK(p.idle_pct == 0);
	nb_profile_acc_free(acc);
}

static void test_idle_names(void)
{
	static const struct {
		const char *sym;
		bool idle;
	} cases[] = {
		{ "pv_native_safe_halt", true }, { "default_idle", true }, { "intel_idle_irq", true },
		{ "cpu_idle_poll.isra.0", true }, { "net_rx_action", false }, { "napi_poll", false }, { NULL, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_MSG(nb_profile_symbol_is_idle(cases[i].sym) == cases[i].idle, "%s",
			  cases[i].sym ? cases[i].sym : "(null)");
}

int main(void)
{
	test_kallsyms_excerpt();
	test_kallsyms_cases();
	test_fold();
	test_idle_names();
	return nb_test_done("kprofile");
}
