// SPDX-License-Identifier: MIT
/* NAPI polls, softirq time, hard IRQs and a sampling profile per window, from per-CPU
 * perf events on tracepoints (so the global tracefs state is never touched). */
#include "sampling/napi_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define RING_DATA_PAGES 1024 /* 4 MiB per CPU: ~60k records, half a second of busy NET_RX softirqs */
/* Power-of-two pages (perf requires it) so ring offsets are a mask, not a division. */
_Static_assert((RING_DATA_PAGES & (RING_DATA_PAGES - 1)) == 0, "RING_DATA_PAGES must be a power of two");
/* The reader wakes when a ring is a quarter full (wakeup_watermark), which leaves three
 * quarters, ~0.4 s of busy softirqs, for it to get the CPU: the timeout is only a fallback,
 * and nb_trace_end drains the rest. A short one costs a wake-up per period on idle links. */
#define DRAIN_POLL_MS 1000
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_CPU | PERF_SAMPLE_RAW)
#define COMM_CACHE 256

struct trace_cpu {
	int cpu;
	int ring_fd; /* napi:napi_poll; owns the ring the others write to */
	int softirq_entry_fd, softirq_exit_fd, profile_fd, irq_fd;
	int pp_hold_fd, pp_release_fd; /* page_pool tracepoints, -1: not open */
	void *ring;
	size_t ring_len;
};

struct comm_entry {
	uint32_t pid;
	char comm[24];
};

struct nb_trace {
	char iface[32];
	char proc[256];
	char tracefs[300];
	bool mounted_tracefs;
	char reason[512], profile_reason[512], notes[512];
	struct nb_trace_layout layout;
	int ncpus;
	struct trace_cpu *cpus;
	struct nb_kallsyms *ksyms;
	struct nb_profile_acc *prof;
	struct nb_stack_acc *stacks; /* call chains; NULL: not asked for or not available */
	char stacks_reason[256];
	bool profile_wanted, profile_on, hardirq_on, pp_on, running, thread_started;
	char pp_reason[256];      /* why no page_pool figures come from the tracepoints */
	bool pp_wanted;           /* the page_pool tracepoints opened at nb_trace_open */
	char pp_window_note[300]; /* why the last window has none although they were wanted */
	uint64_t stopped_ns;      /* nb_trace_stop's moment; 0: not stopped yet */
	double traced_s;          /* how long the last window's events were on */
	int stop_fd;
	pthread_t thread;
	struct nb_trace_acc acc;
	struct nb_trace_feed feed;
	unsigned char *scratch;
	size_t page_size;
	struct comm_entry comms[COMM_CACHE];
	FILE *record;
	char record_path[400];
	int profile_hz;
	char irq_filter[2048];     /* the interface's IRQs, for irq:irq_handler_entry */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- live tracing ---- */

static int perf_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static void tracepoint_attr(struct perf_event_attr *a, int id, bool sampled)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = (uint64_t)id;
	a->disabled = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	if (sampled) {
		a->sample_period = 1;
		a->sample_type = SAMPLE_TYPE;
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(RING_DATA_PAGES * sysconf(_SC_PAGESIZE) / 4);
	}
}

static void paranoid_hint(struct nb_trace *t, char *buf, size_t len)
{
	char path[300], val[32];

	snprintf(path, sizeof(path), "%s/sys/kernel/perf_event_paranoid", t->proc);
	if (nb_read_file(path, val, sizeof(val)) < 0)
		snprintf(val, sizeof(val), "?");
	snprintf(buf, len, " (perf_event_paranoid=%s, euid %d; needs root or CAP_PERFMON)", val, (int)geteuid());
}

static void set_reason_errno(struct nb_trace *t, char *reason, size_t len, const char *what, int cpu, int e)
{
	char hint[160] = "";

	if (e == EACCES || e == EPERM)
		paranoid_hint(t, hint, sizeof(hint));
	snprintf(reason, len, "open %s on cpu%d: %s%s", what, cpu, strerror(e), hint);
}

