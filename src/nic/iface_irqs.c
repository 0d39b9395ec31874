// SPDX-License-Identifier: MIT
/* Finds a network interface's IRQs by action name in /proc/interrupts. */
#include "nic/iface_irqs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Count columns plus chip, hwirq, type and a few shared actions; machines with more CPUs
 * than this have their extra columns ignored. */
#define NB_IRQ_TOKENS_MAX 528

/*
 * Naming rules, from how drivers call request_irq():
 *  - exact "eth0": one IRQ for the whole device (ravb without multi-IRQ, e1000e's
 *    "other" vector, many embedded MACs);
 *  - "eth0-...": per-queue vectors (igb/ixgbe "eth0-TxRx-0", e1000e "eth0-rx-0", tg3 "eth0-1");
 *  - "eth0:...": ravb multi-IRQ SoCs ("eth0:ch22:multi", "eth0:ch0:rx_be",
 *    "eth0:ch24:emac") and stmmac ("eth0:mac").
 * The delimiter is required so that eth1 never claims eth10's IRQs.
 * Since v6.9 ravb requests its IRQs in probe(), before the netdev has a name, and names
 * them after the platform device instead ("e6800000.ethernet:ch22:multi", single-IRQ GbEth
 * "11c20000.ethernet"), so the parent device's name (the basename of
 * /sys/class/net/IF/device) is a second name: exact, or followed by ':' or '-'. The '-'
 * form is virtio-net's: eth0 on virtio2 has "virtio2-input.0" and "virtio2-output.0"
 * (and "virtio2-config", which belongs to the same device); mlx5 and i40e prefix a
 * driver name and are not found.
 * Such an interface reports no IRQs rather than a guess.
 * Names are fixed when the driver requests the IRQ (at open for most, at probe for ravb
 * >= 6.9), so an interface renamed while up keeps IRQs under its old name until reopened.
 */
int nb_irq_name_belongs(const char *action, const char *iface)
{
	size_t n = strlen(iface);

	if (n == 0 || strncmp(action, iface, n) != 0)
		return 0;
	return action[n] == '\0' || action[n] == '-' || action[n] == ':';
}

int nb_irq_name_belongs_dev(const char *action, const char *iface, const char *device)
{
	size_t n = device ? strlen(device) : 0;

	if (nb_irq_name_belongs(action, iface))
		return 1;
	return n > 0 && !strncmp(action, device, n) && (action[n] == '\0' || action[n] == ':' || action[n] == '-');
}

/* ---- roles ---- */

int nb_irq_role_parse(const char *s, size_t len, enum nb_irq_role *role)
{
	for (int r = 0; r < NB_IRQ_ROLES; r++) {
		const char *name = nb_irq_role_name((enum nb_irq_role)r);

		if (strlen(name) == len && !strncasecmp(s, name, len)) {
			*role = (enum nb_irq_role)r;
			return 0;
		}
	}
	return -EINVAL;
}

/* "rx", "rx0", "rx12": the word and a queue number at most. */
static bool word_is(const char *w, size_t len, const char *stem)
{
	size_t n = strlen(stem);

	if (len < n || strncasecmp(w, stem, n))
		return false;
	for (size_t i = n; i < len; i++) {
		if (!isdigit((unsigned char)w[i]))
			return false;
	}
	return true;
}

enum nb_irq_role nb_irq_role_guess(const char *action)
{
	bool rx = false, tx = false;

	for (const char *p = action; *p;) {
		size_t len = 0;

		while (*p && !isalnum((unsigned char)*p))
			p++;
		while (isalnum((unsigned char)p[len]))
			len++;
		if (word_is(p, len, "txrx") || word_is(p, len, "rxtx") || word_is(p, len, "combined"))
			rx = tx = true;
		else if (word_is(p, len, "rx") || word_is(p, len, "input"))
			rx = true;
		else if (word_is(p, len, "tx") || word_is(p, len, "output"))
			tx = true;
		p += len;
	}
	return rx && tx ? NB_IRQ_TXRX : rx ? NB_IRQ_RX : tx ? NB_IRQ_TX : NB_IRQ_MISC;
}

