// SPDX-License-Identifier: MIT
/* Kernel/user sampling profile: /proc/kallsyms symbolization and folding of samples into
 * a `perf top`-like list of shares (compare.c diffs two such lists), and of call chains into
 * folded stacks (the flame graph's input). */
#ifndef NB_KPROFILE_H
#define NB_KPROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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

/* ---- call chains folded into stacks ("root;...;leaf count", root first) ---- */

/* Bounds that keep a profile's stacks small whatever the kernel does: a chain deeper than
 * NB_STACK_MAX_DEPTH keeps its leaf-most frames under a "[truncated]" root, and samples of a
 * new stack past NB_STACK_MAX_DISTINCT distinct ones go to the single stack "[other stacks]". */
#define NB_STACK_MAX_DEPTH 48
#define NB_STACK_MAX_DISTINCT 4096
#define NB_STACK_TRUNCATED "[truncated]"
#define NB_STACK_OTHER "[other stacks]"

struct nb_stack_acc;

struct nb_stack_stats {
	uint64_t samples;           /* busy samples folded (idle-loop samples are left out) */
	uint64_t distinct;          /* distinct stacks kept */
	uint64_t truncated_samples; /* samples whose chain was cut to NB_STACK_MAX_DEPTH */
	uint64_t other_samples;     /* samples folded into NB_STACK_OTHER */
};

int nb_stack_acc_new(struct nb_stack_acc **out);
void nb_stack_acc_reset(struct nb_stack_acc *acc);
/* One sample's frames, leaf first as perf lists them (frames[0] is where the CPU was). A NULL
 * frame is an address no symbol covers. pid 0 with an idle-loop leaf is idle, not work. */
int nb_stack_acc_add(struct nb_stack_acc *acc, const char *const *frames, int n, int pid);
void nb_stack_acc_stats(const struct nb_stack_acc *acc, struct nb_stack_stats *out);
/* Write the stacks, most samples first, one "a;b;c count" line each. 0 or -errno. */
int nb_stack_acc_write(const struct nb_stack_acc *acc, FILE *f);
void nb_stack_acc_free(struct nb_stack_acc *acc);

/* ---- folded stacks as read back (compare) ---- */
struct nb_folded_stack {
	char *stack; /* "root;...;leaf" */
	uint64_t count;
};

struct nb_folded {
	struct nb_folded_stack *v;
	int n, cap;
	uint64_t total;
};

/* Add the lines of a folded-stacks text to set (merging equal stacks: rounds of one side add
 * up). A line that is not "stack count" is an error naming its number, in what. */
int nb_folded_parse(struct nb_folded *set, const char *text, const char *what, struct nb_err *err);
int nb_folded_add(struct nb_folded *set, const char *stack, uint64_t count);
void nb_folded_free(struct nb_folded *set);

#endif
