// SPDX-License-Identifier: MIT
/* libpcap handle of the interface under test: promiscuous hold and bounded .pcap files. */
#include "sampling/capture.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nb_capture {
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	char iface[16];
	int max_packets;
	int written;
};

/* "less 1" matches no frame: the socket stays open (holding promiscuous mode) while the
 * kernel copies nothing to user space. */
static int set_filter(struct nb_capture *c, const char *expr, struct nb_err *err)
{
	struct bpf_program prog;

	if (pcap_compile(c->pcap, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) < 0)
		return nb_err_set(err, -EINVAL, "capture on %s: compile filter '%s': %s", c->iface, expr,
				  pcap_geterr(c->pcap));
	if (pcap_setfilter(c->pcap, &prog) < 0) {
		pcap_freecode(&prog);
		return nb_err_set(err, -EIO, "capture on %s: set filter '%s': %s", c->iface, expr,
				  pcap_geterr(c->pcap));
	}
	pcap_freecode(&prog);
	return 0;
}

int nb_capture_open(const char *iface, bool promiscuous, int snaplen, struct nb_capture **out,
		    struct nb_err *err)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct nb_capture *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return nb_err_set(err, -ENOMEM, "capture on %s: out of memory", iface);
	snprintf(c->iface, sizeof(c->iface), "%s", iface);
	c->pcap = pcap_create(iface, errbuf);
	if (!c->pcap) {
		free(c);
		return nb_err_set(err, -ENODEV, "capture on %s: %s", iface, errbuf);
	}
	pcap_set_snaplen(c->pcap, snaplen > 0 ? snaplen : 128);
	pcap_set_promisc(c->pcap, promiscuous ? 1 : 0);
	pcap_set_timeout(c->pcap, 10);
	pcap_set_buffer_size(c->pcap, 1 << 20);
	rc = pcap_activate(c->pcap);
	if (rc < 0) {
		nb_err_set(err, rc == PCAP_ERROR_PERM_DENIED ? -EPERM : -EIO, "capture on %s: activate%s: %s", iface,
			   promiscuous ? " (promiscuous)" : "", pcap_geterr(c->pcap));
		pcap_close(c->pcap);
		free(c);
		return err ? err->code : -EIO;
	}
	if (pcap_setnonblock(c->pcap, 1, errbuf) < 0 || set_filter(c, "less 1", err) < 0) {
		if (err && !err->code)
			nb_err_set(err, -EIO, "capture on %s: non-blocking mode: %s", iface, errbuf);
		pcap_close(c->pcap);
		free(c);
		return err ? err->code : -EIO;
	}
	*out = c;
	return 0;
}

int nb_capture_start(struct nb_capture *c, const char *path, int max_packets, struct nb_err *err)
{
	int rc;

	if (max_packets <= 0)
		return 0;
	c->dumper = pcap_dump_open(c->pcap, path);
	if (!c->dumper)
		return nb_err_set(err, -EIO, "capture on %s: create %s: %s", c->iface, path, pcap_geterr(c->pcap));
	c->max_packets = max_packets;
	c->written = 0;
	rc = set_filter(c, "", err);  /* every frame */
	if (rc < 0) {
		pcap_dump_close(c->dumper);
		c->dumper = NULL;
	}
	return rc;
}

int nb_capture_drain(struct nb_capture *c)
{
	if (!c || !c->dumper)
		return c ? c->written : 0;
	while (c->written < c->max_packets) {
		struct pcap_pkthdr *hdr;
		const unsigned char *data;
		int rc = pcap_next_ex(c->pcap, &hdr, &data);

		if (rc != 1)
			break;
		pcap_dump((unsigned char *)c->dumper, hdr, data);
		c->written++;
	}
	if (c->written >= c->max_packets)
		nb_capture_stop(c);
	return c->written;
}

int nb_capture_stop(struct nb_capture *c)
{
	if (!c || !c->dumper)
		return c ? c->written : 0;
	pcap_dump_close(c->dumper);
	c->dumper = NULL;
	/* back to copying nothing: the capture is bounded, the promiscuous hold is not */
	set_filter(c, "less 1", NULL);
	return c->written;
}

void nb_capture_close(struct nb_capture *c)
{
	if (!c)
		return;
	nb_capture_stop(c);
	pcap_close(c->pcap);
	free(c);
}
