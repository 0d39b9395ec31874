// SPDX-License-Identifier: MIT
/* Hand-written parsers for /proc/stat, /proc/softirqs, softnet_stat, snmp and /proc/PID/stat. */
#include "sampling/proc_parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NB_STAT_COLUMNS 10

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* Returns the character after the number, or NULL when p does not start with a digit. */
static const char *parse_dec(const char *p, uint64_t *out)
{
	uint64_t v = 0;

	if (!is_digit(*p))
		return NULL;
	while (is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	*out = v;
	return p;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static const char *parse_hex(const char *p, uint64_t *out)
{
	uint64_t v = 0;
	int d;

	if (hex_value(*p) < 0)
		return NULL;
	while ((d = hex_value(*p)) >= 0) {
		v = v * 16 + (uint64_t)d;
		p++;
	}
	*out = v;
	return p;
}

/* Reads up to max blank-separated decimals; stops at the end of the line. */
static int parse_dec_row(const char *p, uint64_t *vals, int max)
{
	int n = 0;

	for (p = skip_blanks(p); n < max; p = skip_blanks(p)) {
		const char *end = parse_dec(p, &vals[n]);

		if (!end)
			break;
		n++;
		p = end;
	}
	return n;
}

static void ticks_from_columns(const uint64_t *v, struct nb_cpu_ticks *t)
{
	*t = (struct nb_cpu_ticks){
		.user = v[0], .nice = v[1], .system = v[2], .idle = v[3], .iowait = v[4],
		.irq = v[5], .softirq = v[6], .steal = v[7], .guest = v[8], .guest_nice = v[9],
	};
}

/* One "cpu" or "cpuN" line: *cpu is -1 for the aggregate. False for a line that is not one
 * (e.g. "cpufreq"-like names) or has fewer than the four columns every kernel has. */
static bool parse_stat_line(const char *line, long *cpu, struct nb_cpu_ticks *ticks)
{
	uint64_t v[NB_STAT_COLUMNS] = { 0 };
	uint64_t n = 0;
	const char *p = line + 3;

	*cpu = -1;
	if (!is_blank(*p)) {
		p = parse_dec(p, &n);
		if (!p || !is_blank(*p) || n >= NB_MAX_CPUS)
			return false;
		*cpu = (long)n;
	}
	/* user nice system idle exist on every kernel; later columns arrived over 2.6.x */
	if (parse_dec_row(p, v, NB_STAT_COLUMNS) < 4)
		return false;
	ticks_from_columns(v, ticks);
	return true;
}

int nb_parse_proc_stat(const char *text, struct nb_snapshot *snap)
{
	int online = 0;

	snap->cpu_all_present = false;
	snap->ncpus = 0;
	memset(snap->cpu_present, 0, sizeof(snap->cpu_present));
	/* The cpu lines come first; stopping at the first other line skips the long "intr" line. */
	for (const char *line = text; !strncmp(line, "cpu", 3); line = next_line(line)) {
		struct nb_cpu_ticks ticks;
		long cpu;

		if (!parse_stat_line(line, &cpu, &ticks))
			continue;
		if (cpu < 0) {
			snap->cpu_all = ticks;
			snap->cpu_all_present = true;
			continue;
		}
		snap->cpu[cpu] = ticks;
		snap->cpu_present[cpu] = true;
		if ((int)cpu + 1 > snap->ncpus)
			snap->ncpus = (int)cpu + 1;
		online++;
	}
	snap->ncpus_online = online;
	return snap->cpu_all_present ? online : -EINVAL;
}

int nb_parse_proc_stat_total(const char *text, struct nb_cpu_ticks *all, int *online)
{
	bool have_all = false;

	*online = 0;
	for (const char *line = text; !strncmp(line, "cpu", 3); line = next_line(line)) {
		struct nb_cpu_ticks ticks;
		long cpu;

		if (!parse_stat_line(line, &cpu, &ticks))
			continue;
		if (cpu >= 0) {
			(*online)++;
		} else {
			*all = ticks;
			have_all = true;
		}
	}
	return have_all ? *online : -EINVAL;
}

/* Header "CPU0 CPU1 ...": the column -> CPU map. Returns the number of columns. */
static int parse_softirq_header(const char *line, int *cpu_of_col, int max)
{
	const char *p = skip_blanks(line);
	int n = 0;

	while (n < max && !strncmp(p, "CPU", 3)) {
		uint64_t cpu;
		const char *end = parse_dec(p + 3, &cpu);

		if (!end)
			break;
		cpu_of_col[n++] = cpu < NB_MAX_CPUS ? (int)cpu : -1;
		p = skip_blanks(end);
	}
	return n;
}

static void parse_softirq_row(const char *p, const int *cpu_of_col, int ncols, uint64_t *per_cpu)
{
	for (int col = 0; col < ncols; col++) {
		uint64_t v;

		p = skip_blanks(p);
		p = parse_dec(p, &v);
		if (!p)
			return;
		if (cpu_of_col[col] >= 0)
			per_cpu[cpu_of_col[col]] = v;
	}
}

int nb_parse_softirqs(const char *text, struct nb_snapshot *snap)
{
	int cpu_of_col[NB_MAX_CPUS];
	int ncols = parse_softirq_header(text, cpu_of_col, NB_MAX_CPUS);
	bool rx = false, tx = false;

	if (ncols == 0)
		return -EINVAL;
	for (const char *line = next_line(text); *line; line = next_line(line)) {
		const char *p = skip_blanks(line);

		if (!strncmp(p, "NET_RX:", 7)) {
			parse_softirq_row(p + 7, cpu_of_col, ncols, snap->net_rx);
			rx = true;
		} else if (!strncmp(p, "NET_TX:", 7)) {
			parse_softirq_row(p + 7, cpu_of_col, ncols, snap->net_tx);
			tx = true;
		}
	}
	return rx && tx ? 0 : -ENOENT;
}

int nb_parse_softnet(const char *text, struct nb_snapshot *snap)
{
	uint64_t processed = 0, dropped = 0, squeeze = 0;
	int rows = 0;

	for (const char *line = text; *line; line = next_line(line)) {
		uint64_t v[3];
		const char *p = line;
		int n;

		for (n = 0; n < 3; n++) {
			p = parse_hex(skip_blanks(p), &v[n]);
			if (!p)
				break;
		}
		if (n < 3)
			continue;
		processed += v[0];
		dropped += v[1];
		squeeze += v[2];
		rows++;
	}
	if (rows == 0)
		return -EINVAL;
	snap->softnet_processed = processed;
	snap->softnet_dropped = dropped;
	snap->softnet_time_squeeze = squeeze;
	return rows;
}

/* /proc/net/snmp's Udp: columns */
static const struct nb_snapshot_field udp_columns[] = {
	{ "InDatagrams", offsetof(struct nb_snapshot, udp_in_datagrams) },
	{ "NoPorts", offsetof(struct nb_snapshot, udp_no_ports) },
	{ "InErrors", offsetof(struct nb_snapshot, udp_in_errors) },
	{ "RcvbufErrors", offsetof(struct nb_snapshot, udp_rcvbuf_errors) },
	{ "SndbufErrors", offsetof(struct nb_snapshot, udp_sndbuf_errors) },
	{ "InCsumErrors", offsetof(struct nb_snapshot, udp_in_csum_errors) },
};

#define NB_UDP_COLUMNS (sizeof(udp_columns) / sizeof(udp_columns[0]))

static const char *find_udp_line(const char *text)
{
	for (const char *line = text; *line; line = next_line(line)) {
		if (!strncmp(line, "Udp: ", 5))
			return line + 5;
	}
	return NULL;
}

static int udp_column_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NB_UDP_COLUMNS; i++) {
		if (strlen(udp_columns[i].name) == len && !memcmp(udp_columns[i].name, name, len))
			return (int)i;
	}
	return -1;
}

