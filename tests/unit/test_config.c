// SPDX-License-Identifier: MIT
/* Config validation, flag parsing and plan ids: table-driven cases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "nb_test.h"
#include "config/plan.h"
#include "cli/run_options.h"

static char *write_temp(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/nb-test-config-XXXXXX");
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

struct file_case {
	const char *json;
	int want_rc;
	const char *want_key;    /* the message must name the key ... */
	const char *want_reason; /* ... and say why */
};

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* One row per error path of the config file's loader (config_json.c), plus the accepted forms.
 * A reason that a helper wrote (knob values, peer strings) used to be formatted from itself. */
static void test_config_files(void)
{
	static const struct file_case cases[] = {
		{ "{\"interface\": \"eth0\", \"peer\": \"10.0.0.2:5202\"}", 0, NULL, NULL },
		{ "{\"interface\": \"eth0\", \"bogus\": 1}", -EINVAL, "\"bogus\"", "unknown key" },
		{ "{\"interface\": \"eth/0\"}", -EINVAL, "\"interface\"", "not a valid interface name" },
		{ "{\"interface\": 7}", -EINVAL, "\"interface\"", "expected a string" },
		{ "{\"duration\": \"ten\"}", -EINVAL, "\"duration\"", "expected an integer" },
		{ "{\"duration\": 0}", -EINVAL, "\"duration\"", "0 is out of range 1..86400" },
		{ "{\"omit\": -1}", -EINVAL, "\"omit\"", "out of range" },
		{ "{\"streams\": 129}", -EINVAL, "\"streams\"", "out of range" },
		{ "{\"repetitions\": 1000}", -EINVAL, "\"repetitions\"", "1000 is out of range 1..100" },
		{ "{\"settle\": -1}", -EINVAL, "\"settle\"", "expected seconds, 0..600" },
		{ "{\"interval_ms\": 5}", -EINVAL, "\"interval_ms\"", "out of range 10..10000" },
		{ "{\"grace\": 0}", -EINVAL, "\"grace\"", "out of range" },
		{ "{\"connect_timeout\": 601}", -EINVAL, "\"connect_timeout\"", "out of range" },
		{ "{\"journal\": 1}", -EINVAL, "\"journal\"", "expected a string" },
		{ "{\"output\": false}", -EINVAL, "\"output\"", "expected a string" },
		{ "{\"description\": [1]}", -EINVAL, "\"description\"", "expected a string" },
		{ "{\"trace\": 1}", -EINVAL, "\"trace\"", "expected true or false" },
		{ "{\"promiscuous\": \"yes\"}", -EINVAL, "\"promiscuous\"", "expected true or false" },
		{ "{\"peer_local\": true, \"redact\": true, \"idle_check\": 0.5}", 0, NULL, NULL },
		{ "{\"peer_local\": 1}", -EINVAL, "\"peer_local\"", "expected true or false" },
		{ "{\"redact\": \"yes\"}", -EINVAL, "\"redact\"", "expected true or false" },
		{ "{\"idle_check\": 61}", -EINVAL, "\"idle_check\"", "expected seconds, 0..60" },
		{ "{\"tests\": [\"tcp-tx\", \"sctp-rx\"]}", -EINVAL, "\"tests\"", "unknown test name 'sctp-rx'" },
		{ "{\"tests\": []}", -EINVAL, "\"tests\"", "expected a list of 1..16 tests" },
		{ "{\"tests\": [3]}", -EINVAL, "\"tests\"", "each test is a name or an object" },
		{ "{\"tests\": [{\"name\": \"udp-rx\", \"rate\": \"100M\", \"length\": 60}]}", 0, NULL, NULL },
		{ "{\"tests\": [{\"name\": \"udp-rx\", \"colour\": 1}]}", -EINVAL, "tests[].colour", "unknown key" },
		{ "{\"tests\": [{\"name\": \"tcp-sideways\"}]}", -EINVAL, "tests[].name",
		  "unknown test name 'tcp-sideways'" },
		{ "{\"tests\": [{\"duration\": 5}]}", -EINVAL, "tests[].name", "expected one of" },
		{ "{\"tests\": [{\"name\": \"udp-rx\", \"length\": 8}]}", -EINVAL, "\"length\"", "out of range" },
		{ "{\"knobs\": {\"threaded\": [0, 1]}}", 0, NULL, NULL },
		{ "{\"knobs\": {\"threaded\": [0, 2]}}", 0, NULL, NULL },
		{ "{\"knobs\": {\"threaded\": [0, 3]}}", -EINVAL, "\"knobs.threaded\"", "3 is outside 0..2" },
		{ "{\"knobs\": {\"threadd\": [0, 1]}}", -EINVAL, "\"knobs.threadd\"", "unknown knob 'threadd'" },
		{ "{\"knobs\": {\"threaded\": []}}", -EINVAL, "\"knobs.threaded\"", "expected a non-empty list" },
		{ "{\"knobs\": {\"threaded\": 1}}", -EINVAL, "\"knobs.threaded\"", "expected a non-empty list" },
		{ "{\"knobs\": [1]}", -EINVAL, "\"knobs\"", "expected an object" },
		{ "{\"knobs\": {\"warp_speed\": [1]}}", -EINVAL, "knobs.warp_speed", "unknown knob 'warp_speed'" },
		{ "{\"knobs\": {\"threaded\": [[0]]}}", -EINVAL, "\"knobs.threaded\"", "expected a string" },
		{ "{\"knobs\": {\"traffic_cpu\": [\"one\"]}}", -EINVAL, "\"knobs.traffic_cpu\"",
		  "'one' is not a CPU number" },
		{ "{\"knobs\": {\"threaded\": [0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0]}}", -EINVAL, "\"knobs.threaded\"",
		  "more than 16 values" },
		{ "{\"knobs\": {\"mtu:mtu:mtu:mtu:mtu\": [\"1\"]}}", -EINVAL, "knobs.mtu", "at most 4 knobs" },
		{ "{\"knobs\": {\":\": [1]}}", -EINVAL, "\"knobs.:\"", "empty knob name" },
		{ "{\"knobs\": {\"gro_flush_timeout:napi_defer_hard_irqs\": [\"0:0\", \"20000:1\"]}}", 0, NULL, NULL },
		{ "{\"knobs\": {\"gro_flush_timeout:napi_defer_hard_irqs\": [\"20000\"]}}", -EINVAL,
		  "knobs.gro_flush_timeout", "needs 2 parts joined by ':'" },
		{ "{\"udp\": {\"rate\": \"fast\"}}", -EINVAL, "\"rate\"", "expected a rate" },
		{ "{\"udp\": {\"colour\": 1}}", -EINVAL, "\"udp\"", "unknown key inside" },
		{ "{\"udp\": 1}", -EINVAL, "\"udp\"", "expected {" },
		{ "{\"rate\": \"1G\"}", -EINVAL, "\"rate\"", "go inside \"udp\"" },
		{ "{\"peer\": {\"host\": \"h\", \"port\": 70000}}", -EINVAL, "peer.port", "out of range 1..65535" },
		{ "{\"peer\": {\"host\": 1}}", -EINVAL, "peer.host", "expected a string" },
		{ "{\"peer\": {\"hots\": \"h\"}}", -EINVAL, "\"peer\"", "unknown key inside" },
		{ "{\"peer\": \"h:0\"}", -EINVAL, "\"peer\"", "port must be 1..65535" },
		{ "{\"peer\": 5}", -EINVAL, "\"peer\"", "expected \"HOST[:PORT]\"" },
		{ "{\"capture\": {\"packets\": -1}}", -EINVAL, "capture.packets", "out of range" },
		{ "{\"capture\": {\"snaplen\": 10}}", -EINVAL, "capture.snaplen", "out of range" },
		{ "{\"capture\": {\"size\": 10}}", -EINVAL, "\"capture\"", "unknown key inside" },
		{ "{\"capture\": 10}", -EINVAL, "\"capture\"", "expected {" },
		{ "{\"board\": {\"name\": \"RZ/G2UL\", \"cpus\": 1}}", 0, NULL, NULL },
		{ "{\"board\": {\"wheels\": 4}}", -EINVAL, "\"board\"", "unknown key inside" },
		{ "{\"board\": 4}", -EINVAL, "\"board\"", "expected an object" },
		{ "{\"board\": {\"irq_names\": {\"rx\": \"vrx200_rx\", \"tx\": [\"vrx200_tx\", \"*_tx\"]}}}", 0, NULL, NULL },
		{ "{\"board\": {\"irq_names\": [\"eth0\", {\"pattern\": \"*-rx-*\", \"role\": \"rx\"}]}}", 0, NULL, NULL },
		{ "{\"board\": {\"irq_names\": {\"rxq\": \"a\"}}}", -EINVAL, "\"board.irq_names\"", "unknown role" },
		{ "{\"board\": {\"irq_names\": [{\"pattern\": \"a\", \"role\": \"up\"}]}}", -EINVAL, "\"board.irq_names\"",
		  "unknown role" },
		{ "{\"board\": {\"irq_names\": [{\"pattern\": \"a\", \"cpu\": 1}]}}", -EINVAL, "\"board.irq_names\"",
		  "expected a list of patterns" },
		{ "{\"board\": {\"irq_names\": [\"eth 0\"]}}", -EINVAL, "\"board.irq_names\"", "without blanks" },
		{ "{\"board\": {\"irq_names\": [7]}}", -EINVAL, "\"board.irq_names\"", "non-empty string" },
		{ "{\"board\": {\"irq_names\": \"eth0\"}}", -EINVAL, "\"board.irq_names\"", "expected a list" },
		{ "[1, 2]", -EINVAL, "", "expected a JSON object" },
		{ "{\"interface\": ", -EINVAL, "", "line 1" },
		{ "{\"interface\": \"a\", \"interface\": \"b\"}", -EINVAL, "", "duplicate" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_config *cfg = calloc(1, sizeof(*cfg));
		struct nb_err err = { 0 };
		char *path = write_temp(cases[i].json);
		int rc;

		nb_config_defaults(cfg);
		rc = nb_config_load_file(cfg, path, &err);
		CHECK_MSG(rc == cases[i].want_rc, "case %zu (%s): rc %d, msg '%s'", i, cases[i].json, rc, err.msg);
		if (cases[i].want_reason) {
			CHECK_MSG(strstr(err.msg, cases[i].want_key) != NULL, "case %zu: '%s' lacks '%s'", i, err.msg,
				  cases[i].want_key);
			CHECK_MSG(strstr(err.msg, cases[i].want_reason) != NULL, "case %zu: '%s' lacks the reason '%s'", i,
				  err.msg, cases[i].want_reason);
			/* the file and the key are named once: no reason formatted from its own prefix */
			CHECK_MSG(count_of(err.msg, path) == 1, "case %zu: '%s' does not name the file once", i, err.msg);
			CHECK_MSG(count_of(err.msg, "config ") == 1, "case %zu: '%s' repeats its prefix", i, err.msg);
		}
		unlink(path);
		free(cfg);
	}
}

/* board.irq_names reaches the knobs as the patterns' text form, roles in front. */
static void test_board_irq_names(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };
	char *path = write_temp("{\"board\": {\"irq_names\": {\"rx\": \"vrx200_rx\", \"tx\": [\"vrx200_tx\", \"*_tx\"]}}}");

	nb_config_defaults(cfg);
	CHECK_STR(cfg->irq_names, "");
	CHECK(nb_config_load_file(cfg, path, &err) == 0);
	CHECK_STR(cfg->irq_names, "rx:vrx200_rx tx:vrx200_tx tx:*_tx");
	unlink(path);
	free(cfg);
}

