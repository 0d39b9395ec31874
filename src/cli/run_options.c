// SPDX-License-Identifier: MIT
/* Command-line options of `run` and `plan`: the rows of config_table.c, parsed in two passes so
 * a config file is read first and every flag overrides it whatever the order on the line. */
#include "run_options.h"

#include <string.h>

#include "napi_knobs.h"

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
	fprintf(out, "what to measure:\n");
	nb_opts_help(out, &nb_config_table, "interface", "connect-timeout");
	fprintf(out, "\nrequest/response tests (tcp-rr, udp-rr; the peer runs `nicbench serve`):\n");
	nb_opts_help(out, &nb_config_table, "rr-flows", "rr-port");
	fprintf(out, "\nthe knob matrix (swept as a cross product; knob settings are the outer loop):\n");
	nb_opts_help(out, &nb_config_table, "knob", "knob");
	fprintf(out, "  knobs:\n");
	for (int i = 0; i < nb_knob_count(); i++)
		fprintf(out, "    %-22s %s\n", nb_knob_name(i), nb_knob_help(i));
	fprintf(out,
		"    %-22s CPU the iperf3 traffic process is pinned to\n"
		"\n"
		"files and output:\n", NB_KNOB_TRAFFIC_CPU);
	nb_opts_help(out, &nb_config_table, "config", "redact");
	fprintf(out, "\nforeign load (other programs' CPU moves every figure):\n");
	nb_opts_help(out, &nb_config_table, "idle-check", "peer-local");
	fprintf(out,
		"\n"
		"exit codes: 0 every point ran (ok or unsupported); 1 some point failed or timed out\n"
		"(the report is still written); 2 usage, configuration or input error (nothing was\n"
		"changed); 130 stopped by a signal (knobs restored, report kept up to the last point).\n"
		"\n"
		"example (threaded NAPI x software IRQ coalescing, the matrix of the CIP ravb backport's cover\n"
		"letter for a 1-core RZ/G2UL; configs/boards/README.md cites the thread):\n"
		"  nicbench %s -i eth0 --peer 192.0.2.1 --repetitions 3 \\\n"
		"      --knob threaded=0,1 --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 -o g2ul.json\n",
		command);
}

int nb_run_options_parse(int argc, char **argv, struct nb_config *cfg, struct nb_err *err)
{
	nb_config_defaults(cfg);
	return nb_opts_parse(&nb_config_table, argc, argv, cfg, NULL, err);
}
