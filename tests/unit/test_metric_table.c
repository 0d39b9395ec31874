// SPDX-License-Identifier: MIT
/* The metric table: every row complete, lookups by name and placeholder, docs/report.md in step.
 * `test_metric_table --print` prints the Markdown that docs/report.md's metric list holds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kit/metric_table.h"
#include "nic/netdev_nl.h"
#include "nic/page_pool.h"
#include "nb_test.h"

static void test_rows_complete(void)
{
	for (int i = 0; i < nb_metric_rows(); i++) {
		const struct nb_metric_def *d = nb_metric_row(i);
		const char *open = strchr(d->name, '{');

		CHECK_MSG(d->name[0] && d->unit && d->unit[0] && d->source && d->source[0] && d->doc && d->doc[0],
			  "row %d (%s) lacks a unit, source or doc", i, d->name);
		CHECK_MSG(!d->gate || d->direction != NB_METRIC_NEUTRAL, "%s: gated but neutral", d->name);
		CHECK_MSG(d->floor.kind == NB_METRIC_FLOOR_NONE || (d->floor.family && d->floor.value > 0 && d->floor.unit),
			  "%s: a floor without family, value or unit", d->name);
		CHECK_MSG(!d->floor.family || nb_metric_floor_family_known(d->floor.family), "%s", d->name);
		CHECK_MSG(!open || !strncmp(open, "{N}", 3) || !strncmp(open, "{name}", 6), "%s: unknown placeholder",
			  d->name);
		CHECK_MSG(!open || !strchr(open + 1, '{'), "%s: more than one placeholder", d->name);
		CHECK_MSG(strlen(d->name) < 48, "%s: longer than a report's metric name", d->name);
		for (int j = 0; j < i; j++)
			CHECK_MSG(strcmp(nb_metric_row(j)->name, d->name), "%s: two rows", d->name);
		/* an exact row finds itself, not a placeholder row before it */
		CHECK_MSG(open || nb_metric_lookup(d->name) == d, "%s: lookup finds another row", d->name);
	}
	CHECK(nb_metric_row(-1) == NULL && nb_metric_row(nb_metric_rows()) == NULL);
}

static void test_lookup(void)
{
	static const struct {
		const char *name, *row; /* row NULL: unknown */
	} cases[] = {
		{ NB_M_THROUGHPUT_BPS, "throughput_bps" },
		{ "cpu0_user_pct", "cpu{N}_user_pct" },
		{ "cpu127_softirq_pct", "cpu{N}_softirq_pct" },
		{ "cpu3_net_rx_softirq_ns_per_s", "cpu{N}_net_rx_softirq_ns_per_s" },
		{ "cpu_user_pct", NULL },       /* no digits where {N} stands */
		{ "cpuX_user_pct", NULL },
		{ "cpu1x_user_pct", NULL },
		{ "user_pct", "user_pct" },
		{ "throughput", NULL },
		{ "throughput_bps_", NULL },
		{ "", NULL },
		{ "rtt_p50_us", NULL },         /* a pattern once matched it: names are known, not guessed */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct nb_metric_def *d = nb_metric_lookup(cases[i].name);

		if (!cases[i].row)
			CHECK_MSG(!d, "%s: found row %s", cases[i].name, d ? d->name : "");
		else
			CHECK_MSG(d && !strcmp(d->name, cases[i].row), "%s: row %s, expected %s", cases[i].name,
				  d ? d->name : "none", cases[i].row);
	}
	/* {name}: no row uses it yet (ethtool -S counters will) */
	CHECK(nb_metric_name_fits("ethtool_{name}", "ethtool_rx_fifo_errors"));
	CHECK(nb_metric_name_fits("ethtool_{name}_drops", "ethtool_q0_drops"));
	CHECK(!nb_metric_name_fits("ethtool_{name}", "ethtool_"));
	CHECK(!nb_metric_name_fits("ethtool_{name}_drops", "ethtool_drops"));
	CHECK(!nb_metric_name_fits("ethtool_{name}", "ethtoo_x"));
	CHECK(nb_metric_name_fits("cpu{N}_busy_pct", "cpu0_busy_pct") && !nb_metric_name_fits("cpu{N}_busy_pct", "cpu_busy_pct"));
	CHECK(nb_metric_name_fits("user_pct", "user_pct") && !nb_metric_name_fits("user_pct", "user_pc"));
	CHECK(nb_metric_direction_of("no_such_metric") == NB_METRIC_NEUTRAL);
	CHECK(nb_metric_floor_of("no_such_metric").kind == NB_METRIC_FLOOR_NONE);
	CHECK(nb_metric_floor_family_known("cpu") && nb_metric_floor_family_known("drops"));
	CHECK(!nb_metric_floor_family_known("cpus") && !nb_metric_floor_family_known(""));
	const char *near = nb_metric_nearest("throughput_bsp");

	CHECK_MSG(near && !strcmp(near, "throughput_bps"), "nearest to throughput_bsp: %s", near ? near : "none");
	near = nb_metric_nearest("rx_packet_per_s");
	CHECK_MSG(near && !strcmp(near, "rx_packets_per_s"), "nearest to rx_packet_per_s: %s", near ? near : "none");
	CHECK(nb_metric_nearest("zzzzzzzzzzzz") == NULL);
}

