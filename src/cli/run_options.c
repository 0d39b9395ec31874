// SPDX-License-Identifier: MIT
/* Command-line options of `run` and `plan`: one table, parsed in two passes so a config
 * file is read first and every flag overrides it whatever the order on the line. */
#include "run_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "napi_knobs.h"

enum {
	OPT_PEER = 256, OPT_TESTS, OPT_DURATION, OPT_OMIT, OPT_STREAMS, OPT_RATE, OPT_LENGTH, OPT_REPS,
	OPT_SETTLE, OPT_INTERVAL, OPT_KNOB, OPT_CONFIG, OPT_JSON, OPT_NO_RAW, OPT_JOURNAL, OPT_GRACE,
	OPT_CONNECT_TIMEOUT, OPT_NO_TRACE, OPT_NO_PROFILE, OPT_DESCRIPTION, OPT_PROMISC, OPT_CAPTURE,
	OPT_SNAPLEN, OPT_RR_FLOWS, OPT_RR_REQUEST, OPT_RR_RESPONSE, OPT_RR_RATE, OPT_RR_TIMEOUT, OPT_RR_PORT,
	OPT_PEER_LOCAL, OPT_IDLE_CHECK, OPT_REDACT,
	OPT_PRECISION, OPT_INTERLEAVE, OPT_SHUFFLE, /* repetitions until the answer is known */
};

