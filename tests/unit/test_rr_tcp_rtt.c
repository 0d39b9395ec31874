// SPDX-License-Identifier: MIT
/* Tests for tcp_rtt_{mean,min,max}_us read from recorded iperf3 3.12 client JSON: the sender's
 * RTT on tcp-tx, the server's (--get-server-output) on tcp-rx, and absent where iperf3 has none. */
#include "iperf_driver.h"

#include "nb_test.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}

struct rtt_case {
	const char *file;
	bool present;
	double mean, min, max;  /* from the file, read with jq when the fixture was recorded */
};

static const struct rtt_case cases[] = {
	{ "iperf/tcp_tx.json", true, 47, 47, 47 },              /* the client sent: its own streams */
	{ "iperf/tcp_rx.json", false, 0, 0, 0 },                /* -R without the server's output: 0s, not RTTs */
	{ "iperf/tcp_rx_2streams.json", false, 0, 0, 0 },
	{ "iperf/tcp_rx_server_output.json", true, 50, 50, 50 }, /* -R --get-server-output: the server's sender RTT */
	{ "iperf/udp_tx.json", false, 0, 0, 0 },                /* UDP has no RTT */
	{ "iperf/refused.json", false, 0, 0, 0 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rtt_case *c = &cases[i];
		struct nb_iperf_result res;
		char *json = slurp(nb_test_fixture(c->file));
		double mean = -1, min = -1, max = -1;
		bool got;

		CHECK_MSG(json != NULL, "fixture %s", c->file);
		if (!json)
			continue;
		memset(&res, 0, sizeof(res));
		nb_iperf_parse_json(json, &res, NULL);
		got = nb_metrics_get(&res.metrics, "tcp_rtt_mean_us", &mean);
		CHECK_MSG(got == c->present, "%s: tcp_rtt_mean_us present=%d", c->file, got);
		CHECK(nb_metrics_get(&res.metrics, "tcp_rtt_min_us", &min) == c->present);
		CHECK(nb_metrics_get(&res.metrics, "tcp_rtt_max_us", &max) == c->present);
		if (got && c->mean >= 0) {
			CHECK_NEAR(mean, c->mean, 1e-9);
			CHECK_NEAR(min, c->min, 1e-9);
			CHECK_NEAR(max, c->max, 1e-9);
		}
		if (got)
			CHECK_MSG(min > 0 && min <= mean && mean <= max, "%s: min %g mean %g max %g", c->file, min, mean, max);
		free(json);
	}
	return nb_test_done("tcp rtt");
}
