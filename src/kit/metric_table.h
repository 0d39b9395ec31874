// SPDX-License-Identifier: MIT
/* The metric table: every metric nicbench writes, one row each, with its unit, which way is
 * better, the floor a change must clear, whether it may gate, where it comes from and what it means.
 *
 * compare takes directions and floors from here, the gate parser refuses names it does not know,
 * and docs/report.md's metric list is printed from it (test_metric_table checks the page).
 *
 * Adding a metric is one row in metric_table.c's nb_metric_rows[] (then `test_metric_table
 * --print` for the doc line). A family of metrics whose names carry a number or a counter's name
 * is one row with a placeholder:
 *   {N}     one or more decimal digits, a CPU number: "cpu{N}_user_pct" is cpu0_user_pct, cpu12_...
 *   {name}  one or more characters: "ethtool_{name}" is every ethtool_ counter
 * A name that equals a row without placeholder takes that row; otherwise the first placeholder row
 * that matches, in table order. A metric the table does not know is shown, neutral, never gated. */
#ifndef NB_METRIC_TABLE_H
#define NB_METRIC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The names code reads or writes by name: spell them through these, not as literals. */
#define NB_M_THROUGHPUT_BPS "throughput_bps"
#define NB_M_THROUGHPUT_SENT_BPS "throughput_sent_bps"
#define NB_M_BITS_PER_CPU_SECOND "bits_per_cpu_second"
#define NB_M_CPU_BUSY_PCT "cpu_busy_pct"
#define NB_M_KERNEL_CPU_NS_PER_PACKET "kernel_cpu_ns_per_packet"
#define NB_M_CPU_OTHER_PCT "cpu_other_pct"
#define NB_M_STEAL_PCT "steal_pct"
#define NB_M_IRQ_PCT "irq_pct"
#define NB_M_SOFTIRQ_PCT "softirq_pct"
#define NB_M_NAPI_THREAD_PCT "napi_thread_pct"
#define NB_M_TRAFFIC_PROC_PCT "traffic_proc_pct"
#define NB_M_PEER_PROC_PCT "peer_proc_pct"
#define NB_M_NICBENCH_CPU_MS_PER_S "nicbench_cpu_ms_per_s"
#define NB_M_IPERF_HOST_CPU_PCT "iperf_host_cpu_pct"
#define NB_M_IPERF_REMOTE_CPU_PCT "iperf_remote_cpu_pct"
#define NB_M_INTERRUPTS_PER_S "interrupts_per_s"
#define NB_M_NAPI_POLLS_PER_S "napi_polls_per_s"
#define NB_M_RX_PACKETS_PER_S "rx_packets_per_s"
#define NB_M_TX_PACKETS_PER_S "tx_packets_per_s"
#define NB_M_RR_TRANSACTIONS_PER_S "rr_transactions_per_s"
#define NB_M_RR_LATENCY_P50_US "rr_latency_p50_us"
#define NB_M_RR_LATENCY_P99_US "rr_latency_p99_us"

enum nb_metric_direction {
	NB_METRIC_NEUTRAL,       /* shown, never gated */
	NB_METRIC_HIGHER_BETTER,
	NB_METRIC_LOWER_BETTER,
};

/* How far a metric must move in its own unit before a change can count (compare's floors). */
enum nb_metric_floor_kind {
	NB_METRIC_FLOOR_NONE,
	NB_METRIC_FLOOR_ABS,        /* value in the metric's own unit (percentage points, packets, 1/s, ms) */
	NB_METRIC_FLOOR_BITS_SHARE, /* value % of the point's base throughput_bps */
	NB_METRIC_FLOOR_BYTES_SHARE, /* value % of the point's base throughput_bps / 8: for a byte rate */
};

struct nb_metric_floor {
	const char *family; /* "cpu", "loss", "drops", "rates", "latency", "bits", ...: --floor FAMILY=V */
	enum nb_metric_floor_kind kind;
	double value;
	const char *unit;   /* of value, in words: "percentage points of the machine" */
};

struct nb_metric_def {
	const char *name;   /* exact, or with one placeholder ({N}, {name}: see above) */
	const char *unit;   /* of the value: "bit/s", "% of the machine", "packets per run" */
	enum nb_metric_direction direction;
	struct nb_metric_floor floor;
	bool gate;          /* may --gate name it (only a metric with a direction) */
	const char *source; /* one word: sampler, iperf, rr, trace, qstats, runner, compare */
	const char *doc;    /* one line: what it measures */
};

/* The row of a metric name, or NULL when the table does not know it. */
const struct nb_metric_def *nb_metric_lookup(const char *name);

/* Does name fit a row's name ("cpu{N}_user_pct" fits cpu3_user_pct)? */
bool nb_metric_name_fits(const char *pattern, const char *name);

/* Row i in table order, NULL past the end. */
const struct nb_metric_def *nb_metric_row(int i);
int nb_metric_rows(void);

/* The metric's direction (neutral when unknown) and floor (kind NONE when unknown or none). */
enum nb_metric_direction nb_metric_direction_of(const char *name);
struct nb_metric_floor nb_metric_floor_of(const char *name);

/* Is name a floor family ("cpu", "drops", ...) some row uses? */
bool nb_metric_floor_family_known(const char *name);

/* The known name nearest to name (edit distance, placeholders as written), for "did you mean". */
const char *nb_metric_nearest(const char *name);

/* "higher is better", "lower is better", "neutral". */
const char *nb_metric_direction_words(enum nb_metric_direction d);

/* The table as the Markdown of docs/report.md's metric list. 0 or -EIO. */
int nb_metric_table_markdown(FILE *out);

#endif
