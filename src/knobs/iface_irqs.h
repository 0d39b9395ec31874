// SPDX-License-Identifier: MIT
/* Which IRQs belong to a network interface, found by action name in /proc/interrupts;
 * shared by the knob table (irq_affinity) and the sampler (interrupt counts). */
#ifndef NB_IFACE_IRQS_H
#define NB_IFACE_IRQS_H

#include <stdint.h>

#include "kit/nb_error.h"
#include "kit/nb_paths.h"

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

/* IRQs of iface in <proc>/interrupts, by its netdev name and its parent device's name. */
int nb_iface_irqs(const struct nb_paths *paths, const char *iface, int *irqs, int max,
		  struct nb_err *err);

#endif
