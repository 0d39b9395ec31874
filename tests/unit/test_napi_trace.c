// SPDX-License-Identifier: MIT
/* Tests for napi_trace: tracepoint layouts, the window accumulator on synthetic and
 * recorded records (checked against tests/fixtures/trace/make_expected.py), IRQ lookup. */
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "sampling/napi_trace.h"
#include "nb_test.h"

/* Layout of this machine's formats (tests/fixtures/trace/events/.../format). */
static struct nb_trace_layout fixture_layout(void)
{
	struct nb_trace_layout l;
	struct nb_err err = { 0 };
	char events[1024];

	snprintf(events, sizeof(events), "%s", nb_test_fixture("trace/events"));
	CHECK_MSG(nb_trace_layout_load(events, &l, &err) == 0, "%s", err.msg);
	return l;
}

static int read_id(const char *rel)
{
	FILE *f = fopen(nb_test_fixture(rel), "r");
	int id = -1;

	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

static void test_layout(void)
{
	struct nb_trace_layout l = fixture_layout();
	struct nb_err err = { 0 };

	CHECK(l.napi_poll_id == read_id("trace/events/napi/napi_poll/id"));
	CHECK(l.softirq_entry_id == read_id("trace/events/irq/softirq_entry/id"));
	CHECK(l.softirq_exit_id == read_id("trace/events/irq/softirq_exit/id"));
	CHECK(l.irq_handler_entry_id == read_id("trace/events/irq/irq_handler_entry/id"));
	/* offsets as the 6.18 format files state them */
	CHECK(l.napi_dev_name_off == 16);
	CHECK(l.napi_work_off == 20);
	CHECK(l.napi_budget_off == 24);
	CHECK(l.softirq_vec_off == 8);

	CHECK(nb_trace_layout_load("/nonexistent/events", &l, &err) < 0);
	CHECK_MSG(strstr(err.msg, "napi:napi_poll") && strstr(err.msg, "/nonexistent/events"), "%s", err.msg);
}

/* ---- synthetic records ---- */

static size_t napi_raw(unsigned char *buf, const struct nb_trace_layout *l, const char *dev, int work, int budget)
{
	uint16_t type = (uint16_t)l->napi_poll_id;
	size_t name_off = 28, n = strlen(dev) + 1;
	uint32_t loc = (uint32_t)(name_off | (n << 16));

	memset(buf, 0, 64);
	memcpy(buf, &type, 2);
	memcpy(buf + l->napi_dev_name_off, &loc, 4);
	memcpy(buf + l->napi_work_off, &work, 4);
	memcpy(buf + l->napi_budget_off, &budget, 4);
	memcpy(buf + name_off, dev, n);
	return name_off + n;
}

static size_t softirq_raw(unsigned char *buf, const struct nb_trace_layout *l, int entry, unsigned vec)
{
	uint16_t type = (uint16_t)(entry ? l->softirq_entry_id : l->softirq_exit_id);

	memset(buf, 0, 16);
	memcpy(buf, &type, 2);
	memcpy(buf + l->softirq_vec_off, &vec, 4);
	return 12;
}

enum ev_kind { EV_END, EV_NAPI, EV_ENTRY, EV_EXIT };

struct ev {
	enum ev_kind kind;
	int cpu;
	uint64_t t;   /* ns after the window opened */
	int a, b;     /* napi: work, budget; softirq: vec */
	const char *dev;
};

struct acc_case {
	const char *name;
	struct ev evs[12];
	uint64_t end;
	uint64_t polls, work, exhausted, other;
	uint64_t rx0, rx1, tx0;
};

static const struct acc_case acc_cases[] = {
	{ "paired NET_RX on two cpus",
	  { { EV_ENTRY, 0, 100, 3, 0, NULL }, { EV_EXIT, 0, 400, 3, 0, NULL },
	    { EV_ENTRY, 1, 150, 3, 0, NULL }, { EV_EXIT, 1, 200, 3, 0, NULL }, { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 0, 0, 0, 0, 300, 50, 0 },
	{ "running when the window opened counts from the start",
	  { { EV_EXIT, 0, 70, 3, 0, NULL }, { EV_ENTRY, 0, 100, 3, 0, NULL }, { EV_EXIT, 0, 130, 3, 0, NULL },
	    { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 0, 0, 0, 0, 100, 0, 0 },
	{ "still running at the end counts to the end",
	  { { EV_ENTRY, 0, 900, 2, 0, NULL }, { EV_END, 0, 0, 0, 0, NULL } }, 1000, 0, 0, 0, 0, 0, 0, 100 },
	{ "a lost exit drops the unfinished interval",
	  { { EV_ENTRY, 0, 100, 3, 0, NULL }, { EV_ENTRY, 0, 500, 3, 0, NULL }, { EV_EXIT, 0, 600, 3, 0, NULL },
	    { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 0, 0, 0, 0, 100, 0, 0 },
	{ "other softirq vectors are ignored",
	  { { EV_ENTRY, 0, 100, 1, 0, NULL }, { EV_EXIT, 0, 300, 1, 0, NULL }, { EV_ENTRY, 0, 400, 9, 0, NULL },
	    { EV_EXIT, 0, 450, 9, 0, NULL }, { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 0, 0, 0, 0, 0, 0, 0 },
	{ "napi polls of the interface only, budget exhaustion",
	  { { EV_NAPI, 0, 10, 64, 64, "eth0" }, { EV_NAPI, 1, 20, 3, 64, "eth0" }, { EV_NAPI, 0, 30, 0, 64, "eth0" },
	    { EV_NAPI, 0, 40, 64, 64, "eth01" }, { EV_NAPI, 0, 50, 5, 64, "(no_device)" },
	    { EV_NAPI, 1, 60, 8, 8, "eth0" }, { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 4, 75, 2, 2, 0, 0, 0 },
	{ "a cpu outside the window's range is ignored",
	  { { EV_ENTRY, 5, 100, 3, 0, NULL }, { EV_EXIT, 5, 300, 3, 0, NULL }, { EV_NAPI, 7, 10, 1, 64, "eth0" },
	    { EV_END, 0, 0, 0, 0, NULL } },
	  1000, 0, 0, 0, 0, 0, 0, 0 },
};

static void run_acc_case(const struct nb_trace_layout *l, const struct acc_case *c)
{
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	const uint64_t base = 5000000000ULL;
	unsigned char raw[64];

	nb_trace_acc_reset(acc, 2, base);
	for (const struct ev *e = c->evs; e->kind != EV_END; e++) {
		size_t n = e->kind == EV_NAPI ? napi_raw(raw, l, e->dev, e->a, e->b)
					      : softirq_raw(raw, l, e->kind == EV_ENTRY, (unsigned)e->a);

		nb_trace_acc_raw(acc, l, "eth0", e->cpu, base + e->t, raw, n);
	}
	nb_trace_acc_finish(acc, base + c->end);
	CHECK_MSG(acc->polls == c->polls, "%s: polls %llu", c->name, (unsigned long long)acc->polls);
	CHECK_MSG(acc->work == c->work, "%s: work %llu", c->name, (unsigned long long)acc->work);
	CHECK_MSG(acc->budget_exhausted == c->exhausted, "%s: exhausted", c->name);
	CHECK_MSG(acc->other_dev_polls == c->other, "%s: other devices", c->name);
	CHECK_MSG(acc->net_rx_ns[0] == c->rx0, "%s: rx0 %llu", c->name, (unsigned long long)acc->net_rx_ns[0]);
	CHECK_MSG(acc->net_rx_ns[1] == c->rx1, "%s: rx1 %llu", c->name, (unsigned long long)acc->net_rx_ns[1]);
	CHECK_MSG(acc->net_tx_ns[0] == c->tx0, "%s: tx0 %llu", c->name, (unsigned long long)acc->net_tx_ns[0]);
	free(acc);
}

static void test_acc_cases(void)
{
	struct nb_trace_layout l = fixture_layout();

	for (size_t i = 0; i < sizeof(acc_cases) / sizeof(acc_cases[0]); i++)
		run_acc_case(&l, &acc_cases[i]);
}

static void test_metrics(void)
{
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	struct nb_metric_set m = { 0 };
	double v;

	/* no polls: rates present, per-poll figures absent (undefined, not 0) */
	nb_trace_acc_reset(acc, 2, 1000);
	acc->net_rx_ns[1] = 500000000;
	nb_trace_acc_finish(acc, 2000000000ULL + 1000);
	nb_trace_acc_metrics(acc, 2.0, -1, &m);
	CHECK(nb_metrics_get(&m, "napi_polls_per_s", &v) && v == 0);
	CHECK(!nb_metrics_get(&m, "napi_packets_per_poll", NULL));
	CHECK(!nb_metrics_get(&m, "napi_budget_exhausted_pct", NULL));
	CHECK(!nb_metrics_get(&m, "hardirqs_per_s", NULL));
	CHECK(nb_metrics_get(&m, "cpu1_net_rx_softirq_ns_per_s", &v));
	CHECK_NEAR(v, 250000000, 1e-3);
	CHECK(nb_metrics_get(&m, "net_rx_softirq_pct", &v));
	CHECK_NEAR(v, 12.5, 1e-9); /* 0.25 s per s over 2 CPUs */

	/* polls and hardirqs; seconds <= 0 uses the traced time */
	memset(&m, 0, sizeof(m));
	acc->polls = 10;
	acc->work = 250;
	acc->budget_exhausted = 3;
	nb_trace_acc_metrics(acc, 0, 4000, &m);
	CHECK(nb_metrics_get(&m, "napi_polls_per_s", &v));
	CHECK_NEAR(v, 5, 1e-9);
	CHECK(nb_metrics_get(&m, "napi_packets_per_poll", &v));
	CHECK_NEAR(v, 25, 1e-9);
	CHECK(nb_metrics_get(&m, "napi_budget_exhausted_pct", &v));
	CHECK_NEAR(v, 30, 1e-9);
	CHECK(nb_metrics_get(&m, "hardirqs_per_s", &v));
	CHECK_NEAR(v, 2000, 1e-9);
	free(acc);
}

/* ---- the recorded window ---- */

static int load_expected(const char *path, const char *key, uint64_t *v)
{
	char line[256], k[128];
	unsigned long long n;
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu", k, &n) == 2 && !strcmp(k, key)) {
			*v = n;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

struct window_meta {
	char iface[32];
	int ncpus;
	unsigned long long t_begin, t_end;
};

static int read_window(const char *path, struct window_meta *w)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return 0;
	ok = fscanf(f, "iface %31s ncpus %d t_begin_ns %llu t_end_ns %llu", w->iface, &w->ncpus, &w->t_begin,
		    &w->t_end) == 4;
	fclose(f);
	return ok;
}

static void check_recorded_profile(struct nb_profile_acc *prof, const char *expected)
{
	struct nb_profile p;
	uint64_t busy = 0, idle = 0;
	char line[256];
	FILE *f = fopen(expected, "r");
	int rank = 0;

	nb_profile_acc_result(prof, &p);
	CHECK(load_expected(expected, "profile_busy", &busy) && p.samples == busy);
	CHECK(load_expected(expected, "profile_idle", &idle));
	CHECK_NEAR(p.idle_pct, 100.0 * (double)idle / (double)(busy + idle), 1e-9);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long n;
		int off = 0;

		if (sscanf(line, "top %llu %n", &n, &off) != 1 || !off)
			continue;
		line[strcspn(line, "\n")] = '\0';
		CHECK_STR(p.top[rank].symbol, line + off);
		CHECK_NEAR(p.top[rank].share_pct, 100.0 * (double)n / (double)busy, 1e-9);
		rank++;
	}
	CHECK(rank == 5);
	if (f)
		fclose(f);
}

static void test_recorded_window(void)
{
	struct nb_trace_layout l = fixture_layout();
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	struct nb_profile_acc *prof = NULL;
	struct nb_kallsyms *ks = NULL;
	struct nb_err err = { 0 };
	struct window_meta w;
	size_t len = 0, off = 0;
	unsigned char *rec = read_all(nb_test_fixture("trace/tcp-rx-threaded0.bin"), &len);
	char expected[1024], name[64];
	uint64_t v;

	snprintf(expected, sizeof(expected), "%s", nb_test_fixture("trace/tcp-rx-threaded0.expected"));
	CHECK(rec != NULL);
	CHECK(read_window(nb_test_fixture("trace/tcp-rx-threaded0.bin.window"), &w));
	CHECK_MSG(nb_kallsyms_load(nb_test_fixture("trace/kallsyms-excerpt"), &ks, &err) == 0, "%s", err.msg);
	CHECK(nb_profile_acc_new(&prof) == 0);
	if (!rec || !ks || !prof)
		goto out;
	nb_trace_acc_reset(acc, w.ncpus, w.t_begin);
	struct nb_trace_feed feed = { .layout = &l, .iface = w.iface, .ksyms = ks, .acc = acc, .prof = prof };

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, rec + off, sizeof(h));
		if (h.size == 0)
			break;
		nb_trace_feed_record(&feed, rec + off, len - off);
		off += h.size;
	}
	CHECK(off == len);
	nb_trace_acc_finish(acc, w.t_end);
	CHECK(load_expected(expected, "polls", &v) && acc->polls == v && v > 0);
	CHECK(load_expected(expected, "work", &v) && acc->work == v);
	CHECK(load_expected(expected, "budget_exhausted", &v) && acc->budget_exhausted == v);
	for (int cpu = 0; cpu < w.ncpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%d_net_rx_ns", cpu);
		CHECK_MSG(load_expected(expected, name, &v) && acc->net_rx_ns[cpu] == v, "%s: %llu", name,
			  (unsigned long long)acc->net_rx_ns[cpu]);
		snprintf(name, sizeof(name), "cpu%d_net_tx_ns", cpu);
		CHECK_MSG(load_expected(expected, name, &v) && acc->net_tx_ns[cpu] == v, "%s", name);
	}
	CHECK(load_expected(expected, "pp_holds", &v) && acc->pp_holds == v);
	CHECK(load_expected(expected, "pp_releases", &v) && acc->pp_releases == v);
	CHECK(acc->lost == 0);
	check_recorded_profile(prof, expected);
out:
	nb_profile_acc_free(prof);
	nb_kallsyms_free(ks);
	free(rec);
	free(acc);
}

static void test_sample_decode(void)
{
	unsigned char body[64] = { 0 };
	struct nb_trace_sample s;
	uint32_t raw_len = 12;

	CHECK(nb_trace_sample_decode(body, 40, &s) == -EINVAL);
	memcpy(body + 40, &raw_len, 4);
	CHECK(nb_trace_sample_decode(body, 50, &s) == -EINVAL); /* raw runs past the record */
	CHECK(nb_trace_sample_decode(body, 56, &s) == 0 && s.raw_len == 12 && s.raw == body + 44);
}

/* ---- reading a ring ---- */

/* One PERF_RECORD_SAMPLE in nicbench's layout, raw padded as the kernel pads it. */
static size_t sample_rec(unsigned char *buf, uint32_t cpu, uint64_t t, const unsigned char *raw, size_t raw_len)
{
	uint32_t size = (uint32_t)((raw_len + 4 + 7) / 8 * 8 - 4), pair[2] = { 1, 1 };
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_KERNEL,
				       .size = (uint16_t)(sizeof(h) + 44 + size) };

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8 + 16, pair, 8);
	memcpy(buf + 8 + 24, &t, 8);
	pair[0] = cpu;
	memcpy(buf + 8 + 32, pair, 8);
	memcpy(buf + 8 + 40, &size, 4);
	memcpy(buf + 8 + 44, raw, raw_len);
	return h.size;
}

static size_t lost_rec(unsigned char *buf, uint64_t lost)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 24 };

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 16, &lost, 8);
	return h.size;
}

/* softirq entry, a poll that takes 88 bytes, exit, a LOST record: 240 bytes */
static size_t ring_stream(unsigned char *buf, const struct nb_trace_layout *l, uint64_t base)
{
	unsigned char raw[64];
	size_t n = 0;

	n += sample_rec(buf + n, 0, base + 100, raw, softirq_raw(raw, l, 1, 3));
	n += sample_rec(buf + n, 0, base + 200, raw, napi_raw(raw, l, "eth0", 7, 64));
	n += sample_rec(buf + n, 0, base + 400, raw, softirq_raw(raw, l, 0, 3));
	n += lost_rec(buf + n, 2);
	return n;
}

static void test_ring_feed(void)
{
	struct nb_trace_layout l = fixture_layout();
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	struct nb_trace_feed feed = { .layout = &l, .iface = "eth0", .acc = acc };
	const uint64_t base = 5000000000ULL, lap = 7 * 256;
	unsigned char stream[256], ring[256], scratch[256];
	size_t n = ring_stream(stream, &l, base);
	int bad = 0;

	CHECK(n == 240);
	/* every start offset: bodies and (in a corrupt ring only) headers split at the end */
	for (uint64_t off = 0; off < sizeof(ring); off++) {
		uint64_t tail = lap + off, end;
		char *out = NULL;
		size_t out_len = 0;
		FILE *rec = open_memstream(&out, &out_len);

		memset(ring, 0xee, sizeof(ring));
		for (size_t i = 0; i < n; i++)
			ring[(off + i) % sizeof(ring)] = stream[i];
		nb_trace_acc_reset(acc, 2, base);
		end = nb_trace_ring_feed(&feed, ring, sizeof(ring), tail, tail + n, scratch, rec);
		fclose(rec);
		if (end != tail + n || acc->records != 3 || acc->polls != 1 || acc->work != 7 ||
		    acc->net_rx_ns[0] != 300 || acc->lost != 2 || out_len != n || memcmp(out, stream, n))
			bad++;
		free(out);
	}
	CHECK_MSG(bad == 0, "%d of 256 start offsets fed wrong", bad);

	/* a record past head (not yet published) and a zero size stop the walk there */
	nb_trace_acc_reset(acc, 2, base);
	memcpy(ring, stream, n);
	CHECK(nb_trace_ring_feed(&feed, ring, sizeof(ring), lap, lap + 64 + 40, scratch, NULL) == lap + 64);
	CHECK(acc->records == 1);
	memset(ring + 64, 0, 8);
	CHECK(nb_trace_ring_feed(&feed, ring, sizeof(ring), lap, lap + n, scratch, NULL) == lap + 64);
	free(acc);
}

/* ---- IRQs ---- */

struct irq_case {
	const char *iface;
	int n;
	const char *filter;
};

static const struct irq_case irq_cases[] = {
	{ "eth7", 3, "irq == 64 || irq == 65 || irq == 66" }, /* not eth70's */
	{ "eth70", 1, "irq == 67" },
	{ "virtio0", 5, "irq == 28 || irq == 29 || irq == 30 || irq == 31 || irq == 32" },
	{ "lo", 0, "" },
	{ "ttyS", 0, "" },                                    /* "ttyS0" is not ttyS's */
};

static void test_irq_filter(void)
{
	char proc[1024], sys[1024], filter[512];
	struct nb_err err = { 0 };

	snprintf(proc, sizeof(proc), "%s", nb_test_fixture("trace/proc"));
	snprintf(sys, sizeof(sys), "%s", nb_test_fixture("trace/sys"));
	struct nb_paths paths = { .proc = proc, .sys = sys };

	for (size_t i = 0; i < sizeof(irq_cases) / sizeof(irq_cases[0]); i++) {
		int n = nb_trace_irq_filter(&paths, irq_cases[i].iface, NULL, filter, sizeof(filter), &err);

		CHECK_MSG(n == irq_cases[i].n, "%s: %d IRQs", irq_cases[i].iface, n);
		CHECK_STR(filter, irq_cases[i].filter);
	}
	/* the board's patterns alone decide, as for the sampler (lantiq's vrx200_rx names no interface) */
	CHECK(nb_trace_irq_filter(&paths, "eth7", "rx:virtio4-input tx:eth70-TxRx-*", filter, sizeof(filter), &err) == 2);
	CHECK_STR(filter, "irq == 34 || irq == 67");
	CHECK(nb_trace_irq_filter(&paths, "eth7", NULL, filter, 20, &err) == -ENOSPC);
	CHECK(nb_trace_irq_filter(&paths, "bad/name", NULL, filter, sizeof(filter), &err) == -EINVAL);
}

/* ---- the module without tracefs ---- */

static void test_unavailable(void)
{
	char proc[1024], sys[1024];
	struct nb_err err = { 0 };
	struct nb_metric_set m = { 0 };
	struct nb_profile p;
	struct nb_trace *t = NULL;

	snprintf(proc, sizeof(proc), "%s", nb_test_fixture("trace/proc"));
	snprintf(sys, sizeof(sys), "%s", nb_test_fixture("trace/sys"));
	struct nb_paths paths = { .proc = proc, .sys = sys };
	struct nb_trace_opts o = { .paths = &paths, .iface = "eth7", .profile = true };

	CHECK(nb_trace_open(&o, &t, &err) == 0 && t);
	CHECK(nb_trace_unavailable_reason(t) && strstr(nb_trace_unavailable_reason(t), "tracefs not found"));
	CHECK(nb_trace_profile_unavailable_reason(t) != NULL);
	CHECK(nb_trace_begin(t, &err) == 0);
	p.n = 7;
	CHECK(nb_trace_end(t, 2.0, &m, &p, &err) == 0);
	CHECK(m.n == 0 && p.n == 0);
	nb_trace_close(t);
	nb_trace_close(NULL);

	o.iface = "no/such";
	CHECK(nb_trace_open(&o, &t, &err) == -EINVAL && t == NULL);
}

/* page_pool's tracepoints in this machine's 6.18 format files (tests/fixtures/trace/events/page_pool):
 * a page a pool took from the page allocator (state_hold) or gave back (state_release), counted per
 * window and per pool, and the recycling that implies against the interface's polled packets. */
static size_t pp_raw(unsigned char *buf, const struct nb_trace_layout *l, bool hold, uint64_t pool, uint32_t count)
{
	uint16_t type = (uint16_t)(hold ? l->pp_hold_id : l->pp_release_id);

	memset(buf, 0, 40);
	memcpy(buf, &type, 2);
	memcpy(buf + (hold ? l->pp_hold_pool_off : l->pp_release_pool_off), &pool, 8);
	memcpy(buf + 24, &count, 4); /* hold / release, the pool's running count */
	return 40;
}

static void test_page_pool(void)
{
	struct nb_trace_layout l = fixture_layout(), none;
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	struct nb_metric_set m = { 0 };
	const uint64_t pool_a = 0xffff888104a1c000ULL, pool_b = 0xffff888104a1d800ULL, base = 1000000000ULL;
	unsigned char raw[64];
	double v;
	size_t n;

	CHECK(l.pp_hold_id == read_id("trace/events/page_pool/page_pool_state_hold/id"));
	CHECK(l.pp_release_id == read_id("trace/events/page_pool/page_pool_state_release/id"));
	/* as the 6.18 format files state them: the pool pointer at 8, 8 bytes, in both */
	CHECK(l.pp_hold_pool_off == 8 && l.pp_release_pool_off == 8 && l.pp_pool_size == 8 && !l.pp_why[0]);
	if (!acc)
		return;
	nb_trace_acc_reset(acc, 2, base);
	acc->pp_on = true;
	for (uint32_t i = 0; i < 5; i++) {
		n = pp_raw(raw, &l, true, pool_a, 100 + i);
		nb_trace_acc_raw(acc, &l, "eth0", (int)(i % 2), base + i, raw, n);
	}
	for (uint32_t i = 0; i < 2; i++) {
		n = pp_raw(raw, &l, true, pool_b, i);
		nb_trace_acc_raw(acc, &l, "eth0", 0, base + 10 + i, raw, n);
	}
	for (uint32_t i = 0; i < 3; i++) {
		n = pp_raw(raw, &l, false, pool_a, 40 + i);
		nb_trace_acc_raw(acc, &l, "eth0", 1, base + 20 + i, raw, n);
	}
	n = napi_raw(raw, &l, "eth0", 64, 64);
	nb_trace_acc_raw(acc, &l, "eth0", 0, base + 30, raw, n);
	n = napi_raw(raw, &l, "eth0", 36, 64);
	nb_trace_acc_raw(acc, &l, "eth0", 1, base + 31, raw, n);
	/* a truncated record is not counted */
	n = pp_raw(raw, &l, true, pool_a, 200);
	nb_trace_acc_raw(acc, &l, "eth0", 0, base + 40, raw, 10);
	nb_trace_acc_finish(acc, base + 1000000000ULL);
	CHECK(acc->pp_holds == 7 && acc->pp_releases == 3 && acc->pp_npools == 2 && acc->work == 100);
	nb_trace_acc_metrics(acc, 1.0, -1, &m);
	CHECK(nb_metrics_get(&m, "pp_trace_alloc_pages", &v) && v == 7);
	CHECK(nb_metrics_get(&m, "pp_trace_release_pages", &v) && v == 3);
	CHECK(nb_metrics_get(&m, "pp_trace_inflight_change", &v) && v == 4);
	CHECK(nb_metrics_get(&m, "pp_trace_pools", &v) && v == 2);
	CHECK(nb_metrics_get(&m, "pp_trace_recycle_pct", &v) && fabs(v - 93.0) < 1e-9);
	/* a window without the events: no page_pool metric at all, not zeros */
	m = (struct nb_metric_set){ 0 };
	nb_trace_acc_reset(acc, 2, base);
	nb_trace_acc_finish(acc, base + 1000000000ULL);
	nb_trace_acc_metrics(acc, 1.0, -1, &m);
	CHECK(!nb_metrics_get(&m, "pp_trace_alloc_pages", &v));
	free(acc);
	/* a kernel without the tracepoints: absent with why */
	CHECK(nb_trace_pp_layout_load("/nonexistent/events", &none) < 0);
	CHECK(none.pp_hold_id < 0 && strstr(none.pp_why, "no page_pool tracepoints") && strstr(none.pp_why, "CONFIG_PAGE_POOL"));
}

/* A perf sample of page_pool_state_hold/_release as a 32-bit kernel writes it: its 24-byte record
 * (the pool pointer 4 bytes at 8, per the format file) padded so the sample stays 8-byte aligned. */
static size_t pp_sample_armhf(unsigned char *buf, const struct nb_trace_layout *l, bool hold, uint32_t pool,
			      uint32_t cpu, uint64_t time_ns)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_KERNEL, .size = 80 };
	uint16_t type = (uint16_t)(hold ? l->pp_hold_id : l->pp_release_id);
	uint32_t raw_len = 28, zero = 0;
	uint64_t id = 7, ip = 0xc0a01234;

	memset(buf, 0, 80);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, &ip, 8);
	memcpy(buf + 24, &zero, 4);
	memcpy(buf + 32, &time_ns, 8);
	memcpy(buf + 40, &cpu, 4);
	memcpy(buf + 48, &raw_len, 4);
	memcpy(buf + 52, &type, 2);
	memcpy(buf + 52 + (hold ? l->pp_hold_pool_off : l->pp_release_pool_off), &pool, 4);
	return 80;
}

