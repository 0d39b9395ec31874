// SPDX-License-Identifier: MIT
/* The run record: an append-only file of finished work, one line per record, each written
 * whole and fsync'd before the run goes on, so a SIGKILL or a power cut loses at most the
 * record being written. It knows lines, not their content (report.c writes and reads that). */
#ifndef NB_RUN_RECORD_H
#define NB_RUN_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "kit/nb_error.h"

struct nb_record_writer;

/* Create (truncate) a record at path and sync its directory entry. path NULL: an
 * anonymous temporary file (removed on close), for reports that are never left on disk. */
int nb_record_create(const char *path, struct nb_record_writer **out, struct nb_err *err);
/* Append one record (no newline inside) and fdatasync. The only write the record sees. */
int nb_record_append(struct nb_record_writer *w, const char *line, size_t len, struct nb_err *err);
/* The file, for reading it back while it is still open; "" when anonymous. */
int nb_record_writer_fd(const struct nb_record_writer *w);
const char *nb_record_writer_path(const struct nb_record_writer *w);
/* Bytes appended so far (the bench's "bytes written per repetition"). */
long long nb_record_writer_bytes(const struct nb_record_writer *w);
/* Remove a named record's file; the open fd stays readable. */
void nb_record_writer_unlink(struct nb_record_writer *w);
/* Close; with remove, also unlink a named record. Safe with NULL. */
void nb_record_writer_close(struct nb_record_writer *w, bool remove);

struct nb_record_reader;

/* Read a record by path, or (path NULL) from an open fd, which is not closed or moved. */
int nb_record_reader_open(const char *path, int fd, struct nb_record_reader **out, struct nb_err *err);
/* The next whole record: 1 with *line (NUL-terminated, valid until the next call), 0 at the
 * end, -errno on a read error. A last record without its newline was torn by the kill: it is
 * not returned, and nb_record_reader_torn() says so. */
int nb_record_next(struct nb_record_reader *r, const char **line, size_t *len, struct nb_err *err);
bool nb_record_reader_torn(const struct nb_record_reader *r);
void nb_record_reader_close(struct nb_record_reader *r);

#endif