static int cpu_open_ring(struct nb_trace *t, struct trace_cpu *c)
{
	struct perf_event_attr a;
	char filter[64];

	tracepoint_attr(&a, t->layout.napi_poll_id, true);
	c->ring_fd = perf_open(&a, c->cpu, -1);
	if (c->ring_fd < 0)
		return -errno;
	snprintf(filter, sizeof(filter), "dev_name == \"%s\"", t->iface);
	if (ioctl(c->ring_fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0)
		snprintf(t->notes, sizeof(t->notes),
			 "napi:napi_poll filter refused (%s): polls filtered in user space, at a higher cost",
			 strerror(errno));
	c->ring_len = (size_t)(RING_DATA_PAGES + 1) * t->page_size;
	c->ring = mmap(NULL, c->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->ring_fd, 0);
	if (c->ring == MAP_FAILED) {
		c->ring = NULL;
		return -errno;
	}
	return 0;
}

static int open_into_ring(struct perf_event_attr *a, struct trace_cpu *c, const char *filter)
{
	int fd = perf_open(a, c->cpu, -1);

	if (fd < 0)
		return -errno;
	if ((filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0) ||
	    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, c->ring_fd) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

static int cpu_open_softirqs(struct nb_trace *t, struct trace_cpu *c)
{
	struct perf_event_attr a;
	const char *filter = "vec == 2 || vec == 3";

	tracepoint_attr(&a, t->layout.softirq_entry_id, true);
	c->softirq_entry_fd = open_into_ring(&a, c, filter);
	if (c->softirq_entry_fd < 0)
		return c->softirq_entry_fd;
	tracepoint_attr(&a, t->layout.softirq_exit_id, true);
	c->softirq_exit_fd = open_into_ring(&a, c, filter);
	return c->softirq_exit_fd < 0 ? c->softirq_exit_fd : 0;
}

/* With callchain, the kernel chain of each sample (user chains are left out: they would need
 * the processes' own symbols, and cost a copy from user memory per sample). */
static int cpu_open_profile(struct trace_cpu *c, int hz, bool callchain)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.freq = 1;
	a.sample_freq = (uint64_t)hz;
	a.sample_type = SAMPLE_TYPE;
	if (callchain) {
		a.sample_type |= PERF_SAMPLE_CALLCHAIN;
		a.exclude_callchain_user = 1;
		/* one frame past the kept depth shows that a chain was cut */
		a.sample_max_stack = NB_STACK_MAX_DEPTH + 1;
	}
	a.disabled = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(RING_DATA_PAGES * sysconf(_SC_PAGESIZE) / 4);
	c->profile_fd = open_into_ring(&a, c, NULL);
	return c->profile_fd < 0 ? c->profile_fd : 0;
}

static int cpu_open_irqs(struct nb_trace *t, struct trace_cpu *c, const char *filter)
{
	struct perf_event_attr a;

	tracepoint_attr(&a, t->layout.irq_handler_entry_id, false);
	c->irq_fd = perf_open(&a, c->cpu, -1);
	if (c->irq_fd < 0)
		return -errno;
	if (ioctl(c->irq_fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0) {
		int e = errno;

		close(c->irq_fd);
		c->irq_fd = -1;
		return -e;
	}
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void cpu_close(struct trace_cpu *c)
{
	close_fd(&c->softirq_entry_fd);
	close_fd(&c->softirq_exit_fd);
	close_fd(&c->profile_fd);
	close_fd(&c->irq_fd);
	close_fd(&c->pp_hold_fd);
	close_fd(&c->pp_release_fd);
	if (c->ring)
		munmap(c->ring, c->ring_len);
	c->ring = NULL;
	close_fd(&c->ring_fd);
}

/* tracefs at sys/kernel/tracing, the older debugfs place, or mounted by us on a live system. */
static int find_tracefs(struct nb_trace *t, const struct nb_paths *paths)
{
	static const char *const places[] = { "kernel/tracing", "kernel/debug/tracing" };
	char events[400];
	struct stat st;

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(t->tracefs, sizeof(t->tracefs), "%s/%s", paths->sys, places[i]);
		snprintf(events, sizeof(events), "%s/events", t->tracefs);
		if (stat(events, &st) == 0)
			return 0;
		if (errno == EACCES) {
			snprintf(t->reason, sizeof(t->reason), "read %s: %s (euid %d; tracing needs root)", events,
				 strerror(EACCES), (int)geteuid());
			return -EACCES;
		}
	}
	snprintf(t->tracefs, sizeof(t->tracefs), "%s/kernel/tracing", paths->sys);
	if (strcmp(paths->sys, "/sys") != 0) {
		snprintf(t->reason, sizeof(t->reason), "tracefs not found under %s/kernel", paths->sys);
		return -ENOENT;
	}
	if (mount("nodev", t->tracefs, "tracefs", 0, NULL) < 0) {
		int e = errno;

		snprintf(t->reason, sizeof(t->reason), "tracefs not mounted and mount on %s failed: %s",
			 t->tracefs, strerror(e));
		return -e;
	}
	t->mounted_tracefs = true;
	return 0;
}

static int open_tracepoints(struct nb_trace *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];
		int rc = cpu_open_ring(t, c);

		if (rc == -ENODEV) { /* offline CPU */
			cpu_close(c);
			continue;
		}
		if (rc < 0) {
			set_reason_errno(t, t->reason, sizeof(t->reason), "napi:napi_poll", c->cpu, -rc);
			return rc;
		}
		rc = cpu_open_softirqs(t, c);
		if (rc < 0) {
			set_reason_errno(t, t->reason, sizeof(t->reason), "irq:softirq_entry/exit", c->cpu, -rc);
			return rc;
		}
	}
	return 0;
}

