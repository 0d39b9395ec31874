// SPDX-License-Identifier: MIT
/* The pure side of tracing: tracepoint layouts from tracefs format files, perf sample
 * decoding, the per-window accumulators and the ring walk. No perf_event_open, no clocks:
 * tests feed it recorded samples (tests/fixtures/trace); napi_trace.c feeds it live rings. */
#include "sampling/trace_decode.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/metric_table.h"

#if NB_HAVE_TRACEEVENT
#include <traceevent/event-parse.h>
#endif

#define SOFTIRQ_NET_TX 2
#define SOFTIRQ_NET_RX 3

/* ---- tracepoint layouts ---- */

#if NB_HAVE_TRACEEVENT
static int read_whole(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 16384, used = 0;
	char *p;

	if (!f)
		return -errno;
	p = malloc(cap);
	while (p && (used += fread(p + used, 1, cap - used, f)) == cap) {
		char *q = realloc(p, cap * 2);

		if (!q)
			free(p);
		p = q;
		cap *= 2;
	}
	fclose(f);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*len = used;
	return 0;
}

/* Parse one event's format; returns its id, or -errno when the event is missing. */
static int layout_event(struct tep_handle *tep, const char *events_dir, const char *sys, const char *name,
			struct tep_event **ev)
{
	char path[512];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s/%s/format", events_dir, sys, name);
	rc = read_whole(path, &buf, &len);
	if (rc < 0)
		return rc;
	rc = tep_parse_format(tep, ev, buf, len, sys) == 0 ? (*ev)->id : -EINVAL;
	free(buf);
	return rc;
}

static int field_offset(struct tep_event *ev, const char *name, int size)
{
	struct tep_format_field *f = ev ? tep_find_field(ev, name) : NULL;

	if (!f || (size && f->size != size))
		return -1;
	return f->offset;
}

int nb_trace_pp_layout_load(const char *events_dir, struct nb_trace_layout *l)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *hold = NULL, *release = NULL;
	struct tep_format_field *fh, *fr;

	l->pp_hold_id = l->pp_release_id = -1;
	l->pp_hold_pool_off = l->pp_release_pool_off = -1;
	if (!tep) {
		snprintf(l->pp_why, sizeof(l->pp_why), "parse the page_pool tracepoints: out of memory");
		return -ENOMEM;
	}
	l->pp_hold_id = layout_event(tep, events_dir, "page_pool", "page_pool_state_hold", &hold);
	l->pp_release_id = layout_event(tep, events_dir, "page_pool", "page_pool_state_release", &release);
	fh = l->pp_hold_id > 0 ? tep_find_field(hold, "pool") : NULL;
	fr = l->pp_release_id > 0 ? tep_find_field(release, "pool") : NULL;
	if (fh && fr && fh->size == fr->size && (fh->size == 4 || fh->size == 8)) {
		l->pp_hold_pool_off = fh->offset;
		l->pp_release_pool_off = fr->offset;
		l->pp_pool_size = fh->size;
	}
	tep_free(tep);
	if (l->pp_hold_id < 0 || l->pp_release_id < 0) {
		int e = l->pp_hold_id < 0 ? -l->pp_hold_id : -l->pp_release_id;

		snprintf(l->pp_why, sizeof(l->pp_why),
			 "no page_pool tracepoints in %s (%s): a kernel without CONFIG_PAGE_POOL, or before 4.18",
			 events_dir, strerror(e));
		l->pp_hold_id = l->pp_release_id = -1;
		return -e;
	}
	if (l->pp_hold_pool_off < 0) {
		snprintf(l->pp_why, sizeof(l->pp_why), "page_pool tracepoints in %s: no pool field of 4 or 8 bytes",
			 events_dir);
		l->pp_hold_id = l->pp_release_id = -1;
		return -EINVAL;
	}
	l->pp_why[0] = '\0';
	return 0;
}

