// SPDX-License-Identifier: MIT
/* trace-window: open nb_trace on an interface and print the metrics and profile of timed
 * windows; the live half of the trace integration test and the cost bench. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampling/napi_trace.h"

struct window_args {
	const char *iface;
	double seconds;
	int windows;
	bool profile;
	int hz;
	const char *record;
};

static int parse_args(int argc, char **argv, struct window_args *a)
{
	*a = (struct window_args){ .seconds = 2.0, .windows = 1, .profile = true };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-profile"))
			a->profile = false;
		else if (!strcmp(argv[i], "--hz") && i + 1 < argc)
			a->hz = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--record") && i + 1 < argc)
			a->record = argv[++i];
		else if (!strcmp(argv[i], "--windows") && i + 1 < argc)
			a->windows = atoi(argv[++i]);
		else if (!a->iface)
			a->iface = argv[i];
		else
			a->seconds = atof(argv[i]);
	}
	if (!a->iface || a->seconds <= 0 || a->windows < 1) {
		fprintf(stderr, "usage: trace-window IFACE [SECONDS] [--windows N] [--no-profile] [--hz N] [--record FILE]\n");
		return -EINVAL;
	}
	return 0;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void print_window(int w, const struct nb_metric_set *m, const struct nb_profile *p)
{
	for (int i = 0; i < m->n; i++)
		printf("window %d metric %s %.6g\n", w, m->m[i].name, m->m[i].value);
	printf("window %d profile_samples %llu idle_pct %.2f\n", w, (unsigned long long)p->samples, p->idle_pct);
	for (int i = 0; i < p->n; i++)
		printf("window %d profile %6.2f %s\n", w, p->top[i].share_pct, p->top[i].symbol);
}

static double self_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run_windows(struct nb_trace *t, const struct window_args *a)
{
	struct nb_err err = { 0 };

	for (int w = 0; w < a->windows; w++) {
		struct nb_metric_set m = { 0 };
		struct nb_profile p;
		double cpu0 = self_cpu_s();

		if (nb_trace_begin(t, &err) < 0) {
			fprintf(stderr, "trace-window: %s\n", err.msg);
			return 1;
		}
		sleep_seconds(a->seconds);
		if (nb_trace_end(t, a->seconds, &m, &p, &err) < 0) {
			fprintf(stderr, "trace-window: %s\n", err.msg);
			return 1;
		}
		/* the reader thread's cost: what tracing adds in user space */
		nb_metrics_put(&m, "tracer_cpu_ms_per_s", 1000 * (self_cpu_s() - cpu0) / a->seconds);
		print_window(w, &m, &p);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct window_args a;
	struct nb_err err = { 0 };
	struct nb_trace *t;
	const char *why;
	int rc;

	if (parse_args(argc, argv, &a) < 0)
		return 2;
	struct nb_trace_opts o = { .paths = &nb_paths_live, .iface = a.iface, .profile = a.profile, .profile_hz = a.hz };

	if (nb_trace_open(&o, &t, &err) < 0) {
		fprintf(stderr, "trace-window: %s\n", err.msg);
		return 2;
	}
	why = nb_trace_unavailable_reason(t);
	if (why) {
		printf("unavailable %s\n", why);
		nb_trace_close(t);
		return 3;
	}
	if ((why = nb_trace_profile_unavailable_reason(t)) != NULL)
		printf("profile_unavailable %s\n", why);
	if ((why = nb_trace_notes(t)) != NULL)
		printf("notes %s\n", why);
	if (a.record && nb_trace_record_to(t, a.record, &err) < 0) {
		fprintf(stderr, "trace-window: %s\n", err.msg);
		nb_trace_close(t);
		return 2;
	}
	rc = run_windows(t, &a);
	nb_trace_close(t);
	return rc;
}