int nb_irq_names_parse(const char *spec, struct nb_irq_names *names, struct nb_err *err)
{
	memset(names, 0, sizeof(*names));
	for (const char *p = spec ? spec : ""; *p;) {
		const char *colon;
		size_t len = 0;

		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		while (p[len] && !isspace((unsigned char)p[len]))
			len++;
		if (names->n == NB_IRQ_PATTERNS_MAX)
			return nb_err_set(err, -EINVAL, "irq_names: more than %d patterns", NB_IRQ_PATTERNS_MAX);
		colon = memchr(p, ':', len);
		/* "rx:pat" gives a role; "eth0:ch0:rx_be" is a name with colons: its role is guessed */
		if (colon && nb_irq_role_parse(p, (size_t)(colon - p), &names->p[names->n].role) == 0) {
			len -= (size_t)(colon + 1 - p);
			p = colon + 1;
		} else {
			names->p[names->n].guess = true;
		}
		if (len == 0)
			return nb_err_set(err, -EINVAL, "irq_names: a role with no pattern after it");
		if (len >= NB_IRQ_PATTERN_LEN)
			return nb_err_set(err, -EINVAL, "irq_names: pattern '%.*s' longer than %d characters", (int)len, p,
					  NB_IRQ_PATTERN_LEN - 1);
		memcpy(names->p[names->n].pattern, p, len);
		names->p[names->n].pattern[len] = '\0';
		names->n++;
		p += len;
	}
	return 0;
}

/* Without an action the last column is the trigger type ("5-edge", "Level"): skip it so an
 * interface with a numeric name never claims an unused IRQ. */
static int is_trigger_type(const char *tok, size_t len)
{
	static const char *const suffixes[] = { "-edge", "-level", "-fasteoi", "Edge", "Level" };

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t sl = strlen(suffixes[i]);

		if (len >= sl && !memcmp(tok + len - sl, suffixes[i], sl))
			return 1;
	}
	return 0;
}

struct token {
	const char *s;
	size_t len;
};

static int split_tokens(const char *line, size_t len, struct token *tok, int max)
{
	int n = 0;
	size_t i = 0;

	while (i < len && n < max) {
		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i >= len)
			break;
		tok[n].s = line + i;
		while (i < len && !isspace((unsigned char)line[i]))
			i++;
		tok[n].len = (size_t)(line + i - tok[n].s);
		n++;
	}
	return n;
}

/* 1 + the role when the token names one of the NIC's IRQs, 0 when not; the name in name. */
static int token_match(const struct token *t, const struct nb_irq_match *m, char *name, size_t size)
{
	size_t len = t->len;

	if (len > 0 && t->s[len - 1] == ',')
		len--;
	if (len == 0 || len >= size || is_trigger_type(t->s, len))
		return 0;
	memcpy(name, t->s, len);
	name[len] = '\0';
	if (m->names && m->names->n > 0) {
		for (int i = 0; i < m->names->n; i++) {
			if (fnmatch(m->names->p[i].pattern, name, 0) == 0)
				return 1 + (int)(m->names->p[i].guess ? nb_irq_role_guess(name) : m->names->p[i].role);
		}
		return 0;
	}
	return nb_irq_name_belongs_dev(name, m->iface, m->device) ? 1 + (int)nb_irq_role_guess(name) : 0;
}

/* Shared IRQs list their actions as "a, b, c": the last token and every earlier one that
 * ends in ',' are action names. */
static int actions_match(const struct token *tok, int ntok, int first_free, const struct nb_irq_match *m,
			 char *name, size_t size)
{
	int i = ntok - 1, r;

	if (i < first_free)
		return 0;
	r = token_match(&tok[i], m, name, size);
	for (i--; !r && i >= first_free && tok[i].len > 0 && tok[i].s[tok[i].len - 1] == ','; i--)
		r = token_match(&tok[i], m, name, size);
	return r;
}

