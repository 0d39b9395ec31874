/* Config validation, flag parsing and plan ids: table-driven cases. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "nb_test.h"
#include "plan.h"
#include "run_options.h"

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
	const char *want_in_msg; /* the message must name the key */
};

static void test_config_files(void)
{
	static const struct file_case cases[] = {
		{ "{\"interface\": \"eth0\", \"peer\": \"10.0.0.2:5202\"}", 0, NULL },
		{ "{\"interface\": \"eth0\", \"bogus\": 1}", -EINVAL, "\"bogus\"" },
		{ "{\"interface\": \"eth/0\"}", -EINVAL, "\"interface\"" },
		{ "{\"duration\": \"ten\"}", -EINVAL, "\"duration\"" },
		{ "{\"duration\": 0}", -EINVAL, "\"duration\"" },
		{ "{\"repetitions\": 1000}", -EINVAL, "\"repetitions\"" },
		{ "{\"tests\": [\"tcp-tx\", \"sctp-rx\"]}", -EINVAL, "\"tests\"" },
		{ "{\"tests\": [{\"name\": \"udp-rx\", \"rate\": \"100M\", \"length\": 60}]}", 0, NULL },
		{ "{\"tests\": [{\"name\": \"udp-rx\", \"colour\": 1}]}", -EINVAL, "tests[].colour" },
		{ "{\"knobs\": {\"threaded\": [0, 1]}}", 0, NULL },
		{ "{\"knobs\": {\"threaded\": [0, 2]}}", -EINVAL, "knobs.threaded" },
		{ "{\"knobs\": {\"threaded\": []}}", -EINVAL, "knobs.threaded" },
		{ "{\"knobs\": {\"warp_speed\": [1]}}", -EINVAL, "warp_speed" },
		{ "{\"knobs\": {\"gro_flush_timeout:napi_defer_hard_irqs\": [\"0:0\", \"20000:1\"]}}", 0, NULL },
		{ "{\"knobs\": {\"gro_flush_timeout:napi_defer_hard_irqs\": [\"20000\"]}}", -EINVAL, "knobs.gro_flush_timeout" },
		{ "{\"udp\": {\"rate\": \"fast\"}}", -EINVAL, "\"rate\"" },
		{ "{\"rate\": \"1G\"}", -EINVAL, "\"rate\"" },
		{ "{\"peer\": {\"host\": \"h\", \"port\": 70000}}", -EINVAL, "peer.port" },
		{ "{\"board\": {\"name\": \"RZ/G2UL\", \"cpus\": 1}}", 0, NULL },
		{ "{\"board\": {\"wheels\": 4}}", -EINVAL, "\"board\"" },
		{ "[1, 2]", -EINVAL, "expected a JSON object" },
		{ "{\"interface\": ", -EINVAL, "line 1" },
		{ "{\"interface\": \"a\", \"interface\": \"b\"}", -EINVAL, "duplicate" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_config *cfg = calloc(1, sizeof(*cfg));
		struct nb_err err = { 0 };
		char *path = write_temp(cases[i].json);
		int rc;

		nb_config_defaults(cfg);
		rc = nb_config_load_file(cfg, path, &err);
		CHECK_MSG(rc == cases[i].want_rc, "case %zu (%s): rc %d, msg '%s'", i, cases[i].json, rc, err.msg);
		if (cases[i].want_in_msg) {
			CHECK_MSG(strstr(err.msg, cases[i].want_in_msg) != NULL, "case %zu: '%s' lacks '%s'", i, err.msg,
				  cases[i].want_in_msg);
			CHECK_MSG(strstr(err.msg, path) != NULL, "case %zu: '%s' does not name the file", i, err.msg);
		}
		unlink(path);
		free(cfg);
	}
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

	/* no knobs: one point per test, id is the test name */
	nb_config_defaults(cfg);
	CHECK(nb_plan_build(cfg, &a, &err) == 0);
	CHECK(a.npoints == 4);
	CHECK_STR(a.points[3].id, "udp-rx");
	nb_plan_free(&a);
	free(cfg);
}

int main(void)
{
	test_config_files();
	test_missing_file();
	test_flags();
	test_flags_override_file();
	test_validate();
	test_rates();
	test_plan_ids();
	return nb_test_done("test_config");
}
