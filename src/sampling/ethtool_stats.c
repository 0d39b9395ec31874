// SPDX-License-Identifier: MIT
/* ethtool -S through SIOCETHTOOL (GSSET_INFO, GSTRINGS, GSTATS, as ethtool does) and the deltas. */
#include "kit/metric_table.h"
#include "sampling/ethtool_stats.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

int nb_eth_stats_from_raw(struct nb_eth_stats_snap *s, const char *strings, const uint64_t *values, int n)
{
	nb_eth_stats_snap_release(s);
	s->names = calloc((size_t)(n > 0 ? n : 1), sizeof(*s->names));
	s->v = calloc((size_t)(n > 0 ? n : 1), sizeof(*s->v));
	if (!s->names || !s->v) {
		nb_eth_stats_snap_release(s);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		/* a name fills its 32 bytes without a NUL at most: cut at 31 */
		memcpy(s->names[i], strings + (size_t)i * NB_ETH_NAME_LEN, NB_ETH_NAME_LEN - 1);
		s->names[i][NB_ETH_NAME_LEN - 1] = '\0';
		s->v[i] = values[i];
	}
	s->n = n;
	s->present = true;
	return 0;
}

void nb_eth_stats_snap_release(struct nb_eth_stats_snap *s)
{
	free(s->names);
	free(s->v);
	s->names = NULL;
	s->v = NULL;
	s->n = 0;
	s->present = false;
}

static int ethtool_ioctl(int fd, const char *iface, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* How many stats strings: GSSET_INFO, or GDRVINFO's n_stats for drivers older than it. */
static int stats_count(int fd, const char *iface)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} sset = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_drvinfo drv = { .cmd = ETHTOOL_GDRVINFO };
	int ret = ethtool_ioctl(fd, iface, &sset);

	if (ret == 0)
		return sset.hdr.sset_mask & (1ULL << ETH_SS_STATS) ? (int)sset.len : 0;
	if (ret != -EOPNOTSUPP)
		return ret;
	ret = ethtool_ioctl(fd, iface, &drv);
	return ret < 0 ? ret : (int)drv.n_stats;
}

static int read_stats(int fd, const char *iface, struct nb_eth_stats_snap *s)
{
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	int n = stats_count(fd, iface), ret;

	if (n <= 0)
		return n < 0 ? n : -ENODATA;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (!gs || !st) {
		ret = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = (uint32_t)n;
	ret = ethtool_ioctl(fd, iface, gs);
	if (ret == 0)
		ret = ethtool_ioctl(fd, iface, st);
	/* the kernel answers with the count it used: keep the shorter list */
	if (ret == 0)
		ret = nb_eth_stats_from_raw(s, (const char *)gs->data, (const uint64_t *)st->data,
					    (int)(gs->len < st->n_stats ? gs->len : st->n_stats));
out:
	free(gs);
	free(st);
	return ret;
}

void nb_eth_stats_snapshot(const char *iface, const struct nb_eth_stats_snap *prev, struct nb_eth_stats_snap *s)
{
	int fd, ret;

	nb_eth_stats_snap_release(s);
	s->never = false;
	s->why[0] = '\0';
	if (prev && prev->never) {
		s->never = true;
		snprintf(s->why, sizeof(s->why), "%s", prev->why);
		return;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(s->why, sizeof(s->why), "ethtool -S of %s: socket: %s", iface, strerror(errno));
		return;
	}
	ret = read_stats(fd, iface, s);
	close(fd);
	if (ret == -ENODATA || ret == -EOPNOTSUPP) {
		s->never = true;
		snprintf(s->why, sizeof(s->why), "the driver of %s has no ethtool -S counters%s%s", iface,
			 ret == -EOPNOTSUPP ? ": " : "", ret == -EOPNOTSUPP ? strerror(EOPNOTSUPP) : "");
	} else if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "ethtool -S of %s (SIOCETHTOOL): %s", iface, strerror(-ret));
	}
}

/* ---- pure delta ---- */

/* Same name at the same index is the usual case; drivers whose list changed are searched. */
static int find_name(const struct nb_eth_stats_snap *s, int hint, const char *name)
{
	if (hint < s->n && !strcmp(s->names[hint], name))
		return hint;
	for (int i = 0; i < s->n; i++) {
		if (!strcmp(s->names[i], name))
			return i;
	}
	return -1;
}

/* "rx_missed_errors" or ravb's "rx_queue_0_missed_errors" for what = "missed_errors". */
static bool drop_name(const char *name, const char *what)
{
	const char *p;

	if (!strncmp(name, "rx_", 3) && !strcmp(name + 3, what))
		return true;
	if (strncmp(name, "rx_queue_", 9))
		return false;
	p = name + 9;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '_' && !strcmp(p + 1, what);
}

bool nb_eth_overrun_name(const char *name)
{
	if (strncasecmp(name, "rx", 2) || strcasestr(name, "irq"))
		return false;
	return strcasestr(name, "overrun") || strcasestr(name, "overflow");
}

void nb_eth_stats_delta(const struct nb_eth_stats_snap *a, const struct nb_eth_stats_snap *b,
			struct nb_eth_stats_delta *d)
{
	memset(d, 0, sizeof(*d));
	if (!a->present || !b->present) {
		snprintf(d->why, sizeof(d->why), "%s", !a->present ? a->why : b->why);
		return;
	}
	for (int i = 0; i < b->n; i++) {
		int j = find_name(a, i, b->names[i]);
		uint64_t delta;

		if (j < 0)
			continue;
		d->listed++;
		if (b->v[i] < a->v[j]) {
			d->backwards++;
			continue;
		}
		delta = b->v[i] - a->v[j];
		if (drop_name(b->names[i], "missed_errors")) {
			d->has_missed = true;
			d->missed += delta;
		} else if (drop_name(b->names[i], "fifo_errors")) {
			d->has_fifo = true;
			d->fifo += delta;
		} else if (nb_eth_overrun_name(b->names[i])) {
			/* the largest, not the sum: a driver may count one overrun under two names (cpsw's
			 * "Rx DMA Overruns" are its start- and middle-of-frame overruns at the DMA) */
			d->has_overruns = true;
			if (delta > d->overruns)
				d->overruns = delta;
		}
		if (delta == 0)
			continue;
		if (d->nkept < NB_ETH_CHANGED_MAX) {
			snprintf(d->changed[d->nkept].name, NB_ETH_NAME_LEN, "%s", b->names[i]);
			d->changed[d->nkept++].delta = delta;
		}
		d->nchanged++;
	}
	if (d->listed == 0) {
		snprintf(d->why, sizeof(d->why), "no ethtool -S counter was there at both edges of the run");
		return;
	}
	d->present = true;
}

void nb_eth_stats_metrics(const struct nb_eth_stats_delta *d, struct nb_metric_set *m)
{
	if (!d->present)
		return;
	if (d->has_missed)
		nb_metrics_put(m, NB_M_RX_MISSED_ERRORS, (double)d->missed);
	if (d->has_fifo)
		nb_metrics_put(m, NB_M_RX_FIFO_ERRORS, (double)d->fifo);
	if (d->has_overruns)
		nb_metrics_put(m, NB_M_RX_OVERRUN_ERRORS, (double)d->overruns);
}