static int parse_u64(const struct token *t, uint64_t *out)
{
	uint64_t v = 0;

	if (t->len == 0)
		return -EINVAL;
	for (size_t i = 0; i < t->len; i++) {
		if (!isdigit((unsigned char)t->s[i]))
			return -EINVAL;
		v = v * 10 + (uint64_t)(t->s[i] - '0');
	}
	*out = v;
	return 0;
}

/* The header names the CPU of each count column; offline CPUs are left out. */
static int parse_header(const char *line, size_t len, int *cpu_of_col, int max_cols,
			struct nb_err *err)
{
	struct token tok[NB_IRQ_TOKENS_MAX];
	int n = split_tokens(line, len, tok, max_cols < NB_IRQ_TOKENS_MAX ? max_cols : NB_IRQ_TOKENS_MAX);

	if (n == 0)
		return nb_err_set(err, -EINVAL, "parse interrupts: no CPU header line");
	for (int i = 0; i < n; i++) {
		uint64_t cpu;
		struct token num = { tok[i].s + 3, tok[i].len - 3 };

		if (tok[i].len < 4 || memcmp(tok[i].s, "CPU", 3) || parse_u64(&num, &cpu) || cpu > INT_MAX)
			return nb_err_set(err, -EINVAL, "parse interrupts: header column '%.*s' is not CPUn",
					  (int)tok[i].len, tok[i].s);
		cpu_of_col[i] = (int)cpu;
	}
	return n;
}

struct irq_scan {
	const struct nb_irq_match *m;
	struct nb_irq *irqs;
	int max_irqs;
	uint64_t *per_cpu;
	int max_cpus;
	uint64_t *per_role;
	int *each_irq;          /* the counts parser's IRQs one by one (or NULL) */
	uint64_t *each_count;
	int max_each;
	int ncpus;
	int found;
};