/* page_pool:page_pool_state_hold/_release of every traced CPU, into its ring; all or none. Each
 * is a page a pool took from or gave back to the page allocator, for any driver with a pool. */
static int open_pp_events(struct nb_trace *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];
		struct perf_event_attr a;

		if (!c->ring)
			continue;
		tracepoint_attr(&a, t->layout.pp_hold_id, true);
		c->pp_hold_fd = open_into_ring(&a, c, NULL);
		if (c->pp_hold_fd >= 0) {
			tracepoint_attr(&a, t->layout.pp_release_id, true);
			c->pp_release_fd = open_into_ring(&a, c, NULL);
		}
		if (c->pp_hold_fd < 0 || c->pp_release_fd < 0) {
			set_reason_errno(t, t->pp_reason, sizeof(t->pp_reason), "page_pool:page_pool_state_hold/_release",
					 c->cpu, c->pp_hold_fd < 0 ? -c->pp_hold_fd : -c->pp_release_fd);
			for (int k = 0; k <= i; k++) {
				close_fd(&t->cpus[k].pp_hold_fd);
				close_fd(&t->cpus[k].pp_release_fd);
			}
			return -EIO;
		}
	}
	return 0;
}

/* The cpu-clock sampler of every traced CPU, into its ring; all or none. A kernel that refuses
 * call chains (sample_max_stack above kernel.perf_event_max_stack, no unwinder) gets the flat
 * profile, and the stacks are absent with why. */