/* A directory is named as one, not reported as a JSON syntax error. */
static void test_config_directory(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };

	nb_config_defaults(cfg);
	CHECK(nb_config_load_file(cfg, "/tmp", &err) == -EISDIR);
	CHECK_MSG(strstr(err.msg, "/tmp: is a directory") != NULL, "'%s'", err.msg);
	free(cfg);
}

static void test_missing_file(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };

	nb_config_defaults(cfg);
	CHECK(nb_config_load_file(cfg, "/nonexistent/nicbench.json", &err) == -ENOENT);
	CHECK(strstr(err.msg, "/nonexistent/nicbench.json") != NULL);
	free(cfg);
}

struct flag_case {
	const char *args[12];
	int want_rc;
};

static void test_flags(void)
{
	static const struct flag_case cases[] = {
		{ { "run", "-i", "eth0", "--peer", "h" }, 0 },
		{ { "run", "-i", "eth0/x", "--peer", "h" }, -EINVAL },
		{ { "run", "--duration", "0" }, -EINVAL },
		{ { "run", "--duration", "5s" }, -EINVAL },
		{ { "run", "--peer", "h:0" }, -EINVAL },
		{ { "run", "--peer", "[::1]:5201" }, 0 },
		{ { "run", "--knob", "threaded" }, -EINVAL },
		{ { "run", "--knob", "irq_affinity=0/1/0-1" }, 0 },
		{ { "run", "--rate", "1.5G" }, 0 },
		{ { "run", "--frobnicate" }, -EINVAL },
		{ { "run", "stray" }, -EINVAL },
		{ { "run", "--idle-check", "0" }, 0 },
		{ { "run", "--idle-check", "-1" }, -EINVAL },
		{ { "run", "--peer-local", "--redact" }, 0 },
		{ { "run", "--help" }, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_config *cfg = calloc(1, sizeof(*cfg));
		struct nb_err err = { 0 };
		char *argv[12];
		int argc = 0;

		for (; cases[i].args[argc]; argc++)
			argv[argc] = (char *)cases[i].args[argc];
		argv[argc] = NULL;
		int rc = nb_run_options_parse(argc, argv, cfg, &err);

		CHECK_MSG(rc == cases[i].want_rc, "flag case %zu: rc %d (%s)", i, rc, err.msg);
		free(cfg);
	}
}

/* Flags win over the file whatever their order; per-test values follow the flag. */
static void test_flags_override_file(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };
	char *path = write_temp("{\"interface\": \"eth0\", \"peer\": \"p\", \"duration\": 30, "
				"\"tests\": [\"udp-rx\", {\"name\": \"tcp-tx\", \"duration\": 60}], "
				"\"knobs\": {\"threaded\": [0, 1]}}");
	char *argv[] = { "run", "--duration", "5", "--config", path, "--knob", "threaded=1", "-i", "eth1", NULL };

	CHECK(nb_run_options_parse(9, argv, cfg, &err) == 0);
	CHECK_STR(cfg->iface, "eth1");
	CHECK(cfg->ntests == 2);
	CHECK(cfg->tests[0].duration_s == 5 && cfg->tests[1].duration_s == 5);
	CHECK(cfg->tests[0].length == 1448 && cfg->tests[1].length == 0);
	CHECK(cfg->naxes == 1 && cfg->axes[0].nvalues == 1);
	CHECK(nb_config_validate(cfg, &err) == 0);
	unlink(path);
	free(cfg);
}

