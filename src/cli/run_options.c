// SPDX-License-Identifier: MIT
/* Command-line options of `run` and `plan`: the rows of config_table.c, parsed in two passes so
 * a config file is read first and every flag overrides it whatever the order on the line. */
#include "run_options.h"

#include <string.h>

#include "napi_knobs.h"

/* The knob names, wrapped: what each does is `nicbench knobs --help`'s and the man page's. */
static void knob_names(FILE *out)
{
	int col = fprintf(out, "      knobs:");

	for (int i = 0; i <= nb_knob_count(); i++) {
		const char *name = i < nb_knob_count() ? nb_knob_name(i) : NB_KNOB_TRAFFIC_CPU;

		if (col + 1 + (int)strlen(name) > 96)
			col = fprintf(out, "\n            ");
		col += fprintf(out, " %s", name);
	}
	fputc('\n', out);
}

void nb_run_options_usage(const char *command, FILE *out)
{
	fprintf(out,
		"usage: nicbench %s -i IFACE --peer HOST[:PORT] [OPTIONS]\n"
		"       nicbench %s --config FILE [OPTIONS]\n"
		"\n", command, command);
	if (!strcmp(command, "plan"))
		fprintf(out, "Print the ordered test points and the estimated time of the sweep that `run` would do\n"
			     "with the same options; changes and sends nothing.\n\n");
	else
		fprintf(out, "Sweep knob settings x tests x repetitions against a peer (iperf3 -s or nicbench serve),\n"
			     "sample CPU, softirq, IRQ and drop counters, restore every knob, write a JSON report.\n\n");
	fprintf(out, "what to measure:\n");
	nb_opts_help(out, &nb_config_table, "interface", "iperf3");
	fprintf(out, "with nicbench serve as the peer: request/response tests (tcp-rr, udp-rr), its MTU:\n");
	nb_opts_help(out, &nb_config_table, "rr-flows", "rr-port");
	nb_opts_help(out, &nb_config_table, "peer-mtu", "peer-ctl-port");
	fprintf(out, "the knob matrix (a cross product; knob settings are the outer loop):\n");
	nb_opts_help(out, &nb_config_table, "knob", "knob");
	knob_names(out);
	fprintf(out, "files and output:\n");
	nb_opts_help(out, &nb_config_table, "config", "redact");
	fprintf(out, "foreign load (other programs' CPU moves every figure):\n");
	nb_opts_help(out, &nb_config_table, "idle-check", "peer-local");
	fprintf(out,
		"\n"
		"exit codes: 0 every point ran (ok or unsupported); 1 a point failed or timed out (report\n"
		"written); 2 usage, config or input error (nothing changed); 130 stopped by a signal.\n"
		"example: nicbench %s -i eth0 --peer 192.0.2.1 --knob threaded=0,1 \\\n"
		"             --knob gro_flush_timeout:napi_defer_hard_irqs=0:0,20000:1 -o g2ul.json\n"
		"Each option in full, the knobs and the method: man nicbench, docs/running.md.\n",
		command);
}

int nb_run_options_parse(int argc, char **argv, struct nb_config *cfg, struct nb_err *err)
{
	nb_config_defaults(cfg);
	return nb_opts_parse(&nb_config_table, argc, argv, cfg, NULL, err);
}
