// SPDX-License-Identifier: MIT
/* `nicbench knobs`: show an interface's knobs (and the counters a run reads on it), or put them
 * back from a restore journal. */
#include <errno.h>
#include <net/if.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "config/config.h"
#include "knobs/journal.h"
#include "napi_knobs.h"
#include "kit/nb_print.h"
#include "kit/options.h"
#include "report/report.h"
#include "kit/nb_paths.h"
#include "sampling/run_counters.h"

/* `knobs show --json` says what it is: the shape below may grow keys, never change them. */
#define NB_KNOBS_SCHEMA "nicbench-knobs/1"

struct knobs_options {
	const char *action;   /* "show", "counters" or "restore" */
	const char *iface;
	const char *journal;
	const char *config;   /* show: a run config, for its interface and board.irq_names */
	bool json;
};

#define KNOBS(member) NB_OPT_FIELD(struct knobs_options, member)

static const struct nb_opt knobs_rows[] = {
	{ .name = "interface", .short_name = 'i', .alias = "iface", .type = NB_OPT_ARG, .offset = KNOBS(iface),
	  .metavar = "IFACE", .brief = "the network interface (in this network namespace)",
	  .help = "the network interface (in the current network namespace);\n--iface is its older name" },
	{ .name = "journal", .short_name = 'j', .type = NB_OPT_ARG, .offset = KNOBS(journal), .metavar = "PATH",
	  .help = "restore from this journal instead of the default one" },
	{ .name = "config", .short_name = 'c', .type = NB_OPT_ARG, .offset = KNOBS(config), .metavar = "FILE",
	  .help = "show: a run config; its interface (when no -i) and its board's\n"
		  "irq_names, so the knobs are read as that run finds the IRQs" },
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
		"usage: nicbench knobs show -i IFACE [--config FILE] [--json]\n"
		"       nicbench knobs counters -i IFACE\n"
		"       nicbench knobs restore (-i IFACE | --journal PATH)\n"
		"\n"
		"show     every knob nicbench sweeps with its value on IFACE, or why it is unsupported\n"
		"counters the counters a run takes deltas of on IFACE, now: the driver's ethtool -S\n"
		"         ones (\"name value\" lines) and its page_pool statistics (netdev netlink,\n"
		"         else the driver's rx_pp_* ethtool -S ones), or why there are none\n"
		"restore  put back what a killed `nicbench run` left in its journal (%s),\n"
		"         and write that run's report from its record\n"
		"\n"
		"options:\n", jpath);
	nb_opts_help(out, &knobs_table, NULL, NULL);
	fprintf(out,
		"  -h, --help              this text\n"
		"\n"
		"knobs (per NAPI over netdev netlink where the kernel has napi-set, else sysfs;\n"
		"NAME@napiID or NAME@queueN sets one NAPI):\n");
	for (int i = 0; i < nb_knob_count(); i++)
		fprintf(out, "  %-21s %s\n", nb_knob_name(i), nb_knob_help(i));
	fprintf(out,
		"\n"
		"exit codes: 0 ok; 1 a knob could not be read or restored (the journal is kept; with\n"
		"--json the JSON is still whole); 2 usage error, unknown interface, or no journal.\n"
		"The paths per kernel, the --json schema and the journal's format: man nicbench,\n"
		"docs/running.md.\n");
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
		return nb_err_set(err, -EINVAL, "which action: show, counters or restore? (try 'nicbench knobs --help')");
	o->action = argv[first];
	if (first + 1 < argc)
		return nb_err_set(err, -EINVAL, "unexpected argument '%s' (try 'nicbench knobs --help')", argv[first + 1]);
	return 0;
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

/* A knob's value: a number where the knob is numeric, as in the report; lists stay text. */
static void show_value(struct nb_print *p, const char *name, const char *value)
{
	unsigned long long num;

	if (nb_knob_value_number(name, value, &num))
		nb_print_uint(p, NB_PRINT_JSON, "value", NULL, num);
	else
		nb_print_string(p, NB_PRINT_JSON, "value", NULL, value);
	nb_print_plain(p, "%s\n", value);
}

