// SPDX-License-Identifier: MIT
/* Settings as table rows: one row per setting names its flag, config-file key, type, field,
 * range, default and help, and getopt, the config loader, the report's effective config,
 * --help and the docs all read the same row, so a range is written once. */
#ifndef NB_OPTIONS_H
#define NB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kit/nb_error.h"

enum nb_opt_type {
	NB_OPT_INT,      /* whole number min..max into an int */
	NB_OPT_SECONDS,  /* number of seconds min..max into a double */
	NB_OPT_NUMBER,   /* any other number min..max into a double (a percentage) */
	NB_OPT_FLAG,     /* no argument: sets a bool (NB_OPT_INVERT: clears it) */
	NB_OPT_STRING,   /* copied into a char[size] */
	NB_OPT_ARG,      /* the argument itself, kept as a const char * (argv outlives the parse) */
	NB_OPT_RATE,     /* "0", "500M", "1.5G" (1000-based) into a uint64_t */
	NB_OPT_CUSTOM,   /* parse() does all of it */
};

/* Row flags. */
enum {
	NB_OPT_INVERT = 1 << 0,      /* FLAG: the flag clears the bool; the file key keeps the positive sense */
	NB_OPT_TEST_FIELD = 1 << 1,  /* the field is in struct nb_test_spec: a test default and per-test key */
	NB_OPT_UDP_ONLY = 1 << 2,    /* TEST_FIELD that only UDP (iperf3) tests carry */
	NB_OPT_EARLY = 1 << 3,       /* applied before every other flag (--config: flags override the file) */
	NB_OPT_NO_REPORT = 1 << 4,   /* not part of the report's effective config */
	NB_OPT_HIDDEN = 1 << 5,      /* not in --help (tools for the tree itself) */
	NB_OPT_HELP_JOIN = 1 << 6,   /* --help: on the line of the row before it, under that row's brief */
	NB_OPT_MTU_WORD = 1 << 7,    /* INT that also takes the word mtu: one frame at each point's MTU, resolved per point */
};

struct nb_opt;

/* A custom row's parser: text -> the object. It writes a whole message (flag included). */
typedef int (*nb_opt_parse_fn)(void *obj, const struct nb_opt *o, const char *text, struct nb_err *err);

struct nb_opt {
	const char *name;        /* long flag without "--"; NULL: config file only */
	char short_name;         /* 0: none */
	const char *alias;       /* another long name accepted for the flag (old spelling) */
	const char *key;         /* config-file key, "rr.flows" inside "rr"; NULL: command line only */
	enum nb_opt_type type;
	unsigned flags;
	size_t offset, size;     /* the field; size for STRING */
	double min, max;         /* INT, SECONDS, RATE */
	double def;              /* default of INT, SECONDS, FLAG (1: true), RATE */
	const char *metavar;     /* "S", "MS", "N", "BYTES": shown in --help */
	const char *unit;        /* of the value, in the docs' words ("s", "ms", "bytes", "us", "%"); NULL: none */
	const char *help;        /* the whole text (man page, configs/README.md without doc); '\n' breaks */
	const char *brief;       /* --help's one line; NULL: the first line of help */
	const char *doc_type;    /* configs/README.md's type column, when the type alone says too little */
	const char *doc_default; /* the docs' default column, when the number alone says too little */
	const char *doc;         /* configs/README.md's meaning column; NULL: the help text */
	const char *expect;      /* RATE: what a bad value should have been ("transactions per second ...") */
	nb_opt_parse_fn parse;   /* CUSTOM; INT: the forms other than a number ("auto");
				  * SECONDS, NUMBER: a rule past the range (a gap, 0 excluded) */
};

struct nb_opt_table {
	const char *command;     /* "run", "serve": for messages */
	const struct nb_opt *rows;
	int nrows;
	/* TEST_FIELD rows from a flag: set the test default and every listed test */
	void (*store_test_field)(void *obj, const struct nb_opt *o, double v);
};

#define NB_OPT_FIELD(type, member) offsetof(type, member), sizeof(((type *)0)->member)

/* The parse convention of every subcommand: 0 go on; 1 --help was asked for (the caller
 * prints its usage on stdout and exits 0, nothing printed yet); -EINVAL with the message
 * in err (the caller prints "nicbench CMD: MSG" and exits 2). `positional` gets the
 * index of the first non-option argument; NULL: none are allowed. */
int nb_opts_parse(const struct nb_opt_table *t, int argc, char **argv, void *obj, int *positional,
		  struct nb_err *err);

/* After a parse under that convention: true when the command is done, with its exit code
 * (0 after printing usage for --help, 2 after printing "nicbench CMD: MSG"). */
bool nb_opts_done(int rc, const char *command, const struct nb_err *err, void (*usage)(FILE *out), int *exit_code);


/* Write every row's default into obj (custom rows are left to the caller). */
void nb_opts_defaults(const struct nb_opt_table *t, void *obj);

/* The rows whose help sits under one heading, given as first and last long name: one line a
 * row (or a row and those that join it), flags, brief and default; ranges and the long text are
 * the man page's. */
void nb_opts_help(FILE *out, const struct nb_opt_table *t, const char *first, const char *last);

/* Row lookups. */
const struct nb_opt *nb_opt_by_key(const struct nb_opt_table *t, const char *key);
const struct nb_opt *nb_opt_by_name(const struct nb_opt_table *t, const char *name);

/* "1..100", "0..600": a row's range as the docs and messages write it. */
void nb_opt_range_text(const struct nb_opt *o, char *buf, size_t len);
/* The --flag spelling of a row, "--interval" or "-i/--interface". */
const char *nb_opt_flag_text(const struct nb_opt *o, char *buf, size_t len);
/* What a RATE row expects, for messages. */
const char *nb_opt_rate_expect(const struct nb_opt *o);
/* Is v inside the row's range? */
bool nb_opt_in_range(const struct nb_opt *o, double v);
/* Store a checked value into the row's field of base (the config, or a test for TEST_FIELD rows). */
void nb_opt_store_number(const struct nb_opt *o, void *base, double v);
double nb_opt_load_number(const struct nb_opt *o, const void *base);

/* Parse "0", "100M", "2.5G", "500k" as a count per second (1000-based, as iperf3 -b). */
int nb_parse_rate(const char *text, uint64_t *bps);

/* configs/README.md's key table, generated from the rows with a key. */
void nb_opts_markdown(FILE *out, const struct nb_opt_table *t);

#endif
