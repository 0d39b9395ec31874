/* SPDX-License-Identifier: MIT */
/* What each fuzz target feeds its parser: configs, command lines, reports, journals, /proc and /sys text, iperf JSON. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare/compare.h"
#include "config/config.h"
#include "fuzz_targets.h"
#include "nic/iface_irqs.h"
#include "iperf_driver.h"
#include "knobs/journal.h"
#include "sampling/kprofile.h"
#include "kit/nb_paths.h"
#include "sampling/proc_parse.h"
#include "cli/run_options.h"
#include "render/render.h"

volatile size_t nb_fuzz_sink; /* keeps reads the optimiser would drop */

/* The input with a NUL after it (parsers of /proc text take C strings); an embedded
 * NUL ends the text early, as it would for the real caller. */
static char *input_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input as a file for loaders that take a path: an anonymous memfd, reached
 * through /proc/self/fd. Returns the fd to close after the call. */
static int input_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("nb-fuzz", MFD_CLOEXEC);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static int fuzz_config(const uint8_t *data, size_t size)
{
	static struct nb_config cfg; /* large (paths): not on the stack */
	struct nb_err err = { 0 };
	char path[64];
	int fd = input_file(data, size, path, sizeof(path));

	nb_config_defaults(&cfg);
	if (nb_config_load_file(&cfg, path, &err) == 0) {
		char *json;

		nb_config_validate(&cfg, &err);
		json = nb_config_to_json(&cfg);
		free(json);
	}
	close(fd);
	return 0;
}

#define MAX_ARGS 64

/* Enter (or leave) an empty directory that no longer exists, so that a relative path in
 * an input (--config FILE) meets no file and nothing can be created; the caller's cwd
 * (where libFuzzer writes its findings) comes back afterwards. */
