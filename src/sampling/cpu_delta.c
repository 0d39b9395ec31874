// SPDX-License-Identifier: MIT
/* Pure half of the sampler: two snapshots in, named metrics out, no I/O (nb_snapshot_delta). */
#include "sampling/snapshot.h"

#include <math.h>
#include <stdio.h>

#include "kit/metric_table.h"

struct cpu_shares {
	double busy, user, system, irq, softirq;
	double steal;  /* what the hypervisor ran elsewhere while this guest had work */
	double ticks;  /* all columns together: what /proc/stat accounted over the interval */
};

/* False when a column went backwards. idle and iowait are judged as one: the kernel moves
 * time between them when nohz accounting settles, so iowait alone can go back. */
static bool cpu_shares_between(const struct nb_cpu_ticks *a, const struct nb_cpu_ticks *b,
			       struct cpu_shares *pct)
{
	uint64_t a_idle = a->idle + a->iowait, b_idle = b->idle + b->iowait;
	double user, system, irq, softirq, steal, busy, total;

	if (b->user < a->user || b->nice < a->nice || b->system < a->system || b->irq < a->irq ||
	    b->softirq < a->softirq || b->steal < a->steal || b_idle < a_idle)
		return false;
	/* guest and guest_nice are already inside user and nice */
	user = (double)(b->user - a->user) + (double)(b->nice - a->nice);
	system = (double)(b->system - a->system);
	irq = (double)(b->irq - a->irq);
	softirq = (double)(b->softirq - a->softirq);
	steal = (double)(b->steal - a->steal);
	busy = user + system + irq + softirq + steal;
	total = busy + (double)(b_idle - a_idle);
	if (total <= 0)
		return false;
	*pct = (struct cpu_shares){
		.busy = 100.0 * busy / total, .user = 100.0 * user / total,
		.system = 100.0 * system / total, .irq = 100.0 * irq / total,
		.softirq = 100.0 * softirq / total, .steal = 100.0 * steal / total, .ticks = total,
	};
	return true;
}

static void put_shares(struct nb_metric_set *out, const char *const names[5],
		       const struct cpu_shares *p)
{
	nb_metrics_put(out, names[0], p->busy);
	nb_metrics_put(out, names[1], p->user);
	nb_metrics_put(out, names[2], p->system);
	nb_metrics_put(out, names[3], p->irq);
	nb_metrics_put(out, names[4], p->softirq);
}

/* The columns can add up to less than the wall time. A tickless kernel without
 * IRQ_TIME_ACCOUNTING measures idle time exactly but busy time by the tick, so interrupt and
 * softirq work that wakes an idle CPU is neither idle nor busy (a light UDP load on a VM: 13%
 * missing, 0.3% busy); ticks a hypervisor swallowed without reporting steal are missing too.
 * The missing share bounds how far cpu_busy_pct may fall short. */
static void put_unaccounted(struct nb_metric_set *out, double ticks, const struct nb_snapshot *b, double dt)
{
	double expected = dt * (double)b->clk_tck * b->ncpus_online;

	if (dt <= 0 || b->clk_tck <= 0 || b->ncpus_online <= 0)
		return;
	/* a tick either side of each edge makes small overshoots; none is "negative missing" */
	nb_metrics_put(out, NB_M_CPU_UNACCOUNTED_PCT, ticks >= expected ? 0.0 : 100.0 * (1.0 - ticks / expected));
}

static void put_machine_cpu(const struct nb_snapshot *a, const struct nb_snapshot *b,
			    struct nb_metric_set *out)
{
	const char *names[NB_CPU_SHARES];
	struct cpu_shares p;

	for (int k = 0; k < NB_CPU_SHARES; k++)
		names[k] = nb_metric_cpu_share((enum nb_cpu_share)k, false);
	if (a->cpu_all_present && b->cpu_all_present && cpu_shares_between(&a->cpu_all, &b->cpu_all, &p)) {
		put_shares(out, names, &p);
		/* a VM's host taking the CPUs moves every figure (compare's steal rule) */
		nb_metrics_put(out, NB_M_STEAL_PCT, p.steal);
		put_unaccounted(out, p.ticks, b, b->t - a->t);
	}
}

