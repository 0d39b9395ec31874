// SPDX-License-Identifier: MIT
/* Which IRQs belong to a network interface, found by action name in /proc/interrupts;
 * shared by the knob table (irq_affinity) and the sampler (interrupt counts). */
#ifndef NB_IFACE_IRQS_H
#define NB_IFACE_IRQS_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"
#include "kit/nb_paths.h"
#include "kit/nic_names.h"

/* True when an IRQ action name (last column of /proc/interrupts) belongs to iface:
 * "eth0", "eth0-rx-0", "eth0-TxRx-3", "eth0:ch22:multi". */
int nb_irq_name_belongs(const char *action, const char *iface);

/* Pure: parse /proc/interrupts text. Stores up to max IRQ numbers in irqs (in file
 * order) and returns how many belong to iface, which may exceed max (like snprintf:
 * callers compare). 0 is fine: virtual devices have none. -EINVAL on malformed text. */
int nb_iface_irqs_parse(const char *text, const char *iface, int *irqs, int max,
			struct nb_err *err);

/* Pure: sum the per-CPU counts of iface's IRQs. per_cpu is indexed by CPU number
 * (from the "CPUn" header, so offline CPUs leave holes) and zeroed up to max_cpus;
 * *ncpus gets the highest CPU number seen + 1. Returns the IRQ count as above. */
int nb_iface_irq_counts_parse(const char *text, const char *iface, uint64_t *per_cpu,
			      int max_cpus, int *ncpus, struct nb_err *err);

/* Same, also accepting the parent device's name exactly or followed by ':' (ravb since v6.9:
 * "e6800000.ethernet:ch0:rx_be", "11c20000.ethernet"). device may be NULL. */
int nb_irq_name_belongs_dev(const char *action, const char *iface, const char *device);

/* The parse functions above with the parent device's name as a second name (NULL: none).
 * Use these with nb_iface_device_name() so that ravb on >= 6.9 kernels is found. */
int nb_iface_irqs_parse_dev(const char *text, const char *iface, const char *device, int *irqs, int max,
			    struct nb_err *err);
int nb_iface_irq_counts_parse_dev(const char *text, const char *iface, const char *device,
				  uint64_t *per_cpu, int max_cpus, int *ncpus, struct nb_err *err);

/* Basename of <sys>/class/net/IF/device ("e6800000.ethernet", "0000:03:00.0", "virtio2"):
 * the name drivers that request IRQs before the netdev exists use. -ENOENT for virtual
 * interfaces (veth, lo), which have no parent device. */
int nb_iface_device_name(const struct nb_paths *paths, const char *iface, char *buf, size_t len);

/* Read <proc>/interrupts into a malloc'd NUL-terminated buffer (it can be large on
 * many-CPU machines). Caller frees *out. Returns 0 or -errno. */
int nb_interrupts_read(const struct nb_paths *paths, char **out, struct nb_err *err);

/* ---- IRQs by role (enum nb_irq_role, nb_irq_role_name: kit/nic_names.h) ---- */

/* The role named by s[0..len), any case; -EINVAL when it is none of the roles' names. */
int nb_irq_role_parse(const char *s, size_t len, enum nb_irq_role *role);
/* Pure: the role an action name's words say, as drivers name their vectors: a word rx, rxN,
 * input (virtio) -> rx; tx, txN, output -> tx; txrx, rxtx, TxRx-like -> txrx; anything else
 * ("eth0", "eth0:mac", "virtio2-config", "eth0:ch22:multi") -> misc. Words are split at
 * anything but letters and digits, so "xrx200_net_rx" is rx and its "xrx200" says nothing. */
enum nb_irq_role nb_irq_role_guess(const char *action);

/* A board's IRQ names: glob patterns (fnmatch) over action names, each with a role or
 * guessing it from the name. When a board gives any, they alone decide which IRQs are the
 * NIC's: the interface and device names are no longer consulted. */
#define NB_IRQ_PATTERNS_MAX 16
#define NB_IRQ_PATTERN_LEN 64
struct nb_irq_names {
	int n;
	struct {
		char pattern[NB_IRQ_PATTERN_LEN];
		bool guess;             /* no role given: nb_irq_role_guess on the matched name */
		enum nb_irq_role role;
	} p[NB_IRQ_PATTERNS_MAX];
};

/* Pure: parse the text form, words separated by blanks: "ROLE:PATTERN" or "PATTERN" (role
 * guessed), e.g. "rx:xrx200_net_rx tx:xrx200_net_tx" or "eth0 11c20000.ethernet". An empty
 * or NULL spec gives n = 0. -EINVAL with the word at fault in err. */
int nb_irq_names_parse(const char *spec, struct nb_irq_names *names, struct nb_err *err);

/* One of the NIC's IRQs as /proc/interrupts names it. */
struct nb_irq {
	int irq;
	enum nb_irq_role role;
	char name[48];   /* the action that matched (cut to fit) */
};

/* Which IRQs are the NIC's: by the board's patterns when names has any, else by the
 * interface's and its parent device's names (device may be NULL). */
struct nb_irq_match {
	const char *iface;
	const char *device;
	const struct nb_irq_names *names;
	/* IRQs that are the NIC's by number whatever their names (its PCI MSI/MSI-X vectors from
	 * <sys>/class/net/IF/device/msi_irqs/), used when the names tell nothing (lan743x names every
	 * vector "lan743x"); NULL/0: none */
	const int *by_number;
	int n_by_number;
};

/* The PCI MSI/MSI-X vectors of iface's device: the names of <sys>/class/net/IF/device/msi_irqs/,
 * the lowest max of them ascending (returns how many there are). -ENOENT when the device has none (no PCI,
 * or MSI off), -EINVAL for a bad interface name. */
int nb_iface_msi_irqs(const struct nb_paths *paths, const char *iface, int *irqs, int max);

/* Pure: the matching IRQs in file order (up to max into out; returns how many match, which
 * may exceed max). */
int nb_irqs_parse(const char *text, const struct nb_irq_match *m, struct nb_irq *out, int max, struct nb_err *err);
/* Pure: per-CPU counts summed over the matching IRQs (as nb_iface_irq_counts_parse) and, when
 * per_role is not NULL, each role's count summed over CPUs (zeroed first); when each_irq is not
 * NULL, the matching IRQs' numbers and their counts summed over CPUs, in file order (up to
 * max_each). No names are copied: the sampler calls this while traffic flows. */
int nb_irq_counts_parse(const char *text, const struct nb_irq_match *m, uint64_t *per_cpu, int max_cpus,
			int *ncpus, uint64_t per_role[NB_IRQ_ROLES], int *each_irq, uint64_t *each_count, int max_each,
			struct nb_err *err);
/* The NIC's IRQs now: irq_names is the board's spec (NULL or "": by name; when no name is the
 * interface's or its device's, its PCI MSI vectors by number, as nb_iface_msi_irqs). */
int nb_irqs_find(const struct nb_paths *paths, const char *iface, const char *irq_names, struct nb_irq *out,
		 int max, struct nb_err *err);

/* IRQs of iface in <proc>/interrupts, by its netdev name and its parent device's name. */
int nb_iface_irqs(const struct nb_paths *paths, const char *iface, int *irqs, int max,
		  struct nb_err *err);

#endif
