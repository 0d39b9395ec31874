// SPDX-License-Identifier: MIT
/* The metric table: one row per metric nicbench writes (metric_table.h says how to add one). */
#include "metric_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/nic_names.h"

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
/* A cache miss or two a packet: below the 5% minimum effect at the 1-10 us per packet of a board or
 * the lab, it binds only where the kernel spends under a microsecond a packet (GRO, a fast CPU). */
#define FLOOR_CPU_PER_PACKET { "cpu_per_packet", NB_METRIC_FLOOR_ABS, 50, "ns of kernel CPU per packet" }
#define FLOOR_NONE { NULL, NB_METRIC_FLOOR_NONE, 0, NULL }

#define U_BITS NB_UNIT_BIT_PER_S
#define U_BITS_CPU NB_UNIT_BIT_PER_CPU_S
#define U_BYTES NB_UNIT_BYTE_PER_S
#define U_PACKETS NB_UNIT_PACKET_PER_S
#define U_EVENTS NB_UNIT_PER_S
#define U_PCT_MACHINE NB_UNIT_PCT_MACHINE
#define U_PCT_CPU NB_UNIT_PCT_CPU
#define U_PCT NB_UNIT_PCT
#define U_US NB_UNIT_US
#define U_MS NB_UNIT_MS
#define U_NS_PER_S NB_UNIT_NS_PER_S
#define U_NS_PER_PACKET NB_UNIT_NS_PER_PACKET
#define U_MS_PER_S NB_UNIT_MS_PER_S
#define U_PER_RUN NB_UNIT_PER_RUN
#define U_RATIO NB_UNIT_RATIO
#define U_COUNT NB_UNIT_COUNT
#define U_FLAG NB_UNIT_FLAG
#define U_CPU NB_UNIT_CPU_NUMBER

#define LOSSES NB_METRIC_COUNTS_LOSSES
#define WORK NB_METRIC_FOLLOWS_WORK
#define BARE NB_METRIC_SHOWN_BARE
#define HOST NB_METRIC_HOST_STATE

#define HIGHER NB_METRIC_HIGHER_BETTER
#define LOWER NB_METRIC_LOWER_BETTER
#define NEUTRAL NB_METRIC_NEUTRAL

/* The CPU shares' names, machine-wide and per CPU (enum nb_cpu_share). */
#define NB_M_USER_PCT "user_pct"
#define NB_M_SYSTEM_PCT "system_pct"
#define NB_M_CPU_N_BUSY_PCT "cpu{N}_busy_pct"
#define NB_M_CPU_N_USER_PCT "cpu{N}_user_pct"
#define NB_M_CPU_N_SYSTEM_PCT "cpu{N}_system_pct"
#define NB_M_CPU_N_IRQ_PCT "cpu{N}_irq_pct"
#define NB_M_CPU_N_SOFTIRQ_PCT "cpu{N}_softirq_pct"

static const char *const cpu_shares[NB_CPU_SHARES][2] = {
	[NB_SHARE_BUSY] = { NB_M_CPU_BUSY_PCT, NB_M_CPU_N_BUSY_PCT },
	[NB_SHARE_USER] = { NB_M_USER_PCT, NB_M_CPU_N_USER_PCT },
	[NB_SHARE_SYSTEM] = { NB_M_SYSTEM_PCT, NB_M_CPU_N_SYSTEM_PCT },
	[NB_SHARE_IRQ] = { NB_M_IRQ_PCT, NB_M_CPU_N_IRQ_PCT },
	[NB_SHARE_SOFTIRQ] = { NB_M_SOFTIRQ_PCT, NB_M_CPU_N_SOFTIRQ_PCT },
};

