// SPDX-License-Identifier: MIT
/* Measures what one sampler snapshot costs: wall and CPU microseconds per snapshot, and the
 * CPU nicbench itself would burn per second of test at a given sampling interval. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu_sampler.h"

#define TARGET_MS_PER_S 0.3

#ifndef NICBENCH_VERSION
#define NICBENCH_VERSION "unknown"
#endif

struct options {
	const char *iface;
	int count;
	int interval_ms;   /* the runner's default sampling interval, used for the per-second figure */
	pid_t traffic_pid;
	unsigned int sources;  /* enum nb_sample_source mask */
};

static const struct options defaults = { .iface = "lo", .count = 2000, .interval_ms = 100, .traffic_pid = 0,
					.sources = NB_SRC_ALL };

static double clock_us(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(void)
{
	fprintf(stderr, "usage: sampler_cost [-i IFACE] [-n COUNT] [-t INTERVAL_MS] [-p TRAFFIC_PID] [-m SOURCE_MASK]\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
	int c;

	*o = defaults;
	while ((c = getopt(argc, argv, "i:n:t:p:m:h")) != -1) {
		switch (c) {
		case 'i': o->iface = optarg; break;
		case 'n': o->count = atoi(optarg); break;
		case 't': o->interval_ms = atoi(optarg); break;
		case 'p': o->traffic_pid = (pid_t)atoi(optarg); break;
		case 'm': o->sources = (unsigned int)strtoul(optarg, NULL, 0); break;
		default: usage(); return -EINVAL;
		}
	}
	if (o->count < 10 || o->interval_ms <= 0) {
		usage();
		return -EINVAL;
	}
	return 0;
}

static void print_sources(const struct nb_snapshot *s)
{
	printf("sources: cpu=%d softirqs=%d irqs=%d softnet=%d udp=%d netdev=%d napi_threads=%d(%d) traffic=%d\n",
	       s->cpu_all_present, s->softirqs_present, s->irqs_present, s->softnet_present, s->udp_present,
	       s->netdev_present, s->napi_threads_present, s->napi_threads, s->traffic_present);
}

/* Snapshots back to back: the per-snapshot cost does not depend on the pause between them. */
static int measure(struct nb_sampler *s, const struct options *o, double *wall, double *cpu_total_us,
		   struct nb_snapshot *first, struct nb_snapshot *last)
{
	struct nb_err err = { 0 };
	double cpu0 = clock_us(CLOCK_PROCESS_CPUTIME_ID);

	for (int i = 0; i < o->count; i++) {
		double t0 = clock_us(CLOCK_MONOTONIC);

		if (nb_sampler_snapshot(s, i == 0 ? first : last, &err)) {
			fprintf(stderr, "snapshot: %s\n", err.msg);
			return -1;
		}
		wall[i] = clock_us(CLOCK_MONOTONIC) - t0;
	}
	*cpu_total_us = clock_us(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	return 0;
}

static double delta_cost_us(const struct nb_snapshot *a, const struct nb_snapshot *b, int n)
{
	struct nb_metric_set m;
	double t0 = clock_us(CLOCK_PROCESS_CPUTIME_ID);

	for (int i = 0; i < n; i++) {
		m.n = 0;
		nb_snapshot_delta(a, b, &m);
	}
	return (clock_us(CLOCK_PROCESS_CPUTIME_ID) - t0) / n;
}

static void report(const struct options *o, double *wall, double cpu_total_us, double delta_us, int nmetrics)
{
	double cpu_per_snap = cpu_total_us / o->count;
	double snaps_per_s = 1000.0 / o->interval_ms;
	double ms_per_s = (cpu_per_snap + delta_us) * snaps_per_s / 1000.0;
	double mean = 0;

	for (int i = 0; i < o->count; i++)
		mean += wall[i];
	mean /= o->count;
	qsort(wall, (size_t)o->count, sizeof(double), cmp_double);
	printf("wall us per snapshot: min %.1f median %.1f p99 %.1f mean %.1f\n", wall[0],
	       wall[o->count / 2], wall[o->count * 99 / 100], mean);
	printf("cpu us per snapshot: %.1f (user+system of this process)\n", cpu_per_snap);
	printf("cpu us per delta: %.2f (%d metrics)\n", delta_us, nmetrics);
	printf("cpu ms per second of test at %d ms: %.3f (target %.1f: %.2fx the target)\n", o->interval_ms,
	       ms_per_s, TARGET_MS_PER_S, ms_per_s / TARGET_MS_PER_S);
}

int main(int argc, char **argv)
{
	static struct nb_snapshot first, last;
	struct options o;
	struct nb_sampler_target t;
	struct nb_sampler *s;
	struct nb_err err = { 0 };
	struct nb_metric_set m = { 0 };
	double *wall, cpu_total_us, delta_us;

	if (parse_args(argc, argv, &o))
		return 2;
	printf("sampler_cost: nicbench %s, iface %s, %d snapshots, interval %d ms, traffic pid %d, sources 0x%x\n",
	       NICBENCH_VERSION, o.iface, o.count, o.interval_ms, (int)o.traffic_pid, o.sources);
	t = (struct nb_sampler_target){ .paths = &nb_paths_live, .iface = o.iface, .traffic_pid = o.traffic_pid };
	if (nb_sampler_new(&t, &s, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	nb_sampler_set_sources(s, o.sources);
	wall = calloc((size_t)o.count, sizeof(double));
	if (!wall || measure(s, &o, wall, &cpu_total_us, &first, &last)) {
		free(wall);
		nb_sampler_free(s);
		return 1;
	}
	print_sources(&last);
	nb_snapshot_delta(&first, &last, &m);
	delta_us = delta_cost_us(&first, &last, 1000);
	report(&o, wall, cpu_total_us, delta_us, m.n);
	free(wall);
	nb_sampler_free(s);
	return 0;
}
