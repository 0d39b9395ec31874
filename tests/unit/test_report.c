// SPDX-License-Identifier: MIT
/* Report round trip: structs -> JSON file -> parsed back; stats; missing stays missing. */
#include <jansson.h>
#include <math.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"
#include "nb_test.h"
#include "config/plan.h"
#include "render/run_table.h"
#include "report/report.h"
#include "kit/stats.h"

static void test_stats(void)
{
	static const struct { double v[6]; int n; double median, mean, min, max, sd; } cases[] = {
		{ { 3, 1, 2 }, 3, 2, 2, 1, 3, 1 },
		{ { 4, 1, 3, 2 }, 4, 2.5, 2.5, 1, 4, 1.2909944487 },
		{ { 7 }, 1, 7, 7, 7, 7, 0 },
		{ { 0 }, 0, 0, 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_stats st;

		nb_stats_compute(cases[i].v, cases[i].n, &st);
		CHECK(st.n == cases[i].n);
		CHECK_NEAR(st.median, cases[i].median, 1e-9);
		CHECK_NEAR(st.mean, cases[i].mean, 1e-9);
		CHECK_NEAR(st.min, cases[i].min, 1e-9);
		CHECK_NEAR(st.max, cases[i].max, 1e-9);
		CHECK_NEAR(st.stddev, cases[i].sd, 1e-9);
	}
}

static void fill_run(struct nb_run_record *run, enum nb_run_status st, double tput, bool with_napi)
{
	memset(run, 0, sizeof(*run));
	run->status = st;
	if (st != NB_RUN_OK) {
		snprintf(run->error, sizeof(run->error), "connect to 10.0.0.2:5201: Connection refused");
		return;
	}
	nb_metrics_put(&run->metrics, "throughput_bps", tput);
	nb_metrics_put(&run->metrics, "cpu_busy_pct", 50);
	/* the iperf3 server at 95% of a core when NAPI figures are there: peer-bound below */
	nb_metrics_put(&run->metrics, "iperf_remote_cpu_pct", with_napi ? 95 : 20);
	if (with_napi)
		nb_metrics_put(&run->metrics, "napi_thread_pct", 12.5);
	/* and /proc/stat missing 12% of the time: the table's note below */
	nb_metrics_put(&run->metrics, "cpu_unaccounted_pct", with_napi ? 12 : 1);
	/* and the VM's host taking 7% of the CPUs: the table's steal note */
	nb_metrics_put(&run->metrics, "steal_pct", with_napi ? 7 : 0.5);
	run->iperf_json = strdup("{\"end\": {\"sum_received\": {\"bits_per_second\": 1}}}");
	run->nsamples = 2;
	run->samples = calloc(2, sizeof(*run->samples));
	for (int i = 0; i < 2; i++) {
		run->samples[i].t = 0.1 * (i + 1);
		for (int f = 0; f < NB_SERIES_FIELDS; f++)
			run->samples[i].v[f] = f == NB_SERIES_NAPI_THREAD ? NAN : 10.0 * f;
	}
}

static void test_round_trip(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_host_info host = { .hostname = "board", .release = "6.1.192", .version = "#1", .cpus = 1 };
	struct nb_iface_info iface = { .name = "eth0", .driver = "ravb", .mtu = 1500, .speed_mbps = -1 };
	struct nb_err err = { 0 };
	struct nb_report *r = NULL;
	struct nb_plan plan;
	struct nb_point_result pr[2];
	char path[] = "/tmp/nb-test-report-XXXXXX";
	json_error_t jerr;
	json_t *root, *res, *m;
	int fd = mkstemp(path);

	close(fd);
	nb_config_defaults(cfg);
	snprintf(cfg->iface, sizeof(cfg->iface), "eth0");
	snprintf(cfg->peer_host, sizeof(cfg->peer_host), "10.0.0.2");
	nb_config_set_tests(cfg, "tcp-rx", &err);
	nb_config_add_knob_axis(cfg, "threaded=0,1", &err);
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(nb_report_new(cfg, &host, &iface, &r, &err) == 0);

	/* point 1: three ok runs, napi metric only in two of them */
	memset(pr, 0, sizeof(pr));
	pr[0].point = &plan.points[0];
	pr[0].nknobs = 1;
	snprintf(pr[0].readback[0].name, NB_KNOB_NAME_MAX, "threaded");
	snprintf(pr[0].readback[0].value, NB_KNOB_VALUE_MAX, "0");
	pr[0].runs = calloc(3, sizeof(*pr[0].runs));
	pr[0].nruns = 3;
	fill_run(&pr[0].runs[0], NB_RUN_OK, 9e8, true);
	fill_run(&pr[0].runs[1], NB_RUN_OK, 9.4e8, false);
	fill_run(&pr[0].runs[2], NB_RUN_OK, 9.2e8, true);
	nb_point_result_settle(&pr[0]);
	CHECK(pr[0].status == NB_POINT_OK);
	/* point 2: one failed run makes the point failed */
	pr[1].point = &plan.points[1];
	pr[1].runs = calloc(2, sizeof(*pr[1].runs));
	pr[1].nruns = 2;
	fill_run(&pr[1].runs[0], NB_RUN_OK, 1e9, false);
	fill_run(&pr[1].runs[1], NB_RUN_FAILED, 0, false);
	nb_point_result_settle(&pr[1]);
	CHECK(pr[1].status == NB_POINT_FAILED);
	/* an optional step that failed is a note, once however often it failed */
	nb_point_result_note(&pr[1], "napi table missing: %s", "netlink: Operation not supported");
	nb_point_result_note(&pr[1], "napi table missing: %s", "netlink: Operation not supported");
	CHECK(strstr(pr[1].error, "run 2: connect") != NULL);
	for (int i = 0; i < 2; i++) {
		CHECK(nb_report_add_point(r, &pr[i], &err) == 0);
		nb_point_result_release(&pr[i]);
	}
	CHECK(nb_report_write(r, path, &err) == 0);

	root = json_load_file(path, 0, &jerr);
	CHECK(root != NULL);
	if (!root)
		goto out;
	CHECK_STR(json_string_value(json_object_get(root, "schema")), "nicbench-report/1");
	CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(root, "host"), "kernel"),
						    "release")), "6.1.192");
	CHECK(json_is_null(json_object_get(json_object_get(root, "interface"), "speed_mbps")));
	CHECK(json_is_null(json_object_get(json_object_get(json_object_get(root, "host"), "kernel"), "config_hash")));
	res = json_object_get(root, "results");
	CHECK(json_array_size(res) == 2);
	CHECK_STR(json_string_value(json_object_get(json_array_get(res, 0), "id")), "tcp-rx/threaded=0");
	CHECK(json_is_integer(json_object_get(json_object_get(json_array_get(res, 0), "knobs"), "threaded")) &&
	      json_integer_value(json_object_get(json_object_get(json_array_get(res, 0), "knobs"), "threaded")) == 0);
	m = json_object_get(json_object_get(json_array_get(res, 0), "metrics"), "throughput_bps");
	CHECK_NEAR(json_real_value(json_object_get(m, "median")), 9.2e8, 1);
	CHECK(json_integer_value(json_object_get(m, "n")) == 3);
	CHECK(json_array_size(json_object_get(m, "values")) == 3);
	/* a metric measured in two runs aggregates over two, not three with a zero */
	m = json_object_get(json_object_get(json_array_get(res, 0), "metrics"), "napi_thread_pct");
	CHECK(json_integer_value(json_object_get(m, "n")) == 2);
	CHECK(json_object_get(json_object_get(json_array_get(res, 0), "metrics"), "lost_percent") == NULL);
	/* raw samples: an all-NAN column is left out */
	json_t *samples = json_object_get(json_array_get(json_object_get(json_array_get(res, 0), "runs"), 0), "samples");
	CHECK(json_array_size(json_object_get(samples, "t")) == 2);
	CHECK(json_object_get(samples, "napi_thread_pct") == NULL);
	CHECK(json_object_get(json_array_get(json_object_get(json_array_get(res, 0), "runs"), 0), "iperf") != NULL);
	/* point 1: remote CPU median of 95, 20, 95 is 95: flagged; point 2: 20: not */
	CHECK(json_is_true(json_object_get(json_array_get(res, 0), "peer_bound")));
	CHECK(json_object_get(json_array_get(res, 1), "peer_bound") == NULL);
	CHECK_STR(json_string_value(json_object_get(json_array_get(res, 1), "status")), "failed");
	CHECK(json_object_get(json_array_get(res, 1), "error") != NULL);
	CHECK(json_object_get(json_array_get(res, 0), "notes") == NULL);
	m = json_object_get(json_array_get(res, 1), "notes");
	CHECK(json_array_size(m) == 1);
	CHECK_STR(json_string_value(json_array_get(m, 0)) ? json_string_value(json_array_get(m, 0)) : "",
		  "napi table missing: netlink: Operation not supported");
	/* every point has a bottleneck: point 1's peer at 95% of a core, point 2 failed and is not judged */
	m = json_object_get(json_array_get(res, 0), "bottleneck");
	CHECK_STR(json_string_value(json_object_get(m, "code")), "peer");
	CHECK(strstr(json_string_value(json_object_get(m, "sentence")), "95% of a core") != NULL);
	CHECK_NEAR(json_number_value(json_object_get(json_object_get(m, "figures"), "iperf_remote_cpu_pct")), 95, 1e-9);
	CHECK_STR(json_string_value(json_object_get(json_object_get(json_array_get(res, 1), "bottleneck"), "code")),
		  "no-data");
	json_decref(root);

	/* the table, read back from the written report as `run` prints it: one row per point, and the
	 * note for point 1's median of 12% unaccounted only */
	char *table = NULL;
	size_t table_len = 0;
	FILE *mem = open_memstream(&table, &table_len);

	CHECK(mem != NULL);
	if (mem) {
		CHECK(nb_render_run_table(mem, path, &err) == 0);
		fclose(mem);
		CHECK(strstr(table, "tcp-rx/threaded=0 ") != NULL && strstr(table, "tcp-rx/threaded=1 ") != NULL);
		CHECK(strstr(table, "note: in 1 point /proc/stat missed up to 12% of the CPU time") != NULL);
		CHECK(strstr(table, "note: in 1 point the VM's host took a median of up to 7% of the CPUs (steal_pct)") !=
		      NULL);
		CHECK(strstr(table, "note: in 1 point an optional step gave nothing (the report's notes), first: napi "
			     "table missing: netlink: Operation not supported\n") != NULL);
		CHECK(strstr(table, "bottleneck") != NULL && strstr(table, " peer ") != NULL &&
		      strstr(table, " no-data ") != NULL);
		free(table);
	}

	/* an unwritable path fails with the path in the message, and no temp file is left */
	CHECK(nb_report_write(r, "/nonexistent-dir/report.json", &err) < 0);
	CHECK(strstr(err.msg, "/nonexistent-dir/report.json") != NULL);
