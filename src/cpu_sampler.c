// SPDX-License-Identifier: MIT
/* The sampler's I/O half: keeps /proc and /sys counter files open and re-reads them with one
 * pread each per snapshot (the pure delta is in sampling/cpu_delta.c, other programs' CPU in
 * sampling/foreign_load.c). */
#include "cpu_sampler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nic/iface_irqs.h"
#include "kit/nb_time.h"
#include "sampling/proc_parse.h"

#define NB_MAX_NAPI_THREADS 128
#define NB_COMM_MAX 15              /* TASK_COMM_LEN - 1: longer kthread names are cut */
#define NB_ROOT_MAX 512
#define NB_SCRATCH_SIZE 65536       /* /proc/softirqs and softnet_stat of 256 CPUs fit */
#define NB_SEQ_SHORT_CHUNK 2048

/* /sys/class/net/IF/statistics/NAME */
static const struct nb_snapshot_field netdev_counters[] = {
	{ "rx_packets", offsetof(struct nb_snapshot, rx_packets) },
	{ "tx_packets", offsetof(struct nb_snapshot, tx_packets) },
	{ "rx_bytes", offsetof(struct nb_snapshot, rx_bytes) },
	{ "tx_bytes", offsetof(struct nb_snapshot, tx_bytes) },
	{ "rx_dropped", offsetof(struct nb_snapshot, rx_dropped) },
	{ "tx_dropped", offsetof(struct nb_snapshot, tx_dropped) },
	{ "rx_errors", offsetof(struct nb_snapshot, rx_errors) },
	{ "tx_errors", offsetof(struct nb_snapshot, tx_errors) },
};

#define NB_NETDEV_COUNTERS (sizeof(netdev_counters) / sizeof(netdev_counters[0]))

struct napi_thread {
	pid_t pid;
	int fd;               /* <proc>/PID/stat */
	uint64_t last_ticks;  /* kept when the thread exits (threaded switched off) */
};

struct nb_sampler {
	char proc_root[NB_ROOT_MAX], sys_root[NB_ROOT_MAX];
	struct nb_paths paths;
	char iface[16];
	long clk_tck;
	int online_fallback;  /* online CPUs when /proc/stat cannot be read */
	unsigned int generation;
	unsigned int sources;  /* enum nb_sample_source bits */

	int stat_fd, softirqs_fd, softnet_fd, snmp_fd;
	int netdev_fd[NB_NETDEV_COUNTERS];

	int nirqs;                      /* IRQs found by name; may exceed NB_MAX_IRQS */
	int irqs[NB_MAX_IRQS];
	enum nb_irq_role irq_role[NB_MAX_IRQS];
	char irq_names[1024];           /* the board's patterns (nb_irq_names_parse); "": by name */
	struct nb_irq_names irq_patterns; /* irq_names parsed once at start, not on every snapshot */
	bool irq_patterns_ok;
	int irq_fd[NB_MAX_IRQS];        /* <sys>/kernel/irq/N/per_cpu_count */
	bool irqs_from_interrupts;      /* fallback: parse all of <proc>/interrupts */
	char device[64];                /* parent device name: ravb >= 6.9 names its IRQs after it */
	int interrupts_fd;
	char *interrupts_buf;
	size_t interrupts_cap;

	int nnapi;
	struct napi_thread napi[NB_MAX_NAPI_THREADS];

	pid_t traffic_pid;
	int traffic_fd;
	bool traffic_seen;
	uint64_t traffic_last;

	int npeer;
	int peer_fd[NB_MAX_PEER_PIDS];
	unsigned peer_generation;

	char scratch[NB_SCRATCH_SIZE];
};

