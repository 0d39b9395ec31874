// SPDX-License-Identifier: MIT
/* The metric table: every metric nicbench writes, one row each, with its unit, which way is
 * better, the floor a change must clear, whether it may gate, where it comes from and what it means.
 *
 * compare takes directions and floors from here, the gate parser refuses names it does not know,
 * and docs/report.md's metric list is printed from it (test_metric_table checks the page).
 *
 * Adding a metric is one row in metric_table.c's nb_metric_rows[] (then `test_metric_table
 * --print` for the doc line). The row says everything code needs: its unit kind (how render/
 * prints it), direction, floor, and flags (counts losses, follows the work, host state); no code
 * reads meaning from a name's spelling. The IRQ-role and page_pool families are expanded from
 * kit/nic_names.h's lists; build a {N} member's name with nb_metric_name_n. A family of metrics whose names carry a number or a counter's name
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

/* The other metrics code puts or reads, by their producer: the name is spelled here and nowhere else. */
/* iperf */
#define NB_M_LOST_PERCENT "lost_percent"
#define NB_M_LOST_PACKETS "lost_packets"
#define NB_M_PACKETS "packets"
#define NB_M_JITTER_MS "jitter_ms"
#define NB_M_RETRANSMITS "retransmits"
#define NB_M_TCP_RTT_MEAN_US "tcp_rtt_mean_us"
#define NB_M_TCP_RTT_MIN_US "tcp_rtt_min_us"
#define NB_M_TCP_RTT_MAX_US "tcp_rtt_max_us"
/* rr */
#define NB_M_RR_TRANSACTIONS "rr_transactions"
#define NB_M_RR_OFFERED_TRANSACTIONS_PER_S "rr_offered_transactions_per_s"
#define NB_M_RR_LOST_TRANSACTIONS "rr_lost_transactions"
#define NB_M_RR_LATE_TRANSACTIONS "rr_late_transactions"
#define NB_M_RR_UNSENT_TRANSACTIONS "rr_unsent_transactions"
#define NB_M_RR_LATENCY_P90_US "rr_latency_p90_us"
#define NB_M_RR_LATENCY_P999_US "rr_latency_p999_us"
#define NB_M_RR_LATENCY_MEAN_US "rr_latency_mean_us"
#define NB_M_RR_LATENCY_MIN_US "rr_latency_min_us"
#define NB_M_RR_LATENCY_MAX_US "rr_latency_max_us"
#define NB_M_CPU_US_PER_TRANSACTION "cpu_us_per_transaction"
#define NB_M_RR_CLIENT_CPU_US_PER_TRANSACTION "rr_client_cpu_us_per_transaction"
#define NB_M_INTERRUPTS_PER_TRANSACTION "interrupts_per_transaction"
#define NB_M_NAPI_POLLS_PER_TRANSACTION "napi_polls_per_transaction"
/* sampler */
#define NB_M_CPU_UNACCOUNTED_PCT "cpu_unaccounted_pct"
#define NB_M_NAPI_THREADS "napi_threads"
#define NB_M_NET_RX_SOFTIRQS_PER_S "net_rx_softirqs_per_s"
#define NB_M_NET_TX_SOFTIRQS_PER_S "net_tx_softirqs_per_s"
#define NB_M_SOFTNET_PROCESSED_PER_S "softnet_processed_per_s"
#define NB_M_SOFTNET_DROPPED "softnet_dropped"
#define NB_M_TIME_SQUEEZE "time_squeeze"
#define NB_M_RX_BYTES_PER_S "rx_bytes_per_s"
#define NB_M_TX_BYTES_PER_S "tx_bytes_per_s"
#define NB_M_RX_DROPPED "rx_dropped"
#define NB_M_TX_DROPPED "tx_dropped"
#define NB_M_RX_ERRORS "rx_errors"
#define NB_M_TX_ERRORS "tx_errors"
#define NB_M_UDP_IN_DATAGRAMS_PER_S "udp_in_datagrams_per_s"
#define NB_M_UDP_IN_ERRORS "udp_in_errors"
#define NB_M_UDP_RCVBUF_ERRORS "udp_rcvbuf_errors"
#define NB_M_UDP_SNDBUF_ERRORS "udp_sndbuf_errors"
#define NB_M_UDP_IN_CSUM_ERRORS "udp_in_csum_errors"
#define NB_M_UDP_NO_PORTS "udp_no_ports"
/* runner */
#define NB_M_IRQBALANCE_RUNNING "irqbalance_running"
#define NB_M_IRQ_AFFINITY_MOVED "irq_affinity_moved"
#define NB_M_TRAFFIC_CPU_OPEN "traffic_cpu_open"
#define NB_M_TRAFFIC_CPU_CLOSE "traffic_cpu_close"
/* trace */
#define NB_M_NAPI_PACKETS_PER_POLL "napi_packets_per_poll"
#define NB_M_NAPI_BUDGET_EXHAUSTED_PCT "napi_budget_exhausted_pct"
#define NB_M_HARDIRQS_PER_S "hardirqs_per_s"
#define NB_M_NET_RX_SOFTIRQ_NS_PER_S "net_rx_softirq_ns_per_s"
#define NB_M_NET_TX_SOFTIRQ_NS_PER_S "net_tx_softirq_ns_per_s"
#define NB_M_NET_RX_SOFTIRQ_PCT "net_rx_softirq_pct"
#define NB_M_TRACE_LOST_SAMPLES "trace_lost_samples"
/* page_pool */
#define NB_M_PP_INFLIGHT_PAGES "pp_inflight_pages"
#define NB_M_PP_RECYCLE_PCT "pp_recycle_pct"
/* page_pool tracepoints */
#define NB_M_PP_TRACE_ALLOC_PAGES "pp_trace_alloc_pages"
#define NB_M_PP_TRACE_RELEASE_PAGES "pp_trace_release_pages"
#define NB_M_PP_TRACE_INFLIGHT_CHANGE "pp_trace_inflight_change"
#define NB_M_PP_TRACE_POOLS "pp_trace_pools"
#define NB_M_PP_TRACE_RECYCLE_PCT "pp_trace_recycle_pct"
/* ethtool -S */
#define NB_M_RX_MISSED_ERRORS "rx_missed_errors"
#define NB_M_RX_FIFO_ERRORS "rx_fifo_errors"
#define NB_M_RX_OVERRUN_ERRORS "rx_overrun_errors"

