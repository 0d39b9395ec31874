// SPDX-License-Identifier: MIT
/* Sampling profile support: kallsyms lookup and folding samples into shares. */
#include "sampling/kprofile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nb_ksym {
	uint64_t addr;
	uint32_t name_off;
};

struct nb_kallsyms {
	struct nb_ksym *syms;
	int n, cap;
	char *names;
	size_t names_len, names_cap;
};

static int kallsyms_append_name(struct nb_kallsyms *ks, const char *name, const char *module, uint32_t *off)
{
	size_t need = strlen(name) + (module ? strlen(module) + 3 : 0) + 1;

	if (ks->names_len + need > ks->names_cap) {
		size_t cap = ks->names_cap ? ks->names_cap * 2 : 1 << 20;
		char *p;

		while (cap < ks->names_len + need)
			cap *= 2;
		p = realloc(ks->names, cap);
		if (!p)
			return -ENOMEM;
		ks->names = p;
		ks->names_cap = cap;
	}
	*off = (uint32_t)ks->names_len;
	if (module)
		snprintf(ks->names + ks->names_len, need, "%s [%s]", name, module);
	else
		snprintf(ks->names + ks->names_len, need, "%s", name);
	ks->names_len += need;
	return 0;
}

static int kallsyms_append(struct nb_kallsyms *ks, uint64_t addr, const char *name, const char *module)
{
	if (ks->n == ks->cap) {
		int cap = ks->cap ? ks->cap * 2 : 4096;
		struct nb_ksym *p = realloc(ks->syms, (size_t)cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ks->syms = p;
		ks->cap = cap;
	}
	ks->syms[ks->n].addr = addr;
	if (kallsyms_append_name(ks, name, module, &ks->syms[ks->n].name_off) < 0)
		return -ENOMEM;
	ks->n++;
	return 0;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct nb_ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name_off < y->name_off ? -1 : x->name_off > y->name_off;
}

/* Only code symbols can hold an instruction pointer. */
static int is_text_type(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* Parse "ffffffff81000000 T name\t[module]". Returns 1 for a text symbol, 0 to skip a line. */
static int kallsyms_parse_line(char *line, uint64_t *addr, const char **name, const char **module,
			       int *zero_addr)
{
	char *end, *type, *nm, *mod;

	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return 0;
	*zero_addr = (*addr == 0);
	type = end + 1;
	if (!type[0] || type[1] != ' ')
		return 0;
	nm = type + 2;
	nm[strcspn(nm, "\n")] = '\0';
	mod = strchr(nm, '\t');
	*module = NULL;
	if (mod) {
		*mod++ = '\0';
		if (*mod == '[') {
			mod++;
			mod[strcspn(mod, "]")] = '\0';
			*module = mod;
		}
	}
	*name = nm;
	return is_text_type(*type);
}

int nb_kallsyms_load(const char *path, struct nb_kallsyms **out, struct nb_err *err)
{
	struct nb_kallsyms *ks;
	char *line = NULL;
	size_t cap = 0;
	long zero_lines = 0, lines = 0;
	int rc = 0;
	FILE *f;

	*out = NULL;
	f = fopen(path, "re");
	if (!f)
		return nb_err_set(err, -errno, "read kernel symbols %s: %s", path, strerror(errno));
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		fclose(f);
		return nb_err_set(err, -ENOMEM, "read kernel symbols %s: out of memory", path);
	}
	while (getline(&line, &cap, f) > 0) {
		const char *name, *module;
		uint64_t addr;
		int zero = 0;

		lines++;
		int text = kallsyms_parse_line(line, &addr, &name, &module, &zero);

		zero_lines += zero;
		if (!text || zero)
			continue;
		rc = kallsyms_append(ks, addr, name, module);
		if (rc < 0)
			break;
	}
	free(line);
	fclose(f);
	if (rc < 0) {
		nb_kallsyms_free(ks);
		return nb_err_set(err, rc, "read kernel symbols %s: out of memory", path);
	}
	if (ks->n == 0) {
		nb_kallsyms_free(ks);
		if (lines > 0 && zero_lines == lines)
			return nb_err_set(err, -EACCES,
					  "read kernel symbols %s: every address is 0 (kptr_restrict hides them; needs root/CAP_SYSLOG)",
					  path);
		return nb_err_set(err, -ENOENT, "read kernel symbols %s: no text symbols", path);
	}
	qsort(ks->syms, (size_t)ks->n, sizeof(ks->syms[0]), ksym_cmp);
	*out = ks;
	return 0;
}

const char *nb_kallsyms_lookup(const struct nb_kallsyms *ks, uint64_t addr)
{
	int lo = 0, hi, found = -1;

	if (!ks || ks->n == 0)
		return NULL;
	hi = ks->n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found < 0 ? NULL : ks->names + ks->syms[found].name_off;
}

int nb_kallsyms_count(const struct nb_kallsyms *ks)
{
	return ks ? ks->n : 0;
}

void nb_kallsyms_free(struct nb_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->names);
	free(ks);
}

/* ---- folding samples ---- */

struct nb_fold {
	char *name;
	uint64_t count;
};