static const struct option long_options[] = {
	{ "interface", required_argument, NULL, 'i' },
	{ "peer", required_argument, NULL, OPT_PEER },
	{ "tests", required_argument, NULL, OPT_TESTS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "omit", required_argument, NULL, OPT_OMIT },
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "length", required_argument, NULL, OPT_LENGTH },
	{ "repetitions", required_argument, NULL, OPT_REPS },
	{ "settle", required_argument, NULL, OPT_SETTLE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "knob", required_argument, NULL, OPT_KNOB },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-raw", no_argument, NULL, OPT_NO_RAW },
	{ "journal", required_argument, NULL, OPT_JOURNAL },
	{ "grace", required_argument, NULL, OPT_GRACE },
	{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "no-profile", no_argument, NULL, OPT_NO_PROFILE },
	{ "description", required_argument, NULL, OPT_DESCRIPTION },
	{ "promisc", no_argument, NULL, OPT_PROMISC },
	{ "capture", required_argument, NULL, OPT_CAPTURE },
	{ "snaplen", required_argument, NULL, OPT_SNAPLEN },
	{ "rr-flows", required_argument, NULL, OPT_RR_FLOWS },
	{ "rr-request", required_argument, NULL, OPT_RR_REQUEST },
	{ "rr-response", required_argument, NULL, OPT_RR_RESPONSE },
	{ "rr-rate", required_argument, NULL, OPT_RR_RATE },
	{ "rr-timeout", required_argument, NULL, OPT_RR_TIMEOUT },
	{ "rr-port", required_argument, NULL, OPT_RR_PORT },
	{ "peer-local", no_argument, NULL, OPT_PEER_LOCAL },
	{ "idle-check", required_argument, NULL, OPT_IDLE_CHECK },
	{ "redact", no_argument, NULL, OPT_REDACT },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "interleave", no_argument, NULL, OPT_INTERLEAVE },
	{ "shuffle", required_argument, NULL, OPT_SHUFFLE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void nb_run_options_usage(const char *command, FILE *out)
{
	fprintf(out,
		"usage: nicbench %s -i IFACE --peer HOST[:PORT] [OPTIONS]\n"
		"       nicbench %s --config FILE [OPTIONS]\n"
		"\n", command, command);
	if (!strcmp(command, "plan"))
		fprintf(out, "Print the ordered test points and the estimated time of a sweep; runs nothing.\n\n");
	else
		fprintf(out,
			"Sweep the knob matrix across iperf3 tests against a peer running `iperf3 -s` (or\n"
			"`nicbench serve`), sample CPU, softirq, interrupt and drop counters while traffic\n"
			"flows, restore every knob, and write a JSON report (schema nicbench-report/1).\n\n");
	fprintf(out,
		"what to measure:\n"
		"  -i, --interface IFACE   the interface under test (in this network namespace)\n"
		"      --peer HOST[:PORT]  the iperf3 server (default port 5201)\n"
		"      --tests LIST        comma-separated: tcp-tx,tcp-rx,udp-tx,udp-rx (default: all four;\n"
		"                          tx = this host sends, rx = the peer sends, iperf3 -R), and the\n"
		"                          request/response tests tcp-rr,udp-rr (latency; need `nicbench serve`)\n"
		"      --duration S        measured seconds per run (default 10)\n"
		"      --omit S            warm-up seconds excluded from the figures (default 2)\n"
		"      --streams N         parallel streams (default 1)\n"
		"      --rate RATE         UDP target rate, e.g. 500M; 0 = unlimited, like iperf3 -b0 (default 0)\n"
		"      --length BYTES      UDP datagram length (default 1448: the MSS at MTU 1500)\n"
		"      --repetitions N     runs per test point; compare needs >= 3 (default 3)\n"
		"      --repetitions auto[:MIN-MAX]  repeat each point until the 90%% interval of its median\n"
		"                          throughput (and cpu_busy_pct for rx tests) lies within +-precision\n"
		"                          of the median, at least MIN and at most MAX runs (default 3-10); a run\n"
		"                          disturbed by foreign load is repeated, not counted\n"
		"      --precision PCT     the precision auto repetitions aim for, %% of the median (default 2)\n"
		"      --interleave        run in rounds, one repetition of every point per round, so drift\n"
		"                          over time lands on every setting alike; with auto a precise point\n"
		"                          leaves the rounds (knobs are applied again at every visit)\n"
		"      --shuffle SEED      interleave, each round in an order drawn from SEED (recorded)\n"
		"      --settle S          pause after applying knobs and before each run (default 2)\n"
		"      --interval MS       sampling period while traffic flows (default 100)\n"
		"      --grace S           past duration + omit + grace a run is killed: timeout (default 5)\n"
		"      --connect-timeout S time a run may take to start, retries included (default 10)\n"
		"\n"
		"request/response tests (tcp-rr, udp-rr; the peer runs `nicbench serve`):\n"
		"      --rr-flows N        flows, each with one transaction in flight in closed loop (default 1)\n"
		"      --rr-request BYTES  request size, 16..65507 (default 64)\n"
		"      --rr-response BYTES response size, 16..65507 (default 64)\n"
		"      --rr-rate TPS       open loop: transactions per second across all flows, sent on a\n"
		"                          fixed schedule; latency counts from the scheduled time, so a stall\n"
		"                          is not hidden (default 0 = closed loop: next request on each answer)\n"
		"      --rr-timeout MS     udp-rr: a request unanswered this long is lost; one answered later\n"
		"                          is late (default 100)\n"
		"      --rr-port PORT      the peer's rr port, TCP and UDP (default 5301, as nicbench serve)\n"
		"\n"
		"the knob matrix (swept as a cross product; knob settings are the outer loop):\n"
		"      --knob NAME=V1,V2   repeatable, e.g. --knob threaded=0,1 --knob gro_flush_timeout=0,20000\n"
		"      --knob A:B=a1:b1,a2:b2  sweep knobs together, e.g. software IRQ coalescing off / on:\n"
		"                          --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1\n"
		"                          (irq_affinity values are CPU lists separated by '/': 0/1/0-1)\n"
		"  knobs:\n");
	for (int i = 0; i < nb_knob_count(); i++)
		fprintf(out, "    %-22s %s\n", nb_knob_name(i), nb_knob_help(i));
	fprintf(out,
		"    %-22s CPU the iperf3 traffic process is pinned to\n"
		"\n"
		"files and output:\n"
		"      --config FILE       JSON config (see configs/README.md); flags override it\n"
		"  -o, --output FILE       report path (default nicbench-IFACE-TIMESTAMP.json), written at the\n"
		"                          end from FILE.record, where each repetition is fsync'd as it ends\n"
		"                          (after a kill, nicbench knobs restore writes the report from it)\n"
		"      --json              also print the report on stdout at the end\n"
		"      --no-raw            leave iperf3's raw JSON out of the report\n"
		"      --no-trace          no diagnostic repetition: no tracepoint metrics (NAPI polls,\n"
		"                          softirq time) and no profile (by default they run in one extra\n"
		"                          repetition per point, reported apart, never in the medians)\n"
		"      --no-profile        tracepoint metrics but no kernel profile\n"
		"      --journal FILE      where original knob values are saved before the first change\n"
		"                          (default /run/nicbench/IFACE.journal; after a crash:\n"
		"                          nicbench knobs restore -i IFACE)\n"
		"      --description TEXT  free text stored in the report's config\n"
		"      --promisc           hold the interface promiscuous (libpcap) during the sweep: packet-rate\n"
		"                          tests towards a foreign MAC count what the driver received\n"
		"      --capture N         per point, save the first N packets of the measured window to\n"
		"                          REPORT.pN.pcap beside the report (debugging; off by default)\n"
		"      --snaplen BYTES     bytes kept per captured packet (default 128)\n"
		"      --redact            leave the hostname, the kernel command line and iperf3's raw JSON\n"
		"                          (which repeats both) out of the report, for publishing it\n"
		"\n"
		"foreign load (other programs' CPU moves every figure):\n"
		"      --idle-check S      watch the machine S seconds before the first point and warn, naming\n"
		"                          the busiest processes, above 10%% busy (default 1; 0 = no check)\n"
		"      --peer-local        the peer's iperf3 server runs on this machine (veth test bed; implied\n"
		"                          for a loopback peer): its CPU is the test's, not foreign, in\n"
		"                          cpu_other_pct; runs with cpu_other_pct >= 10%% are marked disturbed\n"
		"\n"
		"exit codes: 0 every point ran (ok or unsupported); 1 some point failed or timed out\n"
		"(the report is still written); 2 usage, configuration or input error (nothing was\n"
		"changed); 130 stopped by a signal (knobs restored, report kept up to the last point).\n"
		"\n"
		"example (threaded NAPI x software IRQ coalescing, the matrix of the CIP ravb backport's cover\n"
		"letter for a 1-core RZ/G2UL; configs/boards/README.md cites the thread):\n"
		"  nicbench %s -i eth0 --peer 192.0.2.1 --repetitions 3 \\\n"
		"      --knob threaded=0,1 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 -o g2ul.json\n",
		NB_KNOB_TRAFFIC_CPU, command);
}

static int parse_int(const char *flag, const char *text, long min, long max, long *out, struct nb_err *err)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || errno || v < min || v > max)
		return nb_err_set(err, -EINVAL, "%s '%s': expected a whole number %ld..%ld", flag, text, min, max);
	*out = v;
	return 0;
}

