// SPDX-License-Identifier: MIT
/* The run record: line framing with a torn last line, and a report assembled from a record that
 * a kill cut short (finished runs kept, the point cut short "incomplete", the torn line dropped). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

#include "compare/compare.h"
#include "config/config.h"
#include "knobs/journal.h"
#include "nb_test.h"
#include "config/plan.h"
#include "render/render.h"
#include "report/report.h"
#include "report/run_record.h"

static void raw_append(const char *path, const char *bytes)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(write(fd, bytes, strlen(bytes)) == (ssize_t)strlen(bytes));
		close(fd);
	}
}

/* Lines in, the same lines out; a tail without its newline is not a record. */
static void test_framing(void)
{
	static const struct { const char *tail; int lines; bool torn; } cases[] = {
		{ "", 3, false },
		{ "{\"type\":\"run\",\"ind", 3, true },   /* killed inside the write */
		{ "\n", 4, false },                      /* an empty line is a line (the assembler judges it) */
	};
	char dir[] = "/tmp/nb-test-record-XXXXXX";
	char path[64];
	char *big = malloc(200001);

	CHECK(mkdtemp(dir) != NULL && big != NULL);
	memset(big, 'x', 200000);
	big[200000] = '\0';
	snprintf(path, sizeof(path), "%s/r", dir);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct nb_record_writer *w;
		struct nb_record_reader *rd;
		struct nb_err err = { 0 };
		const char *line;
		size_t len;
		int n = 0, rc;

		CHECK(nb_record_create(path, &w, &err) == 0);
		CHECK(nb_record_append(w, "first", 5, &err) == 0);
		/* longer than the reader's first buffer: it must grow, not split the line */
		CHECK(nb_record_append(w, big, 200000, &err) == 0);
		CHECK(nb_record_append(w, "third", 5, &err) == 0);
		CHECK(nb_record_writer_bytes(w) == 6 + 200001 + 6);
		raw_append(path, cases[c].tail);
		CHECK(nb_record_reader_open(path, -1, &rd, &err) == 0);
		while ((rc = nb_record_next(rd, &line, &len, &err)) > 0) {
			if (n == 0)
				CHECK_STR(line, "first");
			else if (n == 1)
				CHECK(len == 200000 && line[199999] == 'x' && line[200000] == '\0');
			else if (n == 2)
				CHECK_STR(line, "third");
			else
				CHECK(len == 0);
			n++;
		}
		CHECK(rc == 0);
		CHECK_MSG(n == cases[c].lines, "case %zu: %d lines", c, n);
		CHECK(nb_record_reader_torn(rd) == cases[c].torn);
		nb_record_reader_close(rd);
		/* the writer's fd reads the same, while it is open */
		CHECK(nb_record_reader_open(NULL, nb_record_writer_fd(w), &rd, &err) == 0);
		n = 0;
		while (nb_record_next(rd, &line, &len, &err) > 0)
			n++;
		CHECK(n == cases[c].lines);
		nb_record_reader_close(rd);
		nb_record_writer_close(w, true);
		CHECK(access(path, F_OK) != 0);
	}
	/* a record that is not there is an error with the path */
	{
		struct nb_record_reader *rd;
		struct nb_err err = { 0 };

		CHECK(nb_record_reader_open("/nonexistent-dir/r", -1, &rd, &err) < 0);
		CHECK(strstr(err.msg, "/nonexistent-dir/r") != NULL);
	}
	rmdir(dir);
	free(big);
}

static void fill_run(struct nb_run_record *run, double tput)
{
	memset(run, 0, sizeof(*run));
	run->status = NB_RUN_OK;
	nb_metrics_put(&run->metrics, "throughput_bps", tput);
	nb_metrics_put(&run->metrics, "cpu_busy_pct", 40);
	run->iperf_json = strdup("{\"end\": {\"sum_received\": {\"bits_per_second\": 1}}}");
}

static json_t *point_of(json_t *root, int i)
{
	return json_array_get(json_object_get(root, "results"), (size_t)i);
}

/* Two points of two repetitions; killed after the second point's first run, in the middle of
 * writing its second: the report has point 1 ok, point 2 incomplete with its one run. */
