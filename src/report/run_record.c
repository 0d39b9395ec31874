// SPDX-License-Identifier: MIT
/* Append-only, fsync'd record lines, and reading them back with a torn last line tolerated. */
#include "run_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/nb_paths.h"

struct nb_record_writer {
	int fd;
	long long bytes;
	char path[PATH_MAX];
};

int nb_record_create(const char *path, struct nb_record_writer **out, struct nb_err *err)
{
	struct nb_record_writer *w = calloc(1, sizeof(*w));
	int ret;

	*out = NULL;
	if (!w)
		return nb_err_set(err, -ENOMEM, "create run record: out of memory");
	if (!path) {
		const char *tmpdir = getenv("TMPDIR");
		char tmpl[PATH_MAX];

		snprintf(tmpl, sizeof(tmpl), "%s/nicbench-record.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		w->fd = mkostemp(tmpl, O_APPEND | O_CLOEXEC);
		if (w->fd < 0) {
			ret = -errno;
			free(w);
			return nb_err_set(err, ret, "create a temporary run record in %s: %s",
					  tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(-ret));
		}
		unlink(tmpl);
		*out = w;
		return 0;
	}
	if (strlen(path) >= sizeof(w->path)) {
		free(w);
		return nb_err_set(err, -ENAMETOOLONG, "create run record %s: path too long", path);
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	/* read-write: the report is assembled from this fd at the end of the run */
	w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		ret = -errno;
		free(w);
		return nb_err_set(err, ret, "create run record %s: %s", path, strerror(-ret));
	}
	ret = nb_fsync_parent(path);
	if (ret < 0) {
		nb_record_writer_close(w, true);
		return nb_err_set(err, ret, "create run record %s: sync its directory: %s", path, strerror(-ret));
	}
	*out = w;
	return 0;
}

int nb_record_append(struct nb_record_writer *w, const char *line, size_t len, struct nb_err *err)
{
	char *buf = malloc(len + 1);
	size_t off = 0;

	if (!buf)
		return nb_err_set(err, -ENOMEM, "append to run record %s: out of memory", w->path);
	/* one buffer, one write: a kill between a record and its newline would tear it */
	memcpy(buf, line, len);
	buf[len] = '\n';
	while (off < len + 1) {
		ssize_t n = write(w->fd, buf + off, len + 1 - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			free(buf);
			return nb_err_set(err, -e, "append to run record %s: %s", w->path, strerror(e));
		}
		off += (size_t)n;
	}
	free(buf);
	w->bytes += (long long)(len + 1);
	if (fdatasync(w->fd) < 0)
		return nb_err_set(err, -errno, "append to run record %s: sync: %s", w->path, strerror(errno));
	return 0;
}

int nb_record_writer_fd(const struct nb_record_writer *w)
{
	return w->fd;
}

const char *nb_record_writer_path(const struct nb_record_writer *w)
{
	return w->path;
}

long long nb_record_writer_bytes(const struct nb_record_writer *w)
{
	return w->bytes;
}

void nb_record_writer_unlink(struct nb_record_writer *w)
{
	if (w->path[0] && unlink(w->path) == 0)
		nb_fsync_parent(w->path);
	w->path[0] = '\0';
}

void nb_record_writer_close(struct nb_record_writer *w, bool remove)
{
	if (!w)
		return;
	close(w->fd);
	if (remove && w->path[0])
		unlink(w->path);
	free(w);
}

struct nb_record_reader {
	int fd;
	bool own_fd, torn, eof;
	off_t off;            /* file offset of buf[0] */
	char *buf;
	size_t cap, start, end;  /* buf[start, end) is read and not yet returned */
};

int nb_record_reader_open(const char *path, int fd, struct nb_record_reader **out, struct nb_err *err)
{
	struct nb_record_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return nb_err_set(err, -ENOMEM, "read run record: out of memory");
	r->fd = fd;
	if (path) {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			int e = errno;

			free(r);
			return nb_err_set(err, -e, "open run record %s: %s", path, strerror(e));
		}
		r->own_fd = true;
	}
	*out = r;
	return 0;
}

/* Read more of the file after buf[end]; pread keeps a shared fd's offset untouched. */
static int fill(struct nb_record_reader *r)
{
	ssize_t n;

	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->off += (off_t)r->start;
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < 4096) {
		size_t cap = r->cap ? r->cap * 2 : 65536;
		char *grown = realloc(r->buf, cap + 1);

		if (!grown)
			return -ENOMEM;
		r->buf = grown;
		r->cap = cap;
	}
	do
		n = pread(r->fd, r->buf + r->end, r->cap - r->end, r->off + (off_t)r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		r->eof = true;
	r->end += (size_t)n;
	return 0;
}

int nb_record_next(struct nb_record_reader *r, const char **line, size_t *len, struct nb_err *err)
{
	size_t scanned = r->start;

	for (;;) {
		char *nl = scanned < r->end ? memchr(r->buf + scanned, '\n', r->end - scanned) : NULL;
		int ret;

		if (nl) {
			*nl = '\0';
			*line = r->buf + r->start;
			*len = (size_t)(nl - (r->buf + r->start));
			r->start = (size_t)(nl - r->buf) + 1;
			return 1;
		}
		if (r->eof) {
			/* written in one write and synced before the run went on: bytes without their
			 * newline are a record the kill interrupted, never a finished one */
			r->torn = r->end > r->start;
			return 0;
		}
		scanned = r->end - r->start;
		ret = fill(r);
		if (ret < 0)
			return nb_err_set(err, ret, "read run record: %s", strerror(-ret));
		scanned += r->start;  /* fill() moved the unread bytes to the front */
	}
}

bool nb_record_reader_torn(const struct nb_record_reader *r)
{
	return r->torn;
}

void nb_record_reader_close(struct nb_record_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	free(r->buf);
	free(r);
}