static int open_under(const char *root, const char *rel)
{
	char path[NB_ROOT_MAX + 128];

	if (nb_path_join(path, sizeof(path), root, rel))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* A pread at offset 0 makes a /proc seq file or a sysfs attribute generate fresh text, and a
 * single_open file (stat, softirqs, snmp, PID/stat) or attribute comes whole in one call. */
static long read_whole(int fd, char *buf, size_t cap)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	do
		n = pread(fd, buf, cap - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (long)n;
}

/* Record-by-record seq files (softnet_stat, interrupts) hand out about a page per call;
 * a chunk shorter than short_chunk cannot have been cut by a full page, so it is the end
 * and the extra pread that would return 0 is saved. */
static long read_records(int fd, char *buf, size_t cap, size_t short_chunk)
{
	size_t used = 0;

	if (fd < 0)
		return -EBADF;
	while (used + 1 < cap) {
		ssize_t n = pread(fd, buf + used, cap - 1 - used, (off_t)used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		used += (size_t)n;
		if (n == 0 || (size_t)n < short_chunk)
			break;
	}
	buf[used] = '\0';
	return (long)used;
}

static void sample_cpu(struct nb_sampler *s, struct nb_snapshot *snap)
{
	if (read_whole(s->stat_fd, s->scratch, sizeof(s->scratch)) < 0 ||
	    nb_parse_proc_stat(s->scratch, snap) < 0)
		snap->cpu_all_present = false;
	if (snap->ncpus_online <= 0)
		snap->ncpus_online = s->online_fallback;
}

static void sample_softirqs(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->softirqs_present = read_whole(s->softirqs_fd, s->scratch, sizeof(s->scratch)) >= 0 &&
				 nb_parse_softirqs(s->scratch, snap) == 0;
}

static void sample_softnet(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->softnet_present = read_records(s->softnet_fd, s->scratch, sizeof(s->scratch),
					     NB_SEQ_SHORT_CHUNK) >= 0 &&
				nb_parse_softnet(s->scratch, snap) > 0;
}

static void sample_snmp(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->udp_present = read_whole(s->snmp_fd, s->scratch, sizeof(s->scratch)) >= 0 &&
			    nb_parse_snmp_udp(s->scratch, snap) == 0;
}

/* One row of netdev_counters: its open statistics file, read and parsed. */
static bool read_netdev_counter(struct nb_sampler *s, size_t row, uint64_t *value)
{
	return read_whole(s->netdev_fd[row], s->scratch, sizeof(s->scratch)) >= 0 &&
	       nb_parse_u64(s->scratch, value) == 0;
}

static void sample_netdev(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->netdev_present = true;
	for (size_t i = 0; i < NB_NETDEV_COUNTERS; i++) {
		uint64_t *field = (uint64_t *)((char *)snap + netdev_counters[i].offset);

		if (!read_netdev_counter(s, i, field)) {
			snap->netdev_present = false;
			return;
		}
	}
}

/* The whole file can outgrow the buffer sized at start (IRQs added later): grow then. */
static long read_interrupts(struct nb_sampler *s)
{
	for (;;) {
		long n = read_records(s->interrupts_fd, s->interrupts_buf, s->interrupts_cap, 1);
		char *bigger;

		if (n < 0 || (size_t)n + 1 < s->interrupts_cap)
			return n;
		bigger = realloc(s->interrupts_buf, s->interrupts_cap * 2);
		if (!bigger)
			return -ENOMEM;
		s->interrupts_buf = bigger;
		s->interrupts_cap *= 2;
	}
}

/* Sum of a per_cpu_count line ("3,0,12"): the IRQ's count over all CPUs. */
static uint64_t per_cpu_total(const char *text)
{
	uint64_t sum = 0, v = 0;

	for (const char *p = text; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			v = v * 10 + (uint64_t)(*p - '0');
		} else {
			sum += v;
			v = 0;
		}
	}
	return sum + v;
}

static void sample_irqs(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->irqs_present = false;
	if (s->nirqs == 0)
		return;
	for (int i = 0; i < s->nirqs && i < NB_MAX_IRQS; i++)
		snap->irq_role_present[s->irq_role[i]] = true;
	if (s->irqs_from_interrupts) {
		/* by number too: the IRQs found (by name, or a PCI device's MSI vectors when no name tells) */
		struct nb_irq_match m = { .iface = s->iface, .device = s->device[0] ? s->device : NULL,
					  .names = &s->irq_patterns, .by_number = s->irqs,
					  .n_by_number = s->nirqs < NB_MAX_IRQS ? s->nirqs : NB_MAX_IRQS };
		int n;

		if (!s->irq_patterns_ok || read_interrupts(s) < 0)
			return;
		n = nb_irq_counts_parse(s->interrupts_buf, &m, snap->irq_count, NB_MAX_CPUS, NULL, snap->irq_role_count,
					snap->irq_each, snap->irq_each_count, NB_MAX_IRQS, NULL);
		snap->irqs_present = n > 0;
		snap->nirq_each = n < 0 ? 0 : n < NB_MAX_IRQS ? n : NB_MAX_IRQS;
		return;
	}
	snap->nirq_each = 0;
	for (int i = 0; i < s->nirqs; i++) {
		uint64_t total;

		if (read_whole(s->irq_fd[i], s->scratch, sizeof(s->scratch)) < 0 ||
		    nb_parse_per_cpu_count(s->scratch, snap->irq_count, NB_MAX_CPUS) < 0)
			return;
		total = per_cpu_total(s->scratch);
		snap->irq_role_count[s->irq_role[i]] += total;
		snap->irq_each[i] = s->irqs[i];
		snap->irq_each_count[i] = total;
		snap->nirq_each = i + 1;
	}
	snap->irqs_present = true;
}

/* utime + stime of the napi/ threads; a thread that exited keeps its last figure */
static uint64_t napi_thread_ticks(struct nb_sampler *s)
{
	uint64_t sum = 0;

	for (int i = 0; i < s->nnapi; i++) {
		struct napi_thread *th = &s->napi[i];
		uint64_t ticks;

		if (read_whole(th->fd, s->scratch, sizeof(s->scratch)) >= 0 &&
		    nb_parse_pid_stat_ticks(s->scratch, &ticks) == 0)
			th->last_ticks = ticks;
		sum += th->last_ticks;
	}
	return sum;
}

static void sample_napi(struct nb_sampler *s, struct nb_snapshot *snap)
{
	snap->napi_thread_ticks = napi_thread_ticks(s);
	snap->napi_threads_present = s->nnapi > 0;
	snap->napi_threads = s->nnapi;
}

/* Field 39 of /proc/PID/stat (processor): the CPU the task last ran on; -1 unreadable. Fields
 * count from after the ")" that ends the command name, which may hold spaces. */
static int stat_processor(const char *stat)
{
	const char *p = strrchr(stat, ')');
	int field = 2;

	if (!p)
		return -1;
	for (; *p && field < 39; p++) {
		if (*p == ' ')
			field++;
	}
	return field == 39 && *p >= '0' && *p <= '9' ? atoi(p) : -1;
}

static void sample_traffic(struct nb_sampler *s, struct nb_snapshot *snap)
{
	uint64_t ticks;

	snap->traffic_cpu = -1;
	if (read_whole(s->traffic_fd, s->scratch, sizeof(s->scratch)) >= 0 &&
	    nb_parse_pid_stat_ticks(s->scratch, &ticks) == 0) {
		s->traffic_last = ticks;
		s->traffic_seen = true;
		snap->traffic_cpu = stat_processor(s->scratch);
	}
	snap->traffic_present = s->traffic_seen;
	snap->traffic_pid = s->traffic_pid;
	snap->traffic_ticks = s->traffic_last;
}


static void sample_peer(struct nb_sampler *s, struct nb_snapshot *snap)
{
	uint64_t sum = 0, ticks;
	int ppid;
	unsigned flags;

	for (int i = 0; i < s->npeer; i++)
		if (read_whole(s->peer_fd[i], s->scratch, sizeof(s->scratch)) >= 0 &&
		    nb_parse_pid_stat_all(s->scratch, &ppid, &flags, &ticks) == 0)
			sum += ticks;
	snap->peer_present = s->npeer > 0;
	snap->peer_generation = s->peer_generation;
	snap->peer_ticks = sum;
}

int nb_sampler_snapshot(struct nb_sampler *s, struct nb_snapshot *snap, struct nb_err *err)
{
	if (!s || !snap)
		return nb_err_set(err, -EINVAL, "take counter snapshot: no sampler or snapshot given");
	memset(snap, 0, sizeof(*snap));
	snap->t = nb_monotonic_s();
	snap->clk_tck = s->clk_tck;
	snap->generation = s->generation;
	snap->ncpus_online = s->online_fallback;
	if (s->sources & NB_SRC_CPU)
		sample_cpu(s, snap);
	if (s->sources & NB_SRC_SOFTIRQS)
		sample_softirqs(s, snap);
	if (s->sources & NB_SRC_IRQS)
		sample_irqs(s, snap);
	if (s->sources & NB_SRC_SOFTNET)
		sample_softnet(s, snap);
	if (s->sources & NB_SRC_UDP)
		sample_snmp(s, snap);
	if (s->sources & NB_SRC_NETDEV)
		sample_netdev(s, snap);
	if (s->sources & NB_SRC_NAPI)
		sample_napi(s, snap);
	if (s->sources & NB_SRC_TRAFFIC)
		sample_traffic(s, snap);
	if (s->sources & NB_SRC_PEER)
		sample_peer(s, snap);
	return 0;
}

void nb_sampler_series_snapshot(struct nb_sampler *s, struct nb_series_snapshot *snap)
{
	*snap = (struct nb_series_snapshot){
		.t = nb_monotonic_s(), .clk_tck = s->clk_tck, .generation = s->generation,
	};
	snap->cpu_all_present = read_whole(s->stat_fd, s->scratch, sizeof(s->scratch)) >= 0 &&
				nb_parse_proc_stat_total(s->scratch, &snap->cpu_all, &snap->ncpus_online) >= 0;
	if (snap->ncpus_online <= 0)
		snap->ncpus_online = s->online_fallback;
	if (s->nnapi > 0) {
		snap->napi_thread_ticks = napi_thread_ticks(s);
		snap->napi_threads_present = true;
	}
	/* netdev_counters' first two rows are rx_packets and tx_packets */
	snap->packets_present = read_netdev_counter(s, 0, &snap->rx_packets) &&
				read_netdev_counter(s, 1, &snap->tx_packets);
}

void nb_sampler_set_sources(struct nb_sampler *s, unsigned int sources)
{
	if (s)
		s->sources = sources & NB_SRC_ALL;
}

static void close_irq_sources(struct nb_sampler *s)
{
	for (int i = 0; i < NB_MAX_IRQS; i++)
		close_fd(&s->irq_fd[i]);
	close_fd(&s->interrupts_fd);
	free(s->interrupts_buf);
	s->interrupts_buf = NULL;
	s->interrupts_cap = 0;
	s->irqs_from_interrupts = false;
}

static bool open_per_cpu_counts(struct nb_sampler *s, const int *irqs, int n)
{
	for (int i = 0; i < n; i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "kernel/irq/%d/per_cpu_count", irqs[i]);
		s->irq_fd[i] = open_under(s->sys_root, rel);
		if (s->irq_fd[i] < 0)
			return false;
	}
	return true;
}

