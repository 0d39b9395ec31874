// SPDX-License-Identifier: MIT
/* The headline rule of kit/headline.h: pure, shared by the report writer and compare's loader. */
#include "headline.h"

#include "metric_table.h"

bool nb_test_is_flood(const struct nb_headline_test *t)
{
	if (!t->udp || !t->rx || t->rr)
		return false;
	/* promiscuous: the peer's packets go to a foreign MAC, so no socket counts them */
	return t->promiscuous || (t->rate_bps > 0 && t->length > 0 && t->length <= NB_FLOOD_MAX_LENGTH);
}

const char *nb_headline_metric(const struct nb_headline_test *t)
{
	if (t->rr)
		return NB_M_RR_TRANSACTIONS_PER_S;
	return nb_test_is_flood(t) ? NB_M_RX_PACKETS_PER_S : NB_M_THROUGHPUT_BPS;
}