/* One knob: its value, or null with the reason ("missing is not zero"). 1 when reading failed. */
static int show_knob(struct nb_print *p, const struct nb_knob_target *t, const char *name)
{
	char value[NB_KNOB_VALUE_MAX];
	struct nb_err err = { 0 };
	int rc = nb_knob_read(t, name, value, sizeof(value), &err);
	const char *why = nb_knob_unsupported(rc) ? "unsupported" : "error";

	nb_print_open_object(p, name);
	nb_print_plain(p, "  %-21s ", name);
	if (rc == 0) {
		show_value(p, name, value);
	} else {
		nb_print_null(p, NB_PRINT_JSON, "value", NULL, NULL);
		nb_print_string(p, NB_PRINT_JSON, why, NULL, err.msg);
		nb_print_plain(p, "%s: ", why);
		nb_print_plain(p, "%s\n", reason_only(&err, name, t->iface));
	}
	nb_print_close_object(p);
	return rc && !nb_knob_unsupported(rc);
}

/* A column of the NAPI table: the number, or null / "-" when the kernel did not give it. */
static void napi_column(struct nb_print *p, const char *key, int width, bool has, unsigned long long v)
{
	char fmt[16];

	if (has) {
		snprintf(fmt, sizeof(fmt), "%%-%dllu ", width);
		nb_print_uint(p, NB_PRINT_ANY, key, fmt, v);
	} else {
		snprintf(fmt, sizeof(fmt), "%%-%ds ", width);
		nb_print_null(p, NB_PRINT_ANY, key, fmt, "-");
	}
}

static void napi_queues(struct nb_print *p, const char *key, const char *prefix, const uint32_t *q, int n,
			bool first)
{
	nb_print_open_array(p, key);
	for (int i = 0; i < n; i++) {
		nb_print_uint(p, NB_PRINT_JSON, NULL, NULL, q[i]);
		nb_print_plain(p, first && i == 0 ? "%s" : ",%s", prefix);
		nb_print_plain(p, "%u", q[i]);
	}
	nb_print_close_array(p);
}

static void show_napi(struct nb_print *p, const struct nb_napi_info *ni)
{
	nb_print_open_object(p, NULL);
	nb_print_uint(p, NB_PRINT_ANY, "id", "  %-8llu ", ni->n.id);
	napi_column(p, "irq", 6, ni->n.has_irq, ni->n.irq);
	if (ni->irq_cpus[0])
		nb_print_string(p, NB_PRINT_ANY, "irq_cpus", "%-9s ", ni->irq_cpus);
	else
		nb_print_null(p, NB_PRINT_ANY, "irq_cpus", "%-9s ", "-");
	napi_column(p, "pid", 8, ni->n.has_pid, ni->n.pid);
	napi_column(p, "thread_cpu", 6, ni->thread_cpu >= 0, (unsigned long long)ni->thread_cpu);
	napi_column(p, "threaded", 8, ni->n.has_threaded, ni->n.threaded);
	napi_column(p, "gro_flush_timeout", 10, ni->n.has_gro, ni->n.gro_flush_timeout);
	napi_column(p, "napi_defer_hard_irqs", 6, ni->n.has_defer, ni->n.defer_hard_irqs);
	napi_column(p, "irq_suspend_timeout", 10, ni->n.has_suspend, ni->n.irq_suspend_timeout);
	napi_queues(p, "rx_queues", "rx", ni->rx_queues, ni->nrx, true);
	napi_queues(p, "tx_queues", "tx", ni->tx_queues, ni->ntx, ni->nrx == 0);
	nb_print_plain(p, "%s\n", ni->nrx + ni->ntx ? "" : "-");
	nb_print_close_object(p);
}

/* The NAPIs as napi-get lists them; in JSON always an object, with "error" when reading failed. */
static void show_napis(struct nb_print *p, const struct nb_napi_table *tab, const struct nb_err *err)
{
	nb_print_open_object(p, "napi");
	if (err) {
		nb_print_bool(p, NB_PRINT_JSON, "listed", NULL, false);
		nb_print_string(p, NB_PRINT_ANY, "error", "NAPIs: error: %s\n", err->msg);
		nb_print_open_array(p, "instances");
		nb_print_close_array(p);
		nb_print_close_object(p);
		return;
	}
	nb_print_bool(p, NB_PRINT_JSON, "listed", NULL, tab->listed);
	nb_print_bool(p, NB_PRINT_JSON, "per_napi_set", NULL, tab->per_napi_set);
	if (tab->why[0])
		nb_print_string(p, NB_PRINT_JSON, "note", NULL, tab->why);
	if (!tab->listed) {
		nb_print_plain(p, "NAPIs: not listed: %s\n", tab->why);
	} else {
		nb_print_plain(p, "NAPIs (napi-get; knobs set %s):\n",
				tab->per_napi_set ? "per NAPI with napi-set" : "through sysfs, device-wide");
		if (!tab->per_napi_set && tab->why[0])
			nb_print_plain(p, "  (%s)\n", tab->why);
		if (tab->n == 0)
			nb_print_plain(p, "  none (veth has NAPI only while up with GRO on)\n");
		else
			nb_print_plain(p, "  %-8s %-6s %-9s %-8s %-6s %-8s %-10s %-6s %-10s %s\n", "id", "irq",
					   "irq-cpus", "pid", "cpu", "threaded", "gro-flush", "defer", "irq-susp", "queues");
	}
	nb_print_open_array(p, "instances");
	for (int i = 0; i < tab->n; i++)
		show_napi(p, &tab->napi[i]);
	nb_print_close_array(p);
	nb_print_close_object(p);
}

