// SPDX-License-Identifier: MIT
/* The NIC's name lists (nic_names.h) as arrays, for code that walks them. */
#include "kit/nic_names.h"

#include <stddef.h>
#include <string.h>

#define ROLE_NAME_(e, name, doc) [e] = #name,
static const char *const role_names[NB_IRQ_ROLES] = { NB_IRQ_ROLE_LIST(ROLE_NAME_) };

#define ROLE_SHOWN_(e, name, doc) e,
static const enum nb_irq_role role_shown[NB_IRQ_ROLES] = { NB_IRQ_ROLE_LIST(ROLE_SHOWN_) };

const char *nb_irq_role_name(enum nb_irq_role role)
{
	return role >= 0 && role < NB_IRQ_ROLES ? role_names[role] : NULL;
}

enum nb_irq_role nb_irq_role_shown(int k)
{
	return k >= 0 && k < NB_IRQ_ROLES ? role_shown[k] : NB_IRQ_MISC;
}

#define PP_NAME_(e, name, eth, unit, dir, doc, label) [e] = #name,
const char *const nb_pp_counter_names[NB_PP_COUNTERS] = { NB_PP_COUNTER_LIST(PP_NAME_) };

#define PP_ETH_(e, name, eth, unit, dir, doc, label) [e] = eth,
const char *const nb_pp_ethtool_names[NB_PP_COUNTERS] = { NB_PP_COUNTER_LIST(PP_ETH_) };

bool nb_driver_counter_counts_trouble(const char *name)
{
	static const char *const words[] = { NB_DRIVER_TROUBLE_WORDS };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasestr(name, words[i]))
			return true;
	return false;
}