static void put_per_cpu(const struct nb_snapshot *a, const struct nb_snapshot *b,
			struct nb_metric_set *out)
{
	for (int cpu = 0; cpu < NB_MAX_CPUS; cpu++) {
		char names[NB_CPU_SHARES][NB_METRIC_NAME_MAX];
		const char *ptrs[NB_CPU_SHARES];
		struct cpu_shares p;

		if (!a->cpu_present[cpu] || !b->cpu_present[cpu] ||
		    !cpu_shares_between(&a->cpu[cpu], &b->cpu[cpu], &p))
			continue;
		for (int k = 0; k < NB_CPU_SHARES; k++) {
			nb_metric_name_n(names[k], sizeof(names[k]), nb_metric_cpu_share((enum nb_cpu_share)k, true), cpu);
			ptrs[k] = names[k];
		}
		put_shares(out, ptrs, &p);
	}
}

static void put_rate(struct nb_metric_set *out, const char *name, uint64_t a, uint64_t b, double dt)
{
	if (b >= a && dt > 0)
		nb_metrics_put(out, name, (double)(b - a) / dt);
}

static void put_count(struct nb_metric_set *out, const char *name, uint64_t a, uint64_t b)
{
	if (b >= a)
		nb_metrics_put(out, name, (double)(b - a));
}

/* The interface's IRQs per CPU: where an irq_affinity setting sent them. */
static void put_per_cpu_interrupts(const struct nb_snapshot *a, const struct nb_snapshot *b,
				   struct nb_metric_set *out)
{
	if (!a->irqs_present || !b->irqs_present || a->generation != b->generation)
		return;
	for (int cpu = 0; cpu < NB_MAX_CPUS; cpu++) {
		char name[NB_METRIC_NAME_MAX];

		if (!b->cpu_present[cpu] && !b->irq_count[cpu])
			continue;
		nb_metric_name_n(name, sizeof(name), NB_M_CPU_N_INTERRUPTS_PER_S, cpu);
		put_rate(out, name, a->irq_count[cpu], b->irq_count[cpu], b->t - a->t);
	}
}

/* Summed per CPU so that one CPU's counter going back (hotplug) is caught, not hidden. */
static bool per_cpu_growth(const uint64_t *a, const uint64_t *b, uint64_t *sum)
{
	uint64_t total = 0;

	for (int cpu = 0; cpu < NB_MAX_CPUS; cpu++) {
		if (b[cpu] < a[cpu])
			return false;
		total += b[cpu] - a[cpu];
	}
	*sum = total;
	return true;
}

static void put_per_cpu_rate(struct nb_metric_set *out, const char *name, const uint64_t *a,
			     const uint64_t *b, double dt)
{
	uint64_t sum;

	if (dt > 0 && per_cpu_growth(a, b, &sum))
		nb_metrics_put(out, name, (double)sum / dt);
}

/* Process CPU time as percent of all online CPUs, matching cpu_busy_pct; false when the
 * counter went back or the interval or the CPU count is not positive. */
static bool process_pct(uint64_t a, uint64_t b, long clk_tck, int ncpus_online, double dt, double *pct)
{
	if (b < a || dt <= 0 || clk_tck <= 0 || ncpus_online <= 0)
		return false;
	*pct = 100.0 * (double)(b - a) / (double)clk_tck / dt / ncpus_online;
	return true;
}

static void put_process_pct(struct nb_metric_set *out, const char *name, uint64_t a, uint64_t b,
			    const struct nb_snapshot *sb, double dt)
{
	double pct;

	if (process_pct(a, b, sb->clk_tck, sb->ncpus_online, dt, &pct))
		nb_metrics_put(out, name, pct);
}

static void put_threads(const struct nb_snapshot *a, const struct nb_snapshot *b, double dt,
			struct nb_metric_set *out)
{
	if (a->napi_threads_present && b->napi_threads_present && a->generation == b->generation) {
		put_process_pct(out, NB_M_NAPI_THREAD_PCT, a->napi_thread_ticks, b->napi_thread_ticks, b, dt);
		nb_metrics_put(out, NB_M_NAPI_THREADS, b->napi_threads);
	}
	if (a->traffic_present && b->traffic_present && a->traffic_pid == b->traffic_pid)
		put_process_pct(out, NB_M_TRAFFIC_PROC_PCT, a->traffic_ticks, b->traffic_ticks, b, dt);
	if (a->peer_present && b->peer_present && a->peer_generation == b->peer_generation)
		put_process_pct(out, NB_M_PEER_PROC_PCT, a->peer_ticks, b->peer_ticks, b, dt);
}