static int knobs_show_target(const struct knobs_options *o, const struct nb_knob_target *target);

static int knobs_show(const struct knobs_options *o)
{
	struct nb_err nerr = { 0 };
	struct nb_knob_target t = { .paths = &nb_paths_live, .iface = o->iface };
	struct nb_config *cfg = NULL;
	int ret;

	if (o->config) {
		/* heap: a config holds every test and axis */
		cfg = calloc(1, sizeof(*cfg));
		if (!cfg)
			return usage_error("show: read %s: out of memory", o->config);
		nb_config_defaults(cfg);
		if (nb_config_load_file(cfg, o->config, &nerr) < 0) {
			free(cfg);
			return usage_error("show: %s", nerr.msg);
		}
		nerr.code = 0;
		if (!t.iface && cfg->iface[0])
			t.iface = cfg->iface;
		if (cfg->irq_names[0])
			t.irq_names = cfg->irq_names;
	}
	ret = knobs_show_target(o, &t);
	free(cfg);
	return ret;
}

static int knobs_show_target(const struct knobs_options *o, const struct nb_knob_target *target)
{
	struct nb_napi_table *tab;
	struct nb_err nerr = { 0 };
	struct nb_knob_target t = *target;
	struct nb_print p;
	int failures = 0, ret;

	if (!t.iface)
		return usage_error("%s", "show needs -i IFACE (or --config FILE that names the interface)");
	if (check_iface(t.iface, "show"))
		return NB_EXIT_USAGE;
	nb_print_init(&p, stdout, o->json ? NB_PRINT_JSON_PRETTY : NB_PRINT_PLAIN);
	nb_print_open_object(&p, NULL);
	nb_print_string(&p, NB_PRINT_JSON, "schema", NULL, NB_KNOBS_SCHEMA);
	nb_print_string(&p, NB_PRINT_ANY, "iface", "knobs of %s:\n", t.iface);
	nb_print_open_object(&p, "knobs");
	for (int i = 0; i < nb_knob_count(); i++)
		failures += show_knob(&p, &t, nb_knob_name(i));
	nb_print_close_object(&p);
	tab = malloc(sizeof(*tab));
	if (!tab)
		nb_err_set(&nerr, -ENOMEM, "list the NAPIs of %s: out of memory", t.iface);
	else if (nb_napi_table_read(&t, tab, &nerr) >= 0)
		nerr.code = 0;
	failures += nerr.code != 0;
	show_napis(&p, tab, nerr.code ? &nerr : NULL);
	nb_print_close_object(&p);
	free(tab);
	ret = nb_print_finish(&p);
	if (ret) {
		fprintf(stderr, "nicbench knobs: show %s: write the output: %s\n", t.iface, strerror(-ret));
		return NB_EXIT_FAIL;
	}
	return failures ? NB_EXIT_FAIL : NB_EXIT_OK;
}

static void say_stale_removed(const char *tmp, int pid, void *ctx)
{
	(void)ctx;
	printf("removed %s: a half-written report left by process %d, which is gone\n", tmp, pid);
}

/* The killed run's report, from its record; the record goes once the report holds it. A record
 * already gone (the run ended normally, or an earlier restore wrote it) is not an error. */
