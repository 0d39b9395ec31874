// SPDX-License-Identifier: MIT
/* The reference for nicbench's own CPU figure: what a process costs that does nothing but
 * wake at the sampling interval (bare), or wakes and reads /proc/stat once (stat: the least
 * any sampler of the per-CPU split must do), or reads what nicbench's raw series reads
 * (series: /proc/stat and IFACE's rx_packets and tx_packets). Run beside nicbench under the
 * same traffic, it shows how much of nicbench's figure is the machine's price of a timer
 * wake (large on virtual machines, where a wake from idle exits to the hypervisor) and of
 * the reads themselves, and how much is nicbench's own work.
 * Usage: wake_floor bare|stat|series INTERVAL_MS SECONDS [IFACE]
 *        -> prints "MS_PER_S US_PER_WAKE" */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int read_stat, interval_ms, fd = -1, packet_fd[2] = { -1, -1 };
	long wakes = 0;
	double seconds, wall0, cpu0, wall, cpu;

	bool series = argc == 5 && !strcmp(argv[1], "series");

	if (!series && (argc != 4 || (strcmp(argv[1], "bare") && strcmp(argv[1], "stat")))) {
		fprintf(stderr, "usage: %s bare|stat INTERVAL_MS SECONDS | series INTERVAL_MS SECONDS IFACE\n", argv[0]);
		return 2;
	}
	read_stat = strcmp(argv[1], "bare") != 0;
	interval_ms = atoi(argv[2]);
	seconds = atof(argv[3]);
	if (interval_ms < 1 || seconds <= 0) {
		fprintf(stderr, "wake_floor: interval %s ms and duration %s s must be positive\n", argv[2], argv[3]);
		return 2;
	}
	if (read_stat && (fd = open("/proc/stat", O_RDONLY | O_CLOEXEC)) < 0) {
		perror("wake_floor: open /proc/stat");
		return 1;
	}
	for (int i = 0; series && i < 2; i++) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s_packets", argv[4], i ? "tx" : "rx");
		if ((packet_fd[i] = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "wake_floor: open %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	wall0 = clock_s(CLOCK_MONOTONIC);
	cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	/* the same rhythm as nicbench's wait loop: one poll per interval, absolute schedule */
	for (double next = wall0 + interval_ms / 1000.0; next < wall0 + seconds; next += interval_ms / 1000.0) {
		double left = next - clock_s(CLOCK_MONOTONIC);

		if (left > 0)
			poll(NULL, 0, (int)(left * 1000) + 1);
		if (read_stat && pread(fd, buf, sizeof(buf), 0) < 0) {
			perror("wake_floor: read /proc/stat");
			return 1;
		}
		for (int i = 0; series && i < 2; i++) {
			if (pread(packet_fd[i], buf, sizeof(buf), 0) < 0) {
				perror("wake_floor: read a packet counter");
				return 1;
			}
		}
		wakes++;
	}
	cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	wall = clock_s(CLOCK_MONOTONIC) - wall0;
	printf("%.4f %.1f\n", 1000 * cpu / wall, wakes ? 1e6 * cpu / (double)wakes : 0.0);
	return 0;
}