static void put_kernel_counters(const struct nb_snapshot *a, const struct nb_snapshot *b, double dt,
				struct nb_metric_set *out)
{
	if (a->softirqs_present && b->softirqs_present) {
		put_per_cpu_rate(out, NB_M_NET_RX_SOFTIRQS_PER_S, a->net_rx, b->net_rx, dt);
		put_per_cpu_rate(out, NB_M_NET_TX_SOFTIRQS_PER_S, a->net_tx, b->net_tx, dt);
	}
	if (a->irqs_present && b->irqs_present && a->generation == b->generation) {
		put_per_cpu_rate(out, NB_M_INTERRUPTS_PER_S, a->irq_count, b->irq_count, dt);
		for (int r = 0; r < NB_IRQ_ROLES; r++) {
			char name[NB_METRIC_NAME_MAX];

			if (!b->irq_role_present[r])
				continue;
			snprintf(name, sizeof(name), NB_M_IRQ_ROLE_PREFIX "%s" NB_M_IRQ_ROLE_SUFFIX,
				 nb_irq_role_name((enum nb_irq_role)r));
			put_rate(out, name, a->irq_role_count[r], b->irq_role_count[r], dt);
		}
		/* one by one: the IRQs of a role with several (a queue each) are not told apart above */
		for (int i = 0; i < b->nirq_each; i++) {
			char name[NB_METRIC_NAME_MAX];

			for (int j = 0; j < a->nirq_each; j++) {
				if (a->irq_each[j] != b->irq_each[i])
					continue;
				nb_metric_name_n(name, sizeof(name), NB_M_IRQ_N_PER_S, b->irq_each[i]);
				put_rate(out, name, a->irq_each_count[j], b->irq_each_count[i], dt);
				break;
			}
		}
	}
	if (a->softnet_present && b->softnet_present) {
		put_rate(out, NB_M_SOFTNET_PROCESSED_PER_S, a->softnet_processed, b->softnet_processed, dt);
		put_count(out, NB_M_SOFTNET_DROPPED, a->softnet_dropped, b->softnet_dropped);
		put_count(out, NB_M_TIME_SQUEEZE, a->softnet_time_squeeze, b->softnet_time_squeeze);
	}
}

static void put_netdev(const struct nb_snapshot *a, const struct nb_snapshot *b, double dt,
		       struct nb_metric_set *out)
{
	if (!a->netdev_present || !b->netdev_present)
		return;
	put_rate(out, NB_M_RX_PACKETS_PER_S, a->rx_packets, b->rx_packets, dt);
	put_rate(out, NB_M_TX_PACKETS_PER_S, a->tx_packets, b->tx_packets, dt);
	put_rate(out, NB_M_RX_BYTES_PER_S, a->rx_bytes, b->rx_bytes, dt);
	put_rate(out, NB_M_TX_BYTES_PER_S, a->tx_bytes, b->tx_bytes, dt);
	put_count(out, NB_M_RX_DROPPED, a->rx_dropped, b->rx_dropped);
	put_count(out, NB_M_TX_DROPPED, a->tx_dropped, b->tx_dropped);
	put_count(out, NB_M_RX_ERRORS, a->rx_errors, b->rx_errors);
	put_count(out, NB_M_TX_ERRORS, a->tx_errors, b->tx_errors);
}

/* The kernel's CPU time per packet the interface moved: what a driver change that costs CPU per
 * packet moves even where the link, the peer or the emulation holds the throughput still. Time is
 * system + irq + softirq of all CPUs (NAPI runs in softirq, or as system time in threaded NAPI and
 * ksoftirqd), so the figure does not depend on how many CPUs share it, as the % of the machine
 * does; packets are received plus sent, the work the interface did. Below NB_COST_MIN_PACKETS
 * the window carried no traffic to speak of and the figure would be the idle kernel's. */
static void put_kernel_cost(const struct nb_snapshot *a, const struct nb_snapshot *b,
			    struct nb_metric_set *out)
{
	const struct nb_cpu_ticks *ta = &a->cpu_all, *tb = &b->cpu_all;
	uint64_t packets;
	double ticks;

	if (!a->cpu_all_present || !b->cpu_all_present || !a->netdev_present || !b->netdev_present ||
	    b->clk_tck <= 0)
		return;
	if (tb->system < ta->system || tb->irq < ta->irq || tb->softirq < ta->softirq ||
	    b->rx_packets < a->rx_packets || b->tx_packets < a->tx_packets)
		return;
	packets = (b->rx_packets - a->rx_packets) + (b->tx_packets - a->tx_packets);
	if (packets < NB_COST_MIN_PACKETS)
		return;
	ticks = (double)(tb->system - ta->system) + (double)(tb->irq - ta->irq) + (double)(tb->softirq - ta->softirq);
	nb_metrics_put(out, NB_M_KERNEL_CPU_NS_PER_PACKET, ticks / (double)b->clk_tck * 1e9 / (double)packets);
}

