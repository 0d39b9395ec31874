// SPDX-License-Identifier: MIT
/* The settings of `run` and `plan`, one row each: flag, config key, field, range, default and
 * help. run_options.c parses flags with it, config_json.c the file and the report's config,
 * and the --help text and configs/README.md's key table are printed from it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "napi_knobs.h"
#include "traffic/iperf_prog.h"
#include "traffic/peer_ctl.h"
#include "traffic/rr_proto.h"

#define CFG(member) NB_OPT_FIELD(struct nb_config, member)
#define TEST(member) NB_OPT_FIELD(struct nb_test_spec, member)

static int parse_iface(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)obj, (void)o;
	if (!nb_ifname_valid(text))
		return nb_err_set(err, -EINVAL, "-i '%s': not a valid interface name (1-15 characters, no '/', ':' or spaces)",
				  text);
	return 0;
}

/* The rows' parsers over the config's own setters, which name the flag in their messages. */
#define CONFIG_PARSER(name, setter) \
	static int name(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err) \
	{ \
		(void)o; \
		return setter(obj, text, err); \
	}

CONFIG_PARSER(parse_peer, nb_config_set_peer)
CONFIG_PARSER(parse_tests, nb_config_set_tests)
CONFIG_PARSER(parse_knob, nb_config_add_knob_axis)
CONFIG_PARSER(parse_config, nb_config_load_file)
CONFIG_PARSER(parse_round, nb_config_set_round)
CONFIG_PARSER(parse_diagnostics, nb_config_set_diagnostics)

/* Whether the peer's MTU follows the mtu knob (docs/running.md, "MTU"). */
static int parse_peer_mtu(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	(void)obj;
	if (strcmp(text, "auto") && strcmp(text, "require") && strcmp(text, "off"))
		return nb_err_set(err, -EINVAL, "--%s '%s': expected auto, require or off", o->name, text);
	return 0;
}

/* Which client runs the iperf3 tests (traffic/iperf_prog.h): checked here, resolved at the run's start. */
static int parse_traffic_backend(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	enum nb_iperf_backend b;

	int rc;

	(void)obj;
	rc = nb_iperf_backend_parse(text, &b, err);
	if (rc < 0)
		nb_err_prefix(err, "--%s: ", o->name);
	return rc;
}

static int parse_repetitions(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	int rc = nb_config_set_repetitions(obj, text, err);

	if (rc < 0)
		nb_err_prefix(err, "--%s ", o->name);
	return rc;
}

/* 0 % is inside the row's range 0..100 but asks for the impossible */
static int parse_precision(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	double pct = strtod(text, NULL);

	if (!(pct > 0))
		return nb_err_set(err, -EINVAL, "--%s '%s': expected a percentage above 0, at most 100", o->name, text);
	nb_opt_store_number(o, obj, pct);
	return 0;
}

/* --rate 150M,1000M / --length 60,1460: a list sweeps the field, one point per value */
static int parse_test_values(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	int rc = nb_config_set_test_field(obj, o, text, err);

	if (rc < 0)
		nb_err_prefix(err, "--%s ", o->name);
	return rc;
}

/* A seed implies rounds: shuffling only means something between rounds. */
static int parse_shuffle(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	struct nb_config *cfg = obj;
	unsigned long long seed;
	char *end;

	errno = 0;
	seed = strtoull(text, &end, 0);
	if (*text == '\0' || *text == '-' || *end != '\0' || errno)
		return nb_err_set(err, -EINVAL, "--%s '%s': expected a seed, a whole number >= 0", o->name, text);
	cfg->shuffle = cfg->interleave = true;
	cfg->shuffle_seed = seed;
	return 0;
}

/* A flag sets a test default and every test already listed, so it wins over the file. */
static void store_test_field(void *obj, const struct nb_opt *o, double v)
{
	struct nb_config *cfg = obj;

	for (int i = -1; i < cfg->ntests; i++) {
		struct nb_test_spec *t = i < 0 ? &cfg->test_defaults : &cfg->tests[i];

		if (i >= 0 && (o->flags & NB_OPT_UDP_ONLY) && (t->proto != NB_PROTO_UDP || t->dir == NB_DIR_RR))
			continue;
		nb_opt_store_number(o, t, v);
	}
}