int nb_trace_layout_load(const char *events_dir, struct nb_trace_layout *l, struct nb_err *err)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *napi = NULL, *entry = NULL, *exit_ev = NULL, *irq = NULL;

	if (!tep)
		return nb_err_set(err, -ENOMEM, "parse tracepoint formats in %s: out of memory", events_dir);
	nb_trace_pp_layout_load(events_dir, l); /* optional: its absence is said, tracing goes on */
	l->napi_poll_id = layout_event(tep, events_dir, "napi", "napi_poll", &napi);
	l->softirq_entry_id = layout_event(tep, events_dir, "irq", "softirq_entry", &entry);
	l->softirq_exit_id = layout_event(tep, events_dir, "irq", "softirq_exit", &exit_ev);
	l->irq_handler_entry_id = layout_event(tep, events_dir, "irq", "irq_handler_entry", &irq);
	l->napi_dev_name_off = field_offset(l->napi_poll_id > 0 ? napi : NULL, "dev_name", 4);
	l->napi_work_off = field_offset(l->napi_poll_id > 0 ? napi : NULL, "work", 4);
	l->napi_budget_off = field_offset(l->napi_poll_id > 0 ? napi : NULL, "budget", 4);
	l->softirq_vec_off = field_offset(l->softirq_entry_id > 0 ? entry : NULL, "vec", 4);
	if (l->softirq_exit_id > 0 && field_offset(exit_ev, "vec", 4) != l->softirq_vec_off)
		l->softirq_exit_id = -EINVAL; /* pairing assumes one layout for entry and exit */
	tep_free(tep);
	if (l->napi_poll_id < 0 || l->napi_dev_name_off < 0 || l->napi_work_off < 0 || l->napi_budget_off < 0)
		return nb_err_set(err, l->napi_poll_id < 0 ? l->napi_poll_id : -EINVAL,
				  "read tracepoint napi:napi_poll in %s: %s", events_dir,
				  l->napi_poll_id < 0 ? strerror(-l->napi_poll_id) : "no int work/budget or dev_name field");
	if (l->softirq_entry_id < 0 || l->softirq_exit_id < 0 || l->softirq_vec_off < 0)
		return nb_err_set(err, -ENOENT, "read tracepoints irq:softirq_entry/exit in %s: missing or unexpected format",
				  events_dir);
	return 0;
}
#else
/* A build without libtraceevent (a board's sysroot that lacks it, CMake's NICBENCH_TRACEEVENT):
 * no tracepoint format is parsed, so tracing is off and says why. */
int nb_trace_layout_load(const char *events_dir, struct nb_trace_layout *l, struct nb_err *err)
{
	l->napi_poll_id = l->softirq_entry_id = l->softirq_exit_id = l->irq_handler_entry_id = -1;
	l->napi_dev_name_off = l->napi_work_off = l->napi_budget_off = l->softirq_vec_off = -1;
	return nb_err_set(err, -ENOTSUP,
			  "read tracepoint formats in %s: this nicbench was built without libtraceevent "
			  "(NICBENCH_TRACEEVENT), so it has no tracepoint diagnostics", events_dir);
}
#endif

/* ---- the accumulator (pure) ---- */

void nb_trace_acc_reset(struct nb_trace_acc *acc, int ncpus, uint64_t t_begin_ns)
{
	memset(acc, 0, sizeof(*acc));
	acc->ncpus = ncpus > NB_TRACE_MAX_CPUS ? NB_TRACE_MAX_CPUS : ncpus;
	acc->t_begin_ns = t_begin_ns;
}

static int32_t raw_i32(const unsigned char *raw, int off)
{
	int32_t v;

	memcpy(&v, raw + off, sizeof(v));
	return v;
}

static bool napi_dev_is(const unsigned char *raw, size_t len, int loc_off, const char *iface)
{
	uint32_t loc = (uint32_t)raw_i32(raw, loc_off);
	size_t off = loc & 0xffff, n = loc >> 16;

	if (off + n > len)
		return false;
	/* One pass, no strlen per poll: the name may end at n or at a NUL before it. */
	for (size_t i = 0; i < n; i++) {
		if (!iface[i])
			return raw[off + i] == '\0';
		if (raw[off + i] != (unsigned char)iface[i])
			return false;
	}
	return iface[n] == '\0';
}

