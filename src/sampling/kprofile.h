// SPDX-License-Identifier: MIT
/* Kernel/user sampling profile: /proc/kallsyms symbolization and folding of samples into
 * a `perf top`-like list of shares (compare.c diffs two such lists). */
#ifndef NB_KPROFILE_H
#define NB_KPROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/nb_error.h"

#define NB_PROFILE_TOP 20
#define NB_PROFILE_SYMBOL_MAX 64

struct nb_profile_entry {
	char symbol[NB_PROFILE_SYMBOL_MAX]; /* "net_rx_action", "veth_poll [veth]", "[user] iperf3" */
	double share_pct;                   /* percent of busy (non-idle) samples */
};

struct nb_profile {
	int n;                                   /* entries in top[], 0 when there was no profile */
	struct nb_profile_entry top[NB_PROFILE_TOP]; /* highest share first */
	uint64_t samples;                        /* busy samples behind the shares */
	double idle_pct;                         /* share of all samples that sat in the idle loop */
};

/* ---- /proc/kallsyms ---- */
struct nb_kallsyms;

/* Load the text symbols of a kallsyms file. -EACCES (message names kptr_restrict) when
 * every address reads as zero, which is what a process without CAP_SYSLOG sees. */
int nb_kallsyms_load(const char *path, struct nb_kallsyms **out, struct nb_err *err);
/* Symbol containing addr ("name" or "name [module]"), or NULL when below the first one. */
const char *nb_kallsyms_lookup(const struct nb_kallsyms *ks, uint64_t addr);
int nb_kallsyms_count(const struct nb_kallsyms *ks);
void nb_kallsyms_free(struct nb_kallsyms *ks);

/* ---- folding samples ---- */
struct nb_profile_acc;

int nb_profile_acc_new(struct nb_profile_acc **out);
void nb_profile_acc_reset(struct nb_profile_acc *acc);
/* One kernel sample at the symbol it resolved to (NULL: unresolved); pid 0 is the idle task. */
int nb_profile_acc_add_kernel(struct nb_profile_acc *acc, const char *symbol, int pid);
/* One user-space sample, folded by process name (comm). */
int nb_profile_acc_add_user(struct nb_profile_acc *acc, const char *comm);
/* The top entries by share of busy samples. */
void nb_profile_acc_result(const struct nb_profile_acc *acc, struct nb_profile *out);
void nb_profile_acc_free(struct nb_profile_acc *acc);

/* True for the functions a CPU sits in while idle (halt, mwait, poll loops): their
 * samples count as idle time, not as work, when they come from the idle task. */
bool nb_profile_symbol_is_idle(const char *symbol);

#endif
