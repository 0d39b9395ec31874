// SPDX-License-Identifier: MIT
/* Path context and the small file helpers that every /proc and /sys reader shares. */
#include "kit/nb_paths.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct nb_paths nb_paths_live = { .proc = "/proc", .sys = "/sys" };

int nb_path_join(char *buf, size_t len, const char *root, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", root, rel);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int nb_path_dir(char *buf, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(buf, len, ".");
	else
		n = snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

long nb_read_file(const char *path, char *buf, size_t len)
{
	size_t used = 0;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (used < len - 1) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	while (used > 0 && (buf[used - 1] == '\n' || buf[used - 1] == ' '))
		buf[--used] = '\0';
	return (long)used;
}

int nb_write_file(const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd;

	/* O_TRUNC: sysfs ignores it, but a fixture file must not keep a longer old value */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int nb_ifname_valid(const char *name)
{
	size_t len;

	if (!name)
		return 0;
	len = strlen(name);
	if (len == 0 || len > 15 || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (const char *p = name; *p; p++) {
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p) || !isprint((unsigned char)*p))
			return 0;
	}
	return 1;
}

int nb_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int nb_fsync_parent(const char *path)
{
	char dir[PATH_MAX];
	int fd, ret = 0;

	if (nb_path_dir(dir, sizeof(dir), path) < 0)
		return -ENAMETOOLONG;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int nb_read_whole_file(const char *path, size_t first_cap, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = first_cap > 1 ? first_cap : 4096, used = 0;
	struct stat st;
	char *buf;
	int rc = 0;

	*out = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	buf = malloc(cap);
	while (buf) {
		ssize_t n;

		if (used + 1 >= cap) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0) {
			close(fd);
			buf[used] = '\0';
			*out = buf;
			if (len)
				*len = used;
			return 0;
		}
		used += (size_t)n;
	}
	free(buf);
	close(fd);
	return rc ? rc : -ENOMEM;
}