out:
	unlink(path);
	nb_report_free(r);
	nb_plan_free(&plan);
	free(cfg);
}

static void put_run(struct nb_run_record *run, double host_cpu, double other)
{
	memset(run, 0, sizeof(*run));
	run->status = NB_RUN_OK;
	nb_metrics_put(&run->metrics, "throughput_bps", 1e9);
	nb_metrics_put(&run->metrics, "iperf_host_cpu_pct", host_cpu);
	nb_metrics_put(&run->metrics, "cpu_other_pct", other);
}

/* sender-bound? on TX points only, disturbed runs counted and marked, the idle check and
 * --redact in the JSON, and the table's legend and notes. */
static void test_flags_and_redact(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_host_info host = { .hostname = "lab-box-7", .release = "6.1.192", .version = "#1",
				     .cmdline = "root=/dev/mmcblk0p2 secret=1", .cpus = 2 };
	struct nb_iface_info iface = { .name = "eth0", .driver = "ravb", .mtu = 1500, .speed_mbps = -1 };
	struct nb_idle_check ic = { .seconds = 1.0, .busy_present = true, .busy_pct = 48, .nbusiest = 1 };
	struct nb_err err = { 0 };
	struct nb_report *r = NULL;
	struct nb_point_result pr[2];
	struct nb_plan plan;
	char *text, *table = NULL;
	size_t table_len = 0;
	json_t *root, *res;

	ic.busiest[0].pid = 4242;
	ic.busiest[0].core_pct = 97;
	snprintf(ic.busiest[0].comm, sizeof(ic.busiest[0].comm), "qemu-system-x86");
	nb_config_defaults(cfg);
	snprintf(cfg->iface, sizeof(cfg->iface), "eth0");
	snprintf(cfg->peer_host, sizeof(cfg->peer_host), "10.0.0.2");
	cfg->redact = true;
	nb_config_set_tests(cfg, "tcp-tx,tcp-rx", &err);
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(nb_report_new(cfg, &host, &iface, &r, &err) == 0);
	nb_report_set_idle_check(r, &ic);
	memset(pr, 0, sizeof(pr));
	for (int i = 0; i < 2; i++) {
		pr[i].point = &plan.points[i];
		pr[i].runs = calloc(3, sizeof(*pr[i].runs));
		pr[i].nruns = 3;
		/* the iperf3 child at 99% of a core: bound on tcp-tx, not a flag on tcp-rx */
		put_run(&pr[i].runs[0], 99, i ? 1 : 30);
		put_run(&pr[i].runs[1], 98, 2);
		put_run(&pr[i].runs[2], 99, i ? 3 : 40);
		nb_point_result_settle(&pr[i]);
		CHECK(nb_report_add_point(r, &pr[i], &err) == 0);
		nb_point_result_release(&pr[i]);
	}
	text = nb_report_dumps(r);
	root = text ? json_loads(text, 0, NULL) : NULL;
	CHECK(root != NULL);
	if (root) {
		json_t *h = json_object_get(root, "host");

		CHECK(!strstr(text, "lab-box-7") && !strstr(text, "secret=1"));
		CHECK_STR(json_string_value(json_object_get(h, "hostname")), NB_REDACTED);
		CHECK_STR(json_string_value(json_object_get(json_object_get(h, "kernel"), "cmdline")), NB_REDACTED);
		CHECK(json_array_size(json_object_get(h, "redacted")) == 2);
		CHECK_NEAR(json_real_value(json_object_get(json_object_get(root, "idle_check"), "busy_pct")), 48, 1e-9);
		res = json_object_get(root, "results");
		CHECK(json_is_true(json_object_get(json_array_get(res, 0), "sender_bound")));
		CHECK(json_object_get(json_array_get(res, 1), "sender_bound") == NULL);
		CHECK(json_integer_value(json_object_get(json_array_get(res, 0), "disturbed_runs")) == 2);
		CHECK(json_object_get(json_array_get(res, 1), "disturbed_runs") == NULL);
		CHECK(json_is_true(json_object_get(json_array_get(json_object_get(json_array_get(res, 0), "runs"), 0),
						   "disturbed")));
		CHECK(json_object_get(json_array_get(json_object_get(json_array_get(res, 0), "runs"), 1), "disturbed") ==
		      NULL);
		json_decref(root);
	}
	free(text);
	char path[] = "/tmp/nb-test-flags-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(nb_report_write(r, path, &err) == 0);
	FILE *mem = open_memstream(&table, &table_len);

	CHECK(mem != NULL);
	if (mem) {
		CHECK(nb_render_run_table(mem, path, &err) == 0);
		fclose(mem);
		CHECK_MSG(strstr(table, "ok (sender-bound?) (disturbed 2/3)") != NULL, "%s", table);
		CHECK(strstr(table, "spread: (max - min) / median") != NULL);
		CHECK(strstr(table, "sender-bound?: this host's iperf3 used >= 90% of a core") != NULL);
		CHECK(strstr(table, "warning: in 1 point other programs took up to 40% of the CPU") != NULL);
		CHECK(strstr(table, "warning: the machine was 48% busy before the first point") != NULL);
		CHECK(strstr(table, "peer-bound?:") == NULL);
		free(table);
	}
	unlink(path);
	nb_report_free(r);
	nb_plan_free(&plan);
	free(cfg);
}