static void put_udp(const struct nb_snapshot *a, const struct nb_snapshot *b, double dt,
		    struct nb_metric_set *out)
{
	if (!a->udp_present || !b->udp_present)
		return;
	put_rate(out, NB_M_UDP_IN_DATAGRAMS_PER_S, a->udp_in_datagrams, b->udp_in_datagrams, dt);
	put_count(out, NB_M_UDP_IN_ERRORS, a->udp_in_errors, b->udp_in_errors);
	put_count(out, NB_M_UDP_RCVBUF_ERRORS, a->udp_rcvbuf_errors, b->udp_rcvbuf_errors);
	put_count(out, NB_M_UDP_SNDBUF_ERRORS, a->udp_sndbuf_errors, b->udp_sndbuf_errors);
	put_count(out, NB_M_UDP_NO_PORTS, a->udp_no_ports, b->udp_no_ports);
	put_count(out, NB_M_UDP_IN_CSUM_ERRORS, a->udp_in_csum_errors, b->udp_in_csum_errors);
}

void nb_snapshot_delta(const struct nb_snapshot *a, const struct nb_snapshot *b,
		       struct nb_metric_set *out)
{
	double dt = b->t - a->t;

	put_machine_cpu(a, b, out);
	put_threads(a, b, dt, out);
	put_kernel_counters(a, b, dt, out);
	put_netdev(a, b, dt, out);
	put_kernel_cost(a, b, out);
	put_udp(a, b, dt, out);
	put_per_cpu(a, b, out);
	put_per_cpu_interrupts(a, b, out);
	if (a->traffic_present && b->traffic_present && a->traffic_pid == b->traffic_pid && a->traffic_cpu >= 0 &&
	    b->traffic_cpu >= 0) {
		nb_metrics_put(out, NB_M_TRAFFIC_CPU_OPEN, a->traffic_cpu);
		nb_metrics_put(out, NB_M_TRAFFIC_CPU_CLOSE, b->traffic_cpu);
	}
}

/* ---- the raw series: the same figures as above for a few fields, no names, no set ---- */

const char *const nb_series_field_names[NB_SERIES_FIELDS] = {
	[NB_SERIES_CPU_BUSY] = NB_M_CPU_BUSY_PCT, [NB_SERIES_SOFTIRQ] = NB_M_SOFTIRQ_PCT,
	[NB_SERIES_IRQ] = NB_M_IRQ_PCT, [NB_SERIES_NAPI_THREAD] = NB_M_NAPI_THREAD_PCT,
	[NB_SERIES_RX_PPS] = NB_M_RX_PACKETS_PER_S, [NB_SERIES_TX_PPS] = NB_M_TX_PACKETS_PER_S,
};

void nb_series_from_snapshot(const struct nb_snapshot *full, struct nb_series_snapshot *out)
{
	*out = (struct nb_series_snapshot){
		.t = full->t, .clk_tck = full->clk_tck, .generation = full->generation,
		.ncpus_online = full->ncpus_online,
		.cpu_all_present = full->cpu_all_present, .cpu_all = full->cpu_all,
		.napi_threads_present = full->napi_threads_present,
		.napi_thread_ticks = full->napi_thread_ticks,
		.packets_present = full->netdev_present,
		.rx_packets = full->rx_packets, .tx_packets = full->tx_packets,
	};
}

static double rate_or_nan(uint64_t a, uint64_t b, double dt)
{
	return b >= a && dt > 0 ? (double)(b - a) / dt : NAN;
}

void nb_series_delta(const struct nb_series_snapshot *a, const struct nb_series_snapshot *b,
		     double out[NB_SERIES_FIELDS])
{
	double dt = b->t - a->t;
	struct cpu_shares p;

	for (int f = 0; f < NB_SERIES_FIELDS; f++)
		out[f] = NAN;
	if (a->cpu_all_present && b->cpu_all_present && cpu_shares_between(&a->cpu_all, &b->cpu_all, &p)) {
		out[NB_SERIES_CPU_BUSY] = p.busy;
		out[NB_SERIES_SOFTIRQ] = p.softirq;
		out[NB_SERIES_IRQ] = p.irq;
	}
	if (a->napi_threads_present && b->napi_threads_present && a->generation == b->generation)
		process_pct(a->napi_thread_ticks, b->napi_thread_ticks, b->clk_tck, b->ncpus_online, dt,
			    &out[NB_SERIES_NAPI_THREAD]);
	if (a->packets_present && b->packets_present) {
		out[NB_SERIES_RX_PPS] = rate_or_nan(a->rx_packets, b->rx_packets, dt);
		out[NB_SERIES_TX_PPS] = rate_or_nan(a->tx_packets, b->tx_packets, dt);
	}
}