static int open_profile_events(struct nb_trace *t)
{
	t->feed.n_chain_ids = 0;
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];
		uint64_t id;
		int rc;

		if (c->ring_fd < 0)
			continue;
		rc = cpu_open_profile(c, t->profile_hz, t->stacks != NULL);
		if (rc < 0 && t->stacks) {
			set_reason_errno(t, t->stacks_reason, sizeof(t->stacks_reason), "cpu-clock sampling with call chains",
					 c->cpu, -rc);
			nb_stack_acc_free(t->stacks);
			t->stacks = NULL;
			t->feed.stacks = NULL;
			t->feed.n_chain_ids = 0;
			for (int j = 0; j < i; j++)
				close_fd(&t->cpus[j].profile_fd);
			return open_profile_events(t);
		}
		if (rc == 0 && t->stacks) {
			if (ioctl(c->profile_fd, PERF_EVENT_IOC_ID, &id) < 0) {
				rc = -errno;
			} else {
				t->feed.chain_ids[t->feed.n_chain_ids++] = id;
			}
		}
		if (rc < 0) {
			set_reason_errno(t, t->profile_reason, sizeof(t->profile_reason), "cpu-clock sampling",
					 c->cpu, -rc);
			for (int j = 0; j <= i; j++)
				close_fd(&t->cpus[j].profile_fd);
			return rc;
		}
	}
	return 0;
}

static void open_profile(struct nb_trace *t, const struct nb_trace_opts *o)
{
	char path[300];
	struct nb_err e = { 0 };
	int hz = o->profile_hz > 0 ? o->profile_hz : NB_TRACE_DEFAULT_PROFILE_HZ;

	snprintf(path, sizeof(path), "%s/kallsyms", t->proc);
	if (nb_kallsyms_load(path, &t->ksyms, &e) < 0) {
		snprintf(t->profile_reason, sizeof(t->profile_reason), "%s", e.msg);
		return;
	}
	if (nb_profile_acc_new(&t->prof) < 0) {
		snprintf(t->profile_reason, sizeof(t->profile_reason), "profile: out of memory");
		return;
	}
	t->profile_hz = hz;
	if (!o->callchains)
		snprintf(t->stacks_reason, sizeof(t->stacks_reason), "call chains not asked for");
	else if (nb_stack_acc_new(&t->stacks) < 0)
		snprintf(t->stacks_reason, sizeof(t->stacks_reason), "call chains: out of memory");
	if (open_profile_events(t) < 0)
		return;
	t->profile_on = true;
}

/* irq:irq_handler_entry counters of the interface's IRQs on every traced CPU; all or none. */
static int open_irq_events(struct nb_trace *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];
		int rc;

		if (c->ring_fd < 0)
			continue;
		rc = cpu_open_irqs(t, c, t->irq_filter);
		if (rc < 0) {
			snprintf(t->notes + strlen(t->notes), sizeof(t->notes) - strlen(t->notes),
				 "%shardirqs_per_s: open irq:irq_handler_entry on cpu%d: %s", t->notes[0] ? "; " : "",
				 c->cpu, strerror(-rc));
			for (int j = 0; j <= i; j++)
				close_fd(&t->cpus[j].irq_fd);
			return rc;
		}
	}
	return 0;
}

static void open_hardirqs(struct nb_trace *t, const struct nb_trace_opts *o)
{
	char *filter = t->irq_filter;
	struct nb_err e = { 0 };
	int n = nb_trace_irq_filter(o->paths, t->iface, o->irq_names, filter, sizeof(t->irq_filter), &e);

	if (n <= 0 || t->layout.irq_handler_entry_id < 0) {
		snprintf(t->notes + strlen(t->notes), sizeof(t->notes) - strlen(t->notes), "%shardirqs_per_s: %s",
			 t->notes[0] ? "; " : "",
			 n < 0 ? e.msg : n == 0 ? "the interface has no IRQs of its own in /proc/interrupts"
						 : "no irq:irq_handler_entry tracepoint");
		return;
	}
	if (open_irq_events(t) < 0)
		return;
	t->hardirq_on = true;
}

static void comm_of(void *ctx, uint32_t pid, char *buf, size_t len)
{
	struct nb_trace *t = ctx;
	struct comm_entry *e = &t->comms[pid % COMM_CACHE];
	char path[300];

	if (e->pid != pid || !e->comm[0]) {
		snprintf(path, sizeof(path), "%s/%" PRIu32 "/comm", t->proc, pid);
		if (nb_read_file(path, e->comm, sizeof(e->comm)) <= 0)
			snprintf(e->comm, sizeof(e->comm), "pid %" PRIu32, pid);
		e->pid = pid;
	}
	snprintf(buf, len, "%s", e->comm);
}