int nb_parse_snmp_udp(const char *text, struct nb_snapshot *snap)
{
	const char *names = find_udp_line(text);
	const char *values = names ? find_udp_line(next_line(names)) : NULL;
	unsigned int found = 0;

	if (!values)
		return -ENOENT;
	for (;;) {
		const char *name_end;
		uint64_t v;
		int idx;

		names = skip_blanks(names);
		values = skip_blanks(values);
		for (name_end = names; *name_end && *name_end != '\n' && !is_blank(*name_end); name_end++)
			;
		if (name_end == names)
			break;
		values = parse_dec(values, &v);
		if (!values)
			break;
		idx = udp_column_index(names, (size_t)(name_end - names));
		if (idx >= 0) {
			*(uint64_t *)((char *)snap + udp_columns[idx].offset) = v;
			found |= 1u << idx;
		}
		names = name_end;
	}
	return found == (1u << NB_UDP_COLUMNS) - 1 ? 0 : -ENOENT;
}

int nb_parse_pid_stat_ticks(const char *text, uint64_t *ticks)
{
	const char *p = strrchr(text, ')');
	uint64_t utime, stime;

	if (!p)
		return -EINVAL;
	p++;
	/* After ")" comes field 3 (state); utime is field 14: skip fields 3..13. */
	for (int field = 3; field < 14; field++) {
		p = skip_blanks(p);
		if (!*p || *p == '\n')
			return -EINVAL;
		while (*p && !is_blank(*p) && *p != '\n')
			p++;
	}
	p = parse_dec(skip_blanks(p), &utime);
	if (!p)
		return -EINVAL;
	p = parse_dec(skip_blanks(p), &stime);
	if (!p)
		return -EINVAL;
	*ticks = utime + stime;
	return 0;
}

int nb_parse_pid_stat_all(const char *text, int *ppid, unsigned *flags, uint64_t *ticks)
{
	const char *after = strrchr(text, ')');
	unsigned long long ut, st;
	long long cut, cst;

	if (!after || sscanf(after + 1, " %*c %d %*d %*d %*d %*d %u %*u %*u %*u %*u %llu %llu %lld %lld", ppid, flags,
			     &ut, &st, &cut, &cst) != 6)
		return -EINVAL;
	*ticks = ut + st + (uint64_t)(cut > 0 ? cut : 0) + (uint64_t)(cst > 0 ? cst : 0);
	return 0;
}

int nb_parse_per_cpu_count(const char *text, uint64_t *per_cpu, int max)
{
	const char *p = text;
	int n = 0;

	for (;;) {
		uint64_t v;

		p = parse_dec(p, &v);
		if (!p)
			return -EINVAL;
		if (n < max)
			per_cpu[n] += v;
		n++;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

int nb_parse_u64(const char *text, uint64_t *out)
{
	const char *p = parse_dec(text, out);

	if (!p)
		return -EINVAL;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return *p ? -EINVAL : 0;
}
