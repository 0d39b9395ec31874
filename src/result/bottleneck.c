// SPDX-License-Identifier: MIT
/* Bottleneck rules: a point's medians -> the first limit that holds, in words and with the figures behind it. */
#include "result/bottleneck.h"

#include "kit/metric_table.h"
#include "kit/nb_print.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define NB_BN_MAX_CPUS 256

const char *nb_bn_code_name(enum nb_bn_code c)
{
	static const char *const names[] = {
		[NB_BN_NONE] = "none",
		[NB_BN_LINK] = "link",
		[NB_BN_PEER] = "peer",
		[NB_BN_CPU] = "cpu",
		[NB_BN_NIC_DROPS] = "nic-drops",
		[NB_BN_BACKLOG_DROPS] = "backlog-drops",
		[NB_BN_SOCKET_DROPS] = "socket-drops",
		[NB_BN_NAPI_BUDGET] = "napi-budget",
		[NB_BN_TIME_SQUEEZE] = "time-squeeze",
		[NB_BN_NO_DATA] = "no-data",
	};

	return (unsigned int)c < sizeof(names) / sizeof(names[0]) ? names[c] : "none";
}

bool nb_bn_get_metric_set(const void *ctx, const char *name, double *value)
{
	return nb_metrics_get(ctx, name, value);
}

static bool get(const struct nb_bn_input *in, const char *name, double *v)
{
	return in->get && in->get(in->ctx, name, v) && isfinite(*v);
}

static void figure(struct nb_bottleneck *out, const char *name, double v)
{
	for (int i = 0; i < out->n_figures; i++)
		if (!strcmp(out->figures[i].name, name))
			return;
	if (out->n_figures == NB_BN_MAX_FIGURES)
		return;
	snprintf(out->figures[out->n_figures].name, sizeof(out->figures[0].name), "%s", name);
	out->figures[out->n_figures++].value = v;
}


/* ---- one CPU saturated ---- */

struct consumer {
	const char *label;
	double pct; /* of one CPU */
};

struct cpu_view {
	int cpu;            /* -1: every CPU (no per-CPU split on a multi-CPU machine) */
	double busy;
	int n;
	struct consumer c[6];
};

static void add_consumer(struct cpu_view *v, const char *label, double pct)
{
	if (pct > 100.0)
		pct = 100.0;
	v->c[v->n].label = label;
	v->c[v->n++].pct = pct;
}

/* The busiest CPU from cpuN_busy_pct; a 1-CPU machine without per-CPU metrics is its
 * machine line; several CPUs without them count as one only when all are saturated. */
static bool busiest_cpu(const struct nb_bn_input *in, struct cpu_view *v, struct nb_bottleneck *out)
{
	char name[NB_METRIC_NAME_MAX];
	double busy, x;
	bool per_cpu = false;

	v->cpu = -1;
	v->busy = -1;
	for (int cpu = 0; cpu < NB_BN_MAX_CPUS; cpu++) {
		nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(NB_SHARE_BUSY, true), cpu);
		if (!get(in, name, &busy)) {
			if (in->cpus > 0 && cpu >= in->cpus)
				break;
			continue;
		}
		per_cpu = true;
		if (busy > v->busy) {
			v->busy = busy;
			v->cpu = cpu;
		}
	}
	if (per_cpu) {
		static const struct { enum nb_cpu_share share; const char *word; } kinds[] = {
			{ NB_SHARE_SOFTIRQ, "softirq" }, { NB_SHARE_IRQ, "irq" },
		};

		nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(NB_SHARE_BUSY, true), v->cpu);
		figure(out, name, v->busy);
		for (size_t k = 0; k < 2; k++) {
			nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(kinds[k].share, true), v->cpu);
			if (get(in, name, &x)) {
				add_consumer(v, kinds[k].word, x);
				figure(out, name, x);
			}
		}
	} else {
		if (!get(in, NB_M_CPU_BUSY_PCT, &v->busy))
			return false;
		figure(out, NB_M_CPU_BUSY_PCT, v->busy);
		v->cpu = in->cpus == 1 ? 0 : -1;
		if (get(in, NB_M_SOFTIRQ_PCT, &x)) {
			add_consumer(v, "softirq", x);
			figure(out, NB_M_SOFTIRQ_PCT, x);
		}
		if (get(in, NB_M_IRQ_PCT, &x)) {
			add_consumer(v, "irq", x);
			figure(out, NB_M_IRQ_PCT, x);
		}
	}
	return true;
}