static void in_empty_dir(bool enter)
{
	static int empty = -1, home = -1;

	if (empty < 0) {
		char dir[] = "/tmp/nb-fuzz-XXXXXX";

		if (!mkdtemp(dir) || (empty = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || rmdir(dir))
			abort();
	}
	if (enter) {
		home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (home < 0 || fchdir(empty))
			abort();
	} else {
		if (fchdir(home))
			abort();
		close(home);
	}
}

/* `nicbench run` arguments, NUL-separated. */
static int fuzz_cmdline(const uint8_t *data, size_t size)
{
	static struct nb_config cfg;
	char a0[] = "run", a1[] = "--tests", a2[] = "tcp-rx", *good[] = { a0, a1, a2, NULL };
	char *text, *args[MAX_ARGS + 2];
	struct nb_err err = { 0 };
	int argc = 0;

	/* No paths: --config FILE must not reach a FIFO or /dev/stdin that would block. */
	if (memchr(data, '/', size))
		return -1;
	text = input_text(data, size);
	args[argc++] = a0;
	for (size_t i = 0; i < size && argc <= MAX_ARGS; i += strlen(text + i) + 1)
		args[argc++] = text + i;
	args[argc] = NULL;
	in_empty_dir(true);
	nb_run_options_parse(argc, args, &cfg, &err);
	in_empty_dir(false);
	free(text);
	/* Whatever came before, a good command line parses: getopt keeps state between calls,
	 * inside glibc where ASan does not look. */
	if (nb_run_options_parse(3, good, &cfg, &err) != 0)
		abort();
	return 0;
}

/* One report, or two separated by a NUL (base, then new), through compare's loader, then
 * compared (a report alone with itself, where every point must come out unchanged or
 * inconclusive) and rendered in every format. */
static int fuzz_report(const uint8_t *data, size_t size)
{
	static FILE *null;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t base_len = nul ? (size_t)(nul - data) : size;
	struct nb_cmp_report base, new;
	struct nb_cmp_render_opts ro = { .all_metrics = true };
	struct nb_cmp_options opt;
	struct nb_cmp_result r;
	struct nb_err err = { 0 };

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (nb_cmp_report_parse((const char *)data, base_len, "base", &base, &err))
		return 0;
	if (nul && nb_cmp_report_parse((const char *)nul + 1, size - base_len - 1, "new", &new, &err)) {
		nb_cmp_report_free(&base);
		return 0;
	}
	nb_cmp_options_init(&opt);
	if (nb_cmp_run(&base, nul ? &new : &base, &opt, &r, &err) == 0) {
		/* A report against itself: nothing can have moved. */
		if (!nul && (r.count[NB_CMP_IMPROVED] || r.count[NB_CMP_REGRESSED] || r.count[NB_CMP_CHANGED] ||
			     r.count[NB_CMP_FIXED] || r.count[NB_CMP_BROKEN] || r.count[NB_CMP_NEW] ||
			     r.count[NB_CMP_MISSING]))
			abort();
		nb_cmp_render_text(null, &r, &ro);
		nb_cmp_render_json(null, &r);
		nb_cmp_render_junit(null, &r);
		nb_cmp_render_markdown(null, &r);
		nb_cmp_result_free(&r);
	}
	nb_cmp_report_free(&base);
	if (nul)
		nb_cmp_report_free(&new);
	return 0;
}

/* A restore journal through the loader (no restore: that would write sysfs). */
static int fuzz_journal(const uint8_t *data, size_t size)
{
	static const struct nb_paths nowhere = { "/nonexistent/proc", "/nonexistent/sys" };
	struct nb_journal *j = NULL;
	struct nb_err err = { 0 };
	char path[64];
	int fd = input_file(data, size, path, sizeof(path));

	if (nb_journal_load(path, &nowhere, &j, &err) == 0) {
		const char *knob, *value;

		nb_fuzz_sink = strlen(nb_journal_iface(j));
		for (int i = 0; i < nb_journal_count(j); i++) {
			if (nb_journal_entry(j, i, &knob, &value) == 0)
				nb_fuzz_sink += strlen(knob) + strlen(value);
		}
		nb_journal_free(j);
	}
	close(fd);
	return 0;
}

static int fuzz_iperf_json(const uint8_t *data, size_t size)
{
	struct nb_iperf_result res = { 0 };
	struct nb_err err = { 0 };
	char *text = input_text(data, size);

	nb_iperf_parse_json(text, &res, &err);
	free(text);
	return 0;
}

static struct nb_snapshot snap; /* large: not on the stack */

/* The /proc and /sys text parsers: each takes the input as a C string. */
static int text_proc_stat(const char *text)
{
	memset(&snap, 0, sizeof(snap));
	return nb_parse_proc_stat(text, &snap);
}

static int text_proc_stat_total(const char *text)
{
	struct nb_cpu_ticks all;
	int online;

	return nb_parse_proc_stat_total(text, &all, &online);
}

static int text_softirqs(const char *text)
{
	memset(&snap, 0, sizeof(snap));
	return nb_parse_softirqs(text, &snap);
}

static int text_softnet(const char *text)
{
	memset(&snap, 0, sizeof(snap));
	return nb_parse_softnet(text, &snap);
}

static int text_snmp_udp(const char *text)
{
	memset(&snap, 0, sizeof(snap));
	return nb_parse_snmp_udp(text, &snap);
}

static int text_pid_stat(const char *text)
{
	uint64_t ticks;

	return nb_parse_pid_stat_ticks(text, &ticks);
}

static int text_per_cpu_count(const char *text)
{
	uint64_t per_cpu[8] = { 0 };

	return nb_parse_per_cpu_count(text, per_cpu, 8);
}

static int text_u64(const char *text)
{
	uint64_t v;

	return nb_parse_u64(text, &v);
}

/* Small arrays on purpose: more IRQs and CPUs than room is the case to get right. */
static int text_interrupts(const char *text)
{
	struct nb_err err = { 0 };
	int irqs[4], ncpus, a, b;
	uint64_t per_cpu[8];

	a = nb_iface_irqs_parse_dev(text, "eth0", "e6800000.ethernet", irqs, 4, &err);
	b = nb_iface_irq_counts_parse_dev(text, "eth0", "e6800000.ethernet", per_cpu, 8, &ncpus, &err);
	return a < 0 ? a : b;
}

#define TEXT_TARGET(name)                                                  \
	static int fuzz_##name(const uint8_t *data, size_t size)           \
	{                                                                  \
		char *text = input_text(data, size);                       \
									   \
		text_##name(text);                                         \
		free(text);                                                \
		return 0;                                                  \
	}
TEXT_TARGET(proc_stat)
TEXT_TARGET(proc_stat_total)
TEXT_TARGET(softirqs)
TEXT_TARGET(softnet)
TEXT_TARGET(snmp_udp)
TEXT_TARGET(pid_stat)
TEXT_TARGET(per_cpu_count)
TEXT_TARGET(u64)
TEXT_TARGET(interrupts)

/* /proc/kallsyms through the loader, then lookups below, inside and above the symbols. */
static int fuzz_kallsyms(const uint8_t *data, size_t size)
{
	struct nb_kallsyms *ks = NULL;
	struct nb_err err = { 0 };
	char path[64];
	int fd = input_file(data, size, path, sizeof(path));

	if (nb_kallsyms_load(path, &ks, &err) == 0) {
		for (uint64_t addr = 0; addr < 1u << 16; addr += 4099)
			nb_kallsyms_lookup(ks, addr | 0xffffffff81000000ull);
		nb_kallsyms_lookup(ks, 0);
		nb_kallsyms_lookup(ks, UINT64_MAX);
		nb_fuzz_sink = (size_t)nb_kallsyms_count(ks);
		nb_kallsyms_free(ks);
	}
	close(fd);
	return 0;
}

const struct nb_fuzz_target nb_fuzz_targets[] = {
	{ "config", fuzz_config },
	{ "cmdline", fuzz_cmdline },
	{ "report", fuzz_report },
	{ "journal", fuzz_journal },
	{ "iperf_json", fuzz_iperf_json },
	{ "proc_stat", fuzz_proc_stat },
	{ "proc_stat_total", fuzz_proc_stat_total },
	{ "softirqs", fuzz_softirqs },
	{ "softnet", fuzz_softnet },
	{ "snmp_udp", fuzz_snmp_udp },
	{ "pid_stat", fuzz_pid_stat },
	{ "per_cpu_count", fuzz_per_cpu_count },
	{ "u64", fuzz_u64 },
	{ "interrupts", fuzz_interrupts },
	{ "kallsyms", fuzz_kallsyms },
};
const int nb_fuzz_n_targets = sizeof(nb_fuzz_targets) / sizeof(nb_fuzz_targets[0]);

const struct nb_fuzz_target *nb_fuzz_find(const char *name)
{
	for (int i = 0; i < nb_fuzz_n_targets; i++) {
		if (!strcmp(nb_fuzz_targets[i].name, name))
			return &nb_fuzz_targets[i];
	}
	return NULL;
}