static bool listed(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static void scan_line(struct irq_scan *s, const char *line, size_t len, const int *cpu_of_col, int ncols)
{
	struct token tok[NB_IRQ_TOKENS_MAX];
	int ntok = split_tokens(line, len, tok, NB_IRQ_TOKENS_MAX);
	struct token label;
	uint64_t irq, count;
	char name[128];
	int col, r;

	/* Only numbered IRQs: NMI, LOC, ERR and friends are per-CPU architecture counters. */
	if (ntok < 2 || tok[0].len < 2 || tok[0].s[tok[0].len - 1] != ':')
		return;
	label = (struct token){ tok[0].s, tok[0].len - 1 };
	if (parse_u64(&label, &irq) || irq > INT_MAX)
		return;
	for (col = 0; col < ncols && 1 + col < ntok && !parse_u64(&tok[1 + col], &count); col++)
		;
	r = actions_match(tok, ntok, 1 + col, s->m, name, sizeof(name));
	if (!r && listed(s->m->by_number, s->m->n_by_number, (int)irq)) {
		/* the device's own vector: its last action names it, whatever that says */
		snprintf(name, sizeof(name), "%.*s", (int)(tok[ntok - 1].len < sizeof(name) ? tok[ntok - 1].len
											 : sizeof(name) - 1),
			 tok[ntok - 1].s);
		r = 1 + (int)nb_irq_role_guess(name);
	}
	if (!r)
		return;
	if (s->irqs && s->found < s->max_irqs) {
		struct nb_irq *out = &s->irqs[s->found];

		out->irq = (int)irq;
		out->role = (enum nb_irq_role)(r - 1);
		snprintf(out->name, sizeof(out->name), "%.47s", name);
	}
	if (s->each_irq && s->found < s->max_each) {
		s->each_irq[s->found] = (int)irq;
		s->each_count[s->found] = 0;
	}
	for (int c = 0; c < col; c++) {
		parse_u64(&tok[1 + c], &count);
		if (s->per_cpu && cpu_of_col[c] < s->max_cpus)
			s->per_cpu[cpu_of_col[c]] += count;
		if (s->per_role)
			s->per_role[r - 1] += count;
		if (s->each_irq && s->found < s->max_each)
			s->each_count[s->found] += count;
	}
	s->found++;
}

static int scan_interrupts(const char *text, struct irq_scan *s, struct nb_err *err)
{
	int cpu_of_col[NB_IRQ_TOKENS_MAX];
	const char *eol = strchr(text, '\n');
	size_t hlen = eol ? (size_t)(eol - text) : strlen(text);
	int ncols = parse_header(text, hlen, cpu_of_col, NB_IRQ_TOKENS_MAX, err);

	if (ncols < 0)
		return ncols;
	for (int i = 0; i < ncols; i++) {
		if (cpu_of_col[i] + 1 > s->ncpus)
			s->ncpus = cpu_of_col[i] + 1;
	}
	for (const char *line = eol ? eol + 1 : text + hlen; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		scan_line(s, line, len, cpu_of_col, ncols);
		line += len + (end ? 1 : 0);
	}
	return s->found;
}

int nb_irqs_parse(const char *text, const struct nb_irq_match *m, struct nb_irq *out, int max, struct nb_err *err)
{
	struct irq_scan s = { .m = m, .irqs = out, .max_irqs = max };

	return scan_interrupts(text, &s, err);
}

int nb_irq_counts_parse(const char *text, const struct nb_irq_match *m, uint64_t *per_cpu, int max_cpus,
			int *ncpus, uint64_t per_role[NB_IRQ_ROLES], int *each_irq, uint64_t *each_count, int max_each,
			struct nb_err *err)
{
	struct irq_scan s = { .m = m, .per_cpu = per_cpu, .max_cpus = max_cpus, .per_role = per_role,
			      .each_irq = each_irq, .each_count = each_count, .max_each = each_irq ? max_each : 0 };
	int ret;

	memset(per_cpu, 0, sizeof(*per_cpu) * (size_t)max_cpus);
	if (per_role)
		memset(per_role, 0, sizeof(*per_role) * NB_IRQ_ROLES);
	ret = scan_interrupts(text, &s, err);
	if (ncpus)
		*ncpus = s.ncpus < max_cpus ? s.ncpus : max_cpus;
	return ret;
}

int nb_iface_irqs_parse_dev(const char *text, const char *iface, const char *device, int *irqs, int max,
			    struct nb_err *err)
{
	struct nb_irq_match m = { .iface = iface, .device = device };
	struct nb_irq *found = max > 0 ? calloc((size_t)max, sizeof(*found)) : NULL;
	int ret;

	if (max > 0 && !found)
		return nb_err_set(err, -ENOMEM, "parse interrupts: out of memory");
	ret = nb_irqs_parse(text, &m, found, max, err);
	for (int i = 0; i < ret && i < max; i++)
		irqs[i] = found[i].irq;
	free(found);
	return ret;
}

int nb_iface_irqs_parse(const char *text, const char *iface, int *irqs, int max,
			struct nb_err *err)
{
	return nb_iface_irqs_parse_dev(text, iface, NULL, irqs, max, err);
}

int nb_iface_irq_counts_parse_dev(const char *text, const char *iface, const char *device,
				  uint64_t *per_cpu, int max_cpus, int *ncpus, struct nb_err *err)
{
	struct nb_irq_match m = { .iface = iface, .device = device };

	return nb_irq_counts_parse(text, &m, per_cpu, max_cpus, ncpus, NULL, NULL, NULL, 0, err);
}

int nb_iface_irq_counts_parse(const char *text, const char *iface, uint64_t *per_cpu,
			      int max_cpus, int *ncpus, struct nb_err *err)
{
	return nb_iface_irq_counts_parse_dev(text, iface, NULL, per_cpu, max_cpus, ncpus, err);
}

int nb_iface_device_name(const struct nb_paths *paths, const char *iface, char *buf, size_t len)
{
	char rel[64], path[4096], target[4096];
	const char *base;
	ssize_t n;

	if (!nb_ifname_valid(iface) || len == 0)
		return -EINVAL;
	snprintf(rel, sizeof(rel), "class/net/%s/device", iface);
	if (nb_path_join(path, sizeof(path), paths->sys, rel))
		return -ENAMETOOLONG;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int nb_iface_msi_irqs(const struct nb_paths *paths, const char *iface, int *irqs, int max)
{
	char rel[96], path[4096];
	int all[2048]; /* PCI allows 2048 MSI-X vectors a function */
	struct dirent *e;
	int n = 0;
	DIR *d;

	if (!nb_ifname_valid(iface))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "class/net/%s/device/msi_irqs", iface);
	if (nb_path_join(path, sizeof(path), paths->sys, rel))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long v = strtol(e->d_name, &end, 10);

		if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end || v < 0 || v > INT_MAX)
			continue;
		if (n < (int)(sizeof(all) / sizeof(all[0])))
			all[n++] = (int)v;
	}
	closedir(d);
	if (n == 0)
		return -ENOENT;
	qsort(all, (size_t)n, sizeof(*all), int_cmp);
	memcpy(irqs, all, sizeof(*irqs) * (size_t)(n < max ? n : max));
	return n;
}

