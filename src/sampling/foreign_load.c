// SPDX-License-Identifier: MIT
/* Foreign load: the other programs' CPU while the test runs (cpu_other_pct) and before it (the
 * idle check), from scans of <proc>/PID/stat that tell the test's own processes by identity: pid,
 * parent, kernel-thread flag and the local peer's process tree, never by name alone. */
#include "sampling/foreign_load.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit/metric_table.h"
#include "kit/nb_time.h"
#include "sampling/proc_parse.h"

void nb_metrics_put_cpu_other(struct nb_metric_set *m, int ncpus, bool peer_local)
{
	double busy, irq, softirq, traffic, self_ms, napi = 0, peer = 0, steal = 0, other;

	if (ncpus <= 0 || !nb_metrics_get(m, NB_M_CPU_BUSY_PCT, &busy) || !nb_metrics_get(m, NB_M_IRQ_PCT, &irq) ||
	    !nb_metrics_get(m, NB_M_SOFTIRQ_PCT, &softirq) || !nb_metrics_get(m, NB_M_TRAFFIC_PROC_PCT, &traffic) ||
	    !nb_metrics_get(m, NB_M_NICBENCH_CPU_MS_PER_S, &self_ms))
		return;
	/* no napi/ threads (threaded=0) is a true 0, not a missing figure */
	nb_metrics_get(m, NB_M_NAPI_THREAD_PCT, &napi);
	/* busy holds the hypervisor's steal too: the host's load, not another program's here */
	nb_metrics_get(m, NB_M_STEAL_PCT, &steal);
	/* the peer found by its socket, over the window, is the same set of processes the scan leaves out */
	if (nb_metrics_get(m, NB_M_PEER_PROC_PCT, &peer)) {
	} else if (peer_local) {
		if (!nb_metrics_get(m, NB_M_IPERF_REMOTE_CPU_PCT, &peer))
			return;
		peer /= ncpus;
	}
	other = busy - steal - irq - softirq - napi - traffic - self_ms / 10.0 / ncpus - peer;
	nb_metrics_put(m, NB_M_CPU_OTHER_PCT, other > 0 ? other : 0.0);
}

struct proc_cpu {
	int pid, ppid;
	bool peer; /* the local peer's server or a descendant of it */
	char comm[16];
	uint64_t ticks;
};

struct proc_table {
	int n, cap;
	struct proc_cpu *p;
};

static int proc_cpu_by_pid(const void *a, const void *b)
{
	const struct proc_cpu *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* comm is between the first '(' and the last ')': it may hold spaces and parentheses */
static void stat_comm(const char *text, char *comm, size_t len)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');

	if (!open || !close || close < open)
		snprintf(comm, len, "?");
	else
		snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
}

/* Which processes a scan keeps, and their ticks: from one /proc/PID/stat's text and its comm. */
typedef bool (*proc_pick_fn)(const char *text, const char *comm, int pid, const void *ctx, uint64_t *ticks,
			     int *ppid);

/* Every process of /proc that pick keeps, sorted by pid. */
static int proc_scan(const struct nb_paths *paths, struct proc_table *t, proc_pick_fn pick, const void *ctx)
{
	DIR *d = opendir(paths->proc);
	struct dirent *de;
	char path[PATH_MAX], text[1024], comm[16];
	int rc = 0;

	t->n = 0;
	if (!d)
		return -errno;
	while (!rc && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		uint64_t ticks;
		int ppid = 0;
		char rel[64];

		if (*end || pid <= 0)
			continue;
		snprintf(rel, sizeof(rel), "%ld/stat", pid);
		/* a process that exits between readdir and read is simply not there */
		if (nb_path_join(path, sizeof(path), paths->proc, rel) < 0 || nb_read_file(path, text, sizeof(text)) < 0)
			continue;
		stat_comm(text, comm, sizeof(comm));
		if (!pick(text, comm, (int)pid, ctx, &ticks, &ppid))
			continue;
		if (t->n == t->cap) {
			int cap = t->cap ? t->cap * 2 : 512;
			struct proc_cpu *p = realloc(t->p, (size_t)cap * sizeof(*p));

			if (!p) {
				rc = -ENOMEM;
				break;
			}
			t->p = p;
			t->cap = cap;
		}
		t->p[t->n].pid = (int)pid;
		t->p[t->n].ppid = ppid;
		t->p[t->n].peer = false;
		t->p[t->n].ticks = ticks;
		snprintf(t->p[t->n].comm, sizeof(t->p[t->n].comm), "%s", comm);
		t->n++;
	}
	closedir(d);
	if (!rc)
		qsort(t->p, (size_t)t->n, sizeof(*t->p), proc_cpu_by_pid);
	return rc;
}

/* ---- the idle check, before the first point ---- */