static int parse_seconds(const char *flag, const char *text, double max, double *out, struct nb_err *err)
{
	char *end;
	double v = strtod(text, &end);

	if (*text == '\0' || *end != '\0' || !(v >= 0 && v <= max))
		return nb_err_set(err, -EINVAL, "%s '%s': expected seconds 0..%g", flag, text, max);
	*out = v;
	return 0;
}

static int apply_option(struct nb_config *cfg, int opt, const char *arg, struct nb_err *err)
{
	long n;
	uint64_t rate;
	int rc = 0;

	switch (opt) {
	case 'i':
		if (!nb_ifname_valid(arg))
			return nb_err_set(err, -EINVAL, "-i '%s': not a valid interface name (1-15 characters, no '/', ':' or spaces)", arg);
		snprintf(cfg->iface, sizeof(cfg->iface), "%s", arg);
		break;
	case OPT_PEER: rc = nb_config_set_peer(cfg, arg, err); break;
	case OPT_TESTS: rc = nb_config_set_tests(cfg, arg, err); break;
	case OPT_DURATION:
		rc = parse_int("--duration", arg, 1, 86400, &n, err);
		if (!rc)
			nb_config_set_test_field(cfg, NB_FIELD_DURATION, (uint64_t)n);
		break;
	case OPT_OMIT:
		rc = parse_int("--omit", arg, 0, 3600, &n, err);
		if (!rc)
			nb_config_set_test_field(cfg, NB_FIELD_OMIT, (uint64_t)n);
		break;
	case OPT_STREAMS:
		rc = parse_int("--streams", arg, 1, 128, &n, err);
		if (!rc)
			nb_config_set_test_field(cfg, NB_FIELD_STREAMS, (uint64_t)n);
		break;
	case OPT_RATE:
		if (nb_parse_rate(arg, &rate) < 0)
			return nb_err_set(err, -EINVAL, "--rate '%s': expected a rate such as 0 (unlimited), 500M, 1G", arg);
		nb_config_set_test_field(cfg, NB_FIELD_RATE, rate);
		break;
	case OPT_LENGTH:
		rc = parse_int("--length", arg, 16, 65507, &n, err);
		if (!rc)
			nb_config_set_test_field(cfg, NB_FIELD_LENGTH, (uint64_t)n);
		break;
	case OPT_REPS:
		rc = nb_config_set_repetitions(cfg, arg, err);
		if (rc < 0)
			nb_err_prefix(err, "--repetitions ");
		break;
	case OPT_PRECISION: {
		char *end;
		double pct = strtod(arg, &end);

		if (*arg == '\0' || *end != '\0' || !(pct > 0 && pct <= 100))
			return nb_err_set(err, -EINVAL, "--precision '%s': expected a percentage above 0, at most 100", arg);
		cfg->precision_pct = pct;
		break;
	}
	case OPT_INTERLEAVE: cfg->interleave = true; break;
	case OPT_SHUFFLE: {
		char *end;
		unsigned long long seed;

		errno = 0;
		seed = strtoull(arg, &end, 0);
		if (*arg == '\0' || *arg == '-' || *end != '\0' || errno)
			return nb_err_set(err, -EINVAL, "--shuffle '%s': expected a seed, a whole number >= 0", arg);
		cfg->shuffle = cfg->interleave = true;
		cfg->shuffle_seed = seed;
		break;
	}
	case OPT_SETTLE: rc = parse_seconds("--settle", arg, 600, &cfg->settle_s, err); break;
	case OPT_INTERVAL:
		rc = parse_int("--interval", arg, 10, 10000, &n, err);
		cfg->interval_ms = (int)n;
		break;
	case OPT_GRACE:
		rc = parse_int("--grace", arg, 1, 600, &n, err);
		cfg->grace_s = (int)n;
		break;
	case OPT_CONNECT_TIMEOUT:
		rc = parse_int("--connect-timeout", arg, 1, 600, &n, err);
		cfg->connect_timeout_s = (int)n;
		break;
	case OPT_KNOB: rc = nb_config_add_knob_axis(cfg, arg, err); break;
	case 'o': snprintf(cfg->output, sizeof(cfg->output), "%s", arg); break;
	case OPT_JSON: cfg->json_stdout = true; break;
	case OPT_NO_RAW: cfg->no_raw = true; break;
	case OPT_NO_TRACE: cfg->trace = false; break;
	case OPT_NO_PROFILE: cfg->profile = false; break;
	case OPT_JOURNAL: snprintf(cfg->journal, sizeof(cfg->journal), "%s", arg); break;
	case OPT_DESCRIPTION: snprintf(cfg->description, sizeof(cfg->description), "%s", arg); break;
	case OPT_PROMISC: cfg->promiscuous = true; break;
	case OPT_CAPTURE:
		rc = parse_int("--capture", arg, 0, 1000000, &n, err);
		cfg->capture_packets = (int)n;
		break;
	case OPT_SNAPLEN:
		rc = parse_int("--snaplen", arg, 14, 65535, &n, err);
		cfg->capture_snaplen = (int)n;
		break;
	case OPT_RR_FLOWS:
		rc = parse_int("--rr-flows", arg, 1, 256, &n, err);
		cfg->rr.flows = (int)n;
		break;
	case OPT_RR_REQUEST:
		rc = parse_int("--rr-request", arg, 16, 65507, &n, err);
		cfg->rr.request = (int)n;
		break;
	case OPT_RR_RESPONSE:
		rc = parse_int("--rr-response", arg, 16, 65507, &n, err);
		cfg->rr.response = (int)n;
		break;
	case OPT_RR_RATE: rc = nb_config_set_rr_rate(cfg, arg, err); break;
	case OPT_RR_TIMEOUT:
		rc = parse_int("--rr-timeout", arg, 1, 60000, &n, err);
		cfg->rr.timeout_ms = (int)n;
		break;
	case OPT_RR_PORT:
		rc = parse_int("--rr-port", arg, 1, 65535, &n, err);
		cfg->rr.port = (int)n;
		break;
	case OPT_PEER_LOCAL: cfg->peer_local = true; break;
	case OPT_IDLE_CHECK: rc = parse_seconds("--idle-check", arg, 60, &cfg->idle_check_s, err); break;
	case OPT_REDACT: cfg->redact = true; break;
	default: break;
	}
	return rc;
}

int nb_run_options_parse(int argc, char **argv, struct nb_config *cfg, struct nb_err *err)
{
	const char *config_file = NULL;
	int opt;

	nb_config_defaults(cfg);
	/* pass 1: --help, --config and unknown options */
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then forgets a short-option cluster left half-read by a return */
	while ((opt = getopt_long(argc, argv, ":i:o:h", long_options, NULL)) != -1) {
		if (opt == 'h')
			return 1;
		if (opt == '?')
			return nb_err_set(err, -EINVAL, "unknown option '%s' (try --help)", argv[optind - 1]);
		if (opt == ':')
			return nb_err_set(err, -EINVAL, "option '%s' needs a value", argv[optind - 1]);
		if (opt == OPT_CONFIG)
			config_file = optarg;
	}
	if (optind < argc)
		return nb_err_set(err, -EINVAL, "unexpected argument '%s' (try --help)", argv[optind]);
	if (config_file) {
		int rc = nb_config_load_file(cfg, config_file, err);

		if (rc < 0)
			return rc;
	}
	/* pass 2: every flag on top of the file */
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":i:o:h", long_options, NULL)) != -1) {
		int rc = apply_option(cfg, opt, optarg, err);

		if (rc < 0)
			return rc;
	}
	return 0;
}