/* A window recorded on a 32-bit kernel (tests/fixtures/trace-armhf: the QEMU SABRE Lite's fec under
 * Debian's 6.12 armmp, pinged) with that kernel's format files: 4-byte pointers move dev_name, work and
 * budget and shrink page_pool's pool field. Read through the ring walk, as live windows are, with
 * page_pool samples of that layout after the recorded ones: every tracepoint a window opens must
 * reach the accumulator (page_pool's went to the profile, so no window ever had pp_trace_*). */
static void test_recorded_armhf(void)
{
	struct nb_trace_layout l;
	struct nb_trace_acc *acc = calloc(1, sizeof(*acc));
	struct nb_err err = { 0 };
	struct window_meta w;
	struct nb_metric_set m = { 0 };
	size_t len = 0, used;
	unsigned char *rec = read_all(nb_test_fixture("trace-armhf/rec.bin"), &len), *ring = NULL, *scratch = NULL;
	char expected[1024], events[1024];
	uint64_t v, size = 1;
	double d;

	snprintf(expected, sizeof(expected), "%s", nb_test_fixture("trace-armhf/rec.expected"));
	snprintf(events, sizeof(events), "%s", nb_test_fixture("trace-armhf/events"));
	CHECK_MSG(nb_trace_layout_load(events, &l, &err) == 0, "%s", err.msg);
	/* as the armhf format files state them */
	CHECK(l.napi_dev_name_off == 12 && l.napi_work_off == 16 && l.napi_budget_off == 20);
	CHECK(l.pp_hold_id == read_id("trace-armhf/events/page_pool/page_pool_state_hold/id"));
	CHECK(l.pp_hold_pool_off == 8 && l.pp_release_pool_off == 8 && l.pp_pool_size == 4 && !l.pp_why[0]);
	CHECK(rec != NULL && read_window(nb_test_fixture("trace-armhf/rec.bin.window"), &w));
	if (!rec || !acc)
		goto out;
	/* the records, then 7 holds and 3 releases of two pools, in a ring of the next power of two */
	while (size < len + 10 * 80)
		size *= 2;
	ring = calloc(1, (size_t)size);
	scratch = malloc(65536);
	if (!ring || !scratch)
		goto out;
	memcpy(ring, rec, len);
	used = len;
	for (int i = 0; i < 10; i++)
		used += pp_sample_armhf(ring + used, &l, i < 7, i < 5 ? 0xc3a1c000u : 0xc3a1d800u, (uint32_t)(i % 2),
					w.t_begin + 1000 + (uint64_t)i);
	nb_trace_acc_reset(acc, w.ncpus, w.t_begin);
	acc->pp_on = true;
	struct nb_trace_feed feed = { .layout = &l, .iface = w.iface, .acc = acc };

	CHECK(nb_trace_ring_feed(&feed, ring, size, 0, used, scratch, NULL) == used);
	nb_trace_acc_finish(acc, w.t_end);
	CHECK(load_expected(expected, "polls", &v) && acc->polls == v && v > 0);
	CHECK(load_expected(expected, "work", &v) && acc->work == v);
	CHECK(load_expected(expected, "budget_exhausted", &v) && acc->budget_exhausted == v);
	CHECK(load_expected(expected, "cpu0_net_rx_ns", &v) && acc->net_rx_ns[0] == v && v > 0);
	CHECK(load_expected(expected, "cpu1_net_rx_ns", &v) && acc->net_rx_ns[1] == v);
	/* the recording's own page_pool events (make_expected.py) and the 10 appended */
	CHECK(load_expected(expected, "pp_holds", &v) && acc->pp_holds == v + 7);
	CHECK(load_expected(expected, "pp_releases", &v) && acc->pp_releases == v + 3);
	CHECK_MSG(acc->pp_npools == 2, "%d pools", acc->pp_npools);
	nb_trace_acc_metrics(acc, 0, -1, &m);
	CHECK(nb_metrics_get(&m, "pp_trace_alloc_pages", &d) && d == (double)acc->pp_holds);
	CHECK(nb_metrics_get(&m, "pp_trace_release_pages", &d) && d == (double)acc->pp_releases);
	CHECK(nb_metrics_get(&m, "pp_trace_pools", &d) && d == 2);
out:
	free(scratch);
	free(ring);
	free(rec);
	free(acc);
}

int main(void)
{
	test_recorded_armhf();
	test_page_pool();
	test_layout();
	test_acc_cases();
	test_metrics();
	test_recorded_window();
	test_sample_decode();
	test_ring_feed();
	test_irq_filter();
	test_unavailable();
	return nb_test_done("napi_trace");
}