/* Families with a CPU or IRQ number: build a member's name with nb_metric_name_n. */
#define NB_M_CPU_N_INTERRUPTS_PER_S "cpu{N}_interrupts_per_s"
#define NB_M_IRQ_N_PER_S "irq{N}_per_s"
#define NB_M_CPU_N_NET_RX_SOFTIRQ_NS_PER_S "cpu{N}_net_rx_softirq_ns_per_s"

/* The CPU time shares /proc/stat gives, machine-wide (cpu_busy_pct, user_pct ...) and per CPU
 * (cpu{N}_busy_pct ...): nb_metric_cpu_share names them. */
enum nb_cpu_share { NB_SHARE_BUSY, NB_SHARE_USER, NB_SHARE_SYSTEM, NB_SHARE_IRQ, NB_SHARE_SOFTIRQ, NB_CPU_SHARES };

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

/* What a value is, so that render/ can print it and compare can weigh it without reading the
 * name: the row's unit in words (below) says the same for a person. */
enum nb_metric_unit_kind {
	NB_UNIT_NUMBER,        /* a bare number: a metric the table does not know */
	NB_UNIT_BIT_PER_S,     /* payload bits per second */
	NB_UNIT_BIT_PER_CPU_S, /* bits per second of busy CPU */
	NB_UNIT_BYTE_PER_S,
	NB_UNIT_PACKET_PER_S,  /* packets or datagrams per second */
	NB_UNIT_PER_S,         /* other events per second */
	NB_UNIT_PCT_MACHINE,   /* percent of all online CPUs: a floor is in percentage points */
	NB_UNIT_PCT_CPU,       /* percent of one CPU */
	NB_UNIT_PCT,           /* percent of something else: datagrams, polls, pages */
	NB_UNIT_US,            /* microseconds */
	NB_UNIT_MS,            /* milliseconds */
	NB_UNIT_NS_PER_S,      /* nanoseconds of time spent per second of wall time */
	NB_UNIT_NS_PER_PACKET, /* nanoseconds of CPU time per packet handled: a cost, not a share */
	NB_UNIT_MS_PER_S,      /* milliseconds of CPU per second of wall time */
	NB_UNIT_PER_RUN,       /* a count of events over one run (packets, pages, datagrams) */
	NB_UNIT_RATIO,         /* one count per another: packets per poll, interrupts per transaction */
	NB_UNIT_COUNT,         /* a level at the window's end or a number found: threads, IRQs, pages */
	NB_UNIT_FLAG,          /* 0 or 1 */
	NB_UNIT_CPU_NUMBER,    /* which CPU */
};