/* Without per_cpu_count (no SPARSE_IRQ, or more IRQs than we keep files for) every snapshot
 * parses the whole <proc>/interrupts: slow, but still right. */
static void open_interrupts_fallback(struct nb_sampler *s)
{
	char *text;

	for (int i = 0; i < NB_MAX_IRQS; i++)
		close_fd(&s->irq_fd[i]);
	if (nb_interrupts_read(&s->paths, &text, NULL))
		return;
	s->interrupts_cap = strlen(text) * 2 + 4096;
	free(text);
	s->interrupts_buf = malloc(s->interrupts_cap);
	s->interrupts_fd = open_under(s->proc_root, "interrupts");
	s->irqs_from_interrupts = s->interrupts_buf && s->interrupts_fd >= 0;
	if (nb_iface_device_name(&s->paths, s->iface, s->device, sizeof(s->device)) < 0)
		s->device[0] = '\0';
}

/* Returns true when the IRQ set differs from the one found before. */
static bool find_irqs(struct nb_sampler *s)
{
	struct nb_irq found[NB_MAX_IRQS];
	int irqs[NB_MAX_IRQS];
	int n = nb_irqs_find(&s->paths, s->iface, s->irq_names, found, NB_MAX_IRQS, NULL);
	int kept = n < 0 ? 0 : (n < NB_MAX_IRQS ? n : NB_MAX_IRQS);
	bool changed = n != s->nirqs && !(n < 0 && s->nirqs == 0);

	for (int i = 0; i < kept; i++)
		irqs[i] = found[i].irq;
	if (!changed)
		changed = memcmp(irqs, s->irqs, sizeof(int) * (size_t)kept) != 0;
	close_irq_sources(s);
	s->nirqs = n < 0 ? 0 : n;
	memcpy(s->irqs, irqs, sizeof(int) * (size_t)kept);
	for (int i = 0; i < kept; i++)
		s->irq_role[i] = found[i].role;
	if (s->nirqs > 0 && (s->nirqs > NB_MAX_IRQS || !open_per_cpu_counts(s, irqs, s->nirqs)))
		open_interrupts_fallback(s);
	return changed;
}