/* The rows of the families whose names come from the NIC's lists (kit/nic_names.h). */
#define IRQ_ROLE_ROW(e, role, doc) \
	{ NB_M_IRQ_ROLE_PREFIX #role NB_M_IRQ_ROLE_SUFFIX, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler", doc },
/* page_pool counters are not gated: a board's pools come and go with the traffic's shape */
#define PP_COUNTER_ROW(e, name, eth, unit, dir, doc, label) \
	{ NB_M_PP_PREFIX #name, unit, U_PER_RUN, dir, FLOOR_PAGES, false, 0, "page_pool", doc },

/* Why some rows are neutral: rates of events (softirqs, polls, interrupts) depend on the traffic
 * as much as on the driver; the peer's CPU and NAPI batching describe behaviour, not cost; and
 * which CPU carried the work is placement (the scheduler moves the traffic process between CPUs
 * from one run to the next: an A/A pair showed cpu0_user_pct 26% -> 77% and cpu1_user_pct
 * 65% -> 16%), so per-CPU rows are neutral and the machine-wide shares carry the cost. A run's
 * largest latency is one moment of it (an A/A pair showed tcp_rtt_max_us 95 -> 263 with every
 * other figure alike): shown, not judged. */
static const struct nb_metric_def nb_metric_rows_table[] = {
	/* traffic: iperf3's own figures */
	{ NB_M_THROUGHPUT_BPS, "bit/s", U_BITS, HIGHER, FLOOR_BITS, true, 0, "iperf",
	  "payload rate the receiver got (iperf3 end.sum_received)" },
	{ NB_M_THROUGHPUT_SENT_BPS, "bit/s", U_BITS, NEUTRAL, FLOOR_BITS, false, 0, "iperf",
	  "payload rate the sender sent: a UDP test's offered load" },
	{ NB_M_LOST_PERCENT, "% of datagrams", U_PCT, LOWER, FLOOR_LOSS, true, LOSSES | BARE, "iperf",
	  "UDP datagrams the receiver did not get" },
	{ NB_M_LOST_PACKETS, "datagrams per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "iperf",
	  "UDP datagrams the receiver did not get" },
	{ NB_M_PACKETS, "datagrams per run", U_PER_RUN, NEUTRAL, FLOOR_DROPS, false, LOSSES, "iperf",
	  "UDP datagrams of the run" },
	{ NB_M_JITTER_MS, "ms", U_MS, LOWER, FLOOR_JITTER_MS, true, 0, "iperf", "UDP jitter as the receiver saw it" },
	{ NB_M_RETRANSMITS, "segments per run", U_PER_RUN, LOWER, FLOOR_RETRANSMITS, true, LOSSES, "iperf",
	  "TCP retransmissions of the sender" },
	{ NB_M_IPERF_HOST_CPU_PCT, "% of one CPU", U_PCT_CPU, LOWER, FLOOR_CORE, true, WORK, "iperf",
	  "CPU of the local iperf3 process, as iperf3 reports it" },
	{ NB_M_IPERF_REMOTE_CPU_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "iperf",
	  "CPU of the peer's iperf3 server: at 90% or more the result is peer-bound" },
	{ NB_M_TCP_RTT_MEAN_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "iperf",
	  "mean smoothed TCP RTT of the streams" },
	{ NB_M_TCP_RTT_MIN_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "iperf", "smallest TCP RTT of the streams" },
	{ NB_M_TCP_RTT_MAX_US, "us", U_US, NEUTRAL, FLOOR_LATENCY_US, false, 0, "iperf",
	  "largest TCP RTT of the streams" },
	/* traffic: request/response tests; latency and CPU per transaction are costs, transactions
	 * are work done; interrupts and polls per transaction describe batching */
	{ NB_M_RR_TRANSACTIONS_PER_S, "1/s", U_EVENTS, HIGHER, FLOOR_RATES, true, 0, "rr",
	  "answered transactions per second" },
	{ NB_M_RR_TRANSACTIONS, "transactions per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "rr",
	  "answered transactions of the run" },
	{ NB_M_RR_OFFERED_TRANSACTIONS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "rr",
	  "the rate the client was asked to send (fixed-rate tests)" },
	{ NB_M_RR_LOST_TRANSACTIONS, "transactions per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "rr",
	  "requests never answered" },
	{ NB_M_RR_LATE_TRANSACTIONS, "transactions per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "rr",
	  "answers after the client stopped waiting" },
	{ NB_M_RR_UNSENT_TRANSACTIONS, "transactions per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "rr",
	  "requests a fixed-rate client could not send in time" },
	{ NB_M_RR_LATENCY_P50_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr",
	  "median request/response latency" },
	{ NB_M_RR_LATENCY_P90_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr", "90th percentile latency" },
	{ NB_M_RR_LATENCY_P99_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr", "99th percentile latency" },
	{ NB_M_RR_LATENCY_P999_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr", "99.9th percentile latency" },
	{ NB_M_RR_LATENCY_MEAN_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr", "mean latency" },
	{ NB_M_RR_LATENCY_MIN_US, "us", U_US, LOWER, FLOOR_LATENCY_US, true, 0, "rr", "smallest latency" },
	{ NB_M_RR_LATENCY_MAX_US, "us", U_US, NEUTRAL, FLOOR_LATENCY_US, false, 0, "rr",
	  "largest latency: one moment of the run" },
	{ NB_M_CPU_US_PER_TRANSACTION, "us", U_US, LOWER, FLOOR_CPU_PER_TRANSACTION, true, 0, "rr",
	  "busy CPU time of the machine per transaction" },
	{ NB_M_RR_CLIENT_CPU_US_PER_TRANSACTION, "us", U_US, LOWER, FLOOR_CPU_PER_TRANSACTION, true, 0, "rr",
	  "CPU time of the rr client per answered transaction" },
	{ NB_M_INTERRUPTS_PER_TRANSACTION, "interrupts", U_RATIO, NEUTRAL, FLOOR_NONE, false, 0, "rr",
	  "the NIC's interrupts per transaction" },
	{ NB_M_NAPI_POLLS_PER_TRANSACTION, "polls", U_RATIO, NEUTRAL, FLOOR_NONE, false, 0, "rr",
	  "NAPI polls per transaction" },
	/* CPU shares from /proc/stat and /proc/PID/stat */
	{ NB_M_CPU_BUSY_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "busy share of all online CPUs: user, system, irq, softirq and steal" },
	{ NB_M_USER_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "user (and nice) share of all CPUs" },
	{ NB_M_SYSTEM_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "system share of all CPUs" },
	{ NB_M_IRQ_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "hard interrupt share of all CPUs" },
	{ NB_M_SOFTIRQ_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "softirq share of all CPUs" },
	/* the cost of the work rather than its share of the machine: a share's floor (3 points of all
	 * CPUs) halves as the CPUs double, this one does not; not follows work, as it is per packet */
	{ NB_M_KERNEL_CPU_NS_PER_PACKET, "ns per packet", U_NS_PER_PACKET, LOWER, FLOOR_CPU_PER_PACKET, true, 0, "sampler",
	  "kernel CPU time (system, irq, softirq; all CPUs) per packet the interface received or sent" },
	{ NB_M_STEAL_PCT, "% of the machine", U_PCT_MACHINE, NEUTRAL, FLOOR_CPU, false, HOST, "sampler",
	  "the hypervisor's steal: the host's load on a VM, not the driver's cost" },
	{ NB_M_CPU_UNACCOUNTED_PCT, "% of the machine", U_PCT_MACHINE, NEUTRAL, FLOOR_CPU, false, 0, "sampler",
	  "wall time /proc/stat did not account: how far busy % may fall short" },
	{ NB_M_CPU_OTHER_PCT, "% of the machine", U_PCT_MACHINE, NEUTRAL, FLOOR_CPU, false, HOST, "sampler",
	  "CPU of other programs: whether the run was disturbed" },
	{ NB_M_NAPI_THREAD_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "CPU of the interface's threaded NAPI kthreads" },
	{ NB_M_NAPI_THREADS, "threads", U_COUNT, NEUTRAL, FLOOR_NONE, false, 0, "sampler",
	  "threaded NAPI kthreads found" },
	{ NB_M_TRAFFIC_PROC_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "CPU of the process that makes the traffic" },
	{ NB_M_PEER_PROC_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "sampler",
	  "CPU of a local peer process (nicbench serve, iperf3 -s)" },
	{ NB_M_NICBENCH_CPU_MS_PER_S, "ms/s", U_MS_PER_S, NEUTRAL, FLOOR_OWN_CPU, false, 0, "runner",
	  "nicbench's own CPU time while it measured" },
	{ NB_M_CPU_N_BUSY_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "sampler",
	  "busy share of CPU N" },
	{ NB_M_CPU_N_USER_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "sampler",
	  "user share of CPU N" },
	{ NB_M_CPU_N_SYSTEM_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "sampler",
	  "system share of CPU N" },
	{ NB_M_CPU_N_IRQ_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "sampler",
	  "hard interrupt share of CPU N" },
	{ NB_M_CPU_N_SOFTIRQ_PCT, "% of one CPU", U_PCT_CPU, NEUTRAL, FLOOR_CORE, false, 0, "sampler",
	  "softirq share of CPU N" },
	/* kernel counters: /proc/softirqs, /proc/interrupts, softnet_stat, the interface, UDP */
	{ NB_M_NET_RX_SOFTIRQS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "NET_RX softirqs run, all CPUs" },
	{ NB_M_NET_TX_SOFTIRQS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "NET_TX softirqs run, all CPUs" },
	{ NB_M_INTERRUPTS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "the interface's hard interrupts" },
	/* the NIC's IRQs by role (board.irq_names patterns or the driver's names) and by the CPU that took them:
	 * placement, so neutral, like the per-CPU shares */
	NB_IRQ_ROLE_LIST(IRQ_ROLE_ROW)
	{ NB_M_CPU_N_INTERRUPTS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "interrupts of the NIC's IRQs that CPU N took" },
	{ NB_M_IRQ_N_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "interrupts of the NIC's IRQ N (one by one: a role's several queue IRQs apart)" },
	/* what moved the IRQs or the traffic: the run's circumstances, not the driver's cost */
	{ NB_M_IRQBALANCE_RUNNING, "0/1", U_FLAG, NEUTRAL, FLOOR_PLACEMENT, false, 0, "runner",
	  "1 when irqbalance ran at either edge of the measured window" },
	{ NB_M_IRQ_AFFINITY_MOVED, "IRQs", U_COUNT, NEUTRAL, FLOOR_PLACEMENT, false, 0, "runner",
	  "the NIC's IRQs whose affinity changed inside the window without nicbench (the point's note names them)" },
	{ NB_M_TRAFFIC_CPU_OPEN, "CPU number", U_CPU, NEUTRAL, FLOOR_PLACEMENT, false, 0, "runner",
	  "the CPU the traffic process last ran on at the window's start" },
	{ NB_M_TRAFFIC_CPU_CLOSE, "CPU number", U_CPU, NEUTRAL, FLOOR_PLACEMENT, false, 0, "runner",
	  "the CPU the traffic process last ran on at the window's end" },
	{ NB_M_SOFTNET_PROCESSED_PER_S, "packets/s", U_PACKETS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "packets the backlog processed (softnet_stat)" },
	{ NB_M_SOFTNET_DROPPED, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "packets dropped for a full backlog (softnet_stat)" },
	{ NB_M_TIME_SQUEEZE, "events per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "net_rx_action ran out of budget or time with work left (softnet_stat)" },
	/* Packets moved are work done, like throughput: a small-packet UDP test is judged on its packet
	 * rate more than on its bits. The floor stays the rates family's 1000/s: at the 80k-1M packets/s
	 * of a board's TCP or 64-byte UDP point that is 0.1-1%, the scale of throughput's 1% floor, and
	 * it keeps the few hundred packets/s of ARP and ACKs near an idle direction from swinging
	 * tens of percent. Not gated by default: in a TCP test one direction counts ACKs, which GRO
	 * batching rightly thins out; gate the direction that carries the payload (udp-rx: rx). */
	{ NB_M_RX_PACKETS_PER_S, "packets/s", U_PACKETS, HIGHER, FLOOR_RATES, true, 0, "sampler",
	  "packets the interface received" },
	{ NB_M_TX_PACKETS_PER_S, "packets/s", U_PACKETS, HIGHER, FLOOR_RATES, true, 0, "sampler",
	  "packets the interface sent" },
	{ NB_M_RX_BYTES_PER_S, "bytes/s", U_BYTES, NEUTRAL, FLOOR_BYTES, false, 0, "sampler",
	  "bytes the interface received" },
	{ NB_M_TX_BYTES_PER_S, "bytes/s", U_BYTES, NEUTRAL, FLOOR_BYTES, false, 0, "sampler", "bytes the interface sent" },
	{ NB_M_RX_DROPPED, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "the interface's rx_dropped" },
	{ NB_M_TX_DROPPED, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "the interface's tx_dropped" },
	{ NB_M_RX_ERRORS, "packets per run", U_PER_RUN, NEUTRAL, FLOOR_DROPS, false, LOSSES, "sampler",
	  "the interface's rx_errors" },
	{ NB_M_TX_ERRORS, "packets per run", U_PER_RUN, NEUTRAL, FLOOR_DROPS, false, LOSSES, "sampler",
	  "the interface's tx_errors" },
	{ NB_M_UDP_IN_DATAGRAMS_PER_S, "datagrams/s", U_PACKETS, NEUTRAL, FLOOR_RATES, false, 0, "sampler",
	  "UDP datagrams delivered (/proc/net/snmp)" },
	{ NB_M_UDP_IN_ERRORS, "datagrams per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "UDP InErrors" },
	{ NB_M_UDP_RCVBUF_ERRORS, "datagrams per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "UDP datagrams dropped for a full receive buffer" },
	{ NB_M_UDP_SNDBUF_ERRORS, "datagrams per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "UDP datagrams dropped for a full send buffer" },
	{ NB_M_UDP_IN_CSUM_ERRORS, "datagrams per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "sampler",
	  "UDP checksum errors" },
	{ NB_M_UDP_NO_PORTS, "datagrams per run", U_PER_RUN, NEUTRAL, FLOOR_DROPS, false, LOSSES, "sampler",
	  "UDP datagrams to a closed port: the peer's doing" },
	/* tracepoints (napi:napi_poll, irq:softirq_entry/exit, irq:irq_handler_entry) */
	{ NB_M_NAPI_POLLS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "trace",
	  "NAPI polls of the interface" },
	{ NB_M_NAPI_PACKETS_PER_POLL, "packets", U_RATIO, NEUTRAL, FLOOR_BATCH, false, 0, "trace",
	  "packets a NAPI poll handled" },
	{ NB_M_NAPI_BUDGET_EXHAUSTED_PCT, "% of polls", U_PCT, NEUTRAL, FLOOR_BUDGET, false, 0, "trace",
	  "NAPI polls that used their whole budget" },
	{ NB_M_HARDIRQS_PER_S, "1/s", U_EVENTS, NEUTRAL, FLOOR_RATES, false, 0, "trace",
	  "the interface's hard interrupts, traced" },
	{ NB_M_NET_RX_SOFTIRQ_NS_PER_S, "ns/s", U_NS_PER_S, LOWER, FLOOR_SOFTIRQ_TIME, true, WORK, "trace",
	  "time in NET_RX softirqs, all CPUs (1e9: one CPU)" },
	{ NB_M_NET_TX_SOFTIRQ_NS_PER_S, "ns/s", U_NS_PER_S, LOWER, FLOOR_SOFTIRQ_TIME, true, WORK, "trace",
	  "time in NET_TX softirqs, all CPUs" },
	{ NB_M_NET_RX_SOFTIRQ_PCT, "% of the machine", U_PCT_MACHINE, LOWER, FLOOR_CPU, true, WORK, "trace",
	  "time in NET_RX softirqs as a share of all CPUs" },
	{ NB_M_CPU_N_NET_RX_SOFTIRQ_NS_PER_S, "ns/s", U_NS_PER_S, NEUTRAL, FLOOR_SOFTIRQ_TIME, false, 0, "trace",
	  "time in NET_RX softirqs on CPU N" },
	{ NB_M_TRACE_LOST_SAMPLES, "events per run", U_PER_RUN, NEUTRAL, FLOOR_DROPS, false, LOSSES, "trace",
	  "tracepoint samples the ring buffer lost" },
	/* netdev qstats-get over the window: losses and stalls are costs, the rest is volume */
	{ "qstats_rx_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets received" },
	{ "qstats_rx_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats", "bytes received" },
	{ "qstats_tx_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats", "packets sent" },
	{ "qstats_tx_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats", "bytes sent" },
	{ "qstats_rx_alloc_fail", "events per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "receive buffer allocations that failed" },
	{ "qstats_rx_hw_drops", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "packets the NIC dropped on receive" },
	{ "qstats_rx_hw_drop_overruns", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "receive drops for a full ring or FIFO" },
	{ "qstats_rx_csum_complete", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets with CHECKSUM_COMPLETE" },
	{ "qstats_rx_csum_unnecessary", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets with CHECKSUM_UNNECESSARY" },
	{ "qstats_rx_csum_none", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets without checksum offload" },
	{ "qstats_rx_csum_bad", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "packets with a bad checksum" },
	{ "qstats_rx_hw_gro_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets the NIC coalesced (HW-GRO)" },
	{ "qstats_rx_hw_gro_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "bytes of HW-GRO packets" },
	{ "qstats_rx_hw_gro_wire_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "wire packets HW-GRO coalesced" },
	{ "qstats_rx_hw_gro_wire_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "wire bytes HW-GRO coalesced" },
	{ "qstats_rx_hw_drop_ratelimits", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "receive drops by a rate limit" },
	{ "qstats_tx_hw_drops", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "packets the NIC dropped on send" },
	{ "qstats_tx_hw_drop_errors", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "send drops for errors" },
	{ "qstats_tx_csum_none", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets sent without checksum offload" },
	{ "qstats_tx_needs_csum", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets sent with checksum offload" },
	{ "qstats_tx_hw_gso_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "packets the NIC segmented (HW-GSO)" },
	{ "qstats_tx_hw_gso_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "bytes of HW-GSO packets" },
	{ "qstats_tx_hw_gso_wire_packets", "packets per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "wire packets HW-GSO made" },
	{ "qstats_tx_hw_gso_wire_bytes", "bytes per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "wire bytes HW-GSO made" },
	{ "qstats_tx_hw_drop_ratelimits", "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "send drops by a rate limit" },
	{ "qstats_tx_stop", "events per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "qstats",
	  "times a send queue was stopped (full)" },
	{ "qstats_tx_wake", "events per run", U_PER_RUN, NEUTRAL, FLOOR_NONE, false, 0, "qstats",
	  "times a stopped send queue woke" },
	/* netdev page-pool-stats-get over the window, the interface's pools summed (docs/report.md) */
	NB_PP_COUNTER_LIST(PP_COUNTER_ROW)
	{ NB_M_PP_INFLIGHT_PAGES, "pages", U_COUNT, NEUTRAL, FLOOR_PAGES, false, 0, "page_pool",
	  "pages out of the pools at the window's end (a level)" },
	{ NB_M_PP_RECYCLE_PCT, "%", U_PCT, HIGHER, FLOOR_RECYCLING, false, 0, "page_pool",
	  "(recycle_ring + recycle_cached) / (alloc_fast + alloc_refill + alloc_slow), as ynl's page-pool view" },
	/* page_pool from its tracepoints, for drivers and kernels without netlink or ethtool counters (cpsw,
	 * kernels before 6.8 or without CONFIG_PAGE_POOL_STATS): the diagnostic repetition, every pool of the
	 * machine (the tracepoints name the pool, not the device) */
	{ NB_M_PP_TRACE_ALLOC_PAGES, "pages per run", U_PER_RUN, NEUTRAL, FLOOR_PAGES, false, 0, "tracepoints",
	  "pages the page pools took from the page allocator (page_pool:page_pool_state_hold events)" },
	{ NB_M_PP_TRACE_RELEASE_PAGES, "pages per run", U_PER_RUN, NEUTRAL, FLOOR_PAGES, false, 0, "tracepoints",
	  "pages the page pools gave back to the page allocator (page_pool:page_pool_state_release events)" },
	{ NB_M_PP_TRACE_INFLIGHT_CHANGE, "pages", U_COUNT, NEUTRAL, FLOOR_PAGES, false, 0, "tracepoints",
	  "pages taken and not given back over the window (hold - release): the pools' pages in flight grew by it" },
	{ NB_M_PP_TRACE_POOLS, "pools", U_COUNT, NEUTRAL, FLOOR_PLACEMENT, false, 0, "tracepoints",
	  "page pools that took or gave back a page in the window" },
	{ NB_M_PP_TRACE_RECYCLE_PCT, "%", U_PCT, HIGHER, FLOOR_RECYCLING, false, 0, "tracepoints",
	  "100 x (1 - pages taken / packets the interface's NAPI polled): packets served by recycled pages, a page a packet" },
	/* the driver's ethtool -S drop counters, per queue ones summed (read by the NIC-drops rule) */
	{ NB_M_RX_MISSED_ERRORS, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "ethtool -S",
	  "receive drops the NIC counted as missed (rx_missed_errors or rx_queue_N_missed_errors)" },
	{ NB_M_RX_FIFO_ERRORS, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "ethtool -S",
	  "receive FIFO overruns the driver counted (rx_fifo_errors or rx_queue_N_fifo_errors)" },
	{ NB_M_RX_OVERRUN_ERRORS, "packets per run", U_PER_RUN, LOWER, FLOOR_DROPS, true, LOSSES, "ethtool -S",
	  "receive overruns under the driver's own names, the largest (cpsw's Rx DMA Overruns, rx_overruns, rx_overflow_cntr)" },
	/* derived by compare */
	{ NB_M_BITS_PER_CPU_SECOND, "bit per CPU-second", U_BITS_CPU, HIGHER, FLOOR_NONE, true, 0, "compare",
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

const char *nb_metric_cpu_share(enum nb_cpu_share share, bool per_cpu)
{
	return share >= 0 && share < NB_CPU_SHARES ? cpu_shares[share][per_cpu] : NULL;
}

int nb_metric_name_n(char *buf, size_t len, const char *pattern, int n)
{
	const char *open = strstr(pattern, "{N}");
	int w;

	if (!open)
		return -EINVAL;
	w = snprintf(buf, len, "%.*s%d%s", (int)(open - pattern), pattern, n, open + 3);
	return w >= 0 && (size_t)w < len ? 0 : -ENAMETOOLONG;
}

bool nb_metric_name_number(const char *pattern, const char *name, int *n)
{
	const char *open = strstr(pattern, "{N}");
	size_t plen;
	char *end;
	long v;

	if (!open || !nb_metric_name_fits(pattern, name))
		return false;
	plen = (size_t)(open - pattern);
	v = strtol(name + plen, &end, 10);
	if (v < 0 || v > 1 << 20 || strcmp(end, open + 3))
		return false;
	*n = (int)v;
	return true;
}

enum nb_metric_unit_kind nb_metric_kind_of(const char *name)
{
	const struct nb_metric_def *d = nb_metric_lookup(name);

	return d ? d->kind : NB_UNIT_NUMBER;
}

bool nb_metric_has_flag(const char *name, enum nb_metric_flag flag)
{
	const struct nb_metric_def *d = nb_metric_lookup(name);

	return d && (d->flags & flag);
}

bool nb_metric_kind_is_pct(enum nb_metric_unit_kind kind)
{
	return kind == NB_UNIT_PCT_MACHINE || kind == NB_UNIT_PCT_CPU || kind == NB_UNIT_PCT;
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
