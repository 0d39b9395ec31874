// SPDX-License-Identifier: MIT
/* Tests for kprofile: kallsyms parsing and lookup on a real excerpt, folding and idle
 * detection, call chains decoded and folded into stacks, folded stacks read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <stdint.h>

#include "sampling/kprofile.h"
#include "sampling/trace_decode.h"
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

static char *stacks_text(const struct nb_stack_acc *acc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	CHECK(nb_stack_acc_write(acc, f) == 0);
	fclose(f);
	return text;
}

/* Frames come leaf first as perf lists them and are written root first; idle and cuts. */
static void test_stack_fold(void)
{
	static const char *const rx[] = { "_copy_to_iter", "tcp_recvmsg", "do_syscall_64" };
	static const char *const rx_other[] = { "_raw_spin_unlock_irqrestore", "net_rx_action", "do_syscall_64" };
	static const char *const idle[] = { "pv_native_safe_halt", "do_idle" };
	static const char *const odd[] = { "a;b\nc", NULL };
	const char *deep[NB_STACK_MAX_DEPTH + 5];
	struct nb_stack_acc *acc = NULL;
	struct nb_stack_stats st;
	char *text;

	CHECK(nb_stack_acc_new(&acc) == 0);
	if (!acc)
		return;
	for (int i = 0; i < 3; i++)
		CHECK(nb_stack_acc_add(acc, rx, 3, 42) == 0);
	CHECK(nb_stack_acc_add(acc, rx_other, 3, 42) == 0);
	CHECK(nb_stack_acc_add(acc, idle, 2, 0) == 0);      /* the idle task idling: not work */
	CHECK(nb_stack_acc_add(acc, idle, 2, 7) == 0);      /* a task that halts is work */
	CHECK(nb_stack_acc_add(acc, odd, 2, 42) == 0);
	for (int i = 0; i < NB_STACK_MAX_DEPTH + 5; i++)
		deep[i] = i == 0 ? "leaf" : i == NB_STACK_MAX_DEPTH + 4 ? "root" : "mid";
	CHECK(nb_stack_acc_add(acc, deep, NB_STACK_MAX_DEPTH + 5, 42) == 0);
	nb_stack_acc_stats(acc, &st);
	CHECK(st.samples == 7);
	CHECK(st.distinct == 5);
	CHECK(st.truncated_samples == 1);
	CHECK(st.other_samples == 0);
	text = stacks_text(acc);
	CHECK(text && !strncmp(text, "do_syscall_64;tcp_recvmsg;_copy_to_iter 3\n", 42));
	CHECK(text && strstr(text, "\ndo_syscall_64;net_rx_action;_raw_spin_unlock_irqrestore 1\n"));
	CHECK(text && strstr(text, "\ndo_idle;pv_native_safe_halt 1\n"));
	CHECK(text && strstr(text, "\n[kernel unknown];a:b:c 1\n")); /* separators cannot leak in */
	CHECK(text && strstr(text, "\n" NB_STACK_TRUNCATED ";mid;") && !strstr(text, "root;"));
	free(text);

	/* past the cap, new stacks share one bucket and known ones still count */
	nb_stack_acc_reset(acc);
	for (int i = 0; i < NB_STACK_MAX_DISTINCT + 10; i++) {
		char name[32];
		const char *frame = name;

		snprintf(name, sizeof(name), "f%d", i);
		CHECK(nb_stack_acc_add(acc, &frame, 1, 42) == 0);
	}
	CHECK(nb_stack_acc_add(acc, rx, 1, 42) == 0);
	nb_stack_acc_stats(acc, &st);
	CHECK(st.distinct == NB_STACK_MAX_DISTINCT + 1);
	CHECK(st.other_samples == 11);
	text = stacks_text(acc);
	CHECK(text && !strncmp(text, NB_STACK_OTHER " 11\n", strlen(NB_STACK_OTHER) + 4));
	free(text);
	nb_stack_acc_free(acc);
}

static void put_u64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* A cpu-clock sample as the kernel writes it with PERF_SAMPLE_CALLCHAIN: the kernel context
 * marker, kernel frames, then a user context that exclude_callchain_user leaves empty. */
static void test_chain_decode(void)
{
	unsigned char body[12 * 8];
	uint32_t pair[2] = { 1234, 1235 };
	struct nb_kallsyms *ks = NULL;
	struct nb_trace_sample s;
	struct nb_err err = { 0 };
	const char *frames[8];
	int n;

	CHECK_MSG(nb_kallsyms_load(nb_test_fixture("trace/kallsyms-excerpt"), &ks, &err) == 0, "%s", err.msg);
	memset(body, 0, sizeof(body));
	put_u64(body, 77);                       /* identifier */
	put_u64(body + 8, 0xffffffff82203240ULL); /* ip */
	memcpy(body + 16, pair, 8);
	put_u64(body + 24, 5000);                /* time */
	put_u64(body + 40, 5);                   /* nr */
	put_u64(body + 48, (uint64_t)PERF_CONTEXT_KERNEL);
	put_u64(body + 56, 0xffffffff82203240ULL);
	put_u64(body + 64, 0xffffffff81b6cc40ULL);
	put_u64(body + 72, 0xffffffff821ef700ULL);
	put_u64(body + 80, (uint64_t)PERF_CONTEXT_USER);
	/* raw: size 4, one zero word */
	body[88] = 4;
	CHECK(nb_trace_sample_decode_chain(body, sizeof(body), &s) == 0);
	CHECK(s.id == 77 && s.pid == 1234 && s.chain_n == 5 && s.raw_len == 4);
	n = nb_trace_chain_frames(&s, ks, frames, 8);
	CHECK(n == 3);
	if (n == 3) {
		CHECK_STR(frames[0], "_raw_spin_unlock_irqrestore");
		CHECK_STR(frames[1], "_copy_to_iter");
		CHECK_STR(frames[2], "do_syscall_64");
	}
	CHECK(nb_trace_chain_frames(&s, ks, frames, 2) == 2);
	put_u64(body + 40, 1000);                /* nr past the record: corrupt */
	CHECK(nb_trace_sample_decode_chain(body, sizeof(body), &s) == -EINVAL);
	nb_kallsyms_free(ks);
}

/* Folded text of two rounds merges; a bad line is named. */
static void test_folded_parse(void)
{
	struct nb_folded set = { 0 };
	struct nb_err err = { 0 };

	CHECK(nb_folded_parse(&set, "a;b 3\na;c 1\n", "r1", &err) == 0);
	CHECK(nb_folded_parse(&set, "a;b 2\n\nveth_poll [veth];x 4", "r2", &err) == 0);
	CHECK(set.n == 3 && set.total == 10);
	CHECK(set.n == 3 && set.v[0].count == 5 && !strcmp(set.v[2].stack, "veth_poll [veth];x"));
	CHECK(nb_folded_parse(&set, "a;b 1\nnocount\n", "r3", &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "r3") && strstr(err.msg, "line 2"), "%s", err.msg);
	CHECK(nb_folded_parse(&set, "a -1\n", "r4", &err) == -EINVAL);
	nb_folded_free(&set);
}

int main(void)
{
	test_stack_fold();
	test_chain_decode();
	test_folded_parse();
	test_kallsyms_excerpt();
	test_kallsyms_cases();
	test_fold();
	test_idle_names();
	return nb_test_done("kprofile");
}
