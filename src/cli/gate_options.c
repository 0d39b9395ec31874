// SPDX-License-Identifier: MIT
/* The rows of compare's gate options, shared by compare, ab and bisect (gate_options.h). */
#include "gate_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

/* Each parser gets the command's object; the row's offset leads to its struct nb_cmp_options. */
static struct nb_cmp_options *cmp_opt(void *obj, const struct nb_opt *o)
{
	return (struct nb_cmp_options *)((char *)obj + o->offset);
}

static int parse_gate(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	return nb_cmp_gate_parse(cmp_opt(obj, o), text, err);
}

static int parse_effect(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	return nb_cmp_effect_parse(cmp_opt(obj, o), text, err);
}

static int parse_floor(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	return nb_cmp_floor_parse(cmp_opt(obj, o), text, err);
}

/* The range 0..1 leaves both ends out: the table's range checks are inclusive. */
static int parse_alpha(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err)
{
	double v = strtod(text, NULL);

	if (!(v > 0 && v < 1))
		return nb_err_set(err, -EINVAL, "--alpha '%s': expected a number between 0 and 1, both left out", text);
	nb_opt_store_number(o, obj, v);
	return 0;
}

#define CMP_FIELD(member) offsetof(struct nb_cmp_options, member), sizeof(((struct nb_cmp_options *)0)->member)

static const struct nb_opt gate_rows[NB_GATE_ROWS] = {
	{ .name = "gate", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .offset = 0, .metavar = "RULES",
	  .parse = parse_gate,
	  .help = "which metrics gate the exit code: comma-separated METRIC[@TESTGLOB][=PCT], or none",
	  .brief = "gated metrics: METRIC[@TESTGLOB][=PCT],... or none" },
	{ .name = "min-effect", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .offset = 0, .metavar = "[M=]PCT",
	  .parse = parse_effect,
	  .help = "minimum effect in percent, of all metrics or of metric M (default 5)" },
	{ .name = "floor", .type = NB_OPT_CUSTOM, .flags = NB_OPT_NO_REPORT, .offset = 0, .metavar = "NAME=V",
	  .parse = parse_floor,
	  .help = "absolute floor of metric or family NAME in its unit (none: no floors)" },
	{ .name = "alpha", .type = NB_OPT_NUMBER, .flags = NB_OPT_NO_REPORT, .offset = CMP_FIELD(alpha), .min = 0, .max = 1,
	  .def = 0.10, .metavar = "P", .parse = parse_alpha,
	  .help = "1 - the interval's confidence" },
	{ .name = "min-runs", .type = NB_OPT_INT, .flags = NB_OPT_NO_REPORT, .offset = CMP_FIELD(min_runs), .min = 3,
	  .max = 1000, .def = 3, .metavar = "N", .help = "runs needed per side for a verdict" },
	{ .name = "missing-ok", .type = NB_OPT_FLAG, .flags = NB_OPT_NO_REPORT, .offset = CMP_FIELD(missing_ok),
	  .help = "a gated metric or point absent from B: inconclusive, not a failure" },
	{ .name = "allow-disturbed", .type = NB_OPT_FLAG, .flags = NB_OPT_NO_REPORT, .offset = CMP_FIELD(allow_disturbed),
	  .help = "exit 0, not 4, when a side was disturbed (foreign load, steal)" },
};

int nb_gate_rows_add(struct nb_opt *rows, int at, size_t opt_offset)
{
	for (int i = 0; i < NB_GATE_ROWS; i++) {
		rows[at + i] = gate_rows[i];
		rows[at + i].offset += opt_offset;
	}
	return at + NB_GATE_ROWS;
}

void nb_gate_help(FILE *out, const struct nb_opt_table *t)
{
	nb_opts_help(out, t, "gate", "allow-disturbed");
}

void nb_gate_usage(FILE *out, const struct nb_opt_table *t, const char *first, const char *last,
		   const char *gate_heading)
{
	nb_opts_help(out, t, first, last);
	fprintf(out, "%s\n", gate_heading);
	nb_gate_help(out, t);
	fputs("  -h, --help              this help\n", out);
}

void nb_gate_ab_defaults(struct nb_cmp_options *opt)
{
	/* throughput and the kernel's CPU per packet, judged sequentially with alpha shared among them */
	nb_cmp_options_ab_init(opt);
}
