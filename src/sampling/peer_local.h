// SPDX-License-Identifier: MIT
/* The local peer by identity: the process that listens on the peer's port in a network namespace of this machine. */
#ifndef NB_PEER_LOCAL_H
#define NB_PEER_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_paths.h"

#define NB_PEER_MAX_PIDS 8

struct nb_peer_local {
	bool found;
	int npids;
	int pids[NB_PEER_MAX_PIDS]; /* the server's topmost processes: the peer is they and their descendants */
	char comm[16];              /* the first one's name, for the messages */
	unsigned long netns;        /* inode of the network namespace it listens in */
	char how[240];              /* how it was found, or why not */
};

/* Find the server of HOST:PORT (TCP) on this machine: the network namespaces that hold HOST as
 * a local address (a loopback HOST: ours), the socket listening on PORT in exactly one of them,
 * the processes holding it, and, up their parents, the forks of the same program in the same
 * namespace (nicbench serve's supervisor above its per-test child). Not found is not an error:
 * out->found is false and out->how says why. Returns 0, or -ENOMEM. */
int nb_peer_local_find(const struct nb_paths *paths, const char *host, int port, struct nb_peer_local *out);

/* Pure: the socket inodes of /proc/net/tcp or tcp6 text that listen on port. Returns how many
 * (at most max). */
int nb_parse_tcp_listeners(const char *text, int port, unsigned long *inodes, int max);
/* Pure: does /proc/net/fib_trie text list addr (network byte order) as a local /32? */
bool nb_fib_trie_has_local(const char *text, uint32_t addr);
/* Pure: does /proc/net/if_inet6 text list the 16-byte address? */
bool nb_if_inet6_has(const char *text, const uint8_t addr[16]);

#endif
