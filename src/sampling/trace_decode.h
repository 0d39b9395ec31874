// SPDX-License-Identifier: MIT
/* The pure side of tracing (no perf_event_open, no clocks): tracepoint layouts, perf sample
 * decoding, the per-window accumulators, and feeding perf records or a ring's data area into
 * them. napi_trace.c does the perf I/O around it; the tests feed it recorded samples. */
#ifndef NB_TRACE_DECODE_H
#define NB_TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sampling/kprofile.h"
#include "kit/metrics.h"
#include "kit/nb_error.h"

#define NB_TRACE_MAX_CPUS 256

/* Where the fields nicbench reads sit in each tracepoint's raw record, from tracefs
 * events/<system>/<event>/{id,format}. An id of -1 means the event is missing. */
struct nb_trace_layout {
	int napi_poll_id, softirq_entry_id, softirq_exit_id, irq_handler_entry_id;
	int napi_dev_name_off;      /* __data_loc: u32 with offset (low 16) and length (high 16) */
	int napi_work_off, napi_budget_off;
	int softirq_vec_off;
	/* page_pool:page_pool_state_hold/_release (a page taken from / given back to the page
	 * allocator by a pool, since 4.18); optional: ids -1 and pp_why say why */
	int pp_hold_id, pp_release_id;
	int pp_hold_pool_off, pp_release_pool_off, pp_pool_size; /* the pool pointer: 4 or 8 bytes */
	char pp_why[160];
};

/* Read only the page_pool tracepoints' layout (nb_trace_layout_load does it too); 0 when both
 * are there, else -errno with pp_why set. */
int nb_trace_pp_layout_load(const char *events_dir, struct nb_trace_layout *l);

/* Parse the formats under events_dir (".../tracing/events") with libtraceevent. */
int nb_trace_layout_load(const char *events_dir, struct nb_trace_layout *l, struct nb_err *err);

/* Running totals of one window, fed with raw tracepoint records. */
struct nb_trace_acc {
	int ncpus;
	uint64_t t_begin_ns, t_end_ns;     /* CLOCK_MONOTONIC */
	uint64_t polls, work, budget_exhausted, other_dev_polls;
	uint64_t net_rx_ns[NB_TRACE_MAX_CPUS], net_tx_ns[NB_TRACE_MAX_CPUS];
	uint64_t open_since[NB_TRACE_MAX_CPUS]; /* entry time of the running NET softirq, 0: none */
	int open_vec[NB_TRACE_MAX_CPUS];
	unsigned char softirq_seen[NB_TRACE_MAX_CPUS]; /* any entry/exit seen on the cpu yet */
	uint64_t records, lost;
	/* page_pool tracepoints: pages each pool took from and gave back to the page allocator */
#define NB_TRACE_PP_POOLS 16
	bool pp_on;                        /* the events were recorded in this window */
	uint64_t pp_holds, pp_releases;
	int pp_npools;                     /* distinct pools seen (up to NB_TRACE_PP_POOLS) */
	uint64_t pp_pool[NB_TRACE_PP_POOLS];
};

void nb_trace_acc_reset(struct nb_trace_acc *acc, int ncpus, uint64_t t_begin_ns);
/* One raw tracepoint record (starting at common_type) seen on cpu at time_ns.
 * napi_poll records of other devices are counted in other_dev_polls only. */
void nb_trace_acc_raw(struct nb_trace_acc *acc, const struct nb_trace_layout *l, const char *iface,
		      int cpu, uint64_t time_ns, const void *raw, size_t len);
/* Close the window: a softirq still running at t_end_ns counts up to t_end_ns. */
void nb_trace_acc_finish(struct nb_trace_acc *acc, uint64_t t_end_ns);
/* Rates over seconds. hardirqs < 0: not measured (metric absent). With pp_on and an event seen, the page_pool
 * figures of the window: pp_trace_alloc_pages, pp_trace_release_pages, pp_trace_inflight_change,
 * pp_trace_pools and, when the interface's NAPI polled packets, pp_trace_recycle_pct (the packets
 * served without a page from the page allocator, one page a packet). */
void nb_trace_acc_metrics(const struct nb_trace_acc *acc, double seconds, double hardirqs,
			  struct nb_metric_set *out);

/* The sample layout nicbench asks the kernel for (PERF_SAMPLE_IDENTIFIER | IP | TID |
 * TIME | CPU | RAW), decoded from one PERF_RECORD_SAMPLE body. raw is NULL when empty. */
struct nb_trace_sample {
	uint64_t id, ip, time_ns;
	uint32_t pid, tid, cpu;
	const void *raw;
	uint32_t raw_len;
	const unsigned char *chain; /* chain_n u64 addresses, leaf first, with perf's context markers */
	uint32_t chain_n;
};
int nb_trace_sample_decode(const void *body, size_t len, struct nb_trace_sample *s);
/* The same with PERF_SAMPLE_CALLCHAIN, which the kernel writes between CPU and RAW. */
int nb_trace_sample_decode_chain(const void *body, size_t len, struct nb_trace_sample *s);
/* The kernel frames of a chain, leaf first, resolved in ksyms (context markers and user
 * addresses skipped); at most max. Returns how many. */
int nb_trace_chain_frames(const struct nb_trace_sample *s, const struct nb_kallsyms *ksyms, const char **frames,
			  int max);

/* Feeds perf records (header + body, as read from a ring or a recording) into the
 * accumulators; live runs and the fixture tests share it. */
struct nb_trace_feed {
	const struct nb_trace_layout *layout;
	const char *iface;
	const struct nb_kallsyms *ksyms;  /* NULL: profile samples are ignored */
	struct nb_trace_acc *acc;
	struct nb_profile_acc *prof;      /* NULL: profile samples are ignored */
	struct nb_stack_acc *stacks;      /* NULL: no call chains are folded */
	/* sample ids (PERF_EVENT_IOC_ID) of the events that record call chains */
	uint64_t chain_ids[NB_TRACE_MAX_CPUS];
	int n_chain_ids;
	/* process name of a pid for "[user] name"; NULL folds user samples as "pid N" */
	void (*comm)(void *ctx, uint32_t pid, char *buf, size_t len);
	void *comm_ctx;
};
void nb_trace_feed_record(const struct nb_trace_feed *f, const void *rec, size_t len);

/* Feeds the records of a perf ring's data area (size bytes, a power of two) from tail to
 * head, in place or, when one wraps the end, through scratch (64 KiB), and writes each to
 * record unless NULL. Returns where it stopped: head, or the first corrupt record. */
uint64_t nb_trace_ring_feed(const struct nb_trace_feed *f, const void *data, uint64_t size, uint64_t tail,
			    uint64_t head, void *scratch, FILE *record);

#endif
