// SPDX-License-Identifier: MIT
/* /dev/kmsg reader: non-blocking reads of the records logged since the last read, filtered. */
#include "sampling/kmsg.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool parse_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (s >= end || !isdigit((unsigned char)*s))
		return false;
	while (s < end && isdigit((unsigned char)*s))
		*v = *v * 10 + (uint64_t)(*s++ - '0');
	*p = s;
	return true;
}

int nb_kmsg_parse(const char *rec, size_t len, struct nb_kmsg_line *out)
{
	const char *p = rec, *end = rec + len, *text, *nl;
	uint64_t pri;
	size_t n;

	memset(out, 0, sizeof(*out));
	if (!parse_u64(&p, end, &pri) || p >= end || *p++ != ',' || !parse_u64(&p, end, &out->seq) || p >= end ||
	    *p++ != ',' || !parse_u64(&p, end, &out->ts_us))
		return -EINVAL;
	text = memchr(p, ';', (size_t)(end - p));
	if (!text)
		return -EINVAL;
	text++;
	/* the text ends at the first newline; " KEY=VALUE" lines follow it */
	nl = memchr(text, '\n', (size_t)(end - text));
	n = (size_t)((nl ? nl : end) - text);
	if (n >= sizeof(out->text))
		n = sizeof(out->text) - 1;
	memcpy(out->text, text, n);
	out->text[n] = '\0';
	out->level = (int)(pri & 7);
	return 0;
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* iface as a word: "veth0" is in "veth0: link up" but not in "veth01: link up". */
static bool names_iface(const char *text, const char *iface)
{
	size_t n = strlen(iface);

	if (n == 0)
		return false;
	for (const char *p = strstr(text, iface); p; p = strstr(p + 1, iface)) {
		if ((p == text || !is_name_char(p[-1])) && !is_name_char(p[n]))
			return true;
	}
	return false;
}

bool nb_kmsg_wanted(const struct nb_kmsg_line *l, const char *iface, int max_level)
{
	return l->level <= max_level || names_iface(l->text, iface) || strstr(l->text, "NETDEV WATCHDOG") ||
	       strstr(l->text, "timed out");
}

void nb_kmsg_log_add(struct nb_kmsg_log *log, const struct nb_kmsg_line *l)
{
	if (log->n < NB_KMSG_MAX_LINES)
		log->line[log->n++] = *l;
	else
		log->over_cap++;
}

struct nb_kmsg {
	int fd;
	char iface[IF_NAMESIZE];
	char why[160];
};

struct nb_kmsg *nb_kmsg_open(const char *path, const char *iface)
{
	struct nb_kmsg *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	snprintf(k->iface, sizeof(k->iface), "%s", iface);
	k->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		snprintf(k->why, sizeof(k->why), "kernel log not read: open %.100s: %s", path, strerror(errno));
	} else if (lseek(k->fd, 0, SEEK_END) < 0) {
		snprintf(k->why, sizeof(k->why), "kernel log not read: seek to the end of %.100s: %s", path,
			 strerror(errno));
		close(k->fd);
		k->fd = -1;
	}
	return k;
}

void nb_kmsg_close(struct nb_kmsg *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}

/* One record a read; EPIPE: the ring overwrote records we had not read (the next read goes on). */
static void drain(struct nb_kmsg *k, struct nb_kmsg_log *log)
{
	char rec[8192];

	for (int guard = 0; guard < 100000; guard++) {
		ssize_t r = read(k->fd, rec, sizeof(rec));
		struct nb_kmsg_line l;

		if (r < 0 && errno == EPIPE) {
			if (log)
				log->lost++;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;  /* EAGAIN: nothing more */
		if (log && nb_kmsg_parse(rec, (size_t)r, &l) == 0 && nb_kmsg_wanted(&l, k->iface, NB_KMSG_WARNING))
			nb_kmsg_log_add(log, &l);
	}
}

void nb_kmsg_skip(struct nb_kmsg *k)
{
	if (k && k->fd >= 0)
		drain(k, NULL);
}

void nb_kmsg_collect(struct nb_kmsg *k, struct nb_kmsg_log *log)
{
	if (!k)
		return;
	if (k->fd < 0) {
		log->present = false;
		snprintf(log->why, sizeof(log->why), "%s", k->why);
		return;
	}
	log->present = true;
	drain(k, log);
}