static void test_validate(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };

	nb_config_defaults(cfg);
	CHECK(nb_config_validate(cfg, &err) == -EINVAL && strstr(err.msg, "interface"));
	snprintf(cfg->iface, sizeof(cfg->iface), "eth0");
	CHECK(nb_config_validate(cfg, &err) == -EINVAL && strstr(err.msg, "peer"));
	snprintf(cfg->peer_host, sizeof(cfg->peer_host), "10.0.0.2");
	CHECK(nb_config_validate(cfg, &err) == 0);
	cfg->tests[1] = cfg->tests[0];
	CHECK(nb_config_validate(cfg, &err) == -EINVAL && strstr(err.msg, "twice"));
	free(cfg);
}

static void test_rates(void)
{
	static const struct { const char *text; int rc; uint64_t bps; } cases[] = {
		{ "0", 0, 0 }, { "100M", 0, 100000000 }, { "1.5G", 0, 1500000000 }, { "500k", 0, 500000 },
		{ "-1", -EINVAL, 0 }, { "fast", -EINVAL, 0 }, { "10X", -EINVAL, 0 }, { "", -EINVAL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t bps = 42;
		int rc = nb_parse_rate(cases[i].text, &bps);

		CHECK_MSG(rc == cases[i].rc, "rate '%s'", cases[i].text);
		if (rc == 0)
			CHECK_MSG(bps == cases[i].bps, "rate '%s' = %llu", cases[i].text, (unsigned long long)bps);
	}
}

/* Ids are built from the test and the knob values in axis order, and do not change
 * when the plan is built again. */
static void test_plan_ids(void)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };
	struct nb_plan a, b;

	nb_config_defaults(cfg);
	CHECK(nb_config_set_tests(cfg, "tcp-rx,udp-tx", &err) == 0);
	CHECK(nb_config_add_knob_axis(cfg, "threaded=0,1", &err) == 0);
	CHECK(nb_config_add_knob_axis(cfg, "gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1", &err) == 0);
	CHECK(nb_plan_build(cfg, &a, &err) == 0);
	CHECK(nb_plan_build(cfg, &b, &err) == 0);
	CHECK(a.npoints == 8);
	CHECK_STR(a.points[0].id, "tcp-rx/threaded=0/gro_flush_timeout=0/napi_defer_hard_irqs=0");
	CHECK_STR(a.points[1].id, "udp-tx/threaded=0/gro_flush_timeout=0/napi_defer_hard_irqs=0");
	CHECK_STR(a.points[2].id, "tcp-rx/threaded=0/gro_flush_timeout=20000/napi_defer_hard_irqs=1");
	CHECK_STR(a.points[7].id, "udp-tx/threaded=1/gro_flush_timeout=20000/napi_defer_hard_irqs=1");
	for (int i = 0; i < a.npoints; i++) {
		CHECK_STR(a.points[i].id, b.points[i].id);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(a.points[i].id, a.points[j].id) != 0);
	}
	CHECK_STR(nb_point_knob(&a.points[7], "napi_defer_hard_irqs"), "1");
	CHECK(nb_point_knob(&a.points[7], "mtu") == NULL);
	/* 8 points x (3 reps + the diagnostic one) x (settle 2 + omit 2 + 10 s + overhead) */
	CHECK(nb_plan_estimate_s(cfg, &a) > 8 * 4 * 14 && nb_plan_estimate_s(cfg, &a) < 8 * 4 * 15);
	nb_plan_free(&a);
	nb_plan_free(&b);

	/* irq_affinity by role: values split at '/', ids read rx0-tx1 */
	nb_config_defaults(cfg);
	CHECK(nb_config_set_tests(cfg, "tcp-rx", &err) == 0);
	CHECK(nb_config_add_knob_axis(cfg, "irq_affinity=rx:0,tx:1/rx:0,tx:0", &err) == 0);
	CHECK(nb_plan_build(cfg, &a, &err) == 0);
	CHECK(a.npoints == 2);
	CHECK_STR(a.points[0].id, "tcp-rx/irq_affinity=rx0-tx1");
	CHECK_STR(a.points[1].id, "tcp-rx/irq_affinity=rx0-tx0");
	CHECK_STR(nb_point_knob(&a.points[0], "irq_affinity"), "rx:0,tx:1");
	nb_plan_free(&a);

	/* no knobs: one point per test, id is the test name */
	nb_config_defaults(cfg);
	CHECK(nb_plan_build(cfg, &a, &err) == 0);
	CHECK(a.npoints == 4);
	CHECK_STR(a.points[3].id, "udp-rx");
	nb_plan_free(&a);
	free(cfg);
}

