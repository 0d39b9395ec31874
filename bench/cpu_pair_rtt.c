// SPDX-License-Identifier: MIT
/* The round trip of one cache line between two CPUs, in ns: where a VM's host has placed the two
 * vCPUs (one physical core's two threads, or two cores) shows here, and a veth link's packets
 * cross between the same two CPUs. Used by bench/host-modes.
 * Usage: cpu_pair_rtt CPU_A CPU_B [ROUNDS]   prints the best of 3 tries, in ns per round trip */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Alignas(64) atomic_int ball;
static long rounds = 20000;

static void cpu_only(cpu_set_t *set, int cpu)
{
	CPU_ZERO(set);
	CPU_SET(cpu, set);
}

/* B's side (started on its CPU): wait for the ball (1), send it back (0). */
static void *return_ball(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) {
		while (atomic_load_explicit(&ball, memory_order_acquire) != 1)
			;
		atomic_store_explicit(&ball, 0, memory_order_release);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	pthread_attr_t on_b;
	cpu_set_t set;
	double best = -1;
	int a_cpu, b_cpu, err;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: cpu_pair_rtt CPU_A CPU_B [ROUNDS]\n");
		return 2;
	}
	a_cpu = atoi(argv[1]);
	b_cpu = atoi(argv[2]);
	if (argc == 4)
		rounds = atol(argv[3]);
	if (a_cpu < 0 || b_cpu < 0 || a_cpu >= CPU_SETSIZE || b_cpu >= CPU_SETSIZE || a_cpu == b_cpu || rounds <= 0) {
		fprintf(stderr, "cpu_pair_rtt: two different CPUs and a positive round count, please\n");
		return 2;
	}
	cpu_only(&set, a_cpu);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		fprintf(stderr, "cpu_pair_rtt: pin to CPU %d: %s\n", a_cpu, strerror(err));
		return 1;
	}
	/* B starts on its CPU, or not at all: a thread that failed to pin later would leave A waiting */
	cpu_only(&set, b_cpu);
	pthread_attr_init(&on_b);
	pthread_attr_setaffinity_np(&on_b, sizeof(set), &set);
	for (int try = 0; try < 3; try++) {
		pthread_t t;
		double t0, ns;

		atomic_store(&ball, 0);
		err = pthread_create(&t, &on_b, return_ball, NULL);
		if (err) {
			fprintf(stderr, "cpu_pair_rtt: start a thread on CPU %d: %s\n", b_cpu, strerror(err));
			return 1;
		}
		t0 = now_s();
		for (long i = 0; i < rounds; i++) {
			atomic_store_explicit(&ball, 1, memory_order_release);
			while (atomic_load_explicit(&ball, memory_order_acquire) != 0)
				;
		}
		ns = (now_s() - t0) / rounds * 1e9;
		pthread_join(t, NULL);
		if (best < 0 || ns < best)
			best = ns;
	}
	printf("%.0f\n", best);
	return 0;
}
