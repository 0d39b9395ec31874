// SPDX-License-Identifier: MIT
/* Test helper: list or set an interface's NAPIs over netdev netlink, independently of
 * nicbench's knob code, so integration tests can pre-set and check per-NAPI values.
 * usage: nb_napi_tool list IFACE            -> "ID gro defer suspend threaded" per NAPI ("-": not given)
 *        nb_napi_tool set ID gro defer suspend
 *        nb_napi_tool threaded ID value    (0 off, 1 on, 2 busy-poll: what the kernel accepts)
 *        nb_napi_tool watch IFACE MS       -> the first NAPI's gro_flush_timeout ("-": none) at start
 *                                             and at each change, read every MS ms: one process that
 *                                             sleeps, where a shell loop would fork 10 times a second */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nic/netdev_nl.h"

/* An attribute the kernel did not send prints as "-" (6.12 lists NAPIs without values). */
static void field(bool has, unsigned long long v)
{
	if (has)
		printf(" %llu", v);
	else
		printf(" -");
}

/* The first NAPI's gro_flush_timeout as text: "-" when the kernel lists none or gives no value. */
static void first_gro(unsigned int idx, char *buf, size_t len)
{
	struct nb_napi n[64];
	struct nb_err err = { 0 };
	int k = nb_netdev_napi_dump(idx, n, 64, &err);

	if (k > 0 && n[0].has_gro)
		snprintf(buf, len, "%llu", (unsigned long long)n[0].gro_flush_timeout);
	else
		snprintf(buf, len, "-");
}

static int watch_gro(const char *ifname, long interval_ms)
{
	struct timespec pause = { interval_ms / 1000, (interval_ms % 1000) * 1000000L };
	char last[32] = "", now[32];
	unsigned int idx = if_nametoindex(ifname);

	if (!idx || interval_ms <= 0) {
		fprintf(stderr, "nb_napi_tool: watch: %s\n", idx ? "the interval must be above 0 ms" : "no such interface");
		return 2;
	}
	for (;;) {
		first_gro(idx, now, sizeof(now));
		if (strcmp(now, last)) {
			if (printf("%s\n", now) < 0 || fflush(stdout))
				return 0; /* the reader went away */
			memcpy(last, now, sizeof(last));
		}
		nanosleep(&pause, NULL);
	}
}

int main(int argc, char **argv)
{
	struct nb_err err = { 0 };

	if (argc == 4 && !strcmp(argv[1], "watch"))
		return watch_gro(argv[2], strtol(argv[3], NULL, 10));

	if (argc == 3 && !strcmp(argv[1], "list")) {
		struct nb_napi n[64];
		unsigned int idx = if_nametoindex(argv[2]);
		int k;

		if (!idx) {
			fprintf(stderr, "nb_napi_tool: no interface %s\n", argv[2]);
			return 2;
		}
		k = nb_netdev_napi_dump(idx, n, 64, &err);
		if (k < 0) {
			fprintf(stderr, "nb_napi_tool: %s\n", err.msg);
			return 1;
		}
		for (int i = 0; i < k && i < 64; i++) {
			printf("%u", n[i].id);
			field(n[i].has_gro, n[i].gro_flush_timeout);
			field(n[i].has_defer, n[i].defer_hard_irqs);
			field(n[i].has_suspend, n[i].irq_suspend_timeout);
			field(n[i].has_threaded, n[i].threaded);
			printf("\n");
		}
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "set")) {
		struct nb_napi_set r = {
			.id = (uint32_t)strtoul(argv[2], NULL, 10),
			.set_gro = true, .gro_flush_timeout = strtoull(argv[3], NULL, 10),
			.set_defer = true, .defer_hard_irqs = (uint32_t)strtoul(argv[4], NULL, 10),
			.set_suspend = true, .irq_suspend_timeout = strtoull(argv[5], NULL, 10),
		};

		if (nb_netdev_napi_set(&r, &err)) {
			fprintf(stderr, "nb_napi_tool: %s\n", err.msg);
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "threaded")) {
		struct nb_napi_set r = {
			.id = (uint32_t)strtoul(argv[2], NULL, 10),
			.set_threaded = true, .threaded = (uint32_t)strtoul(argv[3], NULL, 10),
		};

		if (nb_netdev_napi_set(&r, &err)) {
			fprintf(stderr, "nb_napi_tool: %s\n", err.msg);
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: nb_napi_tool list IFACE | set ID GRO DEFER SUSPEND | threaded ID VALUE | watch IFACE MS\n");
	return 2;
}