static void trace_setup(struct nb_trace *t, const struct nb_trace_opts *o)
{
	char events[400];
	struct nb_err e = { 0 };

	if (find_tracefs(t, o->paths) < 0)
		return;
	snprintf(events, sizeof(events), "%s/events", t->tracefs);
	if (nb_trace_layout_load(events, &t->layout, &e) < 0) {
		snprintf(t->reason, sizeof(t->reason), "%s", e.msg);
		return;
	}
	if (open_tracepoints(t) < 0)
		return;
	if (t->layout.pp_hold_id < 0)
		snprintf(t->pp_reason, sizeof(t->pp_reason), "%s", t->layout.pp_why);
	else
		t->pp_on = t->pp_wanted = open_pp_events(t) == 0;
	if (o->profile)
		open_profile(t, o);
	open_hardirqs(t, o);
	t->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (t->stop_fd < 0)
		snprintf(t->reason, sizeof(t->reason), "create eventfd: %s", strerror(errno));
}

static void disarm(struct nb_trace *t)
{
	for (int i = 0; i < t->ncpus; i++)
		cpu_close(&t->cpus[i]);
}

/* Open the events a window records, as nb_trace_open found them available. A profile or IRQ
 * counter that cannot be opened now is dropped with its reason; the tracepoints are needed. */
static int arm(struct nb_trace *t, struct nb_err *err)
{
	if (open_tracepoints(t) < 0) {
		disarm(t);
		return nb_err_set(err, -EIO, "begin tracing on %s: %s", t->iface, t->reason);
	}
	if (t->profile_on && open_profile_events(t) < 0) {
		t->profile_on = false;
		t->feed.prof = NULL;
		t->feed.stacks = NULL;
	}
	if (t->hardirq_on && open_irq_events(t) < 0)
		t->hardirq_on = false;
	if (t->pp_on && open_pp_events(t) < 0)
		t->pp_on = false;
	return 0;
}

int nb_trace_open(const struct nb_trace_opts *o, struct nb_trace **out, struct nb_err *err)
{
	struct nb_trace *t;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);

	*out = NULL;
	if (!o || !o->paths || !nb_ifname_valid(o->iface))
		return nb_err_set(err, -EINVAL, "open tracing: invalid interface name \"%s\"",
				  o && o->iface ? o->iface : "(null)");
	t = calloc(1, sizeof(*t));
	if (!t)
		return nb_err_set(err, -ENOMEM, "open tracing on %s: out of memory", o->iface);
	snprintf(t->iface, sizeof(t->iface), "%s", o->iface);
	snprintf(t->proc, sizeof(t->proc), "%s", o->paths->proc);
	t->profile_wanted = o->profile;
	t->stop_fd = -1;
	t->page_size = (size_t)sysconf(_SC_PAGESIZE);
	t->ncpus = ncpus < 1 ? 1 : ncpus > NB_TRACE_MAX_CPUS ? NB_TRACE_MAX_CPUS : (int)ncpus;
	t->cpus = calloc((size_t)t->ncpus, sizeof(*t->cpus));
	t->scratch = malloc(65536);
	if (!t->cpus || !t->scratch) {
		nb_trace_close(t);
		return nb_err_set(err, -ENOMEM, "open tracing on %s: out of memory", o->iface);
	}
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];

		c->cpu = i;
		c->ring_fd = c->softirq_entry_fd = c->softirq_exit_fd = c->profile_fd = c->irq_fd = -1;
		c->pp_hold_fd = c->pp_release_fd = -1;
	}
	trace_setup(t, o);
	/* Opening every event here finds out what this kernel allows, once; then they are closed
	 * until a window opens. An open tracepoint event keeps its probe registered even while
	 * disabled, a call on every napi_poll and softirq of the measured repetitions too. */
	disarm(t);
	if (t->reason[0])
		t->profile_on = t->hardirq_on = false;
	t->feed = (struct nb_trace_feed){ .layout = &t->layout, .iface = t->iface, .ksyms = t->ksyms,
					  .acc = &t->acc, .prof = t->profile_on ? t->prof : NULL,
					  .stacks = t->profile_on ? t->stacks : NULL,
					  .comm = comm_of, .comm_ctx = t };
	*out = t;
	return 0;
}

