// SPDX-License-Identifier: MIT
/* The settings-table parser: getopt from the rows, values checked against the row's range,
 * --help and the config keys' docs printed from the same rows. */
#include "kit/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 64
#define OPT_BASE 256  /* getopt values of long-only rows: OPT_BASE + row index */
#define HELP_COLUMN 26

int nb_parse_rate(const char *text, uint64_t *bps)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || v < 0 || !isfinite(v))
		return -EINVAL;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	default: return -EINVAL;
	}
	if (*end != '\0' || v > 1e13)
		return -EINVAL;
	*bps = (uint64_t)llround(v);
	return 0;
}

const char *nb_opt_flag_text(const struct nb_opt *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

void nb_opt_range_text(const struct nb_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g..%.15g", o->min, o->max);
}

const char *nb_opt_rate_expect(const struct nb_opt *o)
{
	return o->expect ? o->expect : "a rate such as 0 (unlimited), 500M or 1G";
}

bool nb_opt_in_range(const struct nb_opt *o, double v)
{
	return v >= o->min && v <= o->max;
}

void nb_opt_store_number(const struct nb_opt *o, void *base, double v)
{
	char *field = (char *)base + o->offset;

	switch (o->type) {
	case NB_OPT_INT: *(int *)field = (int)v; break;
	case NB_OPT_SECONDS: case NB_OPT_NUMBER: *(double *)field = v; break;
	case NB_OPT_FLAG: *(bool *)field = v != 0; break;
	case NB_OPT_RATE: *(uint64_t *)field = (uint64_t)llround(v); break;
	default: break;
	}
}

double nb_opt_load_number(const struct nb_opt *o, const void *base)
{
	const char *field = (const char *)base + o->offset;

	switch (o->type) {
	case NB_OPT_INT: return *(const int *)field;
	case NB_OPT_SECONDS: case NB_OPT_NUMBER: return *(const double *)field;
	case NB_OPT_FLAG: return *(const bool *)field;
	case NB_OPT_RATE: return (double)*(const uint64_t *)field;
	default: return 0;
	}
}

static void store(const struct nb_opt_table *t, const struct nb_opt *o, void *obj, double v)
{
	if ((o->flags & NB_OPT_TEST_FIELD) && t && t->store_test_field)
		t->store_test_field(obj, o, v);
	else
		nb_opt_store_number(o, obj, v);
}

static int apply_row(const struct nb_opt_table *t, const struct nb_opt *o, void *obj, const char *text,
		     struct nb_err *err)
{
	char flag[48], range[64];
	char *end;
	double v;
	uint64_t rate;

	nb_opt_flag_text(o, flag, sizeof(flag));
	nb_opt_range_text(o, range, sizeof(range));
	switch (o->type) {
	case NB_OPT_CUSTOM:
		return o->parse(obj, o, text, err);
	case NB_OPT_FLAG:
		store(t, o, obj, (o->flags & NB_OPT_INVERT) ? 0 : 1);
		return 0;
	case NB_OPT_STRING:
		if (strlen(text) >= o->size)
			return nb_err_set(err, -EINVAL, "%s '%.64s...': too long (at most %zu bytes)", flag, text, o->size - 1);
		snprintf((char *)obj + o->offset, o->size, "%s", text);
		return o->parse ? o->parse(obj, o, text, err) : 0;
	case NB_OPT_ARG:
		*(const char **)((char *)obj + o->offset) = text;
		return 0;
	case NB_OPT_RATE:
		if (o->parse)  /* it takes more than one rate ("150M,1000M": a sweep) */
			return o->parse(obj, o, text, err);
		if (nb_parse_rate(text, &rate) < 0 || !nb_opt_in_range(o, (double)rate))
			return nb_err_set(err, -EINVAL, "%s '%s': expected %s", flag, text, nb_opt_rate_expect(o));
		store(t, o, obj, (double)rate);
		return 0;
	case NB_OPT_INT:
		if (o->parse)  /* it takes words too ("auto:3-10") */
			return o->parse(obj, o, text, err);
		errno = 0;
		v = (double)strtol(text, &end, 10);
		if (*text == '\0' || *end != '\0' || errno || !nb_opt_in_range(o, v))
			return nb_err_set(err, -EINVAL, "%s '%s': expected a whole number %s", flag, text, range);
		store(t, o, obj, v);
		return 0;
	case NB_OPT_SECONDS:
	case NB_OPT_NUMBER:
		errno = 0;
		v = strtod(text, &end);
		if (*text == '\0' || *end != '\0' || errno || !nb_opt_in_range(o, v))
			return nb_err_set(err, -EINVAL, "%s '%s': expected %s %s", flag, text,
					  o->type == NB_OPT_SECONDS ? "seconds" : "a number", range);
		if (o->parse)  /* a further rule (a gap in the range) */
			return o->parse(obj, o, text, err);
		store(t, o, obj, v);
		return 0;
	}
	return 0;
}

void nb_opts_defaults(const struct nb_opt_table *t, void *obj)
{
	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];

		if (o->type == NB_OPT_INT || o->type == NB_OPT_SECONDS || o->type == NB_OPT_NUMBER ||
		    o->type == NB_OPT_FLAG || o->type == NB_OPT_RATE)
			if (!(o->flags & NB_OPT_TEST_FIELD))
				nb_opt_store_number(o, obj, o->def);
	}
}