/* Processes are machine-wide shares: x cpus is their share of one CPU, wherever it ran. */
static void process_consumers(const struct nb_bn_input *in, struct cpu_view *v, struct nb_bottleneck *out)
{
	int cpus = in->cpus > 0 ? in->cpus : 1;
	bool any = false;
	double x;

	if (get(in, NB_M_NAPI_THREAD_PCT, &x) && x > 0) {
		add_consumer(v, "NAPI thread", x * cpus);
		figure(out, NB_M_NAPI_THREAD_PCT, x);
		any = true;
	}
	if (get(in, NB_M_TRAFFIC_PROC_PCT, &x)) {
		add_consumer(v, "traffic process", x * cpus);
		figure(out, NB_M_TRAFFIC_PROC_PCT, x);
		any = true;
	}
	/* Without the process split, the machine's user and system columns say what kind of work it was. */
	if (!any && v->cpu >= 0) {
		char name[NB_METRIC_NAME_MAX];
		static const struct { enum nb_cpu_share share; const char *word; } kinds[] = {
			{ NB_SHARE_SYSTEM, "system" }, { NB_SHARE_USER, "user" },
		};

		for (size_t k = 0; k < 2; k++) {
			nb_metric_name_n(name, sizeof(name), nb_metric_cpu_share(kinds[k].share, true), v->cpu);
			if (!get(in, name, &x) && in->cpus == 1)
				snprintf(name, sizeof(name), "%s", nb_metric_cpu_share(kinds[k].share, false));
			if (get(in, name, &x)) {
				add_consumer(v, kinds[k].word, x);
				figure(out, name, x);
			}
		}
	}
}