static int assemble_record(const char *record, const struct nb_journal *j, int restore_rc, const char *restore_error)
{
	struct nb_assembly_info info;
	struct nb_err err = { 0 };

	if (!record[0] || access(record, F_OK) < 0)
		return 0;
	if (nb_report_assemble_restored(record, j, restore_rc, restore_error, &info, &err) < 0) {
		fprintf(stderr, "nicbench knobs: restore: report from %s: %s (the record is kept)\n", record, err.msg);
		return -1;
	}
	printf("wrote report %s from %s: %d point%s, %d incomplete%s\n", info.report_path, record, info.points,
	       info.points == 1 ? "" : "s", info.incomplete, info.torn ? "; a record the kill cut short was dropped" : "");
	/* the killed writer's temporary file, now that the report it was writing is in place */
	nb_report_remove_stale_temps(info.report_path, say_stale_removed, NULL);
	if (unlink(record) < 0)
		fprintf(stderr, "nicbench knobs: restore: remove %s: %s\n", record, strerror(errno));
	else
		nb_fsync_parent(record);
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
	if (nb_journal_restore_keep(j, &err)) {
		fprintf(stderr, "nicbench knobs: restore %s: %s\n", iface, err.msg);
		/* the knobs come first; the report is still worth writing */
		assemble_record(record, j, err.code, err.msg);
		nb_journal_free(j);
		return NB_EXIT_FAIL;
	}
	/* The journal goes last: killed before the report is durable, this command can be run
	 * again and finds the record through it. */
	if (assemble_record(record, j, 0, NULL)) {
		nb_journal_free(j);
		printf("restored %d knob%s on %s; kept %s: it names the record, so this command can try again "
		       "(remove both to give up on that report)\n", n, n == 1 ? "" : "s", iface,
		       path);
		return NB_EXIT_FAIL;
	}
	if (nb_journal_remove(j, &err)) {
		fprintf(stderr, "nicbench knobs: restore %s: %s\n", iface, err.msg);
		return NB_EXIT_FAIL;
	}
	printf("restored %d knob%s on %s; removed %s\n", n, n == 1 ? "" : "s", iface, path);
	return NB_EXIT_OK;
}

/* `knobs counters`: one snapshot of what nb_counters_begin/end read, as text. The ethtool -S
 * lines are "name value", so a capture of a real driver's serves as a test fixture as it is. */
static int knobs_counters(const struct knobs_options *o)
{
	struct nb_eth_stats_snap eth = { 0 };
	struct nb_pp_snap *pp;
	unsigned int ifindex;
	int rc = NB_EXIT_OK;

	if (!o->iface)
		return usage_error("%s", "counters needs -i IFACE");
	if (check_iface(o->iface, "counters"))
		return NB_EXIT_USAGE;
	pp = calloc(1, sizeof(*pp));
	if (!pp) {
		fprintf(stderr, "nicbench knobs: counters %s: out of memory\n", o->iface);
		return NB_EXIT_FAIL;
	}
	nb_eth_stats_snapshot(o->iface, NULL, &eth);
	if (eth.present) {
		printf("# ethtool -S %s: %d counters\n", o->iface, eth.n);
		for (int i = 0; i < eth.n; i++)
			printf("%.*s %llu\n", NB_ETH_NAME_LEN, eth.names[i], (unsigned long long)eth.v[i]);
	} else {
		printf("# ethtool -S %s: none: %s\n", o->iface, eth.why);
	}
	ifindex = if_nametoindex(o->iface);
	nb_pp_snapshot(o->iface, ifindex, NULL, pp);
	if (pp->present) {
		printf("# page_pool of %s over netdev netlink: %d pool%s%s%s\n", o->iface, pp->n, pp->n == 1 ? "" : "s",
		       pp->stats ? "" : "; no counters: ", pp->stats ? "" : pp->stats_why);
		for (int i = 0; i < pp->n; i++) {
			const struct nb_page_pool *p = &pp->pool[i];

			printf("#   pool %llu", (unsigned long long)p->id);
			if (p->has_napi)
				printf(" napi %llu", (unsigned long long)p->napi_id);
			if (p->has_inflight)
				printf(" inflight %llu", (unsigned long long)p->inflight);
			for (int c = 0; c < NB_PP_COUNTERS; c++) {
				if (p->present & (1u << c))
					printf(" %s %llu", nb_pp_counter_names[c], (unsigned long long)p->v[c]);
			}
			printf("\n");
		}
	} else if (eth.present && nb_eth_lists_page_pool(&eth)) {
		printf("# page_pool of %s: its ethtool -S rx_pp_* counters above (netdev netlink: %s)\n", o->iface,
		       pp->why);
	} else {
		printf("# page_pool of %s: none: %s\n", o->iface, pp->why);
	}
	if (fflush(stdout)) {
		fprintf(stderr, "nicbench knobs: counters %s: write the output: %s\n", o->iface, strerror(errno));
		rc = NB_EXIT_FAIL;
	}
	nb_eth_stats_snap_release(&eth);
	free(pp);
	return rc;
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
	if (!strcmp(o.action, "counters"))
		return knobs_counters(&o);
	if (!strcmp(o.action, "restore"))
		return knobs_restore(&o);
	return usage_error("unknown action '%s' (show, counters or restore)", o.action);
}