const char *nb_trace_unavailable_reason(const struct nb_trace *t)
{
	return t && t->reason[0] ? t->reason : NULL;
}

const char *nb_trace_profile_unavailable_reason(const struct nb_trace *t)
{
	if (!t || t->profile_on)
		return NULL;
	if (t->reason[0] && t->profile_wanted)
		return t->reason;
	return t->profile_reason[0] ? t->profile_reason : NULL;
}

const char *nb_trace_pp_unavailable_reason(const struct nb_trace *t)
{
	if (!t)
		return NULL;
	if (t->reason[0])
		return t->reason;
	return t->pp_on ? NULL : t->pp_reason[0] ? t->pp_reason : "page_pool tracepoints not opened";
}

double nb_trace_traced_s(const struct nb_trace *t)
{
	return t ? t->traced_s : 0;
}

const char *nb_trace_pp_window_note(const struct nb_trace *t)
{
	return t && t->pp_window_note[0] ? t->pp_window_note : NULL;
}

const char *nb_trace_notes(const struct nb_trace *t)
{
	return t && t->notes[0] ? t->notes : NULL;
}

int nb_trace_record_to(struct nb_trace *t, const char *path, struct nb_err *err)
{
	if (t->record)
		fclose(t->record);
	t->record = fopen(path, "we");
	if (!t->record)
		return nb_err_set(err, -errno, "record trace to %s: %s", path, strerror(errno));
	snprintf(t->record_path, sizeof(t->record_path), "%s", path);
	return 0;
}


/* Feed the records in place; the kernel writes no byte before data_tail moves past it. */
static void ring_drain(struct nb_trace *t, struct trace_cpu *c)
{
	struct perf_event_mmap_page *meta = c->ring;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);

	nb_trace_ring_feed(&t->feed, (const unsigned char *)c->ring + t->page_size,
			   (uint64_t)RING_DATA_PAGES * t->page_size, meta->data_tail, head, t->scratch, t->record);
	/* The kernel publishes whole records only, so a short one means a corrupt ring: skip it all. */
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