/* The idle check: every process, by its own utime + stime. */
static bool pick_any(const char *text, const char *comm, int pid, const void *ctx, uint64_t *ticks, int *ppid)
{
	(void)comm, (void)pid, (void)ctx, (void)ppid;
	return nb_parse_pid_stat_ticks(text, ticks) == 0;
}

static bool read_stat_total(const struct nb_paths *paths, struct nb_cpu_ticks *all)
{
	char path[PATH_MAX], text[8192];
	int online;

	return nb_path_join(path, sizeof(path), paths->proc, "stat") == 0 &&
	       nb_read_file(path, text, sizeof(text)) >= 0 && nb_parse_proc_stat_total(text, all, &online) >= 0;
}

static uint64_t ticks_busy(const struct nb_cpu_ticks *c)
{
	return c->user + c->nice + c->system + c->irq + c->softirq + c->steal;
}

/* the busiest NB_IDLE_BUSIEST, kept sorted, most first */
static void keep_busiest(struct nb_idle_check *out, const struct proc_cpu *p, double core_pct)
{
	int i = out->nbusiest;

	if (i == NB_IDLE_BUSIEST) {
		if (out->busiest[i - 1].core_pct >= core_pct)
			return;
		i--;
	} else {
		out->nbusiest++;
	}
	for (; i > 0 && out->busiest[i - 1].core_pct < core_pct; i--)
		out->busiest[i] = out->busiest[i - 1];
	out->busiest[i].pid = p->pid;
	out->busiest[i].core_pct = core_pct;
	snprintf(out->busiest[i].comm, sizeof(out->busiest[i].comm), "%s", p->comm);
}

int nb_idle_check_run(const struct nb_paths *paths, double seconds, struct nb_idle_check *out, struct nb_err *err)
{
	struct proc_table before = { 0 }, after = { 0 };
	struct nb_cpu_ticks a, b;
	long clk_tck = sysconf(_SC_CLK_TCK);
	int self = (int)getpid();
	uint64_t self_ticks = 0;
	double t0, t1;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!read_stat_total(paths, &a))
		return nb_err_set(err, -ENOENT, "idle check: cannot read %s/stat", paths->proc);
	rc = proc_scan(paths, &before, pick_any, NULL);
	t0 = nb_monotonic_s();
	if (rc == 0) {
		struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };

		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		rc = proc_scan(paths, &after, pick_any, NULL);
	}
	t1 = nb_monotonic_s();
	if (rc < 0 || !read_stat_total(paths, &b)) {
		free(before.p);
		free(after.p);
		return rc < 0 ? nb_err_set(err, rc, "idle check: scan %s: %s", paths->proc, strerror(-rc))
			      : nb_err_set(err, -ENOENT, "idle check: cannot read %s/stat", paths->proc);
	}
	out->seconds = t1 - t0;
	for (int i = 0; i < after.n; i++) {
		const struct proc_cpu *p = &after.p[i];
		const struct proc_cpu *q = bsearch(p, before.p, (size_t)before.n, sizeof(*p), proc_cpu_by_pid);

		/* a pid reused by a new process shows as less than before: skip it */
		if (!q || p->ticks < q->ticks || strcmp(p->comm, q->comm))
			continue;
		if (p->pid == self) {
			self_ticks = p->ticks - q->ticks;
			continue;
		}
		if (p->ticks > q->ticks && clk_tck > 0 && out->seconds > 0)
			keep_busiest(out, p, 100.0 * (double)(p->ticks - q->ticks) / (double)clk_tck / out->seconds);
	}
	{
		uint64_t busy = ticks_busy(&b) - ticks_busy(&a);
		uint64_t idle_a = a.idle + a.iowait, idle_b = b.idle + b.iowait;
		uint64_t total = busy + (idle_b > idle_a ? idle_b - idle_a : 0);

		if (ticks_busy(&b) >= ticks_busy(&a) && total > 0) {
			out->busy_present = true;
			busy = busy > self_ticks ? busy - self_ticks : 0;
			out->busy_pct = 100.0 * (double)busy / (double)total;
		}
	}
	free(before.p);
	free(after.p);
	return 0;
}

/* ---- foreign load during a run, per process ---- */

struct nb_foreign_scan {
	struct proc_table t; /* ticks = utime + stime + cutime + cstime */
	double at;           /* monotonic seconds */
};

#define PF_KTHREAD_FLAG 0x00200000u /* include/linux/sched.h: a kernel thread */

struct nb_foreign_scan *nb_foreign_scan_new(void)
{
	return calloc(1, sizeof(struct nb_foreign_scan));
}

void nb_foreign_scan_free(struct nb_foreign_scan *s)
{
	if (!s)
		return;
	free(s->t.p);
	free(s);
}