/* The names code spells through NB_M_* and every qstats counter nicbench can write have rows:
 * a counter added to netdev_nl.c without one fails here. */
static void test_emitted_names_known(void)
{
	static const char *const named[] = {
		NB_M_THROUGHPUT_BPS, NB_M_THROUGHPUT_SENT_BPS, NB_M_BITS_PER_CPU_SECOND, NB_M_CPU_BUSY_PCT,
		NB_M_CPU_OTHER_PCT, NB_M_STEAL_PCT, NB_M_IRQ_PCT, NB_M_SOFTIRQ_PCT, NB_M_NAPI_THREAD_PCT,
		NB_M_TRAFFIC_PROC_PCT, NB_M_PEER_PROC_PCT, NB_M_NICBENCH_CPU_MS_PER_S, NB_M_IPERF_HOST_CPU_PCT,
		NB_M_IPERF_REMOTE_CPU_PCT, NB_M_INTERRUPTS_PER_S, NB_M_NAPI_POLLS_PER_S, NB_M_RX_PACKETS_PER_S,
		NB_M_TX_PACKETS_PER_S, NB_M_RR_TRANSACTIONS_PER_S, NB_M_RR_LATENCY_P50_US, NB_M_RR_LATENCY_P99_US,
	};
	char name[64];

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		CHECK_MSG(nb_metric_lookup(named[i]) != NULL, "%s has no row", named[i]);
	for (int c = 0; c < NB_QSTAT_COUNT; c++) {
		snprintf(name, sizeof(name), "qstats_%s", nb_qstat_names[c]);
		CHECK_MSG(nb_metric_lookup(name) != NULL, "%s has no row", name);
	}
	for (int c = 0; c < NB_PP_COUNTERS; c++) {
		snprintf(name, sizeof(name), "pp_%s", nb_pp_counter_names[c]);
		CHECK_MSG(nb_metric_lookup(name) != NULL, "%s has no row", name);
	}
	CHECK(nb_metric_lookup("pp_inflight_pages") && nb_metric_lookup("pp_recycle_pct"));
	CHECK(nb_metric_lookup("rx_missed_errors") && nb_metric_lookup("rx_fifo_errors"));
}

/* A row's unit kind agrees with its unit in words: two rows with the same words have the same
 * kind, so render/ prints alike what the doc calls alike. The flags sit where compare needs them. */
static void test_unit_kinds(void)
{
	for (int i = 0; i < nb_metric_rows(); i++) {
		const struct nb_metric_def *d = nb_metric_row(i);

		CHECK_MSG(d->kind != NB_UNIT_NUMBER, "%s: no unit kind", d->name);
		for (int j = 0; j < i; j++) {
			const struct nb_metric_def *e = nb_metric_row(j);

			CHECK_MSG(strcmp(d->unit, e->unit) || d->kind == e->kind, "%s and %s: unit \"%s\", two kinds",
				  d->name, e->name, d->unit);
		}
		CHECK_MSG(!(d->flags & NB_METRIC_FOLLOWS_WORK) || d->direction == NB_METRIC_LOWER_BETTER,
			  "%s: a cost that follows the work is lower-better", d->name);
		CHECK_MSG(!(d->flags & NB_METRIC_SHOWN_BARE) || nb_metric_kind_is_pct(d->kind), "%s", d->name);
	}
	CHECK(nb_metric_kind_of(NB_M_THROUGHPUT_BPS) == NB_UNIT_BIT_PER_S);
	CHECK(nb_metric_kind_of("cpu3_softirq_pct") == NB_UNIT_PCT_CPU);
	CHECK(nb_metric_kind_of(NB_M_RX_PACKETS_PER_S) == NB_UNIT_PACKET_PER_S);
	CHECK(nb_metric_kind_of("no_such_pct") == NB_UNIT_NUMBER);
	CHECK(nb_metric_has_flag("rx_dropped", NB_METRIC_COUNTS_LOSSES));
	CHECK(nb_metric_has_flag("lost_percent", NB_METRIC_COUNTS_LOSSES));
	CHECK(nb_metric_has_flag(NB_M_CPU_BUSY_PCT, NB_METRIC_FOLLOWS_WORK));
	CHECK(!nb_metric_has_flag(NB_M_THROUGHPUT_BPS, NB_METRIC_COUNTS_LOSSES | NB_METRIC_FOLLOWS_WORK));
	CHECK(!nb_metric_has_flag("no_such_metric", NB_METRIC_COUNTS_LOSSES));
}

