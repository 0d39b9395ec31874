// SPDX-License-Identifier: MIT
/* The NIC's names written once: the roles of its IRQs and the page_pool counters. nic/ reads and
 * parses them, the metric table builds its rows from them (irq_{role}_per_s, pp_{counter}), and
 * render/ names them in notes: each list is here and nowhere else.
 *
 * Each list is an X-macro, one entry a line, so that a table elsewhere can expand it into its own
 * rows at compile time; the arrays below are the same lists for code that walks them. */
#ifndef NB_KIT_NIC_NAMES_H
#define NB_KIT_NIC_NAMES_H

#include <stdbool.h>

/* ---- IRQs by role: rx, tx, both (one vector per queue pair), misc (link, errors, the
 * device's only IRQ) ----
 * X(ENUM, name, what its IRQs carry), in the order a person reads them. */
#define NB_IRQ_ROLE_LIST(X)                                                          \
	X(NB_IRQ_RX, rx, "interrupts of the NIC's rx IRQs")                          \
	X(NB_IRQ_TX, tx, "interrupts of the NIC's tx IRQs")                          \
	X(NB_IRQ_TXRX, txrx, "interrupts of the NIC's combined rx/tx IRQs (TxRx vectors)") \
	X(NB_IRQ_MISC, misc, "interrupts of the NIC's other IRQs (link, errors)")

/* Zero is misc: an IRQ nothing else is known of. */
enum nb_irq_role { NB_IRQ_MISC, NB_IRQ_RX, NB_IRQ_TX, NB_IRQ_TXRX, NB_IRQ_ROLES };

/* "rx", ...; NULL for a value out of range. */
const char *nb_irq_role_name(enum nb_irq_role role);
/* The k-th role in reading order (rx, tx, txrx, misc), k < NB_IRQ_ROLES. */
enum nb_irq_role nb_irq_role_shown(int k);

/* irq_rx_per_s ...: the metric of a role's interrupts per second. */
#define NB_M_IRQ_ROLE_PREFIX "irq_"
#define NB_M_IRQ_ROLE_SUFFIX "_per_s"

/* ---- page_pool counters ----
 * X(ENUM, netlink name (page-pool-stats-get, "-" as "_"), ethtool -S name
 * (page_pool_ethtool_stats_get_strings), unit in words, direction, what it counts, label in a
 * point's notes or NULL). The order is the kernel's: entry i is netlink attribute
 * NB_NETDEV_A_PAGE_POOL_STATS_FIRST + i. */
#define NB_PP_COUNTER_LIST(X)                                                                                    \
	X(NB_PP_ALLOC_FAST, alloc_fast, "rx_pp_alloc_fast", "pages per run", NB_METRIC_NEUTRAL,                 \
	  "pages from the pool's cache", "alloc fast")                                                          \
	X(NB_PP_ALLOC_SLOW, alloc_slow, "rx_pp_alloc_slow", "pages per run", NB_METRIC_NEUTRAL,                 \
	  "pages from the page allocator (slow path)", "alloc slow")                                            \
	X(NB_PP_ALLOC_SLOW_HIGH_ORDER, alloc_slow_high_order, "rx_pp_alloc_slow_ho", "pages per run",           \
	  NB_METRIC_NEUTRAL, "high-order allocations on the slow path", NULL)                                   \
	X(NB_PP_ALLOC_EMPTY, alloc_empty, "rx_pp_alloc_empty", "events per run", NB_METRIC_LOWER_BETTER,        \
	  "allocations that found the ring empty", "ring empty")                                                \
	X(NB_PP_ALLOC_REFILL, alloc_refill, "rx_pp_alloc_refill", "pages per run", NB_METRIC_NEUTRAL,           \
	  "pages moved from the ring to the cache", NULL)                                                       \
	X(NB_PP_ALLOC_WAIVE, alloc_waive, "rx_pp_alloc_waive", "pages per run", NB_METRIC_LOWER_BETTER,         \
	  "pages given back at refill for being on another NUMA node", NULL)                                    \
	X(NB_PP_RECYCLE_CACHED, recycle_cached, "rx_pp_recycle_cached", "pages per run", NB_METRIC_NEUTRAL,     \
	  "pages recycled into the cache", "recycled cached")                                                   \
	X(NB_PP_RECYCLE_CACHE_FULL, recycle_cache_full, "rx_pp_recycle_cache_full", "pages per run",            \
	  NB_METRIC_LOWER_BETTER, "pages not recycled: the cache was full", NULL)                               \
	X(NB_PP_RECYCLE_RING, recycle_ring, "rx_pp_recycle_ring", "pages per run", NB_METRIC_NEUTRAL,           \
	  "pages recycled into the ring", "recycled ring")                                                      \
	X(NB_PP_RECYCLE_RING_FULL, recycle_ring_full, "rx_pp_recycle_ring_full", "pages per run",               \
	  NB_METRIC_LOWER_BETTER, "pages not recycled: the ring was full", "ring full")                         \
	X(NB_PP_RECYCLE_RELEASED_REFCNT, recycle_released_refcnt, "rx_pp_recycle_released_ref", "pages per run", \
	  NB_METRIC_LOWER_BETTER, "pages released, not recycled (elevated refcount)", "released")

#define NB_PP_ENUM_(e, name, eth, unit, dir, doc, label) e,
enum nb_pp_counter { NB_PP_COUNTER_LIST(NB_PP_ENUM_) NB_PP_COUNTERS };
#undef NB_PP_ENUM_

/* "alloc_fast", ... and "rx_pp_alloc_fast", ...: index c is enum nb_pp_counter c. */
extern const char *const nb_pp_counter_names[NB_PP_COUNTERS];
extern const char *const nb_pp_ethtool_names[NB_PP_COUNTERS];

/* pp_alloc_fast ...: the metric of a counter's delta over the window. */
#define NB_M_PP_PREFIX "pp_"

/* ---- a driver's own counters (ethtool -S) ----
 * Drivers name them as they like (cpsw's "Rx DMA Overruns", "Rx CRC Errors"); these are the words,
 * matched without case, that say a counter counts trouble (drops, errors, overruns, timeouts). */
#define NB_DRIVER_TROUBLE_WORDS \
	"err", "drop", "miss", "fifo", "over", "timeout", "restart", "fail", "busy", "lost", "discard", "no_buf", \
		"nobuf", "alloc_fail"

/* Does a driver's counter name carry one of NB_DRIVER_TROUBLE_WORDS? */
bool nb_driver_counter_counts_trouble(const char *name);

#endif
