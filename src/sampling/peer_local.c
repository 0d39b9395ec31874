// SPDX-License-Identifier: MIT
/* The local peer by identity: the process that listens on the peer's port in a network namespace of this machine. */
#include "sampling/peer_local.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NET_FILE_MAX (1u << 20) /* /proc/net/tcp of a busy namespace: 150 bytes a socket */
#define MAX_NETNS 64
#define MAX_INODES 16

int nb_parse_tcp_listeners(const char *text, int port, unsigned long *inodes, int max)
{
	int n = 0;

	for (const char *line = text; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned lport, state;
		unsigned long inode;

		/* "sl: local:port remote:port st tx:rx tr:when retrnsmt uid timeout inode"; the header has no ':' at 2 */
		if (sscanf(line, " %*u: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x %*x:%*x %*x:%*x %*x %*u %*u %lu", &lport,
			   &state, &inode) != 3)
			continue;
		if (state == 0x0A && (int)lport == port && inode != 0) /* TCP_LISTEN */
			inodes[n++] = inode;
	}
	return n;
}

bool nb_fib_trie_has_local(const char *text, uint32_t addr)
{
	char want[INET_ADDRSTRLEN + 4];
	const char *leaf = NULL;

	if (!inet_ntop(AF_INET, &addr, want, sizeof(want)))
		return false;
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *s = line + strspn(line, " ");
		size_t len = strcspn(s, "\n");

		if (!strncmp(s, "|-- ", 4)) {
			leaf = len - 4 == strlen(want) && !strncmp(s + 4, want, len - 4) ? s : NULL;
			continue;
		}
		/* a leaf's lines follow it: "/32 host LOCAL" marks an address of this namespace */
		if (leaf && *s == '/' && len >= 14 && !strncmp(s, "/32 host LOCAL", 14))
			return true;
		if (*s != '/')
			leaf = NULL;
	}
	return false;
}

bool nb_if_inet6_has(const char *text, const uint8_t addr[16])
{
	char want[33];

	for (int i = 0; i < 16; i++)
		snprintf(want + 2 * i, 3, "%02x", addr[i]);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncasecmp(line, want, 32))
			return true;
	return false;
}

struct peer_addrs {
	int n4, n6;
	uint32_t v4[8];
	uint8_t v6[8][16];
	bool loopback; /* every address is a loopback one: the peer is in our own namespace */
};