static bool is_pid_name(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++) {
		if (*name < '0' || *name > '9')
			return false;
	}
	return true;
}

/* Kthreads are named "napi/<iface>-<napi id>" and comm keeps only 15 characters, so with a
 * long interface name only the cut prefix can be compared. */
static bool comm_is_napi_of(const char *comm, const char *iface)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "napi/%s-", iface);
	if (strlen(prefix) > NB_COMM_MAX)
		prefix[NB_COMM_MAX] = '\0';
	return !strncmp(comm, prefix, strlen(prefix));
}

static int find_napi_pids(struct nb_sampler *s, pid_t *pids, int max)
{
	DIR *dir = opendir(s->proc_root);
	struct dirent *de;
	int n = 0;

	if (!dir)
		return 0;
	while (n < max && (de = readdir(dir))) {
		char path[NB_ROOT_MAX + 300], comm[64];

		if (!is_pid_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", s->proc_root, de->d_name);
		if (nb_read_file(path, comm, sizeof(comm)) > 0 && comm_is_napi_of(comm, s->iface))
			pids[n++] = (pid_t)atoi(de->d_name);
	}
	closedir(dir);
	return n;
}

static const struct napi_thread *napi_find(const struct napi_thread *list, int n, pid_t pid)
{
	for (int i = 0; i < n; i++) {
		if (list[i].pid == pid)
			return &list[i];
	}
	return NULL;
}

/* Threads still there keep their open file and last value so their sum stays continuous.
 * Returns true when the set of threads changed. */
static bool find_napi_threads(struct nb_sampler *s)
{
	static const struct napi_thread none = { .fd = -1 };
	pid_t pids[NB_MAX_NAPI_THREADS];
	struct napi_thread fresh[NB_MAX_NAPI_THREADS];
	int n = find_napi_pids(s, pids, NB_MAX_NAPI_THREADS), nfresh = 0;
	bool changed = false;

	for (int i = 0; i < n; i++) {
		const struct napi_thread *old = napi_find(s->napi, s->nnapi, pids[i]);
		char rel[64];

		if (old) {
			fresh[nfresh++] = *old;
			continue;
		}
		snprintf(rel, sizeof(rel), "%d/stat", (int)pids[i]);
		fresh[nfresh] = none;
		fresh[nfresh].pid = pids[i];
		fresh[nfresh].fd = open_under(s->proc_root, rel);
		if (fresh[nfresh].fd >= 0)
			nfresh++;
		changed = true;
	}
	for (int i = 0; i < s->nnapi; i++) {
		if (!napi_find(fresh, nfresh, s->napi[i].pid)) {
			close_fd(&s->napi[i].fd);
			changed = true;
		}
	}
	memcpy(s->napi, fresh, sizeof(fresh[0]) * (size_t)nfresh);
	s->nnapi = nfresh;
	return changed;
}

static void open_sources(struct nb_sampler *s)
{
	s->stat_fd = open_under(s->proc_root, "stat");
	s->softirqs_fd = open_under(s->proc_root, "softirqs");
	s->softnet_fd = open_under(s->proc_root, "net/softnet_stat");
	s->snmp_fd = open_under(s->proc_root, "net/snmp");
	for (size_t i = 0; i < NB_NETDEV_COUNTERS; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "class/net/%s/statistics/%s", s->iface, netdev_counters[i].name);
		s->netdev_fd[i] = open_under(s->sys_root, rel);
	}
}