static void count_removed(const char *tmp, int pid, void *ctx)
{
	(void)tmp;
	(void)pid;
	(*(int *)ctx)++;
}

static void touch(const char *dir, const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

static bool there(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* A writer killed between create and rename leaves REPORT.tmp.PID: only a dead PID's goes. */
static void test_stale_temps(void)
{
	char dir[] = "/tmp/nb-stale-XXXXXX", report[128], name[64], dead_name[64], live_name[64], self_name[64];
	pid_t dead = fork();
	int removed = 0, rc;

	if (dead == 0)
		_exit(0);
	CHECK(dead > 0 && waitpid(dead, NULL, 0) == dead);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(report, sizeof(report), "%s/w.json", dir);
	snprintf(dead_name, sizeof(dead_name), "w.json.tmp.%d", (int)dead);
	snprintf(live_name, sizeof(live_name), "w.json.tmp.%d", (int)getppid());
	snprintf(self_name, sizeof(self_name), "w.json.tmp.%d", (int)getpid());
	touch(dir, dead_name);
	touch(dir, live_name);
	touch(dir, self_name);
	/* not a temporary file of w.json, whatever the number */
	snprintf(name, sizeof(name), "x.json.tmp.%d", (int)dead);
	touch(dir, name);
	touch(dir, "w.json.tmp.12abc");
	touch(dir, "w.json.tmp.");
	touch(dir, "w.json");
	rc = nb_report_remove_stale_temps(report, count_removed, &removed);
	CHECK_MSG(rc == 1 && removed == 1, "removed %d, called back %d", rc, removed);
	CHECK(!there(dir, dead_name));
	CHECK(there(dir, live_name));
	CHECK(there(dir, self_name));
	CHECK(there(dir, name));
	CHECK(there(dir, "w.json.tmp.12abc"));
	CHECK(there(dir, "w.json.tmp."));
	CHECK(there(dir, "w.json"));
	CHECK(nb_report_remove_stale_temps(report, NULL, NULL) == 0);
	/* a report directory not made yet holds no temporary file */
	snprintf(report, sizeof(report), "%s/none/w.json", dir);
	CHECK(nb_report_remove_stale_temps(report, NULL, NULL) == 0);
	nb_test_tree_remove(dir);
}

int main(void)
{
	test_stats();
	test_round_trip();
	test_flags_and_redact();
	test_stale_temps();
	return nb_test_done("test_report");
}
