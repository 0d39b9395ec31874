// SPDX-License-Identifier: MIT
/* Promiscuous mode and bounded packet captures through libpcap, for packet-rate tests
 * (the DUT must accept frames for a foreign MAC) and for debugging a test point. */
#ifndef NB_CAPTURE_H
#define NB_CAPTURE_H

#include <stdbool.h>

#include "kit/nb_error.h"

struct nb_capture;

/* Open the interface with libpcap. promiscuous: hold it promiscuous while open (the
 * kernel drops the hold when the handle closes, also when the process is killed, so no
 * journal is needed). max_packets 0: capture nothing (a filter that matches no packet
 * keeps the cost near zero). */
int nb_capture_open(const char *iface, bool promiscuous, int snaplen, struct nb_capture **out,
		    struct nb_err *err);

/* Start writing up to max_packets packets to path (pcap format). */
int nb_capture_start(struct nb_capture *c, const char *path, int max_packets, struct nb_err *err);
/* Write what has arrived since the last call, without blocking; returns packets written
 * so far. Stops by itself at max_packets. */
int nb_capture_drain(struct nb_capture *c);
/* Finish the file; returns the packets written. */
int nb_capture_stop(struct nb_capture *c);
void nb_capture_close(struct nb_capture *c);

#endif