static void init_fds(struct nb_sampler *s)
{
	s->stat_fd = s->softirqs_fd = s->softnet_fd = s->snmp_fd = -1;
	s->interrupts_fd = s->traffic_fd = -1;
	for (size_t i = 0; i < NB_NETDEV_COUNTERS; i++)
		s->netdev_fd[i] = -1;
	for (int i = 0; i < NB_MAX_IRQS; i++)
		s->irq_fd[i] = -1;
}

static int check_target(const struct nb_sampler_target *t, struct nb_err *err)
{
	if (!t || !t->paths || !t->paths->proc || !t->paths->sys)
		return nb_err_set(err, -EINVAL, "start sampler: no target or /proc and /sys paths given");
	if (!nb_ifname_valid(t->iface))
		return nb_err_set(err, -EINVAL, "start sampler on '%s': not a valid interface name",
				  t->iface ? t->iface : "");
	if (strlen(t->paths->proc) >= NB_ROOT_MAX || strlen(t->paths->sys) >= NB_ROOT_MAX)
		return nb_err_set(err, -ENAMETOOLONG, "start sampler on %s: /proc or /sys root path too long",
				  t->iface);
	return 0;
}

static int check_iface_exists(const struct nb_sampler *s, struct nb_err *err)
{
	char rel[64], path[NB_ROOT_MAX + 64];

	snprintf(rel, sizeof(rel), "class/net/%s", s->iface);
	if (nb_path_join(path, sizeof(path), s->sys_root, rel) || access(path, F_OK) < 0)
		return nb_err_set(err, -ENODEV,
				  "start sampler on %s: %s: %s (no such interface in the network namespace "
				  "this sysfs was mounted in)", s->iface, path, strerror(errno));
	return 0;
}