#define TESTS_HELP "comma-separated: tcp-tx,tcp-rx,udp-tx,udp-rx (default: all four;\n" \
	"tx = this host sends, rx = the peer sends, iperf3 -R), and the\n" \
	"request/response tests tcp-rr,udp-rr (latency; need `nicbench serve`)"

static const struct nb_opt rows[] = {
	/* what to measure */
	{ .name = "interface", .short_name = 'i', .key = "interface", .type = NB_OPT_STRING, .offset = CFG(iface),
	  .parse = parse_iface, .metavar = "IFACE", .help = "the interface under test (in this network namespace)",
	  .doc_default = "(required, or `-i`)",
	  .doc = "the interface under test, in the namespace nicbench runs in" },
	{ .name = "peer", .key = "peer", .type = NB_OPT_CUSTOM, .parse = parse_peer, .metavar = "HOST[:PORT]",
	  .help = "the iperf3 server (default port 5201)", .flags = NB_OPT_NO_REPORT,
	  .doc_type = "`\"HOST[:PORT]\"` or `{\"host\", \"port\"}`", .doc_default = "(required, or `--peer`)",
	  .doc = "the iperf3 server (`iperf3 -s` or `nicbench serve`)" },
	{ .key = "peer.host", .type = NB_OPT_STRING, .offset = CFG(peer_host), .doc_default = "(required)",
	  .doc = "the peer's name or address, as in `--peer`" },
	{ .key = "peer.port", .type = NB_OPT_INT, .offset = CFG(peer_port), .min = 1, .max = 65535, .def = 5201,
	  .doc = "the peer's iperf3 control port" },
	{ .name = "tests", .brief = "tcp-tx,tcp-rx,udp-tx,udp-rx (default), tcp-rr,udp-rr (latency)", .key = "tests", .type = NB_OPT_CUSTOM, .parse = parse_tests, .metavar = "LIST",
	  .help = TESTS_HELP, .doc_type = "list", .doc_default = "`[\"tcp-tx\", \"tcp-rx\", \"udp-tx\", \"udp-rx\"]`",
	  .doc = "test names, or objects `{\"name\", \"duration\", \"omit\", \"streams\", \"rate\", \"length\"}` that "
		 "override the defaults for that test. `tx`: this host sends; `rx`: the peer sends (iperf3 `-R`); "
		 "`tcp-rr`, `udp-rr`: request/response latency against `nicbench serve` (sizes and rate in `rr`)" },
	{ .name = "duration", .brief = "measured and warm-up seconds per run", .key = "duration", .type = NB_OPT_INT, .flags = NB_OPT_TEST_FIELD,
	  .offset = TEST(duration_s), .min = 1, .max = 86400, .def = 10, .metavar = "S", .unit = "s",
	  .help = "measured seconds per run" },
	{ .name = "omit", .key = "omit", .type = NB_OPT_INT, .flags = NB_OPT_TEST_FIELD | NB_OPT_HELP_JOIN, .offset = TEST(omit_s),
	  .min = 0, .max = 3600, .def = 2, .metavar = "S", .unit = "s", .help = "warm-up seconds excluded from the figures",
	  .doc = "warm-up seconds before the measured window (iperf3 `-O`); the sampler's window starts after them too" },
	{ .name = "streams", .key = "streams", .type = NB_OPT_INT, .flags = NB_OPT_TEST_FIELD,
	  .offset = TEST(streams), .min = 1, .max = 128, .def = 1, .metavar = "N", .help = "parallel streams",
	  .doc = "parallel streams (iperf3 `-P`)" },
	{ .name = "rate", .brief = "UDP rate (0 = unlimited, 500M) and datagram size", .key = "udp.rate", .type = NB_OPT_RATE, .flags = NB_OPT_TEST_FIELD | NB_OPT_UDP_ONLY,
	  .offset = TEST(rate_bps), .min = 0, .max = 1e13, .def = 0, .metavar = "RATE", .parse = parse_test_values,
	  .help = "UDP target rate, e.g. 500M; 0 = unlimited, like iperf3 -b0;\n"
		  "a list (150M,1000M) sweeps it: one point per rate, udp-rx/rate=150M",
	  .doc_type = "rate, or a list of rates",
	  .doc = "UDP target rate, `\"0\"` = unlimited (iperf3 `-b0`), `\"500M\"`, `\"1G\"` (1000-based); a list "
		 "(`[\"150M\", \"1000M\"]` or `\"150M,1000M\"`) sweeps it: one point per rate for each UDP test, "
		 "`udp-rx/rate=150M`" },
	{ .name = "length", .key = "udp.length", .type = NB_OPT_INT, .flags = NB_OPT_TEST_FIELD | NB_OPT_UDP_ONLY | NB_OPT_HELP_JOIN | NB_OPT_MTU_WORD,
	  .offset = TEST(length), .min = 16, .max = 65507, .def = 1448, .metavar = "BYTES", .unit = "bytes", .parse = parse_test_values,
	  .help = "UDP datagram length; 1448 is the MSS at MTU 1500; mtu: one datagram\n"
		  "a frame at each point's MTU (MTU - 28); a list (60,1460) sweeps it\n"
		  "like a rate list (udp-rx/length=60)",
	  .doc_type = "integer 16..65507, `\"mtu\"`, or a list",
	  .doc = "UDP datagram length (iperf3 `-l`); 1448 is the TCP MSS at MTU 1500, what the iperf3 CLI picks; "
		 "`\"mtu\"`: each point's interface MTU - 28 (IPv6: - 48), so datagrams fill one frame as the `mtu` "
		 "knob moves (the point's `udp_length`); a list (`[60, 1460]` or `\"60,1460\"`) sweeps it like a "
		 "rate list (`udp-rx/length=60`)" },
	{ .name = "repetitions", .brief = "runs per point (compare needs >= 3), or auto[:MIN-MAX]", .key = "repetitions", .type = NB_OPT_INT, .offset = CFG(repetitions), .min = 1,
	  .max = NB_MAX_REPETITIONS, .def = 3, .metavar = "N", .parse = parse_repetitions,
	  .help = "runs per test point; compare needs >= 3. N may be auto[:MIN-MAX]:\n"
		  "repeat each point until the 90% interval of its median throughput\n"
		  "(and cpu_busy_pct for rx tests) lies within +-precision of the\n"
		  "median, at least MIN and at most MAX runs (auto: 3-10); a run\n"
		  "disturbed by foreign load is repeated, not counted",
	  .doc_type = "integer 1..100, `\"auto\"` or `\"auto:MIN-MAX\"`",
	  .doc = "runs per test point; `nicbench compare` needs at least 3 per side for a verdict. `\"auto\"` (3-10): "
		 "repeat each point until the 90% interval of its median throughput (and of `cpu_busy_pct` for rx tests) "
		 "lies within +-`precision` of the median, or MAX runs; a run disturbed by foreign load is repeated, "
		 "not counted" },
	{ .name = "precision", .brief = "auto: the median's 90% interval to reach, +-% of it", .key = "precision", .type = NB_OPT_NUMBER, .offset = CFG(precision_pct), .min = 0,
	  .max = 100, .def = NB_DEFAULT_PRECISION_PCT, .metavar = "PCT", .unit = "%", .parse = parse_precision,
	  .help = "the precision auto repetitions aim for, % of the median, above 0",
	  .doc = "with auto repetitions: the half width of the median's 90% interval to reach, % of the median; above 0" },
	{ .name = "interleave", .brief = "rounds of one run of each point; SEED shuffles each round", .key = "interleave", .type = NB_OPT_FLAG, .offset = CFG(interleave),
	  .help = "run in rounds, one repetition of every point per round, so drift\n"
		  "over time lands on every setting alike; with auto a precise point\n"
		  "leaves the rounds (knobs are applied again at every visit)",
	  .doc = "run in rounds, one repetition of every unfinished point per round (drift lands on every setting "
		 "alike; knobs are applied again at each visit)" },
	{ .name = "shuffle", .key = "shuffle", .type = NB_OPT_CUSTOM, .flags = NB_OPT_HELP_JOIN, .parse = parse_shuffle, .metavar = "SEED",
	  .help = "interleave, each round in a pseudo-random order that SEED fixes\n(recorded in the report, so the order can be repeated)",
	  .doc_type = "integer seed", .doc_default = "(plan order)",
	  .doc = "with `interleave` (implied; `\"interleave\": false` beside it is an error): each round's order drawn "
		 "from this seed, recorded in the report" },
	{ .name = "settle", .key = "settle", .type = NB_OPT_SECONDS, .offset = CFG(settle_s), .min = 0, .max = 600,
	  .def = 2, .metavar = "S", .unit = "s", .help = "pause after applying knobs and before each run",
	  .doc = "pause after applying knobs and before each run (lets the server clean up and knobs take hold)" },
	{ .name = "interval", .key = "interval_ms", .type = NB_OPT_INT, .offset = CFG(interval_ms), .min = 10,
	  .max = 10000, .def = 100, .metavar = "MS", .unit = "ms", .help = "sampling period while traffic flows" },
	{ .name = "grace", .brief = "kill at duration + omit + grace; start within", .key = "grace", .type = NB_OPT_INT, .offset = CFG(grace_s), .min = 1, .max = 600,
	  .def = 5, .metavar = "S", .unit = "s", .help = "past duration + omit + grace a run is killed: timeout",
	  .doc = "a run still going at duration + omit + grace is killed and recorded as `timeout`" },
	{ .name = "connect-timeout", .key = "connect_timeout", .type = NB_OPT_INT, .flags = NB_OPT_HELP_JOIN, .offset = CFG(connect_timeout_s),
	  .min = 1, .max = 600, .def = 10, .metavar = "S", .unit = "s", .help = "time a run may take to start, retries included",
	  .doc = "how long a run may take to start, retries on \"server busy\" included; then `timeout`" },
	{ .name = "traffic-backend", .brief = "iperf3 tests by libiperf, iperf3 (program), auto",
	  .key = "traffic_backend", .type = NB_OPT_STRING, .offset = CFG(traffic_backend), .parse = parse_traffic_backend,
	  .metavar = "WHICH", .doc_type = "`\"auto\"`, `\"libiperf\"` or `\"iperf3\"`", .doc_default = "`\"auto\"`",
	  .help = "what runs the iperf3 tests: libiperf inside nicbench, or the iperf3\n"
		  "program with --json (a board whose nicbench has no libiperf); auto:\n"
		  "libiperf when built in. The report's tool.traffic_backend says which ran",
	  .doc = "what runs the iperf3 tests: `libiperf` (linked in), `iperf3` (the iperf3 program with `--json`, for a "
		 "board whose nicbench was built without libiperf), `auto` (libiperf when built in). The report's "
		 "`tool.traffic_backend` says which ran" },
	{ .name = "iperf3", .key = "iperf3_program", .type = NB_OPT_STRING, .flags = NB_OPT_HELP_JOIN,
	  .offset = CFG(iperf3_program), .metavar = "PATH", .doc_type = "path", .doc_default = "`iperf3` (from PATH)",
	  .help = "the iperf3 program of traffic_backend iperf3 (default: iperf3 in PATH)",
	  .doc = "the iperf3 program that `traffic_backend` `iperf3` runs" },


	/* request/response tests */
	{ .name = "rr-flows", .key = "rr.flows", .type = NB_OPT_INT, .offset = CFG(rr.flows), .min = 1, .max = 256,
	  .def = 1, .metavar = "N", .help = "flows, each with one transaction in flight in closed loop",
	  .doc = "tcp-rr / udp-rr: flows (connections or UDP sockets); in closed loop each has one transaction in flight" },
	{ .name = "rr-request", .brief = "sizes, the 16-byte header included", .key = "rr.request", .type = NB_OPT_INT, .offset = CFG(rr.request),
	  .min = NB_RR_MIN_LEN, .max = NB_RR_MAX_LEN, .def = 64, .metavar = "BYTES", .unit = "bytes",
	  .help = "request size, the 16-byte header included" },
	{ .name = "rr-response", .key = "rr.response", .type = NB_OPT_INT, .flags = NB_OPT_HELP_JOIN, .offset = CFG(rr.response),
	  .min = NB_RR_MIN_LEN, .max = NB_RR_MAX_LEN, .def = 64, .metavar = "BYTES", .unit = "bytes",
	  .help = "response size, the 16-byte header included" },
	{ .name = "rr-rate", .brief = "open loop: transactions/s on a fixed schedule; 0 = closed loop", .key = "rr.rate", .type = NB_OPT_RATE, .offset = CFG(rr.rate_tps), .min = 0, .max = 1e7,
	  .def = 0, .metavar = "TPS", .doc_type = "transactions/s, `\"20k\"`",
	  .expect = "transactions per second 0..10M (0 = closed loop), e.g. 20000 or 20k",
	  .help = "open loop: transactions per second across all flows, sent on a\n"
		  "fixed schedule; latency counts from the scheduled time, so a stall\n"
		  "is not hidden; 0 = closed loop: next request on each answer" },
	{ .name = "rr-timeout", .brief = "udp-rr: a request unanswered this long is lost", .key = "rr.timeout_ms", .type = NB_OPT_INT, .offset = CFG(rr.timeout_ms), .min = 1,
	  .max = 60000, .def = 100, .metavar = "MS", .unit = "ms",
	  .help = "udp-rr: a request unanswered this long is lost; one answered later\nis late" },
	{ .name = "rr-port", .key = "rr.port", .type = NB_OPT_INT, .offset = CFG(rr.port), .min = 1, .max = 65535,
	  .def = NB_RR_DEFAULT_PORT, .metavar = "PORT",
	  .brief = "the peer's rr port, TCP and UDP",
	  .help = "the peer's rr port, TCP and UDP, as nicbench serve --rr-port" },

	/* the peer's end of the link */
	{ .name = "peer-mtu", .brief = "the peer follows: auto, require, off", .key = "peer_mtu",
	  .type = NB_OPT_STRING, .offset = CFG(peer_mtu),
	  .parse = parse_peer_mtu, .metavar = "WHEN", .doc_type = "`\"auto\"`, `\"require\"` or `\"off\"`",
	  .doc_default = "`\"auto\"`",
	  .help = "with the mtu knob, set the peer's interface too, through nicbench\n"
		  "serve's control port: auto (a point fails when serve refuses, a\n"
		  "plain iperf3 peer gets a warning), require (a peer that cannot\n"
		  "follow fails the point), off (the DUT only)",
	  .doc = "with the `mtu` knob, set the peer's interface to the same MTU through `nicbench serve`'s control "
		 "port, restored at the end: `auto` fails a point that serve refuses and warns when the peer has no "
		 "control port (plain `iperf3 -s`); `require` fails the point then too; `off` sets the DUT only" },
	{ .name = "peer-ctl-port", .key = "peer_ctl_port", .type = NB_OPT_INT, .flags = NB_OPT_HELP_JOIN,
	  .offset = CFG(peer_ctl_port), .min = 1, .max = 65535, .def = NB_CTL_DEFAULT_PORT, .metavar = "PORT",
	  .help = "nicbench serve's control port, as serve --ctl-port",
	  .doc = "the peer's control port (`nicbench serve --ctl-port`)" },

	/* the knob matrix */
	{ .name = "knob", .brief = "sweep a knob over values, repeatable; A:B=a1:b1,a2:b2 sweeps two", .key = "knobs", .type = NB_OPT_CUSTOM, .parse = parse_knob, .metavar = "NAME=V1,V2",
	  .help = "repeatable, e.g. --knob threaded=0,1 --knob gro_flush_timeout=0,20000\n"
		  "A:B=a1:b1,a2:b2 sweeps knobs together, e.g. software IRQ coalescing\n"
		  "off / on: --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1\n"
		  "(irq_affinity values are CPU lists separated by '/': 0/1/0-1)",
	  .doc_type = "object", .doc_default = "`{}`",
	  .doc = "the knob matrix: knob name -> list of values, swept as a cross product. A key that joins knobs with "
		 "`:` sweeps them together: `\"gro_flush_timeout:napi_defer_hard_irqs\": [\"0:0\", \"20000:1\"]` is "
		 "software IRQ coalescing off / on" },

	/* files and output */
	{ .name = "config", .type = NB_OPT_CUSTOM, .flags = NB_OPT_EARLY, .parse = parse_config, .metavar = "FILE",
	  .help = "JSON config (see configs/README.md); flags override it" },
	{ .name = "output", .brief = "the report (default nicbench-IFACE-TIMESTAMP.json)", .short_name = 'o', .key = "output", .type = NB_OPT_STRING, .flags = NB_OPT_NO_REPORT,
	  .offset = CFG(output), .metavar = "FILE", .doc_type = "path", .doc_default = "`nicbench-IFACE-TIMESTAMP.json`",
	  .help = "report path (default nicbench-IFACE-TIMESTAMP.json), written at the\n"
		  "end from FILE.record, where each repetition is fsync'd as it ends\n"
		  "(after a kill, nicbench knobs restore writes the report from it)",
	  .doc = "the report" },
	{ .name = "json", .type = NB_OPT_FLAG, .offset = CFG(json_stdout),
	  .help = "also print the report on stdout at the end" },
	{ .name = "no-raw", .brief = "leave out raw JSON / diagnostic run / profile", .key = "raw", .type = NB_OPT_FLAG, .flags = NB_OPT_INVERT, .offset = CFG(raw), .def = 1,
	  .help = "leave iperf3's raw JSON out of the report", .doc = "keep iperf3's raw JSON per run in the report" },
	{ .name = "no-trace", .key = "trace", .type = NB_OPT_FLAG, .flags = NB_OPT_INVERT | NB_OPT_HELP_JOIN, .offset = CFG(trace),
	  .def = 1,
	  .help = "no diagnostic repetition: no tracepoint metrics (NAPI polls,\n"
		  "softirq time) and no profile (by default they run in one extra\n"
		  "repetition per point, reported apart, never in the medians)",
	  .doc = "tracepoint metrics (NAPI polls, softirq time) where the kernel allows" },
	{ .name = "no-profile", .key = "profile", .type = NB_OPT_FLAG, .flags = NB_OPT_INVERT | NB_OPT_HELP_JOIN, .offset = CFG(profile),
	  .def = 1, .help = "tracepoint metrics but no kernel profile",
	  .doc = "a sampling kernel profile per point (with `trace`)" },
	{ .name = "no-profile-stacks", .key = "profile_stacks", .type = NB_OPT_FLAG, .flags = NB_OPT_INVERT,
	  .offset = CFG(profile_stacks), .def = 1, .help = "a flat profile, without call chains (folded stacks)",
	  .doc = "kernel call chains in the profile, written as folded stacks beside the report" },
	{ .name = "diagnostics", .key = "diagnostics", .type = NB_OPT_CUSTOM, .parse = parse_diagnostics,
	  .brief = "which reports run the diagnostic repetition: auto, always, never, K",
	  .metavar = "WHEN", .doc_type = "`\"auto\"`, `\"always\"`, `\"never\"` or a round number",
	  .doc_default = "`\"auto\"`",
	  .help = "which reports run the diagnostic repetition: auto (every report;\n"
		  "with --round only round 1 of each side), always, never, or a round\n"
		  "number K (auto, in round K of each side)",
	  .doc = "which reports run the diagnostic repetition (tracepoints, profile): `auto` runs it in every report, "
		 "and with `round` only in round 1 of each side (or round K when given a number); `always` in every "
		 "round; `never` in none. The report's top-level `diagnostics` says which round holds it" },
	{ .name = "round", .key = "round", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .parse = parse_round,
	  .brief = "this report is round I of N of side A or B of an A/B set",
	  .metavar = "SIDE:I/N[:SET]", .doc_type = "`\"SIDE:I/N[:SET]\"`", .doc_default = "(none)",
	  .help = "this report is round I of N of side A or B of an A/B set (SET: an\n"
		  "id shared by the set); recorded as the report's \"round\", for\n"
		  "nicbench compare A1.json ... -- B1.json ...",
	  .doc = "this report is round I of N of side `A` or `B` of an A/B set; SET (A-Z a-z 0-9 . _ -) is an id shared "
		 "by the set. Recorded as the report's top-level `round`, which `nicbench compare A... -- B...` pairs "
		 "by index" },
	{ .name = "journal", .brief = "where the knobs' originals go (default /run/nicbench/IFACE.journal)", .key = "journal", .type = NB_OPT_STRING, .flags = NB_OPT_NO_REPORT, .offset = CFG(journal),
	  .metavar = "FILE", .doc_type = "path", .doc_default = "`/run/nicbench/IFACE.journal`",
	  .help = "where original knob values are saved before the first change\n"
		  "(default /run/nicbench/IFACE.journal; after a crash:\n"
		  "nicbench knobs restore -i IFACE)",
	  .doc = "where original knob values are written before the first change" },
	{ .name = "description", .key = "description", .type = NB_OPT_STRING, .offset = CFG(description),
	  .metavar = "TEXT", .help = "free text stored in the report's config", .doc = "free text, kept in the report" },
	{ .name = "promisc", .brief = "hold the interface promiscuous (libpcap) for packet-rate tests", .key = "promiscuous", .type = NB_OPT_FLAG, .offset = CFG(promiscuous),
	  .help = "hold the interface promiscuous (libpcap) during the sweep: packet-rate\n"
		  "tests towards a foreign MAC count what the driver received" },
	{ .name = "capture", .brief = "first N packets a point to REPORT.pN.pcap", .key = "capture.packets", .type = NB_OPT_INT, .offset = CFG(capture_packets), .min = 0,
	  .max = 1000000, .def = 0, .metavar = "N",
	  .help = "per point, save the first N packets of the measured window to\n"
		  "REPORT.pN.pcap beside the report, for debugging; 0: off" },
	{ .name = "snaplen", .key = "capture.snaplen", .type = NB_OPT_INT, .flags = NB_OPT_HELP_JOIN, .offset = CFG(capture_snaplen), .min = 14,
	  .max = 65535, .def = 128, .metavar = "BYTES", .unit = "bytes", .help = "bytes kept per captured packet" },
	{ .name = "redact", .brief = "leave the hostname, kernel command line and raw JSON out, for publishing", .key = "redact", .type = NB_OPT_FLAG, .offset = CFG(redact),
	  .help = "leave the hostname, the kernel command line and iperf3's raw JSON\n"
		  "(which repeats both) out of the report, for publishing it" },

	/* foreign load */
	{ .name = "idle-check", .brief = "watch the machine S s first, warn above 10% busy; 0 = off", .key = "idle_check", .type = NB_OPT_SECONDS, .offset = CFG(idle_check_s), .min = 0,
	  .max = 60, .def = 1, .metavar = "S", .unit = "s",
	  .help = "watch the machine S seconds before the first point and warn, naming\n"
		  "the busiest processes, above 10% busy; 0 = no check",
	  .doc = "before the first point, how long to watch that the machine is quiet; a warning names the busiest "
		 "processes above 10% busy. 0 skips it" },
	{ .name = "peer-local", .brief = "the peer's server runs on this machine: its CPU is not foreign load", .key = "peer_local", .type = NB_OPT_FLAG, .offset = CFG(peer_local),
	  .doc_default = "false (true for a loopback peer)",
	  .help = "count the peer's iperf3 server as the test's even when it is not\n"
		  "found by its socket (a local peer's server is found by itself);\n"
		  "runs with cpu_other_pct >= 10% are marked disturbed",
	  .doc = "a local peer's server is found by the socket listening on its port (peer.local in the report) and "
		 "counts as the test's in `cpu_other_pct`; this flag forces the old rule when it is not found: iperf3 "
		 "processes by name and iperf3's own CPU figure" },

	/* file only */
	{ .key = "board", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .doc_type = "object",
	  .doc = "documentation for board profiles: `name`, `soc`, `cpus`, `irq_names`, `notes`, `kernel`, `interface`" },
	{ .key = "comment", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .doc_type = "any", .doc = "ignored" },
	{ .key = "$schema", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .doc_type = "any", .doc = "ignored" },
};

const struct nb_opt_table nb_config_table = {
	.command = "run",
	.rows = rows,
	.nrows = (int)(sizeof(rows) / sizeof(rows[0])),
	.store_test_field = store_test_field,
};
