// SPDX-License-Identifier: MIT
/* The restore journal: original knob values on disk before the first change, so that any
 * way out of a run (even SIGKILL followed by `nicbench knobs restore`) can undo it. */
#include "knobs/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/nb_paths.h"
#include "knobs/knob_access.h"

#define NB_JOURNAL_MAGIC "nicbench-journal/1"
/* /run is a tmpfs: a reboot resets every knob to the driver's defaults and removes the
 * journal with it, so a journal found here always describes the running kernel's state. */
#define NB_JOURNAL_DIR "/run/nicbench"
#define NB_JOURNAL_MAX_ENTRIES 32
#define NB_JOURNAL_LINE_MAX (NB_KNOB_ORIGINAL_MAX + 64)
#define NB_JOURNAL_VIA "via="

struct nb_journal_entry {
	char knob[32];
	char value[NB_KNOB_ORIGINAL_MAX];  /* per-NAPI originals list every NAPI: "282=7777 283=0" */
	enum nb_knob_via via;              /* a line without "via=" (older journals): sysfs */
	bool restored;                     /* a restore tried it: after and error say how it went */
	enum nb_knob_via taken;            /* the path the restore's write went through */
	char after[NB_KNOB_ORIGINAL_MAX];  /* read back after the restore's write, same form as value */
	char error[512];                   /* why the restore failed; "" when it did not */
};

struct nb_journal {
	char path[PATH_MAX];
	char iface[16];
	struct nb_paths paths;
	int fd;  /* -1 for a journal loaded from disk: it is only restored, never appended */
	int n;
	struct nb_journal_entry e[NB_JOURNAL_MAX_ENTRIES];
	char record[PATH_MAX];  /* the run's record ("@record" line); "" when none */
	char irq_names[1024];   /* the board's IRQ patterns ("@irq_names" line): restore finds the same IRQs */
};

/* Not a knob: the line naming the run record (knob names never start with '@'). */
#define NB_JOURNAL_RECORD_KEY "@record"
#define NB_JOURNAL_IRQ_NAMES_KEY "@irq_names"

