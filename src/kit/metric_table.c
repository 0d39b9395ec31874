// SPDX-License-Identifier: MIT
/* The metric table: one row per metric nicbench writes (metric_table.h says how to add one). */
#include "metric_table.h"

#include <errno.h>
#include <string.h>

/* The floor families, one unit each so that --floor FAMILY=V means one thing. The values
 * sit at what a maintainer would call a change on a board, above the noise near zero that
 * A/A pairs on the veth test bed show (bench/aa-noise); docs/compare.md says why each. */
#define FLOOR_BITS { "bits", NB_METRIC_FLOOR_BITS_SHARE, 1, "% of the point's throughput_bps" }
#define FLOOR_BYTES { "bits", NB_METRIC_FLOOR_BYTES_SHARE, 1, "% of the point's throughput_bps" }
#define FLOOR_CPU { "cpu", NB_METRIC_FLOOR_ABS, 3, "percentage points of the machine" }
#define FLOOR_CORE { "core", NB_METRIC_FLOOR_ABS, 6, "percentage points of one CPU" }
#define FLOOR_LOSS { "loss", NB_METRIC_FLOOR_ABS, 2, "percentage points of the datagrams" }
#define FLOOR_DROPS { "drops", NB_METRIC_FLOOR_ABS, 100, "packets (events) per run" }
/* a retransmit is a whole TCP segment sent again: a few tens a run are a real change (lan743x at MTU 9000:
 * 27 -> 0 a 20-s run), where a hundred dropped packets may be noise */
#define FLOOR_RETRANSMITS { "retransmits", NB_METRIC_FLOOR_ABS, 10, "segments per run" }
#define FLOOR_JITTER_MS { "jitter", NB_METRIC_FLOOR_ABS, 0.05, "ms" }
#define FLOOR_LATENCY_US { "latency", NB_METRIC_FLOOR_ABS, 10, "microseconds" }
#define FLOOR_RATES { "rates", NB_METRIC_FLOOR_ABS, 1000, "events per second" }
#define FLOOR_SOFTIRQ_TIME { "softirq_time", NB_METRIC_FLOOR_ABS, 2e7, "ns per second (1e9: one CPU)" }
#define FLOOR_OWN_CPU { "own_cpu", NB_METRIC_FLOOR_ABS, 5, "ms of CPU per second" }
#define FLOOR_BATCH { "batching", NB_METRIC_FLOOR_ABS, 5, "packets per NAPI poll" }
#define FLOOR_CPU_PER_TRANSACTION { "cpu_per_transaction", NB_METRIC_FLOOR_ABS, 2, "us of busy CPU per transaction" }
#define FLOOR_BUDGET { "budget", NB_METRIC_FLOOR_ABS, 5, "percentage points of the NAPI polls" }
#define FLOOR_PLACEMENT { "placement", NB_METRIC_FLOOR_ABS, 1, "whole units (a CPU number, a count of IRQs, a 0/1 flag)" }
#define FLOOR_PAGES { "pages", NB_METRIC_FLOOR_ABS, 100, "pages (page_pool events) per run" }
#define FLOOR_RECYCLING { "recycling", NB_METRIC_FLOOR_ABS, 2, "percentage points of the pages allocated" }
#define FLOOR_NONE { NULL, NB_METRIC_FLOOR_NONE, 0, NULL }

#define HIGHER NB_METRIC_HIGHER_BETTER
#define LOWER NB_METRIC_LOWER_BETTER
#define NEUTRAL NB_METRIC_NEUTRAL

/* Why some rows are neutral: rates of events (softirqs, polls, interrupts) depend on the traffic
 * as much as on the driver; the peer's CPU and NAPI batching describe behaviour, not cost; and
 * which CPU carried the work is placement (the scheduler moves the traffic process between CPUs
 * from one run to the next: an A/A pair showed cpu0_user_pct 26% -> 77% and cpu1_user_pct
 * 65% -> 16%), so per-CPU rows are neutral and the machine-wide shares carry the cost. A run's
 * largest latency is one moment of it (an A/A pair showed tcp_rtt_max_us 95 -> 263 with every
 * other figure alike): shown, not judged. */