/* What compare and render/ may know of a metric beyond its unit and direction. */
enum nb_metric_flag {
	/* what did not fit (lost, dropped, overrun): counted in events, never as a ratio, and a
	 * host's steal can explain any change of it */
	NB_METRIC_COUNTS_LOSSES = 1u << 0,
	/* a cost that grows with the work done (CPU time per packet handled): a change no larger
	 * than the throughput's is the same cost per bit, which bits_per_cpu_second judges */
	NB_METRIC_FOLLOWS_WORK = 1u << 1,
	/* printed as the bare number its source writes (iperf3's lost_percent), not "x.x%" */
	NB_METRIC_SHOWN_BARE = 1u << 2,
	/* the host's circumstances (other programs' CPU, the hypervisor's steal): the evidence of
	 * compare's disturbed and steal rules, which therefore do not hold it back themselves */
	NB_METRIC_HOST_STATE = 1u << 3,
};

struct nb_metric_def {
	const char *name;   /* exact, or with one placeholder ({N}, {name}: see above) */
	const char *unit;   /* of the value, in words: "bit/s", "% of the machine", "packets per run" */
	enum nb_metric_unit_kind kind; /* the same, for code: how to print it */
	enum nb_metric_direction direction;
	struct nb_metric_floor floor;
	bool gate;          /* may --gate name it (only a metric with a direction) */
	unsigned flags;     /* enum nb_metric_flag */
	const char *source; /* one word: sampler, iperf, rr, trace, qstats, runner, compare */
	const char *doc;    /* one line: what it measures */
};

/* The row of a metric name, or NULL when the table does not know it. */
const struct nb_metric_def *nb_metric_lookup(const char *name);

/* The metric of a CPU share: machine-wide ("user_pct") or the per-CPU family's pattern
 * ("cpu{N}_user_pct", for nb_metric_name_n). */
const char *nb_metric_cpu_share(enum nb_cpu_share share, bool per_cpu);

/* A family member's name: pattern's {N} replaced by n ("cpu{N}_busy_pct", 3 -> cpu3_busy_pct).
 * 0, -EINVAL when pattern has no {N}, -ENAMETOOLONG. */
int nb_metric_name_n(char *buf, size_t len, const char *pattern, int n);
/* The number of name in pattern's {N} ("cpu{N}_busy_pct", "cpu3_busy_pct" -> 3); false when
 * name does not fit the pattern. */
bool nb_metric_name_number(const char *pattern, const char *name, int *n);

/* Does name fit a row's name ("cpu{N}_user_pct" fits cpu3_user_pct)? */
bool nb_metric_name_fits(const char *pattern, const char *name);

/* Row i in table order, NULL past the end. */
const struct nb_metric_def *nb_metric_row(int i);
int nb_metric_rows(void);

/* The metric's unit kind (NB_UNIT_NUMBER when unknown) and flags (0 when unknown). */
enum nb_metric_unit_kind nb_metric_kind_of(const char *name);
bool nb_metric_has_flag(const char *name, enum nb_metric_flag flag);

/* Is the unit kind a percentage (its amounts are percentage points)? */
bool nb_metric_kind_is_pct(enum nb_metric_unit_kind kind);

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
