// SPDX-License-Identifier: MIT
/* Which metric is a test point's headline: the one figure its table row shows and compare's default
 * gate judges (docs/report.md, "Headline"). One rule for the run that writes it and for old reports. */
#ifndef NB_KIT_HEADLINE_H
#define NB_KIT_HEADLINE_H

#include <stdbool.h>
#include <stdint.h>

/* Datagrams up to this length make a UDP receive test a packet-rate test: with headers they are
 * a few hundred bytes at most, so the driver's per-packet cost bounds them, not the link. */
#define NB_FLOOD_MAX_LENGTH 256

/* What the rule looks at: the point's test as the report's "test" object holds it. */
struct nb_headline_test {
	bool udp;
	bool rx;                 /* the peer sends */
	bool rr;                 /* tcp-rr / udp-rr */
	uint64_t rate_bps;       /* 0: unlimited */
	int length;              /* UDP datagram length; 0 unknown */
	bool promiscuous;        /* the sweep held the interface promiscuous */
};

/* A flood: UDP received at the DUT at a fixed rate in small datagrams, or UDP received while the
 * interface was held promiscuous (the peer floods a foreign MAC). Its headline is packets per
 * second received; a request/response test's is transactions per second; any other throughput. */
bool nb_test_is_flood(const struct nb_headline_test *t);
const char *nb_headline_metric(const struct nb_headline_test *t);

#endif
