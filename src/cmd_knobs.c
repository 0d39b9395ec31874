// SPDX-License-Identifier: MIT
/* `nicbench knobs`: show an interface's knobs, or put them back from a restore journal. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "journal.h"
#include "napi_knobs.h"
#include "options.h"
#include "report.h"

struct knobs_options {
	const char *action;   /* "show" or "restore" */
	const char *iface;
	const char *journal;
	bool json;
};

#define KNOBS(member) NB_OPT_FIELD(struct knobs_options, member)

static const struct nb_opt knobs_rows[] = {
	{ .name = "interface", .short_name = 'i', .alias = "iface", .type = NB_OPT_ARG, .offset = KNOBS(iface),
	  .metavar = "IFACE", .help = "the network interface (in the current network namespace);\n--iface is its older name" },
	{ .name = "journal", .short_name = 'j', .type = NB_OPT_ARG, .offset = KNOBS(journal), .metavar = "PATH",
	  .help = "restore from this journal instead of the default one" },
	{ .name = "json", .type = NB_OPT_FLAG, .offset = KNOBS(json),
	  .help = "show: print one JSON object instead of a table" },
};

static const struct nb_opt_table knobs_table = {
	.command = "knobs", .rows = knobs_rows, .nrows = (int)(sizeof(knobs_rows) / sizeof(knobs_rows[0])),
};

static void print_help(FILE *out)
{
	char jpath[PATH_MAX];

	nb_journal_default_path("IFACE", jpath, sizeof(jpath));
	fprintf(out,
		"usage: nicbench knobs show -i IFACE [--json]\n"
		"       nicbench knobs restore (-i IFACE | --journal PATH)\n"
		"\n"
		"show     print every knob nicbench sweeps with its current value, or why the\n"
		"         device does not offer it (\"unsupported: ...\"). Changes nothing.\n"
		"restore  put back the original values that a killed or crashed `nicbench run` left\n"
		"         in its restore journal, check each by reading it back, and delete the journal.\n"
		"         When the journal names the run's record (REPORT.record), also write the report\n"
		"         from it: every repetition that finished, the point cut short as \"incomplete\".\n"
		"\n"
		"options:\n");
	nb_opts_help(out, &knobs_table, NULL, NULL);
	fprintf(out,
		"  -h, --help              this text\n"
		"\n"
		"knobs:\n");
	for (int i = 0; i < nb_knob_count(); i++)
		fprintf(out, "  %-21s %s\n", nb_knob_name(i), nb_knob_help(i));
	fprintf(out,
		"  threaded, gro_flush_timeout, napi_defer_hard_irqs and irq_suspend_timeout are set\n"
		"  per NAPI with netdev netlink napi-set where the kernel has it (6.13+; threaded\n"
		"  6.17+), else in /sys/class/net/IFACE/ (irq_suspend_timeout has no sysfs file);\n"
		"  NAME@napiID or NAME@queueN sets one NAPI. mtu lives in sysfs; rx-*/tx-*/adaptive-*\n"
		"  are the driver's hardware coalescing (ethtool netlink, else the ioctl; veth, lo and\n"
		"  ravb have none); irq_affinity goes to /proc/irq/N/smp_affinity_list of the IRQs\n"
		"  named after IFACE in /proc/interrupts. show also lists the NAPIs (napi-get) with\n"
		"  IRQ, its CPUs, thread pid and CPU, values and queues.\n"
		"\n"
		"the journal:\n"
		"  Before `nicbench run` changes a knob it appends the original value to\n"
		"  %s and fsyncs it. A normal end, an error or a signal restores\n"
		"  the knobs and removes the journal; after SIGKILL or a crash it stays, and the next\n"
		"  run refuses to start until `nicbench knobs restore -i IFACE` has put things back.\n"
		"  It lives in /run (tmpfs) because the knobs do not survive a reboot either: after a\n"
		"  reboot both are gone together. Format: a line \"nicbench-journal/1 iface=IFACE\",\n"
		"  then one \"<knob><TAB><original value><TAB>via=<path>\" line per changed knob;\n"
		"  per-NAPI originals list every NAPI (\"282=7777 283=0\", via=napi-netlink) and go\n"
		"  back through napi-set, never through sysfs. A \"@record<TAB><path>\" line names the\n"
		"  run record the report is assembled from.\n"
		"\n"
		"exit codes: 0 ok; 1 some knob could not be read or restored (the journal is kept and\n"
		"            the message says which); 2 usage error, invalid or unknown interface,\n"
		"            or no journal to restore\n",
		jpath);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nicbench knobs: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'nicbench knobs --help')\n");
	return NB_EXIT_USAGE;
}

