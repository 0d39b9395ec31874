// SPDX-License-Identifier: MIT
/* Where /proc and /sys live: a small context so tests can point modules at fixture trees. */
#ifndef NB_PATHS_H
#define NB_PATHS_H

#include <stddef.h>

struct nb_paths {
	const char *proc; /* "/proc" on a live system */
	const char *sys;  /* "/sys" on a live system */
};

extern const struct nb_paths nb_paths_live;

/* Join root and a relative path ("net/softnet_stat") into buf. Returns 0 or -ENAMETOOLONG. */
int nb_path_join(char *buf, size_t len, const char *root, const char *rel);

/* The directory that holds path into buf: "." for a bare name, "/" at the root. Returns 0 or
 * -ENAMETOOLONG. */
int nb_path_dir(char *buf, size_t len, const char *path);

/* fsync the directory that holds path: a new, renamed or removed entry is durable only then. */
int nb_fsync_parent(const char *path);

/* Read a small file (sysfs attribute, /proc file) into buf, NUL-terminated,
 * trailing newline stripped. Returns bytes read or -errno. */
long nb_read_file(const char *path, char *buf, size_t len);

/* Write a string to a file in one write(2). Returns 0 or -errno. */
int nb_write_file(const char *path, const char *value);

/* Write all of data to fd (a pipe, a socket), retrying short writes and EINTR. Returns 0 or -errno. */
int nb_write_all(int fd, const void *data, size_t len);

/* The whole of the file at path, malloc'd and NUL-terminated (a /proc file's size is not known until it is
 * read, so the buffer grows from first_cap); *len (may be NULL) gets its length. 0, or -errno
 * (-EISDIR for a directory, -ENOMEM) with nothing allocated. */
int nb_read_whole_file(const char *path, size_t first_cap, char **out, size_t *len);

/* True when name is a valid Linux interface name (1..15 chars, no '/', ':', whitespace, not "." or ".."). */
int nb_ifname_valid(const char *name);

#endif