/* Whether a process may be another program's: not a kernel thread (their time is the softirq,
 * NAPI and IRQ work the test causes), not nicbench or a child of it, and, when the peer is
 * local but was not found by its socket, not an iperf3 (the old rule, by name). */
static bool foreign_process(const char *comm, int pid, int ppid, unsigned flags, int self, bool by_name)
{
	if (flags & PF_KTHREAD_FLAG || pid == self || ppid == self)
		return false;
	return !(by_name && !strcmp(comm, "iperf3"));
}

struct foreign_who {
	int self;
	bool by_name;
};

static bool pick_foreign(const char *text, const char *comm, int pid, const void *ctx, uint64_t *ticks, int *ppid)
{
	const struct foreign_who *who = ctx;
	unsigned flags;

	return nb_parse_pid_stat_all(text, ppid, &flags, ticks) == 0 &&
	       foreign_process(comm, pid, *ppid, flags, who->self, who->by_name);
}

static const struct proc_cpu *table_find(const struct proc_table *t, int pid)
{
	struct proc_cpu key = { .pid = pid };

	return bsearch(&key, t->p, (size_t)t->n, sizeof(key), proc_cpu_by_pid);
}

/* Mark the peer's servers and everything below them, by the parent chain. */
static void mark_peer(struct proc_table *t, const struct nb_peer_local *peer)
{
	for (int i = 0; i < t->n; i++) {
		const struct proc_cpu *p = &t->p[i];

		for (int depth = 0; p && depth < 64 && !t->p[i].peer; depth++) {
			for (int r = 0; r < peer->npids; r++)
				t->p[i].peer = t->p[i].peer || p->pid == peer->pids[r];
			p = p->ppid > 1 ? table_find(t, p->ppid) : NULL;
		}
	}
}

int nb_foreign_scan_take(const struct nb_paths *paths, int self, bool peer_local, const struct nb_peer_local *peer,
			 struct nb_foreign_scan *s)
{
	bool found = peer && peer->found;
	const struct foreign_who who = { .self = self, .by_name = peer_local && !found };
	int rc = proc_scan(paths, &s->t, pick_foreign, &who);

	if (rc == 0 && found)
		mark_peer(&s->t, peer);
	s->at = nb_monotonic_s();
	return rc;
}

static bool pick_user(const char *text, const char *comm, int pid, const void *ctx, uint64_t *ticks, int *ppid)
{
	unsigned flags;

	(void)comm, (void)pid, (void)ctx;
	return nb_parse_pid_stat_all(text, ppid, &flags, ticks) == 0 && !(flags & PF_KTHREAD_FLAG);
}

int nb_peer_tree(const struct nb_paths *paths, const struct nb_peer_local *peer, int *pids, int max)
{
	struct proc_table t = { 0 };
	int n = 0, rc;

	if (!peer->found)
		return 0;
	rc = proc_scan(paths, &t, pick_user, NULL);
	if (rc == 0) {
		mark_peer(&t, peer);
		for (int i = 0; i < t.n && n < max; i++)
			if (t.p[i].peer)
				pids[n++] = t.p[i].pid;
	}
	free(t.p);
	return rc < 0 ? rc : n;
}

double nb_foreign_scan_pct(const struct nb_foreign_scan *open, const struct nb_foreign_scan *close, int ncpus)
{
	long clk_tck = sysconf(_SC_CLK_TCK);
	double seconds = close->at - open->at;
	uint64_t ticks = 0;

	if (clk_tck <= 0 || ncpus <= 0 || !(seconds > 0))
		return NAN;
	for (int i = 0; i < close->t.n; i++) {
		const struct proc_cpu *p = &close->t.p[i];
		const struct proc_cpu *q = bsearch(p, open->t.p, (size_t)open->t.n, sizeof(*p), proc_cpu_by_pid);

		if (p->peer)
			continue; /* the test's own, like nicbench */
		if (!q || strcmp(p->comm, q->comm))
			ticks += p->ticks; /* started inside the window (or a reused pid: counted whole) */
		else if (p->ticks > q->ticks)
			ticks += p->ticks - q->ticks;
	}
	return fmin(100, 100.0 * (double)ticks / (double)clk_tck / seconds / ncpus);
}

bool nb_foreign_scan_has(const struct nb_foreign_scan *s, int pid)
{
	const struct proc_cpu *p = table_find(&s->t, pid);

	return p && !p->peer;
}

void nb_metrics_raise_cpu_other(struct nb_metric_set *m, double measured_pct)
{
	double residual;

	if (isnan(measured_pct))
		return;
	if (nb_metrics_get(m, NB_M_CPU_OTHER_PCT, &residual) && residual >= measured_pct)
		return;
	nb_metrics_put(m, NB_M_CPU_OTHER_PCT, measured_pct > 0 ? measured_pct : 0.0);
}