static void acc_napi(struct nb_trace_acc *acc, const struct nb_trace_layout *l, const char *iface,
		     const unsigned char *raw, size_t len)
{
	int32_t work, budget;

	if ((size_t)l->napi_budget_off + 4 > len || (size_t)l->napi_dev_name_off + 4 > len)
		return;
	if (!napi_dev_is(raw, len, l->napi_dev_name_off, iface)) {
		acc->other_dev_polls++;
		return;
	}
	work = raw_i32(raw, l->napi_work_off);
	budget = raw_i32(raw, l->napi_budget_off);
	acc->polls++;
	acc->work += work > 0 ? (uint64_t)work : 0;
	if (budget > 0 && work >= budget)
		acc->budget_exhausted++;
}

static void acc_softirq_add(struct nb_trace_acc *acc, int cpu, int vec, uint64_t ns)
{
	if (vec == SOFTIRQ_NET_RX)
		acc->net_rx_ns[cpu] += ns;
	else
		acc->net_tx_ns[cpu] += ns;
}

static void acc_softirq(struct nb_trace_acc *acc, bool entry, int cpu, int vec, uint64_t t)
{
	if (vec != SOFTIRQ_NET_RX && vec != SOFTIRQ_NET_TX)
		return;
	if (t < acc->t_begin_ns)
		t = acc->t_begin_ns;
	if (entry) {
		/* A second entry without exit means records were lost: drop the open one. */
		acc->open_since[cpu] = t;
		acc->open_vec[cpu] = vec;
	} else if (acc->open_since[cpu] && acc->open_vec[cpu] == vec) {
		acc_softirq_add(acc, cpu, vec, t - acc->open_since[cpu]);
		acc->open_since[cpu] = 0;
	} else if (!acc->softirq_seen[cpu]) {
		/* It was already running when the window opened. */
		acc_softirq_add(acc, cpu, vec, t - acc->t_begin_ns);
	}
	acc->softirq_seen[cpu] = 1;
}

/* One page taken from (hold) or given back to (release) the page allocator by a pool. The
 * tracepoints name the pool, not the device: every pool of the machine is counted. */
static void acc_page_pool(struct nb_trace_acc *acc, const struct nb_trace_layout *l, bool hold,
			  const unsigned char *r, size_t len)
{
	int off = hold ? l->pp_hold_pool_off : l->pp_release_pool_off;
	uint64_t pool = 0;

	if (off < 0 || (size_t)off + (size_t)l->pp_pool_size > len)
		return;
	if (l->pp_pool_size == 8) {
		memcpy(&pool, r + off, 8);
	} else {
		uint32_t p32;

		memcpy(&p32, r + off, 4);
		pool = p32;
	}
	if (hold)
		acc->pp_holds++;
	else
		acc->pp_releases++;
	for (int i = 0; i < acc->pp_npools; i++)
		if (acc->pp_pool[i] == pool)
			return;
	if (acc->pp_npools < NB_TRACE_PP_POOLS)
		acc->pp_pool[acc->pp_npools++] = pool;
}

void nb_trace_acc_raw(struct nb_trace_acc *acc, const struct nb_trace_layout *l, const char *iface,
		      int cpu, uint64_t time_ns, const void *raw, size_t len)
{
	const unsigned char *r = raw;
	uint16_t type;

	if (len < 2 || cpu < 0 || cpu >= acc->ncpus)
		return;
	memcpy(&type, r, sizeof(type));
	acc->records++;
	if (type == l->napi_poll_id) {
		acc_napi(acc, l, iface, r, len);
	} else if ((type == l->softirq_entry_id || type == l->softirq_exit_id) &&
		   (size_t)l->softirq_vec_off + 4 <= len) {
		acc_softirq(acc, type == l->softirq_entry_id, cpu, raw_i32(r, l->softirq_vec_off), time_ns);
	} else if (l->pp_hold_id > 0 && (type == l->pp_hold_id || type == l->pp_release_id)) {
		acc_page_pool(acc, l, type == l->pp_hold_id, r, len);
	}
}