static void test_assembly(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_host_info host = { .hostname = "board", .release = "6.1.192", .version = "#1", .cpus = 1 };
	struct nb_iface_info iface = { .name = "eth0", .driver = "ravb", .mtu = 1500, .speed_mbps = 1000 };
	struct nb_err err = { 0 };
	struct nb_report *r = NULL;
	struct nb_assembly_info info;
	struct nb_point_result pr[2];
	struct nb_plan plan;
	char dir[] = "/tmp/nb-test-assemble-XXXXXX", record[96], report[96], other[96], cmd[512];
	json_t *root, *p, *m;
	long long bytes_first = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(record, sizeof(record), "%s/report.json.record", dir);
	snprintf(report, sizeof(report), "%s/report.json", dir);
	snprintf(other, sizeof(other), "%s/other.json", dir);
	nb_config_defaults(cfg);
	cfg->repetitions = 2;
	snprintf(cfg->iface, sizeof(cfg->iface), "eth0");
	snprintf(cfg->peer_host, sizeof(cfg->peer_host), "10.0.0.2");
	nb_config_set_tests(cfg, "tcp-tx", &err);
	nb_config_add_knob_axis(cfg, "threaded=0,1", &err);
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(nb_report_new(cfg, &host, &iface, &r, &err) == 0);
	CHECK(nb_report_open_record(r, record, report, &err) == 0);
	CHECK_STR(nb_report_record_path(r), record);

	memset(pr, 0, sizeof(pr));
	for (int i = 0; i < 2; i++) {
		pr[i].point = &plan.points[i];
		pr[i].nknobs = 1;
		snprintf(pr[i].readback[0].name, NB_KNOB_NAME_MAX, "threaded");
		snprintf(pr[i].readback[0].value, NB_KNOB_VALUE_MAX, "%d", i);
		pr[i].runs = calloc(2, sizeof(*pr[i].runs));
		CHECK(nb_report_begin_point(r, &pr[i], &err) == 0);
		for (int rep = 0; rep < 2 - i; rep++) {
			long long before = nb_report_record_bytes(r);

			fill_run(&pr[i].runs[rep], 1e9 + 1e8 * (i * 2 + rep));
			pr[i].nruns++;
			CHECK(nb_report_add_run(r, &pr[i], rep, &err) == 0);
			/* what one repetition costs on disk does not depend on what came before */
			if (!bytes_first)
				bytes_first = nb_report_record_bytes(r) - before;
			else
				CHECK(nb_report_record_bytes(r) - before == bytes_first);
		}
		if (i == 0) {
			nb_point_result_settle(&pr[0]);
			CHECK(nb_report_add_point(r, &pr[0], &err) == 0);
		}
	}
	raw_append(record, "{\"type\":\"run\",\"index\":1,\"rep\":1,\"run\":{\"status\":\"ok\",\"metr");

	/* as `nicbench knobs restore` does: the report path comes from the record's header */
	CHECK(nb_report_assemble(record, NULL, &info, &err) == 0);
	CHECK_STR(info.report_path, report);
	CHECK(info.points == 2 && info.incomplete == 1 && info.torn);
	root = json_load_file(report, 0, NULL);
	CHECK(root != NULL);
	if (root) {
		CHECK_STR(json_string_value(json_object_get(root, "schema")), "nicbench-report/1");
		CHECK(json_array_size(json_object_get(root, "results")) == 2);
		p = point_of(root, 0);
		CHECK_STR(json_string_value(json_object_get(p, "status")), "ok");
		CHECK(json_array_size(json_object_get(p, "runs")) == 2);
		m = json_object_get(json_object_get(p, "metrics"), "throughput_bps");
		CHECK_NEAR(json_number_value(json_object_get(m, "median")), 1.05e9, 1);
		CHECK(json_object_get(json_array_get(json_object_get(p, "runs"), 0), "iperf") != NULL);
		p = point_of(root, 1);
		CHECK_STR(json_string_value(json_object_get(p, "id")), "tcp-tx/threaded=1");
		CHECK_STR(json_string_value(json_object_get(p, "status")), "incomplete");
		CHECK(strstr(json_string_value(json_object_get(p, "error")), "1 of 2 repetitions") != NULL);
		CHECK(json_array_size(json_object_get(p, "runs")) == 1);
		m = json_object_get(json_object_get(p, "metrics"), "throughput_bps");
		CHECK_NEAR(json_number_value(json_object_get(m, "median")), 1.2e9, 1);
		CHECK(json_integer_value(json_object_get(m, "n")) == 1);
		/* its finished run is judged, not dismissed as no data */
		CHECK(strcmp(json_string_value(json_object_get(json_object_get(p, "bottleneck"), "code")), "no-data"));
		json_decref(root);
	}
	/* an explicit output path, and the schema (python3-jsonschema) */
	CHECK(nb_report_assemble(record, other, &info, &err) == 0);
	CHECK_STR(info.report_path, other);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys,jsonschema; jsonschema.Draft202012Validator("
		 "json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' %s/../../schema/"
		 "nicbench-report.schema.json %s", getenv("NB_FIXTURES") ? getenv("NB_FIXTURES") : "tests/fixtures",
		 other);
	CHECK_MSG(system(cmd) == 0, "%s", cmd);

	/* the live report (from the open fd) matches the assembled one: point 2 incomplete too */
	{
		char *text = nb_report_dumps(r);

		root = text ? json_loads(text, 0, NULL) : NULL;
		CHECK(root != NULL);
		CHECK_STR(json_string_value(json_object_get(point_of(root, 1), "status")), "incomplete");
		json_decref(root);
		free(text);
	}

	/* not a record: a clear error, no report */
	raw_append(other, "");
	CHECK(nb_report_assemble(other, report, &info, &err) < 0);
	CHECK(strstr(err.msg, "not a nicbench run record") != NULL);

	for (int i = 0; i < 2; i++)
		nb_point_result_release(&pr[i]);
	nb_report_free(r);
	nb_plan_free(&plan);
	free(cfg);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* compare: an incomplete point is compared on its finished runs and said to be incomplete; a
 * metric only the diagnostic repetition has is loaded, shown and never gated. */
static void test_compare_sees_diagnostics(void)
{
	static const char fmt[] =
		"{\"schema\": \"nicbench-report/1\", \"results\": [{\"id\": \"tcp-rx\", \"status\": \"%s\",%s"
		" \"test\": {\"name\": \"tcp-rx\", \"direction\": \"rx\"}, \"knobs\": {},"
		" \"metrics\": {\"throughput_bps\": {\"median\": 1e9, \"values\": [1e9, 1.01e9, 0.99e9]}},"
		" \"diagnostics\": {\"status\": \"ok\", \"metrics\": {\"throughput_bps\": 0.5e9,"
		" \"napi_polls_per_s\": %g}}}]}";
	struct nb_cmp_report base, new;
	struct nb_cmp_options opt;
	struct nb_cmp_result res;
	struct nb_err err = { 0 };
	const struct nb_cmp_samples *m;
	char btext[1024], ntext[1024], *out = NULL;
	size_t outlen = 0;
	FILE *mem;

	snprintf(btext, sizeof(btext), fmt, "ok", "", 1000.0);
	snprintf(ntext, sizeof(ntext), fmt, "incomplete",
		 " \"error\": \"the run ended before this point finished: 1 of 3 repetitions recorded\",", 5000.0);
	CHECK(nb_cmp_report_parse(btext, strlen(btext), "base", &base, &err) == 0);
	CHECK_MSG(nb_cmp_report_parse(ntext, strlen(ntext), "new", &new, &err) == 0, "%s", err.msg);
	CHECK(new.n_points == 1 && new.points[0].incomplete && new.points[0].status == NB_CMP_STATUS_OK);
	CHECK(!base.points[0].incomplete);
	/* the measured throughput stays the measured one; the diagnostic polls are added */
	m = nb_cmp_point_metric(&new.points[0], "throughput_bps");
	CHECK_MSG(m && !m->diagnostic && m->n == 3, "%s: n %d diagnostic %d", ntext, m ? m->n : -1, m ? m->diagnostic : -1);
	m = nb_cmp_point_metric(&new.points[0], "napi_polls_per_s");
	CHECK(m && m->diagnostic && m->n == 1 && m->median == 5000);
	nb_cmp_options_init(&opt);
	CHECK(nb_cmp_gate_parse(&opt, "throughput_bps,napi_polls_per_s", &err) == -EINVAL); /* neutral: refused */
	CHECK(nb_cmp_gate_parse(&opt, "throughput_bps", &err) == 0);
	CHECK(nb_cmp_run(&base, &new, &opt, &res, &err) == 0);
	CHECK(res.verdict == NB_CMP_PASS);
	for (int i = 0; i < res.points[0].n_metrics; i++) {
		if (!strcmp(res.points[0].metrics[i].name, "napi_polls_per_s"))
			CHECK(!res.points[0].metrics[i].gated);
		if (!strcmp(res.points[0].metrics[i].name, "throughput_bps"))
			CHECK(res.points[0].metrics[i].gated);
	}
	mem = open_memstream(&out, &outlen);
	if (mem) {
		struct nb_cmp_render_opts ro = { 0 };

		nb_cmp_render_text(mem, &res, &ro);
		fclose(mem);
		CHECK_MSG(strstr(out, "new incomplete (compared on its finished runs): the run ended") != NULL, "%s", out);
		free(out);
	}
	nb_cmp_result_free(&res);
	nb_cmp_report_free(&base);
	nb_cmp_report_free(&new);
}

/* The journal names the run record for `nicbench knobs restore`; knob lines still load around it. */
static void test_journal_names_record(void)
{
	struct nb_knob_target t = { .paths = &nb_paths_live, .iface = "eth0" };
	char dir[] = "/tmp/nb-test-jrec-XXXXXX", path[64];
	struct nb_journal *j;
	struct nb_err err = { 0 };
	const char *knob, *value;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/j", dir);
	CHECK(nb_journal_create(path, &t, &j, &err) == 0);
	if (!j)
		return;
	CHECK(nb_journal_remember(j, "threaded", "0", &err) == 0);
	CHECK(nb_journal_note_record(j, "relative/r.json.record", &err) == -EINVAL);
	CHECK(nb_journal_note_record(j, "/tmp/dir/r.json.record", &err) == 0);
	CHECK(nb_journal_remember(j, "gro_flush_timeout", "20000", &err) == 0);
	nb_journal_free(j);
	CHECK(nb_journal_load(path, &nb_paths_live, &j, &err) == 0);
	if (j) {
		CHECK_STR(nb_journal_record(j), "/tmp/dir/r.json.record");
		CHECK(nb_journal_count(j) == 2);
		CHECK(nb_journal_entry(j, 1, &knob, &value) == 0);
		CHECK_STR(knob, "gro_flush_timeout");
		nb_journal_free(j);
	}
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_journal_names_record();
	test_framing();
	test_assembly();
	test_compare_sees_diagnostics();
	return nb_test_done("run_record");
}