/* --rate and --length take a list: one point per value for each UDP test (TCP and rr tests keep
 * one), the value in the id as written; the file takes a list or a comma string in "udp", a flag
 * with one value ends the file's sweep, and the report's config writes the sweep back loadable. */
static void test_field_sweeps(void)
{
	static const struct {
		const char *args[12];
		int rc;
		const char *says;      /* in the error */
		int npoints;
		const char *ids[6];    /* the first points, in order */
	} cases[] = {
		{ { "plan", "-i", "e", "--peer", "p", "--tests", "udp-rx,tcp-rx", "--rate", "150M,1000M" }, 0, NULL, 3,
		  { "udp-rx/rate=150M", "udp-rx/rate=1000M", "tcp-rx" } },
		{ { "plan", "-i", "e", "--peer", "p", "--tests", "udp-tx", "--length", "60,1460", "--rate", "1G,2G" }, 0,
		  NULL, 4, { "udp-tx/length=60/rate=1G", "udp-tx/length=60/rate=2G", "udp-tx/length=1460/rate=1G" } },
		{ { "plan", "-i", "e", "--peer", "p", "--tests", "udp-rr,udp-rx", "--rate", "1M,2M" }, 0, NULL, 3,
		  { "udp-rr", "udp-rx/rate=1M", "udp-rx/rate=2M" } },
		{ { "plan", "-i", "e", "--peer", "p", "--tests", "udp-rx", "--rate", "500M" }, 0, NULL, 1, { "udp-rx" } },
		{ { "plan", "--rate", "150M,fast" }, -EINVAL, "--rate 'fast'", 0, { NULL } },
		{ { "plan", "--rate", "1M,1000k" }, -EINVAL, "given twice", 0, { NULL } },
		{ { "plan", "--length", "60,8" }, -EINVAL, "--length '8': expected a whole number 16..65507", 0, { NULL } },
		{ { "plan", "--length", "60,,1460" }, 0, NULL, -1, { NULL } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_config *cfg = calloc(1, sizeof(*cfg));
		struct nb_err err = { 0 };
		struct nb_plan plan;
		char *argv[12];
		int argc = 0, rc;

		for (; argc < 12 && cases[i].args[argc]; argc++)
			argv[argc] = (char *)cases[i].args[argc];
		argv[argc] = NULL;
		rc = nb_run_options_parse(argc, argv, cfg, &err);
		CHECK_MSG(rc == cases[i].rc, "sweep case %zu: rc %d (%s)", i, rc, err.msg);
		if (rc == 0 && cases[i].npoints > 0 && nb_plan_build(cfg, &plan, &err) == 0) {
			CHECK_MSG(plan.npoints == cases[i].npoints, "sweep case %zu: %d points", i, plan.npoints);
			for (int k = 0; k < 6 && cases[i].ids[k] && k < plan.npoints; k++)
				CHECK_STR(plan.points[k].id, cases[i].ids[k]);
			nb_plan_free(&plan);
		} else if (cases[i].says) {
			CHECK_MSG(strstr(err.msg, cases[i].says), "sweep case %zu: \"%s\"", i, err.msg);
		}
		free(cfg);
	}

	/* the rate of each point reaches its test; the file's sweep, a flag ending it, the report's config */
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_err err = { 0 };
	struct nb_plan plan;
	char *path = write_temp("{\"interface\": \"e\", \"peer\": \"p\", \"tests\": [\"udp-rx\", \"tcp-tx\"], "
				"\"udp\": {\"rate\": [\"150M\", \"1000M\"], \"length\": \"60,1460\"}}");
	char *argv[] = { "run", "--config", path, NULL };
	char *argv_one[] = { "run", "--config", path, "--rate", "700M", NULL };
	char *text;

	CHECK(nb_run_options_parse(3, argv, cfg, &err) == 0);
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(plan.npoints == 5);
	CHECK_STR(plan.points[1].id, "udp-rx/rate=150M/length=1460");
	CHECK(plan.points[1].test->rate_bps == 150000000 && plan.points[1].test->length == 1460);
	CHECK(plan.points[2].test->rate_bps == 1000000000 && plan.points[2].test->length == 60);
	CHECK(plan.points[4].test->rate_bps == 0 && plan.points[4].nfields == 0);
	nb_plan_free(&plan);
	text = nb_config_to_json(cfg);
	CHECK_MSG(text && strstr(text, "\"udp\":{\"rate\":[\"150M\",\"1000M\"],\"length\":[\"60\",\"1460\"]}"), "%s", text);
	free(text);
	free(cfg);
	cfg = calloc(1, sizeof(*cfg));
	CHECK(nb_run_options_parse(5, argv_one, cfg, &err) == 0);
	CHECK(nb_plan_build(cfg, &plan, &err) == 0);
	CHECK(plan.npoints == 3);
	CHECK_STR(plan.points[0].id, "udp-rx/length=60");
	CHECK(plan.points[0].test->rate_bps == 700000000);
	nb_plan_free(&plan);
	unlink(path);
	path = write_temp("{\"tests\": [{\"name\": \"udp-rx\", \"rate\": [\"1M\", \"2M\"]}]}");
	CHECK(nb_config_load_file(cfg, path, &err) == -EINVAL && strstr(err.msg, "tests[].rate") &&
	      strstr(err.msg, "a sweep goes in \"udp.rate\""));
	unlink(path);
	free(cfg);
}

int main(void)
{
	test_board_irq_names();
	test_config_files();
	test_config_directory();
	test_missing_file();
	test_flags();
	test_flags_override_file();
	test_validate();
	test_rates();
	test_plan_ids();
	test_field_sweeps();
	return nb_test_done("test_config");
}
