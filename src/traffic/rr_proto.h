// SPDX-License-Identifier: MIT
/* The wire format of nicbench's request/response tests (tcp-rr, udp-rr), shared by client and server. */
#ifndef NB_RR_PROTO_H
#define NB_RR_PROTO_H

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Every request starts with this header, so the server needs no control connection: the
 * request says how long it is and how long the answer must be. A response starts with
 * the same header (its own length, and the request's sequence number). */
#define NB_RR_MAGIC 0x4e425252u      /* "NBRR" */
#define NB_RR_HEADER_LEN 16
#define NB_RR_MIN_LEN NB_RR_HEADER_LEN
#define NB_RR_MAX_LEN 65507          /* the largest UDP payload over IPv4 */
#define NB_RR_DEFAULT_PORT 5301      /* beside iperf3's 5201 */

struct nb_rr_header {
	uint32_t magic;
	uint32_t req_len;   /* bytes of this request, header included */
	uint32_t resp_len;  /* bytes the response must have, header included */
	uint32_t seq;       /* echoed in the response */
};

static inline void nb_rr_header_put(unsigned char *buf, const struct nb_rr_header *h)
{
	uint32_t w[4] = { htonl(h->magic), htonl(h->req_len), htonl(h->resp_len), htonl(h->seq) };

	memcpy(buf, w, sizeof(w));
}

static inline void nb_rr_header_get(const unsigned char *buf, struct nb_rr_header *h)
{
	uint32_t w[4];

	memcpy(w, buf, sizeof(w));
	h->magic = ntohl(w[0]);
	h->req_len = ntohl(w[1]);
	h->resp_len = ntohl(w[2]);
	h->seq = ntohl(w[3]);
}

static inline bool nb_rr_header_valid(const struct nb_rr_header *h)
{
	return h->magic == NB_RR_MAGIC && h->req_len >= NB_RR_MIN_LEN && h->req_len <= NB_RR_MAX_LEN &&
	       h->resp_len >= NB_RR_MIN_LEN && h->resp_len <= NB_RR_MAX_LEN;
}

#endif