struct nb_profile_acc {
	struct nb_fold *slots; /* open addressing, cap is a power of two */
	size_t cap, used;
	uint64_t busy, idle;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct nb_fold *fold_slot(struct nb_fold *slots, size_t cap, const char *name)
{
	size_t i = (size_t)name_hash(name) & (cap - 1);

	while (slots[i].name && strcmp(slots[i].name, name))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int fold_grow(struct nb_profile_acc *acc)
{
	size_t cap = acc->cap ? acc->cap * 2 : 256;
	struct nb_fold *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < acc->cap; i++) {
		if (acc->slots[i].name)
			*fold_slot(slots, cap, acc->slots[i].name) = acc->slots[i];
	}
	free(acc->slots);
	acc->slots = slots;
	acc->cap = cap;
	return 0;
}

static int fold_add(struct nb_profile_acc *acc, const char *name)
{
	struct nb_fold *slot;

	if (acc->used * 2 >= acc->cap && fold_grow(acc) < 0)
		return -ENOMEM;
	slot = fold_slot(acc->slots, acc->cap, name);
	if (!slot->name) {
		slot->name = strdup(name);
		if (!slot->name)
			return -ENOMEM;
		acc->used++;
	}
	slot->count++;
	acc->busy++;
	return 0;
}

int nb_profile_acc_new(struct nb_profile_acc **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void nb_profile_acc_reset(struct nb_profile_acc *acc)
{
	for (size_t i = 0; i < acc->cap; i++) {
		free(acc->slots[i].name);
		acc->slots[i].name = NULL;
		acc->slots[i].count = 0;
	}
	acc->used = 0;
	acc->busy = 0;
	acc->idle = 0;
}

/* Prefixes of the idle-loop functions of x86 and arm64 kernels (halt, mwait, wfi, polling). */
static const char *const idle_prefixes[] = {
	"default_idle", "pv_native_safe_halt", "native_safe_halt", "acpi_idle", "acpi_safe_halt",
	"intel_idle", "mwait_idle", "amd_e400_idle", "cpu_idle_poll", "poll_idle", "arch_cpu_idle",
	"cpuidle_enter", "do_idle", "default_enter_idle", "cpu_do_idle", "psci_",
};

bool nb_profile_symbol_is_idle(const char *symbol)
{
	if (!symbol)
		return false;
	for (size_t i = 0; i < sizeof(idle_prefixes) / sizeof(idle_prefixes[0]); i++) {
		if (!strncmp(symbol, idle_prefixes[i], strlen(idle_prefixes[i])))
			return true;
	}
	return false;
}

int nb_profile_acc_add_kernel(struct nb_profile_acc *acc, const char *symbol, int pid)
{
	if (pid == 0 && nb_profile_symbol_is_idle(symbol)) {
		acc->idle++;
		return 0;
	}
	return fold_add(acc, symbol ? symbol : "[kernel unknown]");
}

int nb_profile_acc_add_user(struct nb_profile_acc *acc, const char *comm)
{
	char name[NB_PROFILE_SYMBOL_MAX];

	snprintf(name, sizeof(name), "[user] %s", comm && *comm ? comm : "?");
	return fold_add(acc, name);
}

static int fold_cmp_desc(const void *a, const void *b)
{
	const struct nb_fold *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

void nb_profile_acc_result(const struct nb_profile_acc *acc, struct nb_profile *out)
{
	struct nb_fold *all;
	size_t n = 0;
	uint64_t total = acc->busy + acc->idle;

	memset(out, 0, sizeof(*out));
	out->samples = acc->busy;
	out->idle_pct = total ? 100.0 * (double)acc->idle / (double)total : 0.0;
	if (acc->used == 0)
		return;
	all = malloc(acc->used * sizeof(*all));
	if (!all)
		return;
	for (size_t i = 0; i < acc->cap; i++) {
		if (acc->slots[i].name)
			all[n++] = acc->slots[i];
	}
	qsort(all, n, sizeof(*all), fold_cmp_desc);
	for (size_t i = 0; i < n && out->n < NB_PROFILE_TOP; i++) {
		struct nb_profile_entry *e = &out->top[out->n++];

		snprintf(e->symbol, sizeof(e->symbol), "%s", all[i].name);
		e->share_pct = 100.0 * (double)all[i].count / (double)acc->busy;
	}
	free(all);
}

void nb_profile_acc_free(struct nb_profile_acc *acc)
{
	if (!acc)
		return;
	nb_profile_acc_reset(acc);
	free(acc->slots);
	free(acc);
}

/* ---- call chains folded into stacks ---- */

#define STACK_FRAME_MAX 128

struct nb_stack_acc {
	struct nb_profile_acc *set; /* the folded stack is the key */
	uint64_t truncated, other;
};

int nb_stack_acc_new(struct nb_stack_acc **out)
{
	struct nb_stack_acc *acc = calloc(1, sizeof(*acc));

	*out = NULL;
	if (!acc || nb_profile_acc_new(&acc->set) < 0) {
		free(acc);
		return -ENOMEM;
	}
	*out = acc;
	return 0;
}

void nb_stack_acc_reset(struct nb_stack_acc *acc)
{
	nb_profile_acc_reset(acc->set);
	acc->truncated = 0;
	acc->other = 0;
}

/* A frame as the folded format can carry it: ';' separates frames and '\n' lines. */
static size_t put_frame(char *buf, size_t at, size_t len, const char *frame)
{
	size_t n = 0;

	if (!frame)
		frame = "[kernel unknown]";
	for (; frame[n] && n < STACK_FRAME_MAX && at + 1 < len; n++)
		buf[at++] = (frame[n] == ';' || frame[n] == '\n') ? ':' : frame[n];
	buf[at] = '\0';
	return at;
}

int nb_stack_acc_add(struct nb_stack_acc *acc, const char *const *frames, int n, int pid)
{
	char buf[(STACK_FRAME_MAX + 1) * (NB_STACK_MAX_DEPTH + 1) + 1];
	size_t at = 0;
	int keep = n > NB_STACK_MAX_DEPTH ? NB_STACK_MAX_DEPTH : n;

	if (n <= 0)
		return 0;
	if (pid == 0 && nb_profile_symbol_is_idle(frames[0])) {
		acc->set->idle++;
		return 0;
	}
	buf[0] = '\0';
	if (keep < n) {
		at = put_frame(buf, at, sizeof(buf), NB_STACK_TRUNCATED);
		buf[at++] = ';';
		acc->truncated++;
	}
	for (int i = keep - 1; i >= 0; i--) {
		at = put_frame(buf, at, sizeof(buf), frames[i]);
		if (i)
			buf[at++] = ';';
	}
	buf[at] = '\0';
	if (acc->set->used >= NB_STACK_MAX_DISTINCT &&
	    !fold_slot(acc->set->slots, acc->set->cap, buf)->name) {
		acc->other++;
		return fold_add(acc->set, NB_STACK_OTHER);
	}
	return fold_add(acc->set, buf);
}

void nb_stack_acc_stats(const struct nb_stack_acc *acc, struct nb_stack_stats *out)
{
	out->samples = acc->set->busy;
	out->distinct = acc->set->used;
	out->truncated_samples = acc->truncated;
	out->other_samples = acc->other;
}

int nb_stack_acc_write(const struct nb_stack_acc *acc, FILE *f)
{
	const struct nb_profile_acc *set = acc->set;
	struct nb_fold *all;
	size_t n = 0;

	if (set->used == 0)
		return 0;
	all = malloc(set->used * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < set->cap; i++) {
		if (set->slots[i].name)
			all[n++] = set->slots[i];
	}
	qsort(all, n, sizeof(*all), fold_cmp_desc);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", all[i].name, all[i].count);
	free(all);
	return ferror(f) ? -EIO : 0;
}

void nb_stack_acc_free(struct nb_stack_acc *acc)
{
	if (!acc)
		return;
	nb_profile_acc_free(acc->set);
	free(acc);
}

/* ---- folded stacks as read back ---- */

int nb_folded_add(struct nb_folded *set, const char *stack, uint64_t count)
{
	/* a profile has at most a few thousand stacks: a linear merge stays cheap */
	for (int i = 0; i < set->n; i++) {
		if (!strcmp(set->v[i].stack, stack)) {
			set->v[i].count += count;
			set->total += count;
			return 0;
		}
	}
	if (set->n == set->cap) {
		int cap = set->cap ? set->cap * 2 : 64;
		struct nb_folded_stack *v = realloc(set->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		set->v = v;
		set->cap = cap;
	}
	set->v[set->n].stack = strdup(stack);
	if (!set->v[set->n].stack)
		return -ENOMEM;
	set->v[set->n++].count = count;
	set->total += count;
	return 0;
}

int nb_folded_parse(struct nb_folded *set, const char *text, const char *what, struct nb_err *err)
{
	int lineno = 0;

	while (*text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		const char *sp;
		char *line, *end = NULL;
		unsigned long long count;
		int rc;

		lineno++;
		if (len == 0) {
			text += eol ? 1 : 0;
			continue;
		}
		line = strndup(text, len);
		if (!line)
			return nb_err_set(err, -ENOMEM, "read folded stacks %s: out of memory", what);
		sp = strrchr(line, ' ');
		errno = 0;
		count = sp ? strtoull(sp + 1, &end, 10) : 0;
		if (!sp || sp == line || !sp[1] || !end || *end || errno || sp[1] == '-') {
			free(line);
			return nb_err_set(err, -EINVAL, "read folded stacks %s: line %d is not \"stack count\"", what,
					  lineno);
		}
		line[sp - line] = '\0';
		rc = nb_folded_add(set, line, count);
		free(line);
		if (rc < 0)
			return nb_err_set(err, rc, "read folded stacks %s: out of memory", what);
		text += len + (eol ? 1 : 0);
	}
	return 0;
}

void nb_folded_free(struct nb_folded *set)
{
	for (int i = 0; i < set->n; i++)
		free(set->v[i].stack);
	free(set->v);
	memset(set, 0, sizeof(*set));
}