const struct nb_opt *nb_opt_by_key(const struct nb_opt_table *t, const char *key)
{
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].key && !strcmp(t->rows[i].key, key))
			return &t->rows[i];
	return NULL;
}

const struct nb_opt *nb_opt_by_name(const struct nb_opt_table *t, const char *name)
{
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].name && !strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

/* getopt's tables from the rows: a short name returns itself, a long-only row OPT_BASE + index. */
static void build_getopt(const struct nb_opt_table *t, struct option *longs, char *shorts, size_t shorts_len)
{
	size_t n = 0, s = 0;

	shorts[s++] = ':';  /* a missing value is ':', told apart from an unknown option */
	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];
		int has_arg = o->type == NB_OPT_FLAG ? no_argument : required_argument;
		int val = o->short_name ? o->short_name : OPT_BASE + i;

		if (o->name)
			longs[n++] = (struct option){ o->name, has_arg, NULL, val };
		if (o->alias)
			longs[n++] = (struct option){ o->alias, has_arg, NULL, val };
		if (o->short_name && s + 3 < shorts_len) {
			shorts[s++] = o->short_name;
			if (has_arg == required_argument)
				shorts[s++] = ':';
		}
	}
	longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	shorts[s++] = 'h';
	shorts[s] = '\0';
}

static const struct nb_opt *row_of(const struct nb_opt_table *t, int val)
{
	if (val >= OPT_BASE && val < OPT_BASE + t->nrows)
		return &t->rows[val - OPT_BASE];
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].short_name == val)
			return &t->rows[i];
	return NULL;
}

int nb_opts_parse(const struct nb_opt_table *t, int argc, char **argv, void *obj, int *positional,
		  struct nb_err *err)
{
	struct option longs[2 * MAX_ROWS + 2];
	char shorts[2 * MAX_ROWS + 3];
	const char *cmd = argc > 0 ? argv[0] : t->command;  /* "plan" shares run's table */
	int opt;

	if (t->nrows > MAX_ROWS)
		return nb_err_set(err, -E2BIG, "%s: more than %d options in its table", t->command, MAX_ROWS);
	build_getopt(t, longs, shorts, sizeof(shorts));
	/* pass 1: --help, unknown options and the EARLY rows (a config file under the other flags) */
	for (int pass = 1; pass <= 2; pass++) {
		opterr = 0;
		optind = 0; /* 0, not 1: glibc then forgets a short-option cluster left half-read by a return */
		while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
			const struct nb_opt *o = row_of(t, opt);
			int rc;

			if (opt == 'h')
				return 1;
			/* a short option's cluster ("-x.json") leaves optind where it was: name the letter */
			if (opt == '?' && optopt > 0 && optopt < 128)
				return nb_err_set(err, -EINVAL, "unknown option '-%c' (try 'nicbench %s --help'; a file "
						  "whose name begins with '-' is ./-NAME)", optopt, cmd);
			if (opt == '?')
				return nb_err_set(err, -EINVAL, "unknown option '%s' (try 'nicbench %s --help')",
						  argv[optind - 1], cmd);
			if (opt == ':')
				return nb_err_set(err, -EINVAL, "option '%s' needs a value", argv[optind - 1]);
			if (!o || (pass == 1) != !!(o->flags & NB_OPT_EARLY))
				continue;
			rc = apply_row(t, o, obj, optarg, err);
			if (rc < 0)
				return rc;
		}
		if (pass == 1 && optind < argc && !positional)
			return nb_err_set(err, -EINVAL, "unexpected argument '%s' (try 'nicbench %s --help')", argv[optind],
					  cmd);
	}
	if (positional)
		*positional = optind;
	return 0;
}

bool nb_opts_done(int rc, const char *command, const struct nb_err *err, void (*usage)(FILE *out), int *exit_code)
{
	if (rc == 1) {
		usage(stdout);
		*exit_code = 0;
		return true;
	}
	if (rc < 0) {
		fprintf(stderr, "nicbench %s: %s\n", command, err->msg);
		*exit_code = 2;  /* NB_EXIT_USAGE: nothing was changed */
		return true;
	}
	return false;
}

static bool shows_default(const struct nb_opt *o)
{
	return (o->type == NB_OPT_INT || o->type == NB_OPT_SECONDS || o->type == NB_OPT_NUMBER ||
		o->type == NB_OPT_RATE) && !o->doc_default;
}