void nb_trace_acc_finish(struct nb_trace_acc *acc, uint64_t t_end_ns)
{
	acc->t_end_ns = t_end_ns;
	for (int cpu = 0; cpu < acc->ncpus; cpu++) {
		if (acc->open_since[cpu] && t_end_ns > acc->open_since[cpu])
			acc_softirq_add(acc, cpu, acc->open_vec[cpu], t_end_ns - acc->open_since[cpu]);
		acc->open_since[cpu] = 0;
	}
}

static void put_softirq_metrics(const struct nb_trace_acc *acc, double seconds, struct nb_metric_set *out)
{
	double rx = 0, tx = 0;
	char name[NB_METRIC_NAME_MAX];

	/* per CPU for NET_RX only: the metric set is shared with the sampler's per-CPU figures */
	for (int cpu = 0; cpu < acc->ncpus; cpu++) {
		rx += (double)acc->net_rx_ns[cpu];
		tx += (double)acc->net_tx_ns[cpu];
		nb_metric_name_n(name, sizeof(name), NB_M_CPU_N_NET_RX_SOFTIRQ_NS_PER_S, cpu);
		nb_metrics_put(out, name, (double)acc->net_rx_ns[cpu] / seconds);
	}
	nb_metrics_put(out, NB_M_NET_RX_SOFTIRQ_NS_PER_S, rx / seconds);
	nb_metrics_put(out, NB_M_NET_TX_SOFTIRQ_NS_PER_S, tx / seconds);
	if (acc->ncpus > 0)
		nb_metrics_put(out, NB_M_NET_RX_SOFTIRQ_PCT, 100.0 * rx / seconds / 1e9 / acc->ncpus);
}

void nb_trace_acc_metrics(const struct nb_trace_acc *acc, double seconds, double hardirqs,
			  struct nb_metric_set *out)
{
	if (seconds <= 0)
		seconds = (double)(acc->t_end_ns - acc->t_begin_ns) / 1e9;
	if (seconds <= 0)
		return;
	nb_metrics_put(out, NB_M_NAPI_POLLS_PER_S, (double)acc->polls / seconds);
	if (acc->polls > 0) {
		nb_metrics_put(out, NB_M_NAPI_PACKETS_PER_POLL, (double)acc->work / (double)acc->polls);
		nb_metrics_put(out, NB_M_NAPI_BUDGET_EXHAUSTED_PCT,
			       100.0 * (double)acc->budget_exhausted / (double)acc->polls);
	}
	if (hardirqs >= 0)
		nb_metrics_put(out, NB_M_HARDIRQS_PER_S, hardirqs / seconds);
	put_softirq_metrics(acc, seconds, out);
	nb_metrics_put(out, NB_M_TRACE_LOST_SAMPLES, (double)acc->lost);
	/* no event: no pool took or gave back a page (none on the machine, or every page recycled): absent,
	 * since 0 taken would read as 100% recycled for a driver without a pool */
	if (acc->pp_on && acc->pp_npools > 0) {
		nb_metrics_put(out, NB_M_PP_TRACE_ALLOC_PAGES, (double)acc->pp_holds);
		nb_metrics_put(out, NB_M_PP_TRACE_RELEASE_PAGES, (double)acc->pp_releases);
		nb_metrics_put(out, NB_M_PP_TRACE_INFLIGHT_CHANGE, (double)acc->pp_holds - (double)acc->pp_releases);
		nb_metrics_put(out, NB_M_PP_TRACE_POOLS, (double)acc->pp_npools);
		/* a page a packet: what the pools did not take from the page allocator came recycled */
		if (acc->work > 0)
			nb_metrics_put(out, NB_M_PP_TRACE_RECYCLE_PCT,
				       fmax(0.0, 100.0 * (1.0 - (double)acc->pp_holds / (double)acc->work)));
	}
}

