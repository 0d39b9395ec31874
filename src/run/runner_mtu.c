// SPDX-License-Identifier: MIT
/* Both ends of the link at one MTU: after the DUT's mtu knob, the same MTU on the peer through
 * nicbench serve's control port, and the point's record of which ends were set and how. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic/mtu.h"
#include "run/sweep_state.h"
#include "traffic/peer_ctl.h"

#define PEER_CTL_TIMEOUT_S 5.0
/* the peer waits for its own carrier (NB_MTU_CARRIER_TIMEOUT_S) before it answers */
#define PEER_MTU_TIMEOUT_S (NB_MTU_CARRIER_TIMEOUT_S + 10.0)

/* The point's value of the knob set on both ends of the link (its row says so: the MTU). */
static const char *point_mtu_value(const struct nb_point *p)
{
	for (int k = 0; k < p->nknobs; k++)
		if (nb_knob_has(p->knobs[k].name, NB_KNOB_BOTH_ENDS))
			return p->knobs[k].value;
	return NULL;
}

static void peer_not_set(struct runner *rn, struct nb_point_result *pr, bool require, const char *why)
{
	const struct nb_config *cfg = rn->o->cfg;

	snprintf(pr->mtu.peer_how, sizeof(pr->mtu.peer_how), "not set");
	snprintf(pr->mtu.peer_note, sizeof(pr->mtu.peer_note), "%s", why);
	if (require) {
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "set the peer's mtu: %.400s (peer_mtu is require)", why);
		return;
	}
	nb_point_result_note(pr, "peer mtu not set: %s", why);
	if (!rn->peer_ctl_warned && rn->o->progress)
		fprintf(rn->o->progress, "nicbench run: warning: the mtu knob sets %s only, not the peer %s: %s\n",
			cfg->iface, cfg->peer_host, why);
	rn->peer_ctl_warned = true;
}

void nb_runner_mtu_point(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr)
{
	const struct nb_config *cfg = rn->o->cfg;
	const char *value = point_mtu_value(p);
	bool require = !strcmp(cfg->peer_mtu, "require");
	struct nb_ctl_reply rp;
	struct nb_err err = { 0 };
	int rc;

	if (!value || pr->status != NB_POINT_OK)
		return;
	pr->mtu.present = true;
	pr->mtu.dut = atoi(value);
	pr->mtu.peer = -1;
	for (int k = 0; k < pr->nknobs; k++)
		if (nb_knob_has(pr->readback[k].name, NB_KNOB_BOTH_ENDS))
			pr->mtu.dut = atoi(pr->readback[k].value);
	nb_mtu_describe(nb_mtu_last_outcome(), pr->mtu.dut_how, sizeof(pr->mtu.dut_how));
	if (!strcmp(cfg->peer_mtu, "off")) {
		snprintf(pr->mtu.peer_how, sizeof(pr->mtu.peer_how), "not set");
		snprintf(pr->mtu.peer_note, sizeof(pr->mtu.peer_note), "peer_mtu is off");
		return;
	}
	if (!rn->peer_ctl && rn->peer_ctl_rc == 0) {
		rc = nb_ctl_client_connect(cfg->peer_host, cfg->peer_ctl_port, PEER_CTL_TIMEOUT_S, &rn->peer_ctl, &err);
		if (rc < 0) {
			rn->peer_ctl_rc = rc;
			if (rc == -ECONNREFUSED)
				snprintf(err.msg, sizeof(err.msg), "nothing listens on the peer's control port %s:%d "
					 "(a plain iperf3 -s peer, or nicbench serve with --ctl-port 0 or another port)",
					 cfg->peer_host, cfg->peer_ctl_port);
			snprintf(pr->mtu.peer_note, sizeof(pr->mtu.peer_note), "%.399s", err.msg);
		}
	}
	if (!rn->peer_ctl) {
		char why[sizeof(pr->mtu.peer_note)];

		snprintf(why, sizeof(why), "%s", pr->mtu.peer_note[0] ? pr->mtu.peer_note : "no control connection");
		peer_not_set(rn, pr, require, why);
		return;
	}
	/* serve answered before: from here on a refusal fails the point, whatever the policy */
	rc = nb_ctl_client_mtu(rn->peer_ctl, NULL, pr->mtu.dut, PEER_MTU_TIMEOUT_S, &rp, &err);
	if (rc < 0) {
		snprintf(pr->mtu.peer_how, sizeof(pr->mtu.peer_how), "nicbench serve");
		snprintf(pr->mtu.peer_note, sizeof(pr->mtu.peer_note), "refused: %.380s", err.msg);
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "set the peer's mtu through nicbench serve: %.400s", err.msg);
		return;
	}
	pr->mtu.peer = rp.new_mtu;
	snprintf(pr->mtu.peer_iface, sizeof(pr->mtu.peer_iface), "%s", rp.iface);
	snprintf(pr->mtu.peer_how, sizeof(pr->mtu.peer_how), "nicbench serve");
	snprintf(pr->mtu.peer_note, sizeof(pr->mtu.peer_note), "%.399s", rp.text);
}

void nb_runner_udp_length(struct runner *rn, const struct nb_point *p, struct nb_point_result *pr)
{
	const struct nb_config *cfg = rn->o->cfg;
	int overhead = strchr(cfg->peer_host, ':') ? NB_MTU_UDP6_OVERHEAD : NB_MTU_UDP4_OVERHEAD;
	int mtu;

	if (p->test->length != NB_UDP_LENGTH_MTU || pr->status != NB_POINT_OK)
		return;
	/* the interface's MTU now, after the point's knobs: with the mtu knob, what the driver took */
	mtu = nb_mtu_read(rn->o->paths, cfg->iface);
	if (mtu <= overhead) {
		pr->status = NB_POINT_FAILED;
		snprintf(pr->error, sizeof(pr->error), "--length mtu: cannot read a usable MTU of %s (%s/class/net/%s/mtu: %s)",
			 cfg->iface, rn->o->paths->sys, cfg->iface, mtu < 0 ? strerror(-mtu) : "too small");
		return;
	}
	/* a peer that kept a smaller MTU would fragment what fills our frame */
	if (pr->mtu.present && pr->mtu.peer > overhead && pr->mtu.peer < mtu)
		mtu = pr->mtu.peer;
	pr->udp_length = mtu - overhead;
	if (pr->udp_length > NB_UDP_MAX_LENGTH)
		pr->udp_length = NB_UDP_MAX_LENGTH;
}

void nb_runner_mtu_end(struct runner *rn)
{
	struct nb_ctl_reply rp;
	struct nb_err err = { 0 };

	if (!rn->peer_ctl)
		return;
	if (nb_ctl_client_restore(rn->peer_ctl, PEER_MTU_TIMEOUT_S, &rp, &err) < 0 && rn->o->progress)
		fprintf(rn->o->progress, "nicbench run: restore the peer's mtu: %s (serve restores when the "
			"connection closes)\n", err.msg);
	nb_ctl_client_close(rn->peer_ctl);
	rn->peer_ctl = NULL;
}