static int resolve(const char *host, struct peer_addrs *a)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;

	memset(a, 0, sizeof(*a));
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return -ENOENT;
	a->loopback = true;
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET && a->n4 < 8) {
			a->v4[a->n4] = ((const struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr;
			a->loopback &= (ntohl(a->v4[a->n4]) >> 24) == 127;
			a->n4++;
		} else if (ai->ai_family == AF_INET6 && a->n6 < 8) {
			const struct in6_addr *in6 = &((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;

			memcpy(a->v6[a->n6++], in6, 16);
			a->loopback &= IN6_IS_ADDR_LOOPBACK(in6);
		}
	}
	freeaddrinfo(res);
	return a->n4 + a->n6 > 0 ? 0 : -ENOENT;
}

struct netns {
	unsigned long ino;
	int pid; /* one process in it: <proc>/PID/net shows the namespace */
};

static long read_rel(const struct nb_paths *paths, int pid, const char *what, char *buf, size_t len)
{
	char rel[64], path[PATH_MAX];

	snprintf(rel, sizeof(rel), "%d/%s", pid, what);
	if (nb_path_join(path, sizeof(path), paths->proc, rel) < 0)
		return -ENAMETOOLONG;
	return nb_read_file(path, buf, len);
}

static unsigned long netns_of(const struct nb_paths *paths, const char *pid)
{
	char rel[64], path[PATH_MAX];
	struct stat st;

	snprintf(rel, sizeof(rel), "%.32s/ns/net", pid);
	if (nb_path_join(path, sizeof(path), paths->proc, rel) < 0 || stat(path, &st) < 0)
		return 0;
	return (unsigned long)st.st_ino;
}

/* Every distinct network namespace that a process of this machine is in. */
static int list_netns(const struct nb_paths *paths, struct netns *ns, int max)
{
	DIR *d = opendir(paths->proc);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		unsigned long ino;
		int i;

		if (*end || pid <= 0 || !(ino = netns_of(paths, de->d_name)))
			continue;
		for (i = 0; i < n && ns[i].ino != ino; i++)
			;
		if (i == n && n < max)
			ns[n++] = (struct netns){ .ino = ino, .pid = (int)pid };
	}
	closedir(d);
	return n;
}

static bool holds_address(const struct nb_paths *paths, const struct netns *ns, const struct peer_addrs *a,
			  unsigned long self_ns, char *buf)
{
	if (a->loopback)
		return ns->ino == self_ns;
	if (a->n4 && read_rel(paths, ns->pid, "net/fib_trie", buf, NET_FILE_MAX) >= 0)
		for (int i = 0; i < a->n4; i++)
			if (nb_fib_trie_has_local(buf, a->v4[i]))
				return true;
	if (a->n6 && read_rel(paths, ns->pid, "net/if_inet6", buf, NET_FILE_MAX) >= 0)
		for (int i = 0; i < a->n6; i++)
			if (nb_if_inet6_has(buf, a->v6[i]))
				return true;
	return false;
}

static int listeners_in(const struct nb_paths *paths, const struct netns *ns, int port, char *buf,
			unsigned long *inodes, int max)
{
	int n = 0;

	if (read_rel(paths, ns->pid, "net/tcp", buf, NET_FILE_MAX) >= 0)
		n += nb_parse_tcp_listeners(buf, port, inodes, max);
	if (read_rel(paths, ns->pid, "net/tcp6", buf, NET_FILE_MAX) >= 0)
		n += nb_parse_tcp_listeners(buf, port, inodes + n, max - n);
	return n;
}

static bool pid_holds(const struct nb_paths *paths, const char *pid, const unsigned long *inodes, int n)
{
	char rel[64], dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	bool found = false;

	snprintf(rel, sizeof(rel), "%.32s/fd", pid);
	if (nb_path_join(dir, sizeof(dir), paths->proc, rel) < 0 || !(d = opendir(dir)))
		return false;
	while (!found && (de = readdir(d))) {
		char link[64], path[PATH_MAX + 256];
		unsigned long ino;
		ssize_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%lu]", &ino) != 1)
			continue;
		for (int i = 0; i < n && !found; i++)
			found = inodes[i] == ino;
	}
	closedir(d);
	return found;
}

/* The processes of namespace ns that hold one of the listening sockets. */
static int holders(const struct nb_paths *paths, unsigned long ns, const unsigned long *inodes, int n, int *pids,
		   int max)
{
	DIR *d = opendir(paths->proc);
	struct dirent *de;
	int found = 0;

	if (!d)
		return -errno;
	while (found < max && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		/* nicbench itself is never the peer */
		if (*end || pid <= 0 || pid == (long)getpid() || netns_of(paths, de->d_name) != ns)
			continue;
		if (pid_holds(paths, de->d_name, inodes, n))
			pids[found++] = (int)pid;
	}
	closedir(d);
	return found;
}