static int by_share(const void *a, const void *b)
{
	double x = ((const struct consumer *)a)->pct, y = ((const struct consumer *)b)->pct;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void cpu_sentence(const struct cpu_view *v, struct nb_bottleneck *out)
{
	struct consumer c[6];
	int n = v->n;

	memcpy(c, v->c, sizeof(c));
	qsort(c, (size_t)n, sizeof(c[0]), by_share);
	if (v->cpu >= 0)
		nb_appendf(out->sentence, sizeof(out->sentence), "CPU%d saturated (%.0f%% busy)", v->cpu, v->busy);
	else
		nb_appendf(out->sentence, sizeof(out->sentence), "every CPU saturated (%.0f%% busy)", v->busy);
	if (n > 0 && c[0].pct >= NB_BN_OWNER_PCT) {
		snprintf(out->owner, sizeof(out->owner), "%s", c[0].label);
		nb_appendf(out->sentence, sizeof(out->sentence), " by %s %.0f%%", c[0].label, c[0].pct);
	} else if (n > 1 && c[1].pct >= NB_BN_SHARE_PCT) {
		snprintf(out->owner, sizeof(out->owner), "%s + %s", c[0].label, c[1].label);
		nb_appendf(out->sentence, sizeof(out->sentence), ", shared by %s %.0f%% and %s %.0f%%", c[0].label, c[0].pct,
		    c[1].label, c[1].pct);
	} else if (n > 0) {
		nb_appendf(out->sentence, sizeof(out->sentence), ", no single owner (largest: %s %.0f%%)", c[0].label,
		    c[0].pct);
	} else {
		nb_appendf(out->sentence, sizeof(out->sentence), ", by whom not measured");
	}
}

static bool rule_cpu(const struct nb_bn_input *in, struct nb_bottleneck *out)
{
	struct cpu_view v = { 0 };
	struct nb_bottleneck scratch = *out;

	if (!busiest_cpu(in, &v, &scratch) || v.busy < NB_BN_CPU_SATURATED_PCT)
		return false;
	*out = scratch;
	process_consumers(in, &v, out);
	out->code = NB_BN_CPU;
	cpu_sentence(&v, out);
	return true;
}

/* ---- drops, budget, squeeze ---- */

/* Drops count when they are a share of the packets (when known) or many (when not). */
static bool drops_matter(double drops, double packets_per_s, double window_s)
{
	if (drops <= 0)
		return false;
	if (packets_per_s > 0 && window_s > 0)
		return 100.0 * drops / (packets_per_s * window_s + drops) >= NB_BN_DROP_SHARE_PCT;
	return drops >= NB_BN_DROP_MIN;
}

struct drop_rule {
	enum nb_bn_code code;
	const char *where;
	const char *counters[4];
	const char *packets; /* the rate the drops are a share of */
};

static const struct drop_rule drop_rules[] = {
	{ NB_BN_NIC_DROPS, "at the NIC", { NB_M_RX_MISSED_ERRORS, NB_M_RX_FIFO_ERRORS, NB_M_RX_OVERRUN_ERRORS, NB_M_RX_DROPPED }, NB_M_RX_PACKETS_PER_S },
	{ NB_BN_BACKLOG_DROPS, "in the backlog (softnet)", { NB_M_SOFTNET_DROPPED }, NB_M_SOFTNET_PROCESSED_PER_S },
	{ NB_BN_SOCKET_DROPS, "at the socket (UDP receive buffer)", { NB_M_UDP_RCVBUF_ERRORS }, NB_M_UDP_IN_DATAGRAMS_PER_S },
};

/* Returns the drop rule's code when it holds, NB_BN_NONE otherwise; words go to buf. */
static enum nb_bn_code rule_drops(const struct nb_bn_input *in, const struct drop_rule *r, struct nb_bottleneck *out,
				  char *buf, size_t len)
{
	double total = 0, pps = 0, x;
	bool any = false;

	for (int i = 0; i < 4 && r->counters[i]; i++) {
		if (get(in, r->counters[i], &x)) {
			total += x;
			any = true;
			if (x > 0)
				figure(out, r->counters[i], x);
		}
	}
	if (!any)
		return NB_BN_NONE;
	get(in, r->packets, &pps);
	if (!drops_matter(total, pps, in->window_s))
		return NB_BN_NONE;
	if (pps > 0 && in->window_s > 0)
		snprintf(buf, len, "drops %s: %.0f per run (%.2f%% of packets)", r->where, total,
			 100.0 * total / (pps * in->window_s + total));
	else
		snprintf(buf, len, "drops %s: %.0f per run", r->where, total);
	return r->code;
}

static enum nb_bn_code rule_budget(const struct nb_bn_input *in, struct nb_bottleneck *out, char *buf, size_t len)
{
	double x;

	if (!get(in, NB_M_NAPI_BUDGET_EXHAUSTED_PCT, &x) || x < NB_BN_BUDGET_PCT)
		return NB_BN_NONE;
	figure(out, NB_M_NAPI_BUDGET_EXHAUSTED_PCT, x);
	snprintf(buf, len, "NAPI budget exhausted in %.0f%% of polls", x);
	return NB_BN_NAPI_BUDGET;
}

static enum nb_bn_code rule_squeeze(const struct nb_bn_input *in, struct nb_bottleneck *out, char *buf, size_t len)
{
	double x;

	if (!get(in, NB_M_TIME_SQUEEZE, &x) || x <= 0)
		return NB_BN_NONE;
	if (in->window_s > 0 ? x / in->window_s < NB_BN_SQUEEZE_PER_S : x < NB_BN_SQUEEZE_PER_S)
		return NB_BN_NONE;
	figure(out, NB_M_TIME_SQUEEZE, x);
	if (in->window_s > 0)
		snprintf(buf, len, "softirq out of budget or time (time_squeeze %.0f/s)", x / in->window_s);
	else
		snprintf(buf, len, "softirq out of budget or time (time_squeeze %.0f per run)", x);
	return NB_BN_TIME_SQUEEZE;
}

/* A finding after the first goes into the sentence as "also". */
static void found(struct nb_bottleneck *out, enum nb_bn_code code, const char *words)
{
	if (code == NB_BN_NONE)
		return;
	if (out->code == NB_BN_NONE) {
		out->code = code;
		snprintf(out->sentence, sizeof(out->sentence), "%s", words);
		out->sentence[0] = out->sentence[0] >= 'a' && out->sentence[0] <= 'z' ? (char)(out->sentence[0] - 32)
									       : out->sentence[0];
	} else {
		nb_appendf(out->sentence, sizeof(out->sentence), "; also %s", words);
	}
}

void nb_bottleneck_judge(const struct nb_bn_input *in, struct nb_bottleneck *out)
{
	double tput = 0, x;
	char words[160];

	memset(out, 0, sizeof(*out));
	if (!in->ok) {
		out->code = NB_BN_NO_DATA;
		snprintf(out->sentence, sizeof(out->sentence), "Not judged: the point did not run to the end");
		return;
	}
	if (!get(in, NB_M_THROUGHPUT_BPS, &tput) && !get(in, NB_M_CPU_BUSY_PCT, &x)) {
		out->code = NB_BN_NO_DATA;
		snprintf(out->sentence, sizeof(out->sentence), "Not judged: neither throughput nor CPU was measured");
		return;
	}
	/* The peer first: when it is the limit, the DUT's figures say nothing about the DUT. */
	if (get(in, NB_M_IPERF_REMOTE_CPU_PCT, &x) && x >= NB_PEER_BOUND_PCT) {
		out->code = NB_BN_PEER;
		figure(out, NB_M_IPERF_REMOTE_CPU_PCT, x);
		snprintf(out->sentence, sizeof(out->sentence),
			 "The peer: its iperf3 used %.0f%% of a core (libiperf moves data in one thread)", x);
	} else {
		rule_cpu(in, out);
	}
	for (size_t i = 0; i < sizeof(drop_rules) / sizeof(drop_rules[0]); i++)
		found(out, rule_drops(in, &drop_rules[i], out, words, sizeof(words)), words);
	found(out, rule_budget(in, out, words, sizeof(words)), words);
	found(out, rule_squeeze(in, out, words, sizeof(words)), words);
	if (tput > 0)
		figure(out, NB_M_THROUGHPUT_BPS, tput);
	if (out->code != NB_BN_NONE)
		return;
	if (tput > 0 && in->link_mbps > 0 && tput >= NB_BN_LINK_PCT / 100.0 * in->link_mbps * 1e6) {
		out->code = NB_BN_LINK;
		snprintf(out->sentence, sizeof(out->sentence),
			 "None found; link-bound? (%.0f%% of the %.0f Mbit/s link speed)", 100.0 * tput / (in->link_mbps * 1e6),
			 in->link_mbps);
		return;
	}
	snprintf(out->sentence, sizeof(out->sentence), "None found: no CPU saturated, no drops, the peer not bound");
}

bool nb_bn_moved(const struct nb_bottleneck *base, const struct nb_bottleneck *new, char *buf, size_t len)
{
	bool moved;

	if (base->code == NB_BN_NO_DATA || new->code == NB_BN_NO_DATA)
		moved = false;
	else if (base->code != new->code)
		moved = true;
	else
		moved = base->code == NB_BN_CPU && strcmp(base->owner, new->owner);
	if (moved && buf && len)
		snprintf(buf, len, "base: %s; new: %s", base->sentence, new->sentence);
	else if (buf && len)
		buf[0] = '\0';
	return moved;
}