/* The parse convention of every subcommand (options.h): 0, 1 for --help, -EINVAL with err. */
static int parse_options(int argc, char **argv, struct knobs_options *o, struct nb_err *err)
{
	int first, rc;

	memset(o, 0, sizeof(*o));
	rc = nb_opts_parse(&knobs_table, argc, argv, o, &first, err);
	if (rc)
		return rc;
	if (first >= argc)
		return nb_err_set(err, -EINVAL, "which action: show or restore? (try 'nicbench knobs --help')");
	o->action = argv[first];
	if (first + 1 < argc)
		return nb_err_set(err, -EINVAL, "unexpected argument '%s' (try 'nicbench knobs --help')", argv[first + 1]);
	return 0;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* One knob as a JSON member: value, or null with the reason ("missing is not zero"). */
static void print_knob_json(FILE *out, const char *name, int rc, const char *value, const struct nb_err *err,
			    int first)
{
	fprintf(out, "%s\n    ", first ? "" : ",");
	json_string(out, name);
	fprintf(out, ": {\"value\": ");
	if (rc == 0) {
		json_string(out, value);
	} else {
		fprintf(out, "null, \"%s\": ", nb_knob_unsupported(rc) ? "unsupported" : "error");
		json_string(out, err->msg);
	}
	fputc('}', out);
}

/* In the table the knob and interface are already on the line: drop "read K on IF: ". */
static const char *reason_only(const struct nb_err *err, const char *knob, const char *iface)
{
	char prefix[96];
	size_t n = (size_t)snprintf(prefix, sizeof(prefix), "read %s on %s: ", knob, iface);

	return n < sizeof(prefix) && !strncmp(err->msg, prefix, n) ? err->msg + n : err->msg;
}

static int check_iface(const char *iface, const char *what)
{
	struct nb_knob_target t = { .paths = &nb_paths_live, .iface = iface };
	struct nb_err err;

	if (nb_knob_iface_check(&t, &err)) {
		fprintf(stderr, "nicbench knobs: %s: %s\n", what, err.msg);
		return NB_EXIT_USAGE;
	}
	return 0;
}

static void print_napis_text(const struct nb_napi_table *tab)
{
	if (!tab->listed) {
		printf("NAPIs: not listed: %s\n", tab->why);
		return;
	}
	printf("NAPIs (napi-get; knobs set %s):\n", tab->per_napi_set ? "per NAPI with napi-set" :
	       "through sysfs, device-wide");
	if (!tab->per_napi_set && tab->why[0])
		printf("  (%s)\n", tab->why);
	if (tab->n == 0)
		printf("  none (veth has NAPI only while up with GRO on)\n");
	else
		printf("  %-8s %-6s %-9s %-8s %-6s %-8s %-10s %-6s %-10s %s\n", "id", "irq", "irq-cpus", "pid",
		       "cpu", "threaded", "gro-flush", "defer", "irq-susp", "queues");
	for (int i = 0; i < tab->n; i++) {
		const struct nb_napi_info *ni = &tab->napi[i];
		char irq[16] = "-", pid[16] = "-", cpu[16] = "-", thr[16] = "-", gro[24] = "-", defer[16] = "-",
		     susp[24] = "-", queues[128] = "";
		size_t used = 0;

		if (ni->n.has_irq)
			snprintf(irq, sizeof(irq), "%u", ni->n.irq);
		if (ni->n.has_pid)
			snprintf(pid, sizeof(pid), "%u", ni->n.pid);
		if (ni->thread_cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", ni->thread_cpu);
		if (ni->n.has_threaded)
			snprintf(thr, sizeof(thr), "%u", ni->n.threaded);
		if (ni->n.has_gro)
			snprintf(gro, sizeof(gro), "%llu", (unsigned long long)ni->n.gro_flush_timeout);
		if (ni->n.has_defer)
			snprintf(defer, sizeof(defer), "%u", ni->n.defer_hard_irqs);
		if (ni->n.has_suspend)
			snprintf(susp, sizeof(susp), "%llu", (unsigned long long)ni->n.irq_suspend_timeout);
		for (int q = 0; q < ni->nrx && used < sizeof(queues) - 16; q++)
			used += (size_t)snprintf(queues + used, sizeof(queues) - used, "%srx%u", used ? "," : "",
						 ni->rx_queues[q]);
		for (int q = 0; q < ni->ntx && used < sizeof(queues) - 16; q++)
			used += (size_t)snprintf(queues + used, sizeof(queues) - used, "%stx%u", used ? "," : "",
						 ni->tx_queues[q]);
		printf("  %-8u %-6s %-9s %-8s %-6s %-8s %-10s %-6s %-10s %s\n", ni->n.id, irq,
		       ni->irq_cpus[0] ? ni->irq_cpus : "-", pid, cpu, thr, gro, defer, susp, used ? queues : "-");
	}
}

static void json_uint_or_null(FILE *out, const char *key, bool has, unsigned long long v, bool last)
{
	if (has)
		fprintf(out, "\"%s\": %llu%s", key, v, last ? "" : ", ");
	else
		fprintf(out, "\"%s\": null%s", key, last ? "" : ", ");
}

static void print_napis_json(const struct nb_napi_table *tab)
{
	printf(",\n  \"napi\": {\"listed\": %s, \"per_napi_set\": %s", tab->listed ? "true" : "false",
	       tab->per_napi_set ? "true" : "false");
	if (tab->why[0]) {
		printf(", \"note\": ");
		json_string(stdout, tab->why);
	}
	printf(", \"instances\": [");
	for (int i = 0; i < tab->n; i++) {
		const struct nb_napi_info *ni = &tab->napi[i];

		printf("%s\n    {\"id\": %u, ", i ? "," : "", ni->n.id);
		json_uint_or_null(stdout, "irq", ni->n.has_irq, ni->n.irq, false);
		printf("\"irq_cpus\": ");
		if (ni->irq_cpus[0])
			json_string(stdout, ni->irq_cpus);
		else
			printf("null");
		printf(", ");
		json_uint_or_null(stdout, "pid", ni->n.has_pid, ni->n.pid, false);
		json_uint_or_null(stdout, "thread_cpu", ni->thread_cpu >= 0, (unsigned long long)ni->thread_cpu, false);
		json_uint_or_null(stdout, "threaded", ni->n.has_threaded, ni->n.threaded, false);
		json_uint_or_null(stdout, "gro_flush_timeout", ni->n.has_gro, ni->n.gro_flush_timeout, false);
		json_uint_or_null(stdout, "napi_defer_hard_irqs", ni->n.has_defer, ni->n.defer_hard_irqs, false);
		json_uint_or_null(stdout, "irq_suspend_timeout", ni->n.has_suspend, ni->n.irq_suspend_timeout, false);
		printf("\"rx_queues\": [");
		for (int q = 0; q < ni->nrx; q++)
			printf("%s%u", q ? ", " : "", ni->rx_queues[q]);
		printf("], \"tx_queues\": [");
		for (int q = 0; q < ni->ntx; q++)
			printf("%s%u", q ? ", " : "", ni->tx_queues[q]);
		printf("]}");
	}
	printf("]}");
}

static int knobs_show(const struct knobs_options *o)
{
	struct nb_napi_table *tab;
	struct nb_err nerr = { 0 };
	struct nb_knob_target t = { .paths = &nb_paths_live, .iface = o->iface };
	int failures = 0;

	if (!o->iface)
		return usage_error("%s", "show needs -i IFACE");
	if (check_iface(o->iface, "show"))
		return NB_EXIT_USAGE;
	if (o->json) {
		printf("{\n  \"iface\": ");
		json_string(stdout, o->iface);
		printf(",\n  \"knobs\": {");
	} else {
		printf("knobs of %s:\n", o->iface);
	}
	for (int i = 0; i < nb_knob_count(); i++) {
		const char *name = nb_knob_name(i);
		char value[NB_KNOB_VALUE_MAX];
		struct nb_err err = { 0 };
		int rc = nb_knob_read(&t, name, value, sizeof(value), &err);

		if (rc && !nb_knob_unsupported(rc))
			failures++;
		if (o->json)
			print_knob_json(stdout, name, rc, value, &err, i == 0);
		else if (rc == 0)
			printf("  %-21s %s\n", name, value);
		else
			printf("  %-21s %s: %s\n", name, nb_knob_unsupported(rc) ? "unsupported" : "error",
			       reason_only(&err, name, o->iface));
	}
	tab = malloc(sizeof(*tab));
	if (!tab || nb_napi_table_read(&t, tab, &nerr) < 0) {
		if (!o->json)
			printf("NAPIs: error: %s\n", tab ? nerr.msg : "out of memory");
		failures++;
	} else if (o->json) {
		printf("\n  }");
		print_napis_json(tab);
	} else {
		print_napis_text(tab);
	}
	if (o->json)
		printf("%s\n}\n", tab && !nerr.code ? "" : "\n  }");
	free(tab);
	return failures ? NB_EXIT_FAIL : NB_EXIT_OK;
}

/* The killed run's report, from its record; the record goes once the report holds it. A record
 * already gone (the run ended normally, or an earlier restore wrote it) is not an error. */
static int assemble_record(const char *record)
{
	struct nb_assembly_info info;
	struct nb_err err = { 0 };

	if (!record[0] || access(record, F_OK) < 0)
		return 0;
	if (nb_report_assemble(record, NULL, &info, &err) < 0) {
		fprintf(stderr, "nicbench knobs: restore: report from %s: %s (the record is kept)\n", record, err.msg);
		return -1;
	}
	printf("wrote report %s from %s: %d point%s, %d incomplete%s\n", info.report_path, record, info.points,
	       info.points == 1 ? "" : "s", info.incomplete, info.torn ? "; a record the kill cut short was dropped" : "");
	if (unlink(record) < 0)
		fprintf(stderr, "nicbench knobs: restore: remove %s: %s\n", record, strerror(errno));
	return 0;
}

static int knobs_restore(const struct knobs_options *o)
{
	char path[PATH_MAX], record[PATH_MAX];
	struct nb_journal *j;
	struct nb_err err;
	char iface[16];  /* a copy: the journal's own string goes with nb_journal_finish */
	int n;

	if (!o->iface && !o->journal)
		return usage_error("%s", "restore needs -i IFACE or --journal PATH");
	if (o->iface && !nb_ifname_valid(o->iface))
		return usage_error("invalid interface name '%s'", o->iface);
	if (o->journal)
		snprintf(path, sizeof(path), "%s", o->journal);
	else if (nb_journal_default_path(o->iface, path, sizeof(path)))
		return usage_error("journal path for '%s' is too long", o->iface);
	if (nb_journal_load(path, &nb_paths_live, &j, &err)) {
		fprintf(stderr, "nicbench knobs: restore: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	snprintf(iface, sizeof(iface), "%s", nb_journal_iface(j));
	if (o->iface && strcmp(o->iface, iface)) {
		fprintf(stderr, "nicbench knobs: restore: journal %s belongs to %s, not %s\n", path, iface, o->iface);
		nb_journal_free(j);
		return NB_EXIT_USAGE;
	}
	if (check_iface(iface, "restore")) {
		nb_journal_free(j);
		return NB_EXIT_USAGE;
	}
	n = nb_journal_count(j);
	printf("journal %s holds %d original%s of %s:\n", path, n, n == 1 ? "" : "s", iface);
	for (int i = 0; i < n; i++) {
		const char *knob, *value;

		nb_journal_entry(j, i, &knob, &value);
		if (nb_journal_entry_via(j, i))
			printf("  %-21s %s (via %s)\n", knob, value, nb_journal_entry_via(j, i));
		else
			printf("  %-21s %s\n", knob, value);
	}
	fflush(stdout);
	snprintf(record, sizeof(record), "%s", nb_journal_record(j) ? nb_journal_record(j) : "");
	if (nb_journal_finish(j, &err)) {
		fprintf(stderr, "nicbench knobs: restore %s: %s\n", iface, err.msg);
		/* the knobs come first; the report is still worth writing */
		assemble_record(record);
		return NB_EXIT_FAIL;
	}
	printf("restored %d knob%s on %s; removed %s\n", n, n == 1 ? "" : "s", iface, path);
	return assemble_record(record) ? NB_EXIT_FAIL : NB_EXIT_OK;
}

int cmd_knobs(int argc, char **argv)
{
	struct knobs_options o;
	struct nb_err err = { 0 };
	int rc = parse_options(argc, argv, &o, &err);

	if (nb_opts_done(rc, "knobs", &err, print_help, &rc))
		return rc;
	if (!strcmp(o.action, "show"))
		return knobs_show(&o);
	if (!strcmp(o.action, "restore"))
		return knobs_restore(&o);
	return usage_error("unknown action '%s' (show or restore)", o.action);
}