/* One row's flags as --help writes them: "-i, --interface IFACE" or "--duration S". */
static int help_flags(char *buf, size_t len, const struct nb_opt *o)
{
	const char *sep = o->metavar ? " " : "", *meta = o->metavar ? o->metavar : "";

	if (o->short_name)
		return snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name, sep, meta);
	return snprintf(buf, len, "--%s%s%s", o->name, sep, meta);
}

static bool help_shown(const struct nb_opt *o)
{
	return o->help && o->name && !(o->flags & NB_OPT_HIDDEN);
}

/* Print one line: the rows from..to-1 that are shown, under the first one's brief. */
static void help_line(FILE *out, const struct nb_opt_table *t, int from, int to)
{
	const struct nb_opt *lead = &t->rows[from];
	const char *brief = lead->brief ? lead->brief : lead->help;
	char left[160] = "", def[96] = "";
	size_t nleft = 0, ndef = 0;
	int len = (int)strcspn(brief, "\n");

	for (int i = from; i < to; i++) {
		const struct nb_opt *o = &t->rows[i];

		if (!help_shown(o))
			continue;
		if (nleft && nleft < sizeof(left))
			nleft += (size_t)snprintf(left + nleft, sizeof(left) - nleft, ", ");
		if (nleft < sizeof(left))
			nleft += (size_t)help_flags(left + nleft, sizeof(left) - nleft, o);
		if (shows_default(o) && ndef < sizeof(def))
			ndef += (size_t)snprintf(def + ndef, sizeof(def) - ndef, "%s%.15g", ndef ? ", " : " (default ",
						 o->def);
	}
	fprintf(out, "  %s%-*s %.*s%s%s\n", lead->short_name ? "" : "    ",
		HELP_COLUMN - 3 - (lead->short_name ? 0 : 4), left, len, brief, def, ndef ? ")" : "");
}

void nb_opts_help(FILE *out, const struct nb_opt_table *t, const char *first, const char *last)
{
	bool inside = !first;
	int lead = -1;

	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];

		if (o->name && first && !strcmp(o->name, first))
			inside = true;
		if (inside && help_shown(o) && !(lead >= 0 && (o->flags & NB_OPT_HELP_JOIN))) {
			if (lead >= 0)
				help_line(out, t, lead, i);
			lead = i;
		}
		if (inside && o->name && last && !strcmp(o->name, last)) {
			if (lead >= 0)
				help_line(out, t, lead, i + 1);
			return;
		}
	}
	if (lead >= 0)
		help_line(out, t, lead, t->nrows);
}

static void doc_type(const struct nb_opt *o, char *buf, size_t len)
{
	char range[64];

	nb_opt_range_text(o, range, sizeof(range));
	if (o->doc_type)
		snprintf(buf, len, "%s", o->doc_type);
	else if (o->type == NB_OPT_INT)
		snprintf(buf, len, "integer%s%s %s", o->unit ? " " : "", o->unit ? o->unit : "", range);
	else if (o->type == NB_OPT_SECONDS || o->type == NB_OPT_NUMBER)
		snprintf(buf, len, "number%s%s, %s", o->unit ? " " : "", o->unit ? o->unit : "", range);
	else if (o->type == NB_OPT_FLAG)
		snprintf(buf, len, "bool");
	else if (o->type == NB_OPT_RATE)
		snprintf(buf, len, "rate string");
	else
		snprintf(buf, len, "string");
}

static void doc_default(const struct nb_opt *o, char *buf, size_t len)
{
	if (o->doc_default)
		snprintf(buf, len, "%s", o->doc_default);
	else if (o->type == NB_OPT_FLAG)  /* the key's sense: an INVERT flag turns a true default off */
		snprintf(buf, len, "%s", o->def ? "true" : "false");
	else if (o->type == NB_OPT_RATE)
		snprintf(buf, len, "`\"%g\"`", o->def);
	else if (o->type == NB_OPT_INT || o->type == NB_OPT_SECONDS || o->type == NB_OPT_NUMBER)
		snprintf(buf, len, "%g", o->def);
	else
		buf[0] = '\0';
}

/* Help text in one line for a table cell: newlines become spaces, '|' is escaped. */
static void doc_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\n') {
			while (s[1] == ' ')
				s++;
			fputc(' ', out);
		} else if (*s == '|') {
			fputs("\\|", out);
		} else {
			fputc(*s, out);
		}
	}
}

void nb_opts_markdown(FILE *out, const struct nb_opt_table *t)
{
	fputs("| key | type | default | meaning |\n|---|---|---|---|\n", out);
	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];
		char type[96], def[128];

		if (!o->key)
			continue;
		doc_type(o, type, sizeof(type));
		doc_default(o, def, sizeof(def));
		fprintf(out, "| `%s` | %s | %s | ", o->key, type, def);
		doc_text(out, o->doc ? o->doc : o->help);
		fputs(" |\n", out);
	}
}