/* The family builders: a member's name from its row's pattern and back, and every CPU share's
 * names have rows. */
static void test_family_names(void)
{
	char buf[64];
	int n = -1;

	CHECK(nb_metric_name_n(buf, sizeof(buf), nb_metric_cpu_share(NB_SHARE_BUSY, true), 12) == 0);
	CHECK_STR(buf, "cpu12_busy_pct");
	CHECK(nb_metric_name_n(buf, sizeof(buf), NB_M_IRQ_N_PER_S, 24) == 0);
	CHECK_STR(buf, "irq24_per_s");
	CHECK(nb_metric_name_n(buf, 6, NB_M_IRQ_N_PER_S, 24) == -ENAMETOOLONG);
	CHECK(nb_metric_name_n(buf, sizeof(buf), NB_M_THROUGHPUT_BPS, 1) == -EINVAL);
	CHECK(nb_metric_name_number(nb_metric_cpu_share(NB_SHARE_BUSY, true), "cpu3_busy_pct", &n) && n == 3);
	CHECK(!nb_metric_name_number(nb_metric_cpu_share(NB_SHARE_BUSY, true), "cpu_busy_pct", &n));
	CHECK(!nb_metric_name_number(nb_metric_cpu_share(NB_SHARE_BUSY, true), "cpu3_user_pct", &n));
	for (int k = 0; k < NB_CPU_SHARES; k++) {
		const char *whole = nb_metric_cpu_share((enum nb_cpu_share)k, false);

		CHECK(nb_metric_name_n(buf, sizeof(buf), nb_metric_cpu_share((enum nb_cpu_share)k, true), 0) == 0);
		CHECK_MSG(nb_metric_lookup(buf) && nb_metric_lookup(buf)->kind == NB_UNIT_PCT_CPU, "%s", buf);
		CHECK_MSG(whole && nb_metric_kind_of(whole) == NB_UNIT_PCT_MACHINE, "%s", whole ? whole : "share");
	}
	CHECK(nb_metric_cpu_share(NB_CPU_SHARES, false) == NULL);
}

static char *read_text(const char *path)
{
	char *text = NULL, buf[4096];
	size_t len = 0, n;
	FILE *in = fopen(path, "r"), *mem;

	if (!in)
		return NULL;
	mem = open_memstream(&text, &len);
	while (mem && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, mem);
	if (mem)
		fclose(mem);
	fclose(in);
	return text;
}

/* docs/report.md lists every metric as the table has it: a row added without its doc line fails. */
static void test_documented(void)
{
	char *table = NULL, *doc = read_text(nb_test_fixture("../../docs/report.md"));
	size_t len = 0;
	FILE *out = open_memstream(&table, &len);

	CHECK(out && nb_metric_table_markdown(out) == 0);
	if (out)
		fclose(out);
	CHECK_MSG(doc != NULL, "open docs/report.md");
	CHECK_MSG(table && doc && strstr(doc, table),
		  "docs/report.md lacks the metric list as the table has it; `test_metric_table --print` prints it:\n%s",
		  table ? table : "");
	free(table);
	free(doc);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--print"))
		return nb_metric_table_markdown(stdout) ? 1 : 0;
	test_rows_complete();
	test_lookup();
	test_emitted_names_known();
	test_unit_kinds();
	test_family_names();
	test_documented();
	return nb_test_done("test_metric_table");
}