int nb_interrupts_read(const struct nb_paths *paths, char **out, struct nb_err *err)
{
	char path[4096];
	int rc;

	*out = NULL;
	if (nb_path_join(path, sizeof(path), paths->proc, "interrupts"))
		return nb_err_set(err, -ENAMETOOLONG, "read interrupts: path too long under %s", paths->proc);
	rc = nb_read_whole_file(path, 16384, out, NULL);
	if (rc)
		return nb_err_set(err, rc, "read %s: %s", path, rc == -ENOMEM ? "out of memory" : strerror(-rc));
	return 0;
}

int nb_irqs_find(const struct nb_paths *paths, const char *iface, const char *irq_names, struct nb_irq *out,
		 int max, struct nb_err *err)
{
	struct nb_irq_names names;
	struct nb_irq_match m = { .iface = iface, .names = &names };
	char device[256];
	char *text;
	int ret;

	if (!nb_ifname_valid(iface))
		return nb_err_set(err, -EINVAL, "find IRQs: invalid interface name '%s'", iface ? iface : "");
	ret = nb_irq_names_parse(irq_names, &names, err);
	if (ret)
		return ret;
	ret = nb_interrupts_read(paths, &text, err);
	if (ret)
		return ret;
	/* Virtual devices have no parent device: the netdev name is all there is. */
	if (nb_iface_device_name(paths, iface, device, sizeof(device)) == 0)
		m.device = device;
	ret = nb_irqs_parse(text, &m, out, max, err);
	/* No name tells (lan743x calls every vector "lan743x"): a PCI device's MSI vectors are its own. */
	if (ret == 0 && names.n == 0) {
		int msi[256], n = nb_iface_msi_irqs(paths, iface, msi, 256);

		if (n > 0) {
			m.by_number = msi;
			m.n_by_number = n < 256 ? n : 256;
			ret = nb_irqs_parse(text, &m, out, max, err);
		}
	}
	free(text);
	return ret;
}

int nb_iface_irqs(const struct nb_paths *paths, const char *iface, int *irqs, int max,
		  struct nb_err *err)
{
	struct nb_irq *found = max > 0 ? calloc((size_t)max, sizeof(*found)) : NULL;
	int ret;

	if (max > 0 && !found)
		return nb_err_set(err, -ENOMEM, "find IRQs of %s: out of memory", iface ? iface : "");
	ret = nb_irqs_find(paths, iface, NULL, found, max, err);
	for (int i = 0; i < ret && i < max; i++)
		irqs[i] = found[i].irq;
	free(found);
	return ret;
}