static int parent_of(const struct nb_paths *paths, int pid)
{
	char text[1024];
	const char *after;
	int ppid;

	if (read_rel(paths, pid, "stat", text, sizeof(text)) < 0 || !(after = strrchr(text, ')')) ||
	    sscanf(after + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

static bool exe_of(const struct nb_paths *paths, int pid, char *buf, size_t len)
{
	char rel[64], path[PATH_MAX];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%d/exe", pid);
	if (nb_path_join(path, sizeof(path), paths->proc, rel) < 0 || (n = readlink(path, buf, len - 1)) <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* Up the parents while they are forks of the same program in the same namespace. */
static int topmost(const struct nb_paths *paths, int pid, unsigned long ns)
{
	char exe[PATH_MAX], up_exe[PATH_MAX], spid[16];

	if (!exe_of(paths, pid, exe, sizeof(exe)))
		return pid;
	for (int depth = 0; depth < 16; depth++) {
		int up = parent_of(paths, pid);

		snprintf(spid, sizeof(spid), "%d", up);
		/* nicbench itself is never the peer, even as the parent of a test's server */
		if (up <= 1 || up == (int)getpid() || netns_of(paths, spid) != ns || !exe_of(paths, up, up_exe, sizeof(up_exe)) ||
		    strcmp(exe, up_exe))
			break;
		pid = up;
	}
	return pid;
}

static void add_root(struct nb_peer_local *out, int pid)
{
	for (int i = 0; i < out->npids; i++)
		if (out->pids[i] == pid)
			return;
	if (out->npids < NB_PEER_MAX_PIDS)
		out->pids[out->npids++] = pid;
}

int nb_peer_local_find(const struct nb_paths *paths, const char *host, int port, struct nb_peer_local *out)
{
	struct peer_addrs addrs;
	struct netns ns[MAX_NETNS];
	unsigned long inodes[MAX_INODES], self_ns = netns_of(paths, "self");
	int nns, where = -1, ninodes = 0, nholders, pids[NB_PEER_MAX_PIDS];
	char *buf;

	memset(out, 0, sizeof(*out));
	if (resolve(host, &addrs) < 0) {
		snprintf(out->how, sizeof(out->how), "%s does not resolve", host);
		return 0;
	}
	buf = malloc(NET_FILE_MAX);
	if (!buf)
		return -ENOMEM;
	nns = list_netns(paths, ns, MAX_NETNS);
	for (int i = 0; i < nns; i++) {
		unsigned long here[MAX_INODES];
		int n;

		if (!holds_address(paths, &ns[i], &addrs, self_ns, buf))
			continue;
		n = listeners_in(paths, &ns[i], port, buf, here, MAX_INODES);
		if (n == 0)
			continue;
		if (where >= 0) {
			/* two servers could be the peer: say so rather than pick one */
			snprintf(out->how, sizeof(out->how),
				 "not told apart: TCP port %d listens in two network namespaces holding %s", port, host);
			free(buf);
			return 0;
		}
		where = i;
		memcpy(inodes, here, (size_t)n * sizeof(*here));
		ninodes = n;
	}
	free(buf);
	if (where < 0) {
		snprintf(out->how, sizeof(out->how),
			 "none: no process listens on TCP port %d in a network namespace of this machine holding %s",
			 port, host);
		return 0;
	}
	nholders = holders(paths, ns[where].ino, inodes, ninodes, pids, NB_PEER_MAX_PIDS);
	if (nholders <= 0) {
		snprintf(out->how, sizeof(out->how),
			 "none: TCP port %d listens in network namespace net:[%lu], but no process holds the socket", port,
			 ns[where].ino);
		return 0;
	}
	for (int i = 0; i < nholders; i++)
		add_root(out, topmost(paths, pids[i], ns[where].ino));
	out->found = true;
	out->netns = ns[where].ino;
	{
		char text[1024];
		const char *open, *close;

		if (read_rel(paths, out->pids[0], "stat", text, sizeof(text)) >= 0 && (open = strchr(text, '(')) &&
		    (close = strrchr(text, ')')) && close > open)
			snprintf(out->comm, sizeof(out->comm), "%.*s", (int)(close - open - 1), open + 1);
	}
	snprintf(out->how, sizeof(out->how),
		 "%s (pid %d%s) and its descendants: listens on TCP port %d in network namespace net:[%lu], which "
		 "holds %s", out->comm[0] ? out->comm : "?", out->pids[0], out->npids > 1 ? " and others" : "", port,
		 out->netns, host);
	return 0;
}
