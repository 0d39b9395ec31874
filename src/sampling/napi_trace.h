// SPDX-License-Identifier: MIT
/* NAPI efficiency from kernel tracepoints (napi:napi_poll, irq:softirq_entry/exit,
 * irq:irq_handler_entry) and a kernel/user sampling profile, per measured window. */
#ifndef NB_NAPI_TRACE_H
#define NB_NAPI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sampling/kprofile.h"
#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "sampling/trace_decode.h"

#define NB_TRACE_DEFAULT_PROFILE_HZ 499

struct nb_trace_opts {
	const struct nb_paths *paths; /* /proc and /sys roots; tracefs is sys/kernel/tracing */
	const char *iface;            /* interface under test: napi_poll is filtered by dev_name */
	const char *irq_names;        /* the board's IRQ patterns (nb_irq_names_parse); NULL: by name */
	bool profile;                 /* also take a sampling profile */
	int profile_hz;               /* samples per second per CPU; 0: NB_TRACE_DEFAULT_PROFILE_HZ */
	bool callchains;              /* the profile also folds kernel call chains into stacks */
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
/* Why the page_pool tracepoints give no figures ("no page_pool tracepoints in ...: a kernel
 * without CONFIG_PAGE_POOL"), or NULL when they are recorded. */
const char *nb_trace_pp_unavailable_reason(const struct nb_trace *t);
/* How long the events of the window nb_trace_end just closed were on, in seconds: its rates are
 * over this time when it is shorter than the caller's window. */
double nb_trace_traced_s(const struct nb_trace *t);
/* Why the window nb_trace_end just closed has no page_pool figures although the tracepoints were
 * opened for it ("no page taken from or given back to the page allocator ..."), or NULL: it has
 * them, or they were never on (nb_trace_pp_unavailable_reason says why). */
const char *nb_trace_pp_window_note(const struct nb_trace *t);
/* Metrics that are absent although tracing is on, and why ("hardirqs_per_s: veth0 has no
 * IRQs in /proc/interrupts"), or NULL. */
const char *nb_trace_notes(const struct nb_trace *t);

/* The measured window opens: enable the events and start draining their buffers. */
int nb_trace_begin(struct nb_trace *t, struct nb_err *err);

/* The events stop counting now (cheap: no drain); nb_trace_end then reads what they recorded.
 * Lets the window's counters and its tracepoints close at the same moment. */
void nb_trace_stop(struct nb_trace *t);

/* The window closes: disable the events and add napi_polls_per_s, napi_packets_per_poll,
 * napi_budget_exhausted_pct, hardirqs_per_s, net_rx_softirq_ns_per_s, net_tx_softirq_ns_per_s,
 * net_rx_softirq_pct, cpuN_net_rx_softirq_ns_per_s and trace_lost_samples to out (rates over
 * `seconds`, or over the traced time when seconds <= 0 or the events were on for less). Per-poll figures are absent when
 * there was no poll, hardirqs_per_s when the interface has no IRQs of its own. Fills profile
 * (n = 0 without one); profile may be NULL. Only clears profile when tracing is unavailable. */
int nb_trace_end(struct nb_trace *t, double seconds, struct nb_metric_set *out,
		 struct nb_profile *profile, struct nb_err *err);

/* Why the profile's call chains are off, or NULL when they are on. */
const char *nb_trace_stacks_unavailable_reason(const struct nb_trace *t);
/* Write the last window's folded stacks to path ("root;...;leaf count" lines, most samples
 * first) and say what they hold in stats. Writes nothing (stats->samples 0) without stacks. */
int nb_trace_write_stacks(const struct nb_trace *t, const char *path, struct nb_stack_stats *stats,
			  struct nb_err *err);

/* Disable and close every event, free the buffers, unmount tracefs if nb_trace_open
 * mounted it. Safe with NULL, after a failed begin, and from the runner's cleanup path
 * after SIGINT (it takes no locks a signal could have interrupted: call it from the
 * main flow, not from the handler). */
void nb_trace_close(struct nb_trace *t);

/* Also write every record of the next windows to path (for fixtures and bug reports). */
int nb_trace_record_to(struct nb_trace *t, const char *path, struct nb_err *err);

/* "irq == 33 || irq == 34" for the interface's IRQs as iface_irqs.h finds them (by netdev
 * and parent device name in /proc/interrupts). Returns how many (0: none, filter "") or -errno. */
int nb_trace_irq_filter(const struct nb_paths *paths, const char *iface, const char *irq_names, char *filter,
			size_t len, struct nb_err *err);

#endif