/* ---- perf records ---- */

/* The fields every sample starts with: IDENTIFIER, IP, TID (pid, tid), TIME, CPU (cpu, res). */
static void decode_head(const unsigned char *p, struct nb_trace_sample *s)
{
	uint32_t pair[2];

	memcpy(&s->id, p, 8);
	memcpy(&s->ip, p + 8, 8);
	memcpy(pair, p + 16, 8);
	s->pid = pair[0];
	s->tid = pair[1];
	memcpy(&s->time_ns, p + 24, 8);
	memcpy(pair, p + 32, 8);
	s->cpu = pair[0];
}

int nb_trace_sample_decode(const void *body, size_t len, struct nb_trace_sample *s)
{
	const unsigned char *p = body;

	/* IDENTIFIER, IP, TID (pid, tid), TIME, CPU (cpu, res), RAW (size + data) */
	if (len < 5 * 8 + 4)
		return -EINVAL;
	decode_head(p, s);
	memcpy(&s->raw_len, p + 40, 4);
	if ((size_t)s->raw_len > len - 44)
		return -EINVAL;
	s->raw = s->raw_len ? p + 44 : NULL;
	s->chain = NULL;
	s->chain_n = 0;
	return 0;
}

int nb_trace_sample_decode_chain(const void *body, size_t len, struct nb_trace_sample *s)
{
	const unsigned char *p = body;
	uint64_t nr;
	size_t raw_at;

	/* IDENTIFIER, IP, TID, TIME, CPU, CALLCHAIN (nr + ips), RAW (size + data) */
	if (len < 6 * 8)
		return -EINVAL;
	memcpy(&nr, p + 40, 8);
	if (nr > (len - 48) / 8)
		return -EINVAL;
	raw_at = 48 + (size_t)nr * 8;
	decode_head(p, s);
	s->chain = p + 48;
	s->chain_n = (uint32_t)nr;
	s->raw = NULL;
	s->raw_len = 0;
	if (len - raw_at >= 4) {
		memcpy(&s->raw_len, p + raw_at, 4);
		if ((size_t)s->raw_len > len - raw_at - 4)
			return -EINVAL;
		s->raw = s->raw_len ? p + raw_at + 4 : NULL;
	}
	return 0;
}

