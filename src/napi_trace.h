// SPDX-License-Identifier: MIT
/* NAPI efficiency from kernel tracepoints (napi:napi_poll, irq:softirq_entry/exit,
 * irq:irq_handler_entry) and a kernel/user sampling profile, per measured window. */
#ifndef NB_NAPI_TRACE_H
#define NB_NAPI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kprofile.h"
#include "metrics.h"
#include "nb_error.h"
#include "nb_paths.h"

#define NB_TRACE_MAX_CPUS 256
#define NB_TRACE_DEFAULT_PROFILE_HZ 499

struct nb_trace_opts {
	const struct nb_paths *paths; /* /proc and /sys roots; tracefs is sys/kernel/tracing */
	const char *iface;            /* interface under test: napi_poll is filtered by dev_name */
	bool profile;                 /* also take a sampling profile */
	int profile_hz;               /* samples per second per CPU; 0: NB_TRACE_DEFAULT_PROFILE_HZ */
};

struct nb_trace;

/* Opened once per sweep: finds event ids in tracefs (mounting it if needed), opens
 * per-CPU perf events (disabled) and loads kallsyms. Tracing works through
 * perf_event_open only, so the global tracefs state (enabled events, filters,
 * buffers, tracing_on) is never changed, and a killed run leaves nothing behind
 * but, at most, a tracefs mount it made.
 *
 * Returns 0 with *out set even when tracing is unavailable (no tracefs, no
 * permission, no events): nb_trace_unavailable_reason() then says why and
 * begin/end do nothing. Returns -errno only for bad arguments or no memory. */
int nb_trace_open(const struct nb_trace_opts *o, struct nb_trace **out, struct nb_err *err);

/* Why tracing is off ("open napi:napi_poll on cpu0: Permission denied (perf_event_paranoid=2, not root)"),
 * or NULL when it is on. */
const char *nb_trace_unavailable_reason(const struct nb_trace *t);
/* Why the profile is off, or NULL when it is on or was not asked for. */
const char *nb_trace_profile_unavailable_reason(const struct nb_trace *t);
/* Metrics that are absent although tracing is on, and why ("hardirqs_per_s: veth0 has no
 * IRQs in /proc/interrupts"), or NULL. */
const char *nb_trace_notes(const struct nb_trace *t);

/* The measured window opens: enable the events and start draining their buffers. */
int nb_trace_begin(struct nb_trace *t, struct nb_err *err);

/* The window closes: disable the events and add napi_polls_per_s, napi_packets_per_poll,
 * napi_budget_exhausted_pct, hardirqs_per_s, net_rx_softirq_ns_per_s, net_tx_softirq_ns_per_s,
 * net_rx_softirq_pct, cpuN_net_rx_softirq_ns_per_s and trace_lost_samples to out (rates over
 * `seconds`, or over the traced time when seconds <= 0). Per-poll figures are absent when
 * there was no poll, hardirqs_per_s when the interface has no IRQs of its own. Fills profile
 * (n = 0 without one); profile may be NULL. Only clears profile when tracing is unavailable. */
int nb_trace_end(struct nb_trace *t, double seconds, struct nb_metric_set *out,
		 struct nb_profile *profile, struct nb_err *err);

/* Disable and close every event, free the buffers, unmount tracefs if nb_trace_open
 * mounted it. Safe with NULL, after a failed begin, and from the runner's cleanup path
 * after SIGINT (it takes no locks a signal could have interrupted: call it from the
 * main flow, not from the handler). */
void nb_trace_close(struct nb_trace *t);

/* ---- pure parts, exposed for tests ---- */

/* Where the fields nicbench reads sit in each tracepoint's raw record, from tracefs
 * events/<system>/<event>/{id,format}. An id of -1 means the event is missing. */
struct nb_trace_layout {
	int napi_poll_id, softirq_entry_id, softirq_exit_id, irq_handler_entry_id;
	int napi_dev_name_off;      /* __data_loc: u32 with offset (low 16) and length (high 16) */
	int napi_work_off, napi_budget_off;
	int softirq_vec_off;
};

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
};

void nb_trace_acc_reset(struct nb_trace_acc *acc, int ncpus, uint64_t t_begin_ns);
/* One raw tracepoint record (starting at common_type) seen on cpu at time_ns.
 * napi_poll records of other devices are counted in other_dev_polls only. */
void nb_trace_acc_raw(struct nb_trace_acc *acc, const struct nb_trace_layout *l, const char *iface,
		      int cpu, uint64_t time_ns, const void *raw, size_t len);
/* Close the window: a softirq still running at t_end_ns counts up to t_end_ns. */
void nb_trace_acc_finish(struct nb_trace_acc *acc, uint64_t t_end_ns);
/* Rates over seconds. hardirqs < 0: not measured (metric absent). */
void nb_trace_acc_metrics(const struct nb_trace_acc *acc, double seconds, double hardirqs,
			  struct nb_metric_set *out);

/* The sample layout nicbench asks the kernel for (PERF_SAMPLE_IDENTIFIER | IP | TID |
 * TIME | CPU | RAW), decoded from one PERF_RECORD_SAMPLE body. raw is NULL when empty. */
struct nb_trace_sample {
	uint64_t id, ip, time_ns;
	uint32_t pid, tid, cpu;
	const void *raw;
	uint32_t raw_len;
};
int nb_trace_sample_decode(const void *body, size_t len, struct nb_trace_sample *s);

/* Feeds perf records (header + body, as read from a ring or a recording) into the
 * accumulators; live runs and the fixture tests share it. */
struct nb_trace_feed {
	const struct nb_trace_layout *layout;
	const char *iface;
	const struct nb_kallsyms *ksyms;  /* NULL: profile samples are ignored */
	struct nb_trace_acc *acc;
	struct nb_profile_acc *prof;      /* NULL: profile samples are ignored */
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

/* Also write every record of the next windows to path (for fixtures and bug reports). */
int nb_trace_record_to(struct nb_trace *t, const char *path, struct nb_err *err);

/* "irq == 33 || irq == 34" for the interface's IRQs as iface_irqs.h finds them (by netdev
 * and parent device name in /proc/interrupts). Returns how many (0: none, filter "") or -errno. */
int nb_trace_irq_filter(const struct nb_paths *paths, const char *iface, char *filter, size_t len,
			struct nb_err *err);

#endif