int nb_journal_default_path(const char *iface, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s.journal", NB_JOURNAL_DIR, iface);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int mkdir_parents(const char *path)
{
	char dir[PATH_MAX];

	if (nb_path_dir(dir, sizeof(dir), path) < 0)
		return -ENAMETOOLONG;
	for (char *p = dir + 1; ; p++) {
		char saved = *p;

		if (saved != '/' && saved != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = saved;
		if (!saved)
			return 0;
	}
}

static int write_all_sync(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return fsync(fd) < 0 ? -errno : 0;
}

static struct nb_journal *journal_alloc(const char *path, const char *iface, const struct nb_paths *paths)
{
	struct nb_journal *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	snprintf(j->path, sizeof(j->path), "%s", path);
	snprintf(j->iface, sizeof(j->iface), "%s", iface);
	j->paths = *paths;
	j->fd = -1;
	return j;
}

static void journal_free(struct nb_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	free(j);
}

static int leftover_error(const char *path, const char *iface, struct nb_err *err)
{
	char def[PATH_MAX];

	if (!nb_journal_default_path(iface, def, sizeof(def)) && !strcmp(def, path))
		return nb_err_set(err, -EEXIST, "create journal %s: a journal from an earlier run is still "
				  "there; run `nicbench knobs restore -i %s` first", path, iface);
	return nb_err_set(err, -EEXIST, "create journal %s: a journal from an earlier run is still "
			  "there; run `nicbench knobs restore --journal %s` first", path, path);
}

int nb_journal_create(const char *path, const struct nb_knob_target *t,
		      struct nb_journal **out, struct nb_err *err)
{
	char header[64 + sizeof(((struct nb_journal *)0)->irq_names)];
	struct nb_journal *j;
	int ret;

	*out = NULL;
	if (!t || !t->paths || !nb_ifname_valid(t->iface))
		return nb_err_set(err, -EINVAL, "create journal %s: invalid interface name '%s'", path,
				  t && t->iface ? t->iface : "");
	if (strlen(path) >= PATH_MAX)
		return nb_err_set(err, -ENAMETOOLONG, "create journal: path too long");
	ret = mkdir_parents(path);
	if (ret)
		return nb_err_set(err, ret, "create journal %s: cannot create its directory: %s", path,
				  strerror(-ret));
	j = journal_alloc(path, t->iface, t->paths);
	if (!j)
		return nb_err_set(err, -ENOMEM, "create journal %s: out of memory", path);
	/* O_EXCL: two runs on one interface would each journal the other's values as originals. */
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		ret = -errno;
		journal_free(j);
		if (ret == -EEXIST)
			return leftover_error(path, t->iface, err);
		return nb_err_set(err, ret, "create journal %s: %s", path, strerror(-ret));
	}
	snprintf(header, sizeof(header), "%s iface=%s\n", NB_JOURNAL_MAGIC, t->iface);
	/* Written with the header, before any change: IRQs found by a board's patterns are found
	 * by the same patterns when `nicbench knobs restore` runs after a crash. */
	if (t->irq_names && *t->irq_names && strlen(t->irq_names) < sizeof(j->irq_names) &&
	    !strpbrk(t->irq_names, "\t\n")) {
		snprintf(j->irq_names, sizeof(j->irq_names), "%s", t->irq_names);
		snprintf(header + strlen(header), sizeof(header) - strlen(header), "%s\t%s\n", NB_JOURNAL_IRQ_NAMES_KEY,
			 t->irq_names);
	}
	ret = write_all_sync(j->fd, header, strlen(header));
	if (!ret)
		ret = nb_fsync_parent(path);
	if (ret) {
		unlink(path);
		journal_free(j);
		return nb_err_set(err, ret, "create journal %s: write: %s", path, strerror(-ret));
	}
	*out = j;
	return 0;
}

static int find_entry(const struct nb_journal *j, const char *knob)
{
	for (int i = 0; i < j->n; i++) {
		if (!strcmp(j->e[i].knob, knob))
			return i;
	}
	return -1;
}

static int add_entry(struct nb_journal *j, const char *knob, const char *value, enum nb_knob_via via)
{
	if (j->n >= NB_JOURNAL_MAX_ENTRIES)
		return -ENOSPC;
	snprintf(j->e[j->n].knob, sizeof(j->e[j->n].knob), "%s", knob);
	snprintf(j->e[j->n].value, sizeof(j->e[j->n].value), "%s", value);
	j->e[j->n].via = via;
	j->n++;
	return 0;
}

static int remember_via(struct nb_journal *j, const char *knob, const char *original, enum nb_knob_via via,
			struct nb_err *err);

int nb_journal_remember(struct nb_journal *j, const char *knob, const char *original,
			struct nb_err *err)
{
	return remember_via(j, knob, original, NB_VIA_ANY, err);
}

int nb_journal_remember_current(struct nb_journal *j, const char *knob, struct nb_err *err)
{
	struct nb_knob_target t;
	char original[NB_KNOB_ORIGINAL_MAX];
	enum nb_knob_via via = NB_VIA_ANY;
	int ret;

	if (!j || !knob)
		return nb_err_set(err, -EINVAL, "journal: remember needs a journal and a knob");
	if (find_entry(j, knob) >= 0)
		return 0;
	t = (struct nb_knob_target){ .paths = &j->paths, .iface = j->iface, .irq_names = j->irq_names };
	/* Every NAPI listed and the path kept: restore puts back each NAPI's own value through
	 * napi-set, never one device-wide sysfs value over all of them. */
	ret = nb_knob_read_via(&t, knob, true, original, sizeof(original), &via, err);
	if (ret)
		return ret;
	return remember_via(j, knob, original, via == NB_VIA_NAPI || via == NB_VIA_SYSFS ? via : NB_VIA_ANY, err);
}

static int remember_via(struct nb_journal *j, const char *knob, const char *original, enum nb_knob_via via,
			struct nb_err *err)
{
	char line[NB_JOURNAL_LINE_MAX];
	int ret;

	if (!j || !knob || !original)
		return nb_err_set(err, -EINVAL, "journal: remember needs a journal, a knob and a value");
	if (find_entry(j, knob) >= 0)
		return 0;
	if (nb_knob_find(knob) < 0)
		return nb_err_set(err, -EINVAL, "journal %s: unknown knob '%s'", j->path, knob);
	/* The format is line based: a value with a newline or tab could not be read back. */
	if (strlen(original) >= NB_KNOB_ORIGINAL_MAX || strpbrk(original, "\t\n"))
		return nb_err_set(err, -EINVAL, "journal %s: original %s value '%s' cannot be journaled",
				  j->path, knob, original);
	if (j->fd < 0)
		return nb_err_set(err, -EBADF, "journal %s: loaded for restore only", j->path);
	if (via != NB_VIA_ANY)
		snprintf(line, sizeof(line), "%s\t%s\t%s%s\n", knob, original, NB_JOURNAL_VIA, nb_knob_via_name(via));
	else
		snprintf(line, sizeof(line), "%s\t%s\n", knob, original);
	ret = write_all_sync(j->fd, line, strlen(line));
	if (ret)
		return nb_err_set(err, ret, "journal %s: remember %s=%s: %s", j->path, knob, original,
				  strerror(-ret));
	return add_entry(j, knob, original, via) ? nb_err_set(err, -ENOSPC, "journal %s: full", j->path) : 0;
}

int nb_journal_note_record(struct nb_journal *j, const char *record_path, struct nb_err *err)
{
	char line[PATH_MAX + 16];
	int ret;

	if (!j || j->fd < 0)
		return nb_err_set(err, -EBADF, "journal: note the run record: no journal open for writing");
	if (record_path[0] != '/' || strpbrk(record_path, "\t\n") || strlen(record_path) >= sizeof(j->record))
		return nb_err_set(err, -EINVAL, "journal %s: run record path '%s' cannot be journaled (absolute, "
				  "no tab or newline)", j->path, record_path);
	snprintf(line, sizeof(line), "%s\t%s\n", NB_JOURNAL_RECORD_KEY, record_path);
	ret = write_all_sync(j->fd, line, strlen(line));
	if (ret)
		return nb_err_set(err, ret, "journal %s: note the run record: %s", j->path, strerror(-ret));
	snprintf(j->record, sizeof(j->record), "%s", record_path);
	return 0;
}

const char *nb_journal_record(const struct nb_journal *j)
{
	return j->record[0] ? j->record : NULL;
}

/*
 * Order: the knobs whose row says NB_KNOB_RESTORE_FIRST (mtu) first, then the rest newest-first
 * (undo order). An MTU change can make a driver reset the device (rings reallocated, IRQs
 * requested again, coalescing reprogrammed), which would undo anything restored before it; every
 * other knob is an independent setting (threaded and gro_flush_timeout do not depend on each
 * other), so undo order costs nothing and leaves the state the way it was built.
 */
static int restore_rank(const struct nb_journal *j, int k)
{
	return nb_knob_has(j->e[k].knob, NB_KNOB_RESTORE_FIRST) ? 0 : 1 + (j->n - 1 - k);
}

static int restore_write_check(const struct nb_journal *j, struct nb_journal_entry *e, struct nb_err *err)
{
	struct nb_knob_target t = { .paths = &j->paths, .iface = j->iface, .irq_names = j->irq_names };
	char readback[NB_KNOB_ORIGINAL_MAX];
	int ret = nb_knob_write_via(&t, e->knob, e->value, e->via, &e->taken, err);

	if (ret)
		return ret;
	/* An original in ID=value form (per NAPI, per IRQ) is compared in that form: a plain read
	 * gives irq_affinity per role when each role agrees. */
	ret = nb_knob_read_via(&t, e->knob, e->via == NB_VIA_NAPI || strchr(e->value, '='), readback, sizeof(readback),
			       NULL, err);
	if (ret) {
		nb_err_prefix(err, "after restore %s=%s: ", e->knob, e->value);
		return ret;
	}
	snprintf(e->after, sizeof(e->after), "%s", readback);
	if (strcmp(readback, e->value))
		return nb_err_set(err, -EIO, "restore %s=%s on %s: the kernel reports %s after the write",
				  e->knob, e->value, j->iface, readback);
	return 0;
}

/* Restore one knob and keep how it went for the report's "restore". */
static int restore_one(const struct nb_journal *j, struct nb_journal_entry *e, struct nb_err *err)
{
	int ret;

	e->after[0] = e->error[0] = '\0';
	e->taken = e->via;
	ret = restore_write_check(j, e, err);
	e->restored = true;
	if (ret)
		snprintf(e->error, sizeof(e->error), "%s", err->msg);
	return ret;
}

int nb_journal_entry_outcome(const struct nb_journal *j, int index, const char **after, const char **error)
{
	if (index < 0 || index >= j->n || !j->e[index].restored)
		return 0;
	*after = j->e[index].after[0] ? j->e[index].after : NULL;
	*error = j->e[index].error[0] ? j->e[index].error : NULL;
	return 1;
}

enum nb_knob_via nb_journal_entry_path(const struct nb_journal *j, int index)
{
	if (index < 0 || index >= j->n)
		return NB_VIA_ANY;
	return j->e[index].via != NB_VIA_ANY ? j->e[index].via : j->e[index].taken;
}

int nb_journal_restore(struct nb_journal *j, struct nb_err *err)
{
	char failed[256] = "";
	struct nb_err first = { 0 };
	int nfailed = 0;

	if (!j)
		return 0;
	for (int rank = 0; rank <= j->n; rank++) {
		for (int k = 0; k < j->n; k++) {
			struct nb_err one;
			int ret;
			size_t used = strlen(failed);

			if (restore_rank(j, k) != rank)
				continue;
			ret = restore_one(j, &j->e[k], &one);
			if (!ret)
				continue;
			if (!nfailed++)
				first = one;
			snprintf(failed + used, sizeof(failed) - used, "%s%s", used ? ", " : "", j->e[k].knob);
		}
	}
	if (!nfailed)
		return 0;
	if (nfailed == 1)
		return nb_err_set(err, first.code, "%s", first.msg);
	return nb_err_set(err, first.code, "%d knobs not restored (%s); first: %s", nfailed, failed, first.msg);
}

static int remove_file(const char *path, struct nb_err *err)
{
	if (unlink(path) < 0 && errno != ENOENT)
		return nb_err_set(err, -errno, "remove journal %s: %s", path, strerror(errno));
	nb_fsync_parent(path);
	return 0;
}

int nb_journal_restore_keep(struct nb_journal *j, struct nb_err *err)
{
	int ret;

	if (!j)
		return 0;
	ret = nb_journal_restore(j, err);
	if (ret)
		nb_err_prefix(err, "journal %s kept: ", j->path);
	return ret;
}

int nb_journal_remove(struct nb_journal *j, struct nb_err *err)
{
	int ret;

	if (!j)
		return 0;
	ret = remove_file(j->path, err);
	journal_free(j);
	return ret;
}

/* A journal whose restore failed stays on disk: the next `nicbench knobs restore` retries. */
int nb_journal_finish(struct nb_journal *j, struct nb_err *err)
{
	int ret = nb_journal_restore_keep(j, err);

	if (ret) {
		journal_free(j);
		return ret;
	}
	return nb_journal_remove(j, err);
}

void nb_journal_free(struct nb_journal *j)
{
	if (j)
		journal_free(j);
}

static int parse_header(const char *line, char *iface, size_t len)
{
	const char *prefix = NB_JOURNAL_MAGIC " iface=";
	size_t plen = strlen(prefix);

	if (strncmp(line, prefix, plen) || !nb_ifname_valid(line + plen))
		return -EINVAL;
	/* nb_ifname_valid bounds the name to 15 characters, so it fits. */
	if (strlen(line + plen) >= len)
		return -EINVAL;
	memcpy(iface, line + plen, strlen(line + plen) + 1);
	return 0;
}

static int parse_entry(struct nb_journal *j, char *line, int lineno, struct nb_err *err)
{
	char *tab = strchr(line, '\t');

	if (!tab)
		return nb_err_set(err, -EINVAL, "journal %s line %d: expected <knob><TAB><value>", j->path, lineno);
	char *via_field;
	/* A line without a path comes from a nicbench that knew only sysfs: its value is a sysfs
	 * value and goes back where it was read from. */
	enum nb_knob_via via = NB_VIA_SYSFS;

	*tab = '\0';
	if (!strcmp(line, NB_JOURNAL_RECORD_KEY)) {
		if (tab[1] != '/' || strlen(tab + 1) >= sizeof(j->record))
			return nb_err_set(err, -EINVAL, "journal %s line %d: bad run record path", j->path, lineno);
		snprintf(j->record, sizeof(j->record), "%s", tab + 1);
		return 0;
	}
	if (!strcmp(line, NB_JOURNAL_IRQ_NAMES_KEY)) {
		if (strlen(tab + 1) >= sizeof(j->irq_names))
			return nb_err_set(err, -EINVAL, "journal %s line %d: IRQ name patterns too long", j->path, lineno);
		snprintf(j->irq_names, sizeof(j->irq_names), "%s", tab + 1);
		return 0;
	}
	if (nb_knob_find(line) < 0)
		return nb_err_set(err, -EINVAL, "journal %s line %d: unknown knob '%s'", j->path, lineno, line);
	via_field = strchr(tab + 1, '\t');
	if (via_field) {
		*via_field++ = '\0';
		if (strncmp(via_field, NB_JOURNAL_VIA, strlen(NB_JOURNAL_VIA)) ||
		    nb_knob_via_parse(via_field + strlen(NB_JOURNAL_VIA), &via))
			return nb_err_set(err, -EINVAL, "journal %s line %d: unknown path '%s'", j->path, lineno,
					  via_field);
	}
	if (strlen(tab + 1) >= NB_KNOB_ORIGINAL_MAX)
		return nb_err_set(err, -EINVAL, "journal %s line %d: value too long", j->path, lineno);
	if (find_entry(j, line) >= 0)  /* the first line holds the true original */
		return 0;
	return add_entry(j, line, tab + 1, via) ? nb_err_set(err, -ENOSPC, "journal %s: too many lines", j->path) : 0;
}

static int parse_lines(struct nb_journal *j, FILE *f, struct nb_err *err)
{
	/* a knob line, or the "@record" line with its path */
	char line[(NB_JOURNAL_LINE_MAX > PATH_MAX + 16 ? NB_JOURNAL_LINE_MAX : PATH_MAX + 16) + 2];
	int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		int ret;

		lineno++;
		/* Each line is written and fsync'd before its knob is changed, so a torn last line
		 * (no newline) belongs to a knob that was never touched: skip it. */
		if (len == 0 || line[len - 1] != '\n') {
			if (feof(f))
				break;
			return nb_err_set(err, -EINVAL, "journal %s line %d: too long", j->path, lineno);
		}
		line[len - 1] = '\0';
		if (lineno == 1) {
			if (parse_header(line, j->iface, sizeof(j->iface)))
				return nb_err_set(err, -EINVAL, "journal %s: not a nicbench journal "
						  "(first line should be '%s iface=NAME')", j->path, NB_JOURNAL_MAGIC);
			continue;
		}
		ret = parse_entry(j, line, lineno, err);
		if (ret)
			return ret;
	}
	if (lineno == 0 || !j->iface[0])
		return nb_err_set(err, -EINVAL, "journal %s: empty or no header line", j->path);
	return 0;
}