static const struct nb_metric_def nb_metric_rows_table[] = {
	/* traffic: iperf3's own figures */
	{ NB_M_THROUGHPUT_BPS, "bit/s", HIGHER, FLOOR_BITS, true, "iperf",
	  "payload rate the receiver got (iperf3 end.sum_received)" },
	{ NB_M_THROUGHPUT_SENT_BPS, "bit/s", NEUTRAL, FLOOR_BITS, false, "iperf",
	  "payload rate the sender sent: a UDP test's offered load" },
	{ "lost_percent", "% of datagrams", LOWER, FLOOR_LOSS, true, "iperf", "UDP datagrams the receiver did not get" },
	{ "lost_packets", "datagrams per run", LOWER, FLOOR_DROPS, true, "iperf", "UDP datagrams the receiver did not get" },
	{ "packets", "datagrams per run", NEUTRAL, FLOOR_DROPS, false, "iperf", "UDP datagrams of the run" },
	{ "jitter_ms", "ms", LOWER, FLOOR_JITTER_MS, true, "iperf", "UDP jitter as the receiver saw it" },
	{ "retransmits", "segments per run", LOWER, FLOOR_RETRANSMITS, true, "iperf", "TCP retransmissions of the sender" },
	{ NB_M_IPERF_HOST_CPU_PCT, "% of one CPU", LOWER, FLOOR_CORE, true, "iperf",
	  "CPU of the local iperf3 process, as iperf3 reports it" },
	{ NB_M_IPERF_REMOTE_CPU_PCT, "% of one CPU", NEUTRAL, FLOOR_CORE, false, "iperf",
	  "CPU of the peer's iperf3 server: at 90% or more the result is peer-bound" },
	{ "tcp_rtt_mean_us", "us", LOWER, FLOOR_LATENCY_US, true, "iperf", "mean smoothed TCP RTT of the streams" },
	{ "tcp_rtt_min_us", "us", LOWER, FLOOR_LATENCY_US, true, "iperf", "smallest TCP RTT of the streams" },
	{ "tcp_rtt_max_us", "us", NEUTRAL, FLOOR_LATENCY_US, false, "iperf", "largest TCP RTT of the streams" },
	/* traffic: request/response tests; latency and CPU per transaction are costs, transactions
	 * are work done; interrupts and polls per transaction describe batching */
	{ NB_M_RR_TRANSACTIONS_PER_S, "1/s", HIGHER, FLOOR_RATES, true, "rr", "answered transactions per second" },
	{ "rr_transactions", "transactions per run", NEUTRAL, FLOOR_NONE, false, "rr", "answered transactions of the run" },
	{ "rr_offered_transactions_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "rr",
	  "the rate the client was asked to send (fixed-rate tests)" },
	{ "rr_lost_transactions", "transactions per run", LOWER, FLOOR_DROPS, true, "rr",
	  "requests never answered" },
	{ "rr_late_transactions", "transactions per run", LOWER, FLOOR_DROPS, true, "rr",
	  "answers after the client stopped waiting" },
	{ "rr_unsent_transactions", "transactions per run", LOWER, FLOOR_DROPS, true, "rr",
	  "requests a fixed-rate client could not send in time" },
	{ NB_M_RR_LATENCY_P50_US, "us", LOWER, FLOOR_LATENCY_US, true, "rr", "median request/response latency" },
	{ "rr_latency_p90_us", "us", LOWER, FLOOR_LATENCY_US, true, "rr", "90th percentile latency" },
	{ NB_M_RR_LATENCY_P99_US, "us", LOWER, FLOOR_LATENCY_US, true, "rr", "99th percentile latency" },
	{ "rr_latency_p999_us", "us", LOWER, FLOOR_LATENCY_US, true, "rr", "99.9th percentile latency" },
	{ "rr_latency_mean_us", "us", LOWER, FLOOR_LATENCY_US, true, "rr", "mean latency" },
	{ "rr_latency_min_us", "us", LOWER, FLOOR_LATENCY_US, true, "rr", "smallest latency" },
	{ "rr_latency_max_us", "us", NEUTRAL, FLOOR_LATENCY_US, false, "rr", "largest latency: one moment of the run" },
	{ "cpu_us_per_transaction", "us", LOWER, FLOOR_CPU_PER_TRANSACTION, true, "rr",
	  "busy CPU time of the machine per transaction" },
	{ "rr_client_cpu_us_per_transaction", "us", LOWER, FLOOR_CPU_PER_TRANSACTION, true, "rr",
	  "CPU time of the rr client per answered transaction" },
	{ "interrupts_per_transaction", "interrupts", NEUTRAL, FLOOR_NONE, false, "rr",
	  "the NIC's interrupts per transaction" },
	{ "napi_polls_per_transaction", "polls", NEUTRAL, FLOOR_NONE, false, "rr", "NAPI polls per transaction" },
	/* CPU shares from /proc/stat and /proc/PID/stat */
	{ NB_M_CPU_BUSY_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler",
	  "busy share of all online CPUs: user, system, irq, softirq and steal" },
	{ "user_pct", "% of the machine", LOWER, FLOOR_CPU, true, "sampler", "user (and nice) share of all CPUs" },
	{ "system_pct", "% of the machine", LOWER, FLOOR_CPU, true, "sampler", "system share of all CPUs" },
	{ NB_M_IRQ_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler", "hard interrupt share of all CPUs" },
	{ NB_M_SOFTIRQ_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler", "softirq share of all CPUs" },
	{ NB_M_STEAL_PCT, "% of the machine", NEUTRAL, FLOOR_CPU, false, "sampler",
	  "the hypervisor's steal: the host's load on a VM, not the driver's cost" },
	{ "cpu_unaccounted_pct", "% of the machine", NEUTRAL, FLOOR_CPU, false, "sampler",
	  "wall time /proc/stat did not account: how far busy % may fall short" },
	{ NB_M_CPU_OTHER_PCT, "% of the machine", NEUTRAL, FLOOR_CPU, false, "sampler",
	  "CPU of other programs: whether the run was disturbed" },
	{ NB_M_NAPI_THREAD_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler",
	  "CPU of the interface's threaded NAPI kthreads" },
	{ "napi_threads", "threads", NEUTRAL, FLOOR_NONE, false, "sampler", "threaded NAPI kthreads found" },
	{ NB_M_TRAFFIC_PROC_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler",
	  "CPU of the process that makes the traffic" },
	{ NB_M_PEER_PROC_PCT, "% of the machine", LOWER, FLOOR_CPU, true, "sampler",
	  "CPU of a local peer process (nicbench serve, iperf3 -s)" },
	{ NB_M_NICBENCH_CPU_MS_PER_S, "ms/s", NEUTRAL, FLOOR_OWN_CPU, false, "runner",
	  "nicbench's own CPU time while it measured" },
	{ "cpu{N}_busy_pct", "% of one CPU", NEUTRAL, FLOOR_CORE, false, "sampler", "busy share of CPU N" },
	{ "cpu{N}_user_pct", "% of one CPU", NEUTRAL, FLOOR_CORE, false, "sampler", "user share of CPU N" },
	{ "cpu{N}_system_pct", "% of one CPU", NEUTRAL, FLOOR_CORE, false, "sampler", "system share of CPU N" },
	{ "cpu{N}_irq_pct", "% of one CPU", NEUTRAL, FLOOR_CORE, false, "sampler", "hard interrupt share of CPU N" },
	{ "cpu{N}_softirq_pct", "% of one CPU", NEUTRAL, FLOOR_CORE, false, "sampler", "softirq share of CPU N" },
	/* kernel counters: /proc/softirqs, /proc/interrupts, softnet_stat, the interface, UDP */
	{ "net_rx_softirqs_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler", "NET_RX softirqs run, all CPUs" },
	{ "net_tx_softirqs_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler", "NET_TX softirqs run, all CPUs" },
	{ NB_M_INTERRUPTS_PER_S, "1/s", NEUTRAL, FLOOR_RATES, false, "sampler", "the interface's hard interrupts" },
	/* the NIC's IRQs by role (board.irq_names patterns or the driver's names) and by the CPU that took them:
	 * placement, so neutral, like the per-CPU shares */
	{ "irq_rx_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler", "interrupts of the NIC's rx IRQs" },
	{ "irq_tx_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler", "interrupts of the NIC's tx IRQs" },
	{ "irq_txrx_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "interrupts of the NIC's combined rx/tx IRQs (TxRx vectors)" },
	{ "irq_misc_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "interrupts of the NIC's other IRQs (link, errors)" },
	{ "cpu{N}_interrupts_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "interrupts of the NIC's IRQs that CPU N took" },
	{ "irq{N}_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "interrupts of the NIC's IRQ N (one by one: a role's several queue IRQs apart)" },
	/* what moved the IRQs or the traffic: the run's circumstances, not the driver's cost */
	{ "irqbalance_running", "0/1", NEUTRAL, FLOOR_PLACEMENT, false, "runner",
	  "1 when irqbalance ran at either edge of the measured window" },
	{ "irq_affinity_moved", "IRQs", NEUTRAL, FLOOR_PLACEMENT, false, "runner",
	  "the NIC's IRQs whose affinity changed inside the window without nicbench (the point's note names them)" },
	{ "traffic_cpu_open", "CPU number", NEUTRAL, FLOOR_PLACEMENT, false, "runner",
	  "the CPU the traffic process last ran on at the window's start" },
	{ "traffic_cpu_close", "CPU number", NEUTRAL, FLOOR_PLACEMENT, false, "runner",
	  "the CPU the traffic process last ran on at the window's end" },
	{ "softnet_processed_per_s", "packets/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "packets the backlog processed (softnet_stat)" },
	{ "softnet_dropped", "packets per run", LOWER, FLOOR_DROPS, true, "sampler",
	  "packets dropped for a full backlog (softnet_stat)" },
	{ "time_squeeze", "events per run", LOWER, FLOOR_DROPS, true, "sampler",
	  "net_rx_action ran out of budget or time with work left (softnet_stat)" },
	/* Packets moved are work done, like throughput: a small-packet UDP test is judged on its packet
	 * rate more than on its bits. The floor stays the rates family's 1000/s: at the 80k-1M packets/s
	 * of a board's TCP or 64-byte UDP point that is 0.1-1%, the scale of throughput's 1% floor, and
	 * it keeps the few hundred packets/s of ARP and ACKs near an idle direction from swinging
	 * tens of percent. Not gated by default: in a TCP test one direction counts ACKs, which GRO
	 * batching rightly thins out; gate the direction that carries the payload (udp-rx: rx). */
	{ NB_M_RX_PACKETS_PER_S, "packets/s", HIGHER, FLOOR_RATES, true, "sampler", "packets the interface received" },
	{ NB_M_TX_PACKETS_PER_S, "packets/s", HIGHER, FLOOR_RATES, true, "sampler", "packets the interface sent" },
	{ "rx_bytes_per_s", "bytes/s", NEUTRAL, FLOOR_BYTES, false, "sampler", "bytes the interface received" },
	{ "tx_bytes_per_s", "bytes/s", NEUTRAL, FLOOR_BYTES, false, "sampler", "bytes the interface sent" },
	{ "rx_dropped", "packets per run", LOWER, FLOOR_DROPS, true, "sampler", "the interface's rx_dropped" },
	{ "tx_dropped", "packets per run", LOWER, FLOOR_DROPS, true, "sampler", "the interface's tx_dropped" },
	{ "rx_errors", "packets per run", NEUTRAL, FLOOR_DROPS, false, "sampler", "the interface's rx_errors" },
	{ "tx_errors", "packets per run", NEUTRAL, FLOOR_DROPS, false, "sampler", "the interface's tx_errors" },
	{ "udp_in_datagrams_per_s", "datagrams/s", NEUTRAL, FLOOR_RATES, false, "sampler",
	  "UDP datagrams delivered (/proc/net/snmp)" },
	{ "udp_in_errors", "datagrams per run", LOWER, FLOOR_DROPS, true, "sampler", "UDP InErrors" },
	{ "udp_rcvbuf_errors", "datagrams per run", LOWER, FLOOR_DROPS, true, "sampler",
	  "UDP datagrams dropped for a full receive buffer" },
	{ "udp_sndbuf_errors", "datagrams per run", LOWER, FLOOR_DROPS, true, "sampler",
	  "UDP datagrams dropped for a full send buffer" },
	{ "udp_in_csum_errors", "datagrams per run", LOWER, FLOOR_DROPS, true, "sampler", "UDP checksum errors" },
	{ "udp_no_ports", "datagrams per run", NEUTRAL, FLOOR_DROPS, false, "sampler",
	  "UDP datagrams to a closed port: the peer's doing" },
	/* tracepoints (napi:napi_poll, irq:softirq_entry/exit, irq:irq_handler_entry) */
	{ NB_M_NAPI_POLLS_PER_S, "1/s", NEUTRAL, FLOOR_RATES, false, "trace", "NAPI polls of the interface" },
	{ "napi_packets_per_poll", "packets", NEUTRAL, FLOOR_BATCH, false, "trace", "packets a NAPI poll handled" },
	{ "napi_budget_exhausted_pct", "% of polls", NEUTRAL, FLOOR_BUDGET, false, "trace",
	  "NAPI polls that used their whole budget" },
	{ "hardirqs_per_s", "1/s", NEUTRAL, FLOOR_RATES, false, "trace", "the interface's hard interrupts, traced" },
	{ "net_rx_softirq_ns_per_s", "ns/s", LOWER, FLOOR_SOFTIRQ_TIME, true, "trace",
	  "time in NET_RX softirqs, all CPUs (1e9: one CPU)" },
	{ "net_tx_softirq_ns_per_s", "ns/s", LOWER, FLOOR_SOFTIRQ_TIME, true, "trace",
	  "time in NET_TX softirqs, all CPUs" },
	{ "net_rx_softirq_pct", "% of the machine", LOWER, FLOOR_CPU, true, "trace",
	  "time in NET_RX softirqs as a share of all CPUs" },
	{ "cpu{N}_net_rx_softirq_ns_per_s", "ns/s", NEUTRAL, FLOOR_SOFTIRQ_TIME, false, "trace",
	  "time in NET_RX softirqs on CPU N" },
	{ "trace_lost_samples", "events per run", NEUTRAL, FLOOR_DROPS, false, "trace",
	  "tracepoint samples the ring buffer lost" },
	/* netdev qstats-get over the window: losses and stalls are costs, the rest is volume */
	{ "qstats_rx_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats", "packets received" },
	{ "qstats_rx_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats", "bytes received" },
	{ "qstats_tx_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats", "packets sent" },
	{ "qstats_tx_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats", "bytes sent" },
	{ "qstats_rx_alloc_fail", "events per run", LOWER, FLOOR_DROPS, true, "qstats",
	  "receive buffer allocations that failed" },
	{ "qstats_rx_hw_drops", "packets per run", LOWER, FLOOR_DROPS, true, "qstats", "packets the NIC dropped on receive" },
	{ "qstats_rx_hw_drop_overruns", "packets per run", LOWER, FLOOR_DROPS, true, "qstats",
	  "receive drops for a full ring or FIFO" },
	{ "qstats_rx_csum_complete", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "packets with CHECKSUM_COMPLETE" },
	{ "qstats_rx_csum_unnecessary", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "packets with CHECKSUM_UNNECESSARY" },
	{ "qstats_rx_csum_none", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats", "packets without checksum offload" },
	{ "qstats_rx_csum_bad", "packets per run", LOWER, FLOOR_DROPS, true, "qstats", "packets with a bad checksum" },
	{ "qstats_rx_hw_gro_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "packets the NIC coalesced (HW-GRO)" },
	{ "qstats_rx_hw_gro_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats", "bytes of HW-GRO packets" },
	{ "qstats_rx_hw_gro_wire_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "wire packets HW-GRO coalesced" },
	{ "qstats_rx_hw_gro_wire_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "wire bytes HW-GRO coalesced" },
	{ "qstats_rx_hw_drop_ratelimits", "packets per run", LOWER, FLOOR_DROPS, true, "qstats",
	  "receive drops by a rate limit" },
	{ "qstats_tx_hw_drops", "packets per run", LOWER, FLOOR_DROPS, true, "qstats", "packets the NIC dropped on send" },
	{ "qstats_tx_hw_drop_errors", "packets per run", LOWER, FLOOR_DROPS, true, "qstats", "send drops for errors" },
	{ "qstats_tx_csum_none", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats", "packets sent without checksum offload" },
	{ "qstats_tx_needs_csum", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "packets sent with checksum offload" },
	{ "qstats_tx_hw_gso_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "packets the NIC segmented (HW-GSO)" },
	{ "qstats_tx_hw_gso_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats", "bytes of HW-GSO packets" },
	{ "qstats_tx_hw_gso_wire_packets", "packets per run", NEUTRAL, FLOOR_NONE, false, "qstats",
	  "wire packets HW-GSO made" },
	{ "qstats_tx_hw_gso_wire_bytes", "bytes per run", NEUTRAL, FLOOR_NONE, false, "qstats", "wire bytes HW-GSO made" },
	{ "qstats_tx_hw_drop_ratelimits", "packets per run", LOWER, FLOOR_DROPS, true, "qstats",
	  "send drops by a rate limit" },
	{ "qstats_tx_stop", "events per run", LOWER, FLOOR_DROPS, true, "qstats", "times a send queue was stopped (full)" },
	{ "qstats_tx_wake", "events per run", NEUTRAL, FLOOR_NONE, false, "qstats", "times a stopped send queue woke" },
	/* netdev page-pool-stats-get over the window, the interface's pools summed (docs/report.md) */
	{ "pp_alloc_fast", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool", "pages from the pool's cache" },
	{ "pp_alloc_slow", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool",
	  "pages from the page allocator (slow path)" },
	{ "pp_alloc_slow_high_order", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool",
	  "high-order allocations on the slow path" },
	{ "pp_alloc_empty", "events per run", LOWER, FLOOR_PAGES, false, "page_pool",
	  "allocations that found the ring empty" },
	{ "pp_alloc_refill", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool", "pages moved from the ring to the cache" },
	{ "pp_alloc_waive", "pages per run", LOWER, FLOOR_PAGES, false, "page_pool",
	  "pages given back at refill for being on another NUMA node" },
	{ "pp_recycle_cached", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool", "pages recycled into the cache" },
	{ "pp_recycle_cache_full", "pages per run", LOWER, FLOOR_PAGES, false, "page_pool",
	  "pages not recycled: the cache was full" },
	{ "pp_recycle_ring", "pages per run", NEUTRAL, FLOOR_PAGES, false, "page_pool", "pages recycled into the ring" },
	{ "pp_recycle_ring_full", "pages per run", LOWER, FLOOR_PAGES, false, "page_pool",
	  "pages not recycled: the ring was full" },
	{ "pp_recycle_released_refcnt", "pages per run", LOWER, FLOOR_PAGES, false, "page_pool",
	  "pages released, not recycled (elevated refcount)" },
	{ "pp_inflight_pages", "pages", NEUTRAL, FLOOR_PAGES, false, "page_pool",
	  "pages out of the pools at the window's end (a level)" },
	{ "pp_recycle_pct", "%", HIGHER, FLOOR_RECYCLING, false, "page_pool",
	  "(recycle_ring + recycle_cached) / (alloc_fast + alloc_refill + alloc_slow), as ynl's page-pool view" },
	/* page_pool from its tracepoints, for drivers and kernels without netlink or ethtool counters (cpsw,
	 * kernels before 6.8 or without CONFIG_PAGE_POOL_STATS): the diagnostic repetition, every pool of the
	 * machine (the tracepoints name the pool, not the device) */
	{ "pp_trace_alloc_pages", "pages per run", NEUTRAL, FLOOR_PAGES, false, "tracepoints",
	  "pages the page pools took from the page allocator (page_pool:page_pool_state_hold events)" },
	{ "pp_trace_release_pages", "pages per run", NEUTRAL, FLOOR_PAGES, false, "tracepoints",
	  "pages the page pools gave back to the page allocator (page_pool:page_pool_state_release events)" },
	{ "pp_trace_inflight_change", "pages", NEUTRAL, FLOOR_PAGES, false, "tracepoints",
	  "pages taken and not given back over the window (hold - release): the pools' pages in flight grew by it" },
	{ "pp_trace_pools", "pools", NEUTRAL, FLOOR_PLACEMENT, false, "tracepoints",
	  "page pools that took or gave back a page in the window" },
	{ "pp_trace_recycle_pct", "%", HIGHER, FLOOR_RECYCLING, false, "tracepoints",
	  "100 x (1 - pages taken / packets the interface's NAPI polled): packets served by recycled pages, a page a packet" },
	/* the driver's ethtool -S drop counters, per queue ones summed (read by the NIC-drops rule) */
	{ "rx_missed_errors", "packets per run", LOWER, FLOOR_DROPS, true, "ethtool -S",
	  "receive drops the NIC counted as missed (rx_missed_errors or rx_queue_N_missed_errors)" },
	{ "rx_fifo_errors", "packets per run", LOWER, FLOOR_DROPS, true, "ethtool -S",
	  "receive FIFO overruns the driver counted (rx_fifo_errors or rx_queue_N_fifo_errors)" },
	{ "rx_overrun_errors", "packets per run", LOWER, FLOOR_DROPS, true, "ethtool -S",
	  "receive overruns under the driver's own names, the largest (cpsw's Rx DMA Overruns, rx_overruns, rx_overflow_cntr)" },
	/* derived by compare */
	{ NB_M_BITS_PER_CPU_SECOND, "bit per CPU-second", HIGHER, FLOOR_NONE, true, "compare",
	  "throughput_bps per busy CPU: throughput / (cpu_busy_pct x CPUs / 100)" },
};

#define N_ROWS ((int)(sizeof(nb_metric_rows_table) / sizeof(nb_metric_rows_table[0])))

int nb_metric_rows(void)
{
	return N_ROWS;
}

const struct nb_metric_def *nb_metric_row(int i)
{
	return i >= 0 && i < N_ROWS ? &nb_metric_rows_table[i] : NULL;
}

/* Does name fit a row with a placeholder? Rows without one are compared whole by the caller. */
static bool placeholder_matches(const char *pattern, const char *open, const char *name)
{
	const char *close = strchr(open, '}');
	size_t plen = (size_t)(open - pattern), nlen = strlen(name), slen, middle;
	const char *suffix;

	if (!close)
		return false;
	suffix = close + 1;
	slen = strlen(suffix);
	if (nlen <= plen + slen || strncmp(name, pattern, plen) || strcmp(name + nlen - slen, suffix))
		return false;
	middle = nlen - plen - slen;
	if (!strncmp(open, "{N}", 3)) {
		for (size_t i = 0; i < middle; i++) {
			if (name[plen + i] < '0' || name[plen + i] > '9')
				return false;
		}
	}
	return true;
}

bool nb_metric_name_fits(const char *pattern, const char *name)
{
	const char *open = strchr(pattern, '{');

	return open ? placeholder_matches(pattern, open, name) : !strcmp(pattern, name);
}

const struct nb_metric_def *nb_metric_lookup(const char *name)
{
	const struct nb_metric_def *family = NULL;

	for (int i = 0; i < N_ROWS; i++) {
		const struct nb_metric_def *d = &nb_metric_rows_table[i];
		const char *open = strchr(d->name, '{');

		if (!open) {
			if (d->name[0] == name[0] && !strcmp(d->name, name))
				return d;
		} else if (!family && placeholder_matches(d->name, open, name)) {
			family = d;
		}
	}
	return family;
}

enum nb_metric_direction nb_metric_direction_of(const char *name)
{
	const struct nb_metric_def *d = nb_metric_lookup(name);

	return d ? d->direction : NB_METRIC_NEUTRAL;
}

struct nb_metric_floor nb_metric_floor_of(const char *name)
{
	const struct nb_metric_def *d = nb_metric_lookup(name);

	return d ? d->floor : (struct nb_metric_floor)FLOOR_NONE;
}

bool nb_metric_floor_family_known(const char *name)
{
	for (int i = 0; i < N_ROWS; i++) {
		const char *family = nb_metric_rows_table[i].floor.family;

		if (family && !strcmp(family, name))
			return true;
	}
	return false;
}

/* Levenshtein distance, capped at the buffer: names are at most NB_METRIC_NAME_MAX long. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *nb_metric_nearest(const char *name)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (int i = 0; i < N_ROWS; i++) {
		size_t d = edit_distance(name, nb_metric_rows_table[i].name);

		if (d < best_d) {
			best_d = d;
			best = nb_metric_rows_table[i].name;
		}
	}
	/* a suggestion further away than a third of the name is noise, not a typo */
	return best && best_d * 3 <= strlen(name) ? best : NULL;
}

const char *nb_metric_direction_words(enum nb_metric_direction d)
{
	return d == NB_METRIC_HIGHER_BETTER ? "higher is better" :
	       d == NB_METRIC_LOWER_BETTER  ? "lower is better" :
					      "neutral";
}

int nb_metric_table_markdown(FILE *out)
{
	fputs("| metric | unit | direction | gate | floor (family value) | from | what it is |\n"
	      "|---|---|---|---|---|---|---|\n", out);
	for (int i = 0; i < N_ROWS; i++) {
		const struct nb_metric_def *d = &nb_metric_rows_table[i];

		fprintf(out, "| `%s` | %s | %s | %s | ", d->name, d->unit, nb_metric_direction_words(d->direction),
			d->gate ? "yes" : "no");
		if (d->floor.kind == NB_METRIC_FLOOR_NONE)
			fputs("none", out);
		else
			fprintf(out, "%s %g", d->floor.family, d->floor.value);
		fprintf(out, " | %s | %s |\n", d->source, d->doc);
	}
	return ferror(out) ? -EIO : 0;
}
