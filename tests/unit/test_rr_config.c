// SPDX-License-Identifier: MIT
/* Tests for the rr settings: test names, --rr-* flags, the config file's "rr" object, and the
 * effective config in the report. */
#include "config/config.h"
#include "config/plan.h"
#include "cli/run_options.h"

#include <errno.h>
#include <unistd.h>

#include "nb_test.h"

static int parse(struct nb_config *cfg, struct nb_err *err, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "run";
	for (; *args && argc < 31; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	memset(err, 0, sizeof(*err));
	return nb_run_options_parse(argc, argv, cfg, err);
}

static const char *write_config(const char *text)
{
	static char path[] = "/tmp/nb-rr-config-XXXXXX";
	int fd;

	strcpy(path, "/tmp/nb-rr-config-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		return NULL;
	close(fd);
	return path;
}

int main(void)
{
	struct nb_config cfg;
	struct nb_err err;
	struct nb_test_spec t;
	struct nb_plan plan;
	const char *path;
	char *json;

	/* names */
	CHECK(nb_test_from_name(&t, "tcp-rr") == 0 && t.proto == NB_PROTO_TCP && t.dir == NB_DIR_RR);
	CHECK(nb_test_from_name(&t, "udp-rr") == 0 && t.proto == NB_PROTO_UDP && t.dir == NB_DIR_RR);
	CHECK(nb_test_from_name(&t, "tcp-rrr") < 0);
	CHECK(nb_test_from_name(&t, "sctp-rr") < 0);

	/* defaults and flags */
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--peer", "h", NULL }) == 0);
	CHECK(cfg.rr.flows == 1 && cfg.rr.request == 64 && cfg.rr.response == 64 && cfg.rr.rate_tps == 0 &&
	      cfg.rr.timeout_ms == 100 && cfg.rr.port == 5301);
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--peer", "h", "--tests", "tcp-rr,udp-rr,udp-tx",
						     "--rr-flows", "8", "--rr-request", "200", "--rr-response", "1500",
						     "--rr-rate", "20k", "--rr-timeout", "50", "--rr-port", "6000",
						     "--rate", "100M", "--length", "1000", NULL }) == 0);
	CHECK(cfg.ntests == 3 && cfg.tests[0].dir == NB_DIR_RR && cfg.tests[1].dir == NB_DIR_RR);
	CHECK(cfg.rr.flows == 8 && cfg.rr.request == 200 && cfg.rr.response == 1500 && cfg.rr.rate_tps == 20000 &&
	      cfg.rr.timeout_ms == 50 && cfg.rr.port == 6000);
	/* --rate and --length are iperf3's UDP settings: udp-rr's sizes come from --rr-* */
	CHECK(cfg.tests[1].rate_bps == 0 && cfg.tests[1].length == 0);
	CHECK(cfg.tests[2].rate_bps == 100000000 && cfg.tests[2].length == 1000);
	CHECK(nb_config_validate(&cfg, &err) == 0);
	/* the estimate counts the answers-in-flight wait, in each measured and the diagnostic repetition */
	CHECK(nb_plan_build(&cfg, &plan, &err) == 0 && plan.npoints == 3);
	CHECK_NEAR(nb_point_estimate_s(&cfg, &plan.points[0]) - nb_point_estimate_s(&cfg, &plan.points[2]),
		   (3 + (cfg.trace ? 1 : 0)) * 0.05, 1e-9);
	nb_plan_free(&plan);
	json = nb_config_to_json(&cfg);
	CHECK_MSG(json && strstr(json, "\"rr\":{\"flows\":8,\"request\":200,\"response\":1500,\"rate\":20000,") != NULL,
		  "%s", json ? json : "(null)");
	CHECK(json && strstr(json, "\"direction\":\"rr\"") != NULL);
	free(json);

	/* bad flags say which and why */
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--rr-request", "8", NULL }) == -EINVAL);
	CHECK(strstr(err.msg, "--rr-request") != NULL);
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--rr-flows", "0", NULL }) == -EINVAL);
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--rr-rate", "fast", NULL }) == -EINVAL);
	CHECK(strstr(err.msg, "--rr-rate 'fast'") != NULL);
	CHECK(parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--rr-rate", "20M", NULL }) == -EINVAL);

	/* the config file's "rr" object, and flags over it */
	path = write_config("{\"tests\": [\"udp-rr\"], \"rr\": {\"flows\": 4, \"request\": 100, \"response\": 300, "
			    "\"rate\": \"5k\", \"timeout_ms\": 20, \"port\": 7000}}");
	CHECK(path && parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--config", path, "--rr-flows", "2", NULL }) == 0);
	CHECK(cfg.rr.flows == 2 && cfg.rr.request == 100 && cfg.rr.response == 300 && cfg.rr.rate_tps == 5000 &&
	      cfg.rr.timeout_ms == 20 && cfg.rr.port == 7000);
	unlink(path);
	path = write_config("{\"rr\": {\"size\": 64}}");
	CHECK(path && parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--config", path, NULL }) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "rr") && strstr(err.msg, "known: flows"), "%s", err.msg);
	unlink(path);
	path = write_config("{\"rr\": {\"response\": 70000}}");
	CHECK(path && parse(&cfg, &err, (const char *const[]){ "-i", "lo", "--config", path, NULL }) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "rr.response") != NULL, "%s", err.msg);
	unlink(path);
	return nb_test_done("rr config");
}