int nb_sampler_new(const struct nb_sampler_target *t, struct nb_sampler **out, struct nb_err *err)
{
	struct nb_sampler *s;
	long online;
	int ret;

	*out = NULL;
	ret = check_target(t, err);
	if (ret)
		return ret;
	s = calloc(1, sizeof(*s));
	if (!s)
		return nb_err_set(err, -ENOMEM, "start sampler on %s: out of memory", t->iface);
	init_fds(s);
	snprintf(s->proc_root, sizeof(s->proc_root), "%s", t->paths->proc);
	snprintf(s->sys_root, sizeof(s->sys_root), "%s", t->paths->sys);
	snprintf(s->iface, sizeof(s->iface), "%s", t->iface);
	snprintf(s->irq_names, sizeof(s->irq_names), "%s", t->irq_names ? t->irq_names : "");
	s->irq_patterns_ok = nb_irq_names_parse(s->irq_names, &s->irq_patterns, NULL) == 0;
	s->paths = (struct nb_paths){ .proc = s->proc_root, .sys = s->sys_root };
	ret = check_iface_exists(s, err);
	if (ret) {
		nb_sampler_free(s);
		return ret;
	}
	s->sources = NB_SRC_ALL;
	s->clk_tck = sysconf(_SC_CLK_TCK);
	online = sysconf(_SC_NPROCESSORS_ONLN);
	s->online_fallback = online > 0 ? (int)online : 0;
	open_sources(s);
	find_irqs(s);
	find_napi_threads(s);
	nb_sampler_set_traffic_pid(s, t->traffic_pid);
	*out = s;
	return 0;
}

void nb_sampler_set_traffic_pid(struct nb_sampler *s, pid_t pid)
{
	char rel[64];

	if (!s)
		return;
	close_fd(&s->traffic_fd);
	s->traffic_pid = pid;
	s->traffic_seen = false;
	s->traffic_last = 0;
	if (pid <= 0)
		return;
	snprintf(rel, sizeof(rel), "%d/stat", (int)pid);
	s->traffic_fd = open_under(s->proc_root, rel);
}

void nb_sampler_set_peer(struct nb_sampler *s, const int *pids, int n)
{
	char rel[64];

	if (!s)
		return;
	for (int i = 0; i < s->npeer; i++)
		close_fd(&s->peer_fd[i]);
	s->npeer = 0;
	s->peer_generation++;
	for (int i = 0; i < n && s->npeer < NB_MAX_PEER_PIDS; i++) {
		snprintf(rel, sizeof(rel), "%d/stat", pids[i]);
		s->peer_fd[s->npeer] = open_under(s->proc_root, rel);
		if (s->peer_fd[s->npeer] >= 0)
			s->npeer++;
	}
}

int nb_sampler_rescan(struct nb_sampler *s, struct nb_err *err)
{
	bool irqs_changed, napi_changed;

	if (!s)
		return nb_err_set(err, -EINVAL, "rescan sampler: no sampler given");
	irqs_changed = find_irqs(s);
	napi_changed = find_napi_threads(s);
	if (irqs_changed || napi_changed)
		s->generation++;
	return 0;
}

void nb_sampler_free(struct nb_sampler *s)
{
	if (!s)
		return;
	close_fd(&s->stat_fd);
	close_fd(&s->softirqs_fd);
	close_fd(&s->softnet_fd);
	close_fd(&s->snmp_fd);
	for (size_t i = 0; i < NB_NETDEV_COUNTERS; i++)
		close_fd(&s->netdev_fd[i]);
	close_irq_sources(s);
	for (int i = 0; i < s->nnapi; i++)
		close_fd(&s->napi[i].fd);
	close_fd(&s->traffic_fd);
	for (int i = 0; i < s->npeer; i++)
		close_fd(&s->peer_fd[i]);
	free(s);
}