int nb_trace_chain_frames(const struct nb_trace_sample *s, const struct nb_kallsyms *ksyms, const char **frames,
			  int max)
{
	bool kernel = true;
	int n = 0;

	for (uint32_t i = 0; i < s->chain_n && n < max; i++) {
		uint64_t addr;

		memcpy(&addr, s->chain + 8 * (size_t)i, 8);
		if (addr >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = addr == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (kernel)
			frames[n++] = nb_kallsyms_lookup(ksyms, addr);
	}
	return n;
}

static bool raw_is_tracepoint(const struct nb_trace_layout *l, const struct nb_trace_sample *s)
{
	uint16_t type;

	if (!s->raw || s->raw_len < 8)
		return false;
	memcpy(&type, s->raw, sizeof(type));
	if (type == 0)
		return false;
	/* page_pool's too: left out, its samples went to the profile and no window ever had its figures */
	return type == l->napi_poll_id || type == l->softirq_entry_id || type == l->softirq_exit_id ||
	       (l->pp_hold_id > 0 && (type == l->pp_hold_id || type == l->pp_release_id));
}

/* One more than the kept depth, so that a cut chain is seen to be cut. */
static void feed_stack(const struct nb_trace_feed *f, const struct nb_trace_sample *s)
{
	const char *frames[NB_STACK_MAX_DEPTH + 1];
	int n = nb_trace_chain_frames(s, f->ksyms, frames, NB_STACK_MAX_DEPTH + 1);

	if (n == 0) {
		frames[0] = nb_kallsyms_lookup(f->ksyms, s->ip);
		n = 1;
	}
	nb_stack_acc_add(f->stacks, frames, n, (int)s->pid);
}

static bool sample_has_chain(const struct nb_trace_feed *f, const unsigned char *body)
{
	uint64_t id;

	if (!f->n_chain_ids)
		return false;
	memcpy(&id, body, sizeof(id));
	for (int i = 0; i < f->n_chain_ids; i++) {
		if (f->chain_ids[i] == id)
			return true;
	}
	return false;
}

static void feed_profile(const struct nb_trace_feed *f, uint16_t misc, const struct nb_trace_sample *s)
{
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	char comm[32];

	if (!f->prof || !f->ksyms)
		return;
	if (mode == PERF_RECORD_MISC_KERNEL) {
		nb_profile_acc_add_kernel(f->prof, nb_kallsyms_lookup(f->ksyms, s->ip), (int)s->pid);
		if (f->stacks && s->chain_n)
			feed_stack(f, s);
	} else if (mode == PERF_RECORD_MISC_USER) {
		if (f->comm)
			f->comm(f->comm_ctx, s->pid, comm, sizeof(comm));
		else
			snprintf(comm, sizeof(comm), "pid %" PRIu32, s->pid);
		nb_profile_acc_add_user(f->prof, comm);
		if (f->stacks && s->chain_n) {
			char user[48];
			const char *frame = user;

			snprintf(user, sizeof(user), "[user] %s", comm);
			nb_stack_acc_add(f->stacks, &frame, 1, (int)s->pid);
		}
	}
}

void nb_trace_feed_record(const struct nb_trace_feed *f, const void *rec, size_t len)
{
	const unsigned char *p = rec;
	struct perf_event_header h;
	struct nb_trace_sample s;

	if (len < sizeof(h))
		return;
	memcpy(&h, p, sizeof(h));
	if (h.size > len || h.size < sizeof(h))
		return;
	if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
		uint64_t lost;

		memcpy(&lost, p + sizeof(h) + 8, sizeof(lost));
		f->acc->lost += lost;
		return;
	}
	if (h.type != PERF_RECORD_SAMPLE || h.size < sizeof(h) + 8)
		return;
	if (sample_has_chain(f, p + sizeof(h)) ? nb_trace_sample_decode_chain(p + sizeof(h), h.size - sizeof(h), &s) < 0
					       : nb_trace_sample_decode(p + sizeof(h), h.size - sizeof(h), &s) < 0)
		return;
	if (raw_is_tracepoint(f->layout, &s))
		nb_trace_acc_raw(f->acc, f->layout, f->iface, (int)s.cpu, s.time_ns, s.raw, s.raw_len);
	else
		feed_profile(f, h.misc, &s);
}


uint64_t nb_trace_ring_feed(const struct nb_trace_feed *f, const void *data, uint64_t size, uint64_t tail,
			    uint64_t head, void *scratch, FILE *record)
{
	const unsigned char *d = data;
	uint64_t mask = size - 1;

	while (tail < head) {
		uint64_t off = tail & mask;
		const unsigned char *rec = d + off;
		struct perf_event_header h;

		/* Records are 8-byte aligned, so only a corrupt ring splits a header. */
		if (off + sizeof(h) <= size) {
			memcpy(&h, rec, sizeof(h));
		} else {
			for (size_t i = 0; i < sizeof(h); i++)
				((unsigned char *)&h)[i] = d[(off + i) & mask];
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		if (off + h.size > size) {
			size_t first = (size_t)(size - off);

			memcpy(scratch, rec, first);
			memcpy((unsigned char *)scratch + first, d, h.size - first);
			rec = scratch;
		}
		nb_trace_feed_record(f, rec, h.size);
		if (record)
			fwrite(rec, 1, h.size, record);
		tail += h.size;
	}
	return tail;
}