int nb_journal_load(const char *path, const struct nb_paths *paths, struct nb_journal **out,
		    struct nb_err *err)
{
	struct nb_journal *j;
	FILE *f;
	int ret;

	*out = NULL;
	if (strlen(path) >= PATH_MAX)
		return nb_err_set(err, -ENAMETOOLONG, "load journal: path too long");
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return nb_err_set(err, -ENOENT, "no journal at %s (nothing to restore)", path);
		return nb_err_set(err, -errno, "open journal %s: %s", path, strerror(errno));
	}
	j = journal_alloc(path, "", paths);
	if (!j) {
		fclose(f);
		return nb_err_set(err, -ENOMEM, "load journal %s: out of memory", path);
	}
	ret = parse_lines(j, f, err);
	fclose(f);
	if (ret) {
		journal_free(j);
		return ret;
	}
	*out = j;
	return 0;
}

const char *nb_journal_iface(const struct nb_journal *j)
{
	return j->iface;
}

int nb_journal_count(const struct nb_journal *j)
{
	return j->n;
}

int nb_journal_entry(const struct nb_journal *j, int index, const char **knob, const char **value)
{
	if (index < 0 || index >= j->n)
		return -ERANGE;
	*knob = j->e[index].knob;
	*value = j->e[index].value;
	return 0;
}

const char *nb_journal_entry_via(const struct nb_journal *j, int index)
{
	return index < 0 || index >= j->n || j->e[index].via == NB_VIA_ANY ? NULL : nb_knob_via_name(j->e[index].via);
}

int nb_journal_restore_file(const char *path, const struct nb_paths *paths, struct nb_err *err)
{
	struct nb_journal *j;
	int ret = nb_journal_load(path, paths, &j, err);

	if (ret)
		return ret;
	return nb_journal_finish(j, err);
}
