// SPDX-License-Identifier: MIT
/* The MTU knob's write: a running change where the driver takes one, down-set-up where it
 * answers EBUSY (some drivers cannot resize their RX rings while running), then the carrier. */
#include "nic/mtu.h"

#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kit/nb_time.h"

static struct nb_mtu_outcome last_outcome;

bool nb_mtu_refusal_needs_down_up(int rc)
{
	/* EBUSY is the documented "not while running" answer (ndo_change_mtu of several
	 * drivers); anything else (EINVAL: out of the device's range) is the value's fault. */
	return rc == -EBUSY;
}

static int live_write_mtu(void *arg, const char *path, const char *value)
{
	(void)arg;
	return nb_write_file(path, value);
}

static int live_set_admin_up(void *arg, const char *iface, const char *flags_path, bool up)
{
	struct ifreq ifr;
	int fd, rc = 0;

	(void)arg, (void)flags_path;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", iface);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		rc = -errno;
	} else {
		if (up)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			rc = -errno;
	}
	close(fd);
	return rc;
}

static void attr_path(const struct nb_mtu_ctx *ctx, const char *iface, const char *attr, char *buf, size_t len)
{
	snprintf(buf, len, "%s/class/net/%s/%s", ctx->paths->sys, iface, attr);
}

/* 1 admin up, 0 down, -errno when the flags cannot be read. */
static int admin_up(const struct nb_mtu_ctx *ctx, const char *iface)
{
	char path[PATH_MAX], buf[32];
	long n;

	attr_path(ctx, iface, "flags", path, sizeof(path));
	n = nb_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return (strtoul(buf, NULL, 16) & IFF_UP) ? 1 : 0;
}

int nb_mtu_read(const struct nb_paths *paths, const char *iface)
{
	char path[PATH_MAX], buf[16];
	long n;

	snprintf(path, sizeof(path), "%s/class/net/%s/mtu", paths->sys, iface);
	n = nb_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	n = strtol(buf, NULL, 10);
	return n > 0 && n <= INT_MAX ? (int)n : -EINVAL;
}

/* The link is back when the carrier reads 1 and operstate is up (or unknown: drivers that do
 * not report operstate, as tun without a reader would not pass the carrier test anyway). */
static bool link_back(const struct nb_mtu_ctx *ctx, const char *iface, char *state, size_t len)
{
	char path[PATH_MAX], carrier[16] = "";

	attr_path(ctx, iface, "operstate", path, sizeof(path));
	if (nb_read_file(path, state, len) < 0)
		snprintf(state, len, "?");
	attr_path(ctx, iface, "carrier", path, sizeof(path));
	if (nb_read_file(path, carrier, sizeof(carrier)) < 0)
		return false;
	return strcmp(carrier, "1") == 0 && (strcmp(state, "up") == 0 || strcmp(state, "unknown") == 0);
}

static int wait_carrier(const struct nb_mtu_ctx *ctx, const char *iface, const char *value,
			struct nb_mtu_outcome *o, struct nb_err *err)
{
	double timeout = ctx->carrier_timeout_s > 0 ? ctx->carrier_timeout_s : NB_MTU_CARRIER_TIMEOUT_S;
	int poll_ms = ctx->poll_ms > 0 ? ctx->poll_ms : 50;
	double t0 = nb_monotonic_s();
	char state[32] = "?";

	o->carrier_waited = true;
	for (;;) {
		struct timespec ts = { .tv_sec = poll_ms / 1000, .tv_nsec = (long)(poll_ms % 1000) * 1000000L };

		if (link_back(ctx, iface, state, sizeof(state))) {
			o->carrier_s = nb_monotonic_s() - t0;
			return 0;
		}
		if (nb_monotonic_s() - t0 >= timeout)
			break;
		nanosleep(&ts, NULL);
	}
	o->carrier_s = nb_monotonic_s() - t0;
	return nb_err_set(err, -ENOLINK, "set mtu=%s on %s%s: the link did not come back within %.1f s "
			  "(operstate %s, no carrier)", value, iface, o->down_up ? " (down and up)" : "", timeout, state);
}

int nb_mtu_set(const struct nb_mtu_ctx *ctx, const char *iface, const char *value, struct nb_mtu_outcome *out,
	       struct nb_err *err)
{
	int (*write_mtu)(void *, const char *, const char *) = live_write_mtu;
	int (*set_up)(void *, const char *, const char *, bool) = live_set_admin_up;
	void *arg = ctx->ops ? ctx->ops->arg : NULL;
	struct nb_mtu_outcome o = { .set = true };
	char path[PATH_MAX], flags_path[PATH_MAX];
	int was_up, rc;

	if (ctx->ops && ctx->ops->write_mtu)
		write_mtu = ctx->ops->write_mtu;
	if (ctx->ops && ctx->ops->set_admin_up)
		set_up = ctx->ops->set_admin_up;
	attr_path(ctx, iface, "mtu", path, sizeof(path));
	attr_path(ctx, iface, "flags", flags_path, sizeof(flags_path));
	was_up = admin_up(ctx, iface);
	rc = write_mtu(arg, path, value);
	if (rc && nb_mtu_refusal_needs_down_up(rc) && was_up == 1) {
		o.refused = -rc;
		o.down_up = true;
		rc = set_up(arg, iface, flags_path, false);
		if (rc) {
			nb_err_set(err, rc, "set mtu=%s on %s: the driver refused a running change (%s) and taking "
				   "the interface down failed: %s", value, iface, strerrorname_np(o.refused), strerror(-rc));
			goto out;
		}
		rc = write_mtu(arg, path, value);
		/* up again whatever the write said: a down interface is worse than an old MTU */
		int up_rc = set_up(arg, iface, flags_path, true);

		if (rc) {
			nb_err_set(err, rc, "set mtu=%s on %s with the interface down: %s%s", value, iface,
				   strerror(-rc), up_rc ? "; and bringing it up again failed" : "");
			goto out;
		}
		if (up_rc) {
			rc = nb_err_set(err, up_rc, "set mtu=%s on %s: set with the interface down, but bringing it up "
					"again failed: %s", value, iface, strerror(-up_rc));
			goto out;
		}
	} else if (rc) {
		nb_err_set(err, rc, "set mtu=%s on %s (%s): %s", value, iface, path, strerror(-rc));
		goto out;
	}
	if (was_up == 1)
		rc = wait_carrier(ctx, iface, value, &o, err);
out:
	last_outcome = o;
	if (out)
		*out = o;
	return rc;
}

const struct nb_mtu_outcome *nb_mtu_last_outcome(void)
{
	return &last_outcome;
}

void nb_mtu_describe(const struct nb_mtu_outcome *o, char *buf, size_t len)
{
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (!o->set || len == 0)
		return;
	if (o->down_up)
		n = snprintf(buf, len, "set with the interface down and up: the driver refused a running change (%s)",
			     strerrorname_np(o->refused) ? strerrorname_np(o->refused) : "?");
	if (o->carrier_waited && o->carrier_s >= 0.5 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%scarrier back after %.2f s", n ? "; " : "", o->carrier_s);
}