static void ring_discard(struct trace_cpu *c)
{
	struct perf_event_mmap_page *meta = c->ring;

	__atomic_store_n(&meta->data_tail, __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
}

static void drain_all(struct nb_trace *t)
{
	for (int i = 0; i < t->ncpus; i++) {
		if (t->cpus[i].ring)
			ring_drain(t, &t->cpus[i]);
	}
}

static void *drain_thread(void *arg)
{
	struct nb_trace *t = arg;
	struct pollfd fds[NB_TRACE_MAX_CPUS + 1];
	int n = 0;

	fds[n++] = (struct pollfd){ .fd = t->stop_fd, .events = POLLIN };
	for (int i = 0; i < t->ncpus; i++) {
		if (t->cpus[i].ring_fd >= 0)
			fds[n++] = (struct pollfd){ .fd = t->cpus[i].ring_fd, .events = POLLIN };
	}
	for (;;) {
		poll(fds, (nfds_t)n, DRAIN_POLL_MS);
		drain_all(t);
		if (fds[0].revents & POLLIN)
			break;
	}
	return NULL;
}

static void for_each_fd(struct nb_trace *t, unsigned long request)
{
	for (int i = 0; i < t->ncpus; i++) {
		struct trace_cpu *c = &t->cpus[i];
		int fds[] = { c->ring_fd, c->softirq_entry_fd, c->softirq_exit_fd, c->profile_fd, c->irq_fd,
			      c->pp_hold_fd, c->pp_release_fd };

		for (size_t k = 0; k < sizeof(fds) / sizeof(fds[0]); k++) {
			if (fds[k] >= 0)
				ioctl(fds[k], request, 0);
		}
	}
}

/* The reader blocks every signal so that SIGINT/SIGTERM reach the runner's main thread,
 * whose wait loop checks the flag its handler sets. */
static int start_reader(struct nb_trace *t)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t->thread, NULL, drain_thread, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int nb_trace_begin(struct nb_trace *t, struct nb_err *err)
{
	uint64_t drop;
	int rc;

	if (!t || t->reason[0])
		return 0;
	if (t->running)
		return nb_err_set(err, -EBUSY, "begin tracing on %s: a window is already open", t->iface);
	if (arm(t, err) < 0)
		return -EIO;
	while (read(t->stop_fd, &drop, sizeof(drop)) > 0)
		;
	for (int i = 0; i < t->ncpus; i++) {
		if (t->cpus[i].ring)
			ring_discard(&t->cpus[i]);
	}
	if (t->prof)
		nb_profile_acc_reset(t->prof);
	if (t->stacks)
		nb_stack_acc_reset(t->stacks);
	memset(t->comms, 0, sizeof(t->comms));
	nb_trace_acc_reset(&t->acc, t->ncpus, now_ns());
	t->stopped_ns = 0;
	t->acc.pp_on = t->pp_on;
	for_each_fd(t, PERF_EVENT_IOC_RESET);
	for_each_fd(t, PERF_EVENT_IOC_ENABLE);
	t->running = true;
	rc = start_reader(t);
	if (rc != 0) {
		for_each_fd(t, PERF_EVENT_IOC_DISABLE);
		disarm(t);
		t->running = false;
		return nb_err_set(err, -rc, "begin tracing on %s: start the buffer reader: %s", t->iface, strerror(rc));
	}
	t->thread_started = true;
	return 0;
}

void nb_trace_stop(struct nb_trace *t)
{
	if (!t || !t->running || t->reason[0])
		return;
	t->stopped_ns = now_ns();
	/* page_pool's first: they are read against the driver's counters just read, and each
	 * disable is a call on the event's CPU (slow on an emulated board); begin enables them last */
	for (int i = 0; i < t->ncpus; i++) {
		if (t->cpus[i].pp_hold_fd >= 0)
			ioctl(t->cpus[i].pp_hold_fd, PERF_EVENT_IOC_DISABLE, 0);
		if (t->cpus[i].pp_release_fd >= 0)
			ioctl(t->cpus[i].pp_release_fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	for_each_fd(t, PERF_EVENT_IOC_DISABLE);
}

static void stop_window(struct nb_trace *t)
{
	uint64_t one = 1;

	for_each_fd(t, PERF_EVENT_IOC_DISABLE);
	if (t->thread_started) {
		if (write(t->stop_fd, &one, sizeof(one)) < 0) {
			/* cannot happen: begin emptied the eventfd, and one write cannot fill it */
		}
		pthread_join(t->thread, NULL);
		t->thread_started = false;
	}
	drain_all(t);
	t->running = false;
}

/* The window's bounds beside the records, so a replay can close the window the same way. */
static void record_window(struct nb_trace *t)
{
	char path[420];
	FILE *f;

	fflush(t->record);
	snprintf(path, sizeof(path), "%s.window", t->record_path);
	f = fopen(path, "we");
	if (!f)
		return;
	fprintf(f, "iface %s\nncpus %d\nt_begin_ns %" PRIu64 "\nt_end_ns %" PRIu64 "\n", t->iface, t->acc.ncpus,
		t->acc.t_begin_ns, t->acc.t_end_ns);
	fclose(f);
}

static double hardirq_count(struct nb_trace *t)
{
	uint64_t sum = 0;

	if (!t->hardirq_on)
		return -1;
	for (int i = 0; i < t->ncpus; i++) {
		uint64_t v;

		if (t->cpus[i].irq_fd < 0)
			continue;
		if (read(t->cpus[i].irq_fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		sum += v;
	}
	return (double)sum;
}

int nb_trace_end(struct nb_trace *t, double seconds, struct nb_metric_set *out,
		 struct nb_profile *profile, struct nb_err *err)
{
	if (profile)
		memset(profile, 0, sizeof(*profile));
	if (!t || t->reason[0])
		return 0;
	if (!t->running)
		return nb_err_set(err, -EINVAL, "end tracing on %s: no window is open", t->iface);
	stop_window(t);
	nb_trace_acc_finish(&t->acc, t->stopped_ns ? t->stopped_ns : now_ns());
	if (t->record)
		record_window(t);
	/* Rates over the time the events were on. Arming them (perf_event_open of each tracepoint
	 * patches the kernel's text, and the rings are allocated) took most of a 2 s window on the
	 * armhf TCG guest under load, and over the caller's window they read as 0 polls/s. */
	t->traced_s = (double)(t->acc.t_end_ns - t->acc.t_begin_ns) / 1e9;
	if (t->traced_s > 0 && (seconds <= 0 || t->traced_s < seconds))
		seconds = t->traced_s;
	nb_trace_acc_metrics(&t->acc, seconds, hardirq_count(t), out);
	t->pp_window_note[0] = '\0';
	if (t->pp_wanted && !t->acc.pp_on)
		snprintf(t->pp_window_note, sizeof(t->pp_window_note), "page_pool tracepoints: %s",
			 t->pp_reason[0] ? t->pp_reason : "not opened for the window");
	else if (t->acc.pp_on && t->acc.pp_npools == 0)
		/* figures absent, not 0: a 0 would read as all recycled where no pool exists */
		snprintf(t->pp_window_note, sizeof(t->pp_window_note),
			 "page_pool tracepoints: no pool took a page from or gave one back to the page allocator "
			 "in the traced window");
	if (profile && t->profile_on)
		nb_profile_acc_result(t->prof, profile);
	disarm(t);
	return 0;
}

void nb_trace_close(struct nb_trace *t)
{
	if (!t)
		return;
	if (t->running)
		stop_window(t);
	if (t->cpus) {
		for (int i = 0; i < t->ncpus; i++)
			cpu_close(&t->cpus[i]);
	}
	close_fd(&t->stop_fd);
	if (t->mounted_tracefs)
		umount(t->tracefs); /* EBUSY: someone else uses it now; leaving it mounted is harmless */
	if (t->record)
		fclose(t->record);
	nb_kallsyms_free(t->ksyms);
	nb_profile_acc_free(t->prof);
	nb_stack_acc_free(t->stacks);
	free(t->scratch);
	free(t->cpus);
	free(t);
}

const char *nb_trace_stacks_unavailable_reason(const struct nb_trace *t)
{
	if (!t)
		return NULL;
	if (!t->profile_on)
		return nb_trace_profile_unavailable_reason(t);
	return t->stacks && t->feed.stacks ? NULL : t->stacks_reason;
}

int nb_trace_write_stacks(const struct nb_trace *t, const char *path, struct nb_stack_stats *stats,
			  struct nb_err *err)
{
	FILE *f;
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (!t || !t->profile_on || !t->feed.stacks)
		return 0;
	nb_stack_acc_stats(t->stacks, stats);
	if (stats->samples == 0)
		return 0;
	f = fopen(path, "we");
	if (!f)
		return nb_err_set(err, -errno, "write folded stacks %s: %s", path, strerror(errno));
	rc = nb_stack_acc_write(t->stacks, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0) {
		memset(stats, 0, sizeof(*stats));
		return nb_err_set(err, rc, "write folded stacks %s: %s", path, strerror(-rc));
	}
	return 0;
}
