// SPDX-License-Identifier: MIT
/* The values of struct nb_config: defaults, the setters that flags and the config file share (tests,
 * peer, knob axes, repetitions, round, diagnostics) and the checks once everything is merged.
 * Reading the file and writing the report's copy are JSON's business: config_json.c. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/nb_paths.h"

static const char *const known_tests[] = { "tcp-tx", "tcp-rx", "udp-tx", "udp-rx" };

void nb_config_defaults(struct nb_config *cfg)
{
	const struct nb_opt_table *t = &nb_config_table;

	memset(cfg, 0, sizeof(*cfg));
	nb_opts_defaults(t, cfg);
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].flags & NB_OPT_TEST_FIELD)
			nb_opt_store_number(&t->rows[i], &cfg->test_defaults, t->rows[i].def);
	cfg->reps_min = NB_AUTO_REPS_MIN;  /* part of the repetitions row's "auto:MIN-MAX" value */
	cfg->diag_mode = NB_DIAG_AUTO;
	cfg->diag_round = 1;
	for (size_t i = 0; i < sizeof(known_tests) / sizeof(known_tests[0]); i++)
		nb_test_from_name(&cfg->tests[cfg->ntests++], known_tests[i]);
	for (int i = 0; i < cfg->ntests; i++)
		nb_test_take_defaults(cfg, &cfg->tests[i]);
}

int nb_config_set_repetitions(struct nb_config *cfg, const char *text, struct nb_err *err)
{
	int min = NB_AUTO_REPS_MIN, max = NB_AUTO_REPS_MAX, used = 0;
	char *end;
	long n;

	if (!strncmp(text, "auto", 4)) {
		if (text[4] == ':' && (sscanf(text + 5, "%d-%d%n", &min, &max, &used) != 2 || text[5 + used] != '\0'))
			used = -1;
		if ((text[4] != '\0' && text[4] != ':') || used < 0 || min < 1 || max < min || max > NB_MAX_REPETITIONS)
			return nb_err_set(err, -EINVAL, "'%s': expected auto or auto:MIN-MAX with 1 <= MIN <= MAX <= %d",
					  text, NB_MAX_REPETITIONS);
		cfg->reps_auto = true;
		cfg->reps_min = min;
		cfg->repetitions = max;
		return 0;
	}
	errno = 0;
	n = strtol(text, &end, 10);
	if (*text == '\0' || *end != '\0' || errno || n < 1 || n > NB_MAX_REPETITIONS)
		return nb_err_set(err, -EINVAL, "'%s': expected a number of runs 1..%d, auto or auto:MIN-MAX", text,
				  NB_MAX_REPETITIONS);
	cfg->reps_auto = false;
	cfg->repetitions = (int)n;
	return 0;
}

/* A set id goes into file names and CI job names: keep it to a safe alphabet. */
static bool round_set_valid(const char *s, size_t len)
{
	if (len == 0 || len >= NB_ROUND_SET_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

int nb_config_set_round(struct nb_config *cfg, const char *text, struct nb_err *err)
{
	struct nb_round_spec r = { .present = true };
	const char *p = text;
	char *end;
	long index, of;

	if ((p[0] != 'A' && p[0] != 'B') || p[1] != ':')
		goto bad;
	r.side = p[0];
	errno = 0;
	index = strtol(p + 2, &end, 10);
	if (end == p + 2 || *end != '/' || errno || !isdigit((unsigned char)p[2]))
		goto bad;
	p = end + 1;
	of = strtol(p, &end, 10);
	if (end == p || errno || !isdigit((unsigned char)p[0]) || (*end != '\0' && *end != ':'))
		goto bad;
	if (of < 1 || of > NB_MAX_ROUNDS || index < 1 || index > of)
		return nb_err_set(err, -EINVAL, "--round '%s': round %ld of %ld: expected 1 <= I <= N <= %d", text, index,
				  of, NB_MAX_ROUNDS);
	if (*end == ':') {
		if (!round_set_valid(end + 1, strlen(end + 1)))
			return nb_err_set(err, -EINVAL, "--round '%s': the set id must be 1..%d characters of A-Z a-z "
					  "0-9 . _ -", text, NB_ROUND_SET_MAX - 1);
		snprintf(r.set, sizeof(r.set), "%s", end + 1);
	}
	r.index = (int)index;
	r.of = (int)of;
	cfg->round = r;
	return 0;
bad:
	return nb_err_set(err, -EINVAL, "--round '%s': expected SIDE:I/N[:SET], SIDE A or B, e.g. A:1/5 or "
			  "B:2/5:set-7", text);
}

static const char *const diag_mode_names[] = {
	[NB_DIAG_AUTO] = "auto", [NB_DIAG_ALWAYS] = "always", [NB_DIAG_NEVER] = "never",
};

const char *nb_diag_mode_name(enum nb_diag_mode m)
{
	return diag_mode_names[m];
}

int nb_config_set_diagnostics(struct nb_config *cfg, const char *text, struct nb_err *err)
{
	char *end;
	long k;

	for (size_t i = 0; i < sizeof(diag_mode_names) / sizeof(diag_mode_names[0]); i++) {
		if (!strcmp(text, diag_mode_names[i])) {
			cfg->diag_mode = (enum nb_diag_mode)i;
			cfg->diag_round = 1;
			return 0;
		}
	}
	errno = 0;
	k = strtol(text, &end, 10);
	if (!isdigit((unsigned char)text[0]) || *end != '\0' || errno || k < 1 || k > NB_MAX_ROUNDS)
		return nb_err_set(err, -EINVAL, "--diagnostics '%s': expected auto, always, never or a round number "
				  "1..%d", text, NB_MAX_ROUNDS);
	cfg->diag_mode = NB_DIAG_AUTO;
	cfg->diag_round = (int)k;
	return 0;
}

bool nb_config_diagnostics_here(const struct nb_config *cfg)
{
	if (!cfg->trace || cfg->diag_mode == NB_DIAG_NEVER)
		return false;
	if (cfg->diag_mode == NB_DIAG_ALWAYS || !cfg->round.present)
		return true;
	return cfg->round.index == cfg->diag_round;
}

int nb_test_from_name(struct nb_test_spec *t, const char *name)
{
	if (!strcmp(name, "tcp-rr") || !strcmp(name, "udp-rr")) {
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->proto = name[0] == 't' ? NB_PROTO_TCP : NB_PROTO_UDP;
		t->dir = NB_DIR_RR;
		return 0;
	}
	if (strlen(name) != 6 || (strncmp(name, "tcp-", 4) && strncmp(name, "udp-", 4)) ||
	    (strcmp(name + 4, "tx") && strcmp(name + 4, "rx")))
		return -EINVAL;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->proto = name[0] == 't' ? NB_PROTO_TCP : NB_PROTO_UDP;
	t->dir = name[4] == 't' ? NB_DIR_TX : NB_DIR_RX;
	return 0;
}

void nb_test_take_defaults(const struct nb_config *cfg, struct nb_test_spec *t)
{
	t->duration_s = cfg->test_defaults.duration_s;
	t->omit_s = cfg->test_defaults.omit_s;
	t->streams = cfg->test_defaults.streams;
	t->rate_bps = t->proto == NB_PROTO_UDP ? cfg->test_defaults.rate_bps : 0;
	t->length = t->proto == NB_PROTO_UDP ? cfg->test_defaults.length : 0;
	if (t->dir == NB_DIR_RR)  /* sizes and rate come from cfg->rr */
		t->rate_bps = 0, t->length = 0;
}

int nb_config_set_tests(struct nb_config *cfg, const char *list, struct nb_err *err)
{
	char buf[256];
	char *save = NULL;
	int n = 0;

	if (strlen(list) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "--tests '%s': list too long", list);
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct nb_test_spec t = { 0 };

		if (nb_test_from_name(&t, tok) < 0)
			return nb_err_set(err, -EINVAL,
					  "--tests: unknown test '%s' (known: tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr)", tok);
		if (n >= NB_MAX_TESTS)
			return nb_err_set(err, -EINVAL, "--tests: more than %d tests", NB_MAX_TESTS);
		nb_test_take_defaults(cfg, &t);
		cfg->tests[n++] = t;
	}
	if (n == 0)
		return nb_err_set(err, -EINVAL, "--tests: empty list (known: tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr)");
	cfg->ntests = n;
	return 0;
}

const char *nb_field_axis_name(const struct nb_field_axis *axis)
{
	const char *dot = strchr(axis->row->key, '.');

	return dot ? dot + 1 : axis->row->key;
}

/* One value of a test field's row, range checked: "500M" for a rate, "60" for a length. */
static int parse_field_value(const struct nb_opt *row, const char *text, double *v, struct nb_err *err)
{
	char range[64], *end;
	uint64_t rate;
	long n;

	if (row->type == NB_OPT_RATE) {
		if (nb_parse_rate(text, &rate) < 0 || !nb_opt_in_range(row, (double)rate))
			return nb_err_set(err, -EINVAL, "'%s': expected %s", text, nb_opt_rate_expect(row));
		*v = (double)rate;
		return 0;
	}
	if ((row->flags & NB_OPT_MTU_WORD) && !strcmp(text, "mtu")) {
		*v = NB_UDP_LENGTH_MTU;
		return 0;
	}
	nb_opt_range_text(row, range, sizeof(range));
	errno = 0;
	n = strtol(text, &end, 10);
	if (!*text || *end || errno || !nb_opt_in_range(row, (double)n))
		return nb_err_set(err, -EINVAL, "'%s': expected a whole number %s%s", text, range,
				  row->flags & NB_OPT_MTU_WORD ? ", or mtu (the interface's MTU - 28)" : "");
	*v = (double)n;
	return 0;
}

int nb_config_set_test_field(struct nb_config *cfg, const struct nb_opt *row, const char *list, struct nb_err *err)
{
	struct nb_field_axis axis = { .row = row };
	char buf[NB_MAX_AXIS_VALUES * NB_FIELD_LABEL_MAX];
	char *save = NULL;
	int slot;

	if (strlen(list) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "'%.32s...': too long", list);
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int ret;

		while (isspace((unsigned char)*tok))
			tok++;
		if (axis.nvalues == NB_MAX_AXIS_VALUES)
			return nb_err_set(err, -EINVAL, "'%s': more than %d values", list, NB_MAX_AXIS_VALUES);
		if (strlen(tok) >= NB_FIELD_LABEL_MAX)
			return nb_err_set(err, -EINVAL, "'%s': a value longer than %d characters", tok, NB_FIELD_LABEL_MAX - 1);
		ret = parse_field_value(row, tok, &axis.values[axis.nvalues], err);
		if (ret < 0)
			return ret;
		for (int i = 0; i < axis.nvalues; i++)
			if (axis.values[i] == axis.values[axis.nvalues])
				return nb_err_set(err, -EINVAL, "'%s': the value %s is given twice", list, tok);
		snprintf(axis.labels[axis.nvalues++], NB_FIELD_LABEL_MAX, "%s", tok);
	}
	if (!axis.nvalues)
		return nb_err_set(err, -EINVAL, "'%s': no value", list);
	/* the first value is also the tests' own, so that a test outside the sweep reads sensibly */
	nb_config_table.store_test_field(cfg, row, axis.values[0]);
	for (slot = 0; slot < cfg->nfield_axes && cfg->field_axes[slot].row != row; slot++)
		;
	if (axis.nvalues == 1) {  /* one value ends a sweep the file began */
		if (slot < cfg->nfield_axes) {
			memmove(&cfg->field_axes[slot], &cfg->field_axes[slot + 1],
				(size_t)(cfg->nfield_axes - slot - 1) * sizeof(cfg->field_axes[0]));
			cfg->nfield_axes--;
		}
		return 0;
	}
	if (slot == NB_MAX_FIELD_AXES)
		return nb_err_set(err, -EINVAL, "'%s': more than %d test fields swept", list, NB_MAX_FIELD_AXES);
	cfg->field_axes[slot] = axis;
	if (slot == cfg->nfield_axes)
		cfg->nfield_axes++;
	return 0;
}

int nb_config_set_peer(struct nb_config *cfg, const char *hostport, struct nb_err *err)
{
	const char *host = hostport, *port = NULL;
	size_t hostlen = strlen(hostport);

	if (hostport[0] == '[') {          /* [2001:db8::1]:5201 */
		const char *close = strchr(hostport, ']');

		if (!close)
			return nb_err_set(err, -EINVAL, "--peer '%s': missing ']' after IPv6 address", hostport);
		host = hostport + 1;
		hostlen = (size_t)(close - host);
		if (close[1] == ':')
			port = close + 2;
		else if (close[1] != '\0')
			return nb_err_set(err, -EINVAL, "--peer '%s': expected ':PORT' after ']'", hostport);
	} else {
		const char *colon = strrchr(hostport, ':');

		/* A bare IPv6 address has several colons: no port then. */
		if (colon && strchr(hostport, ':') == colon) {
			hostlen = (size_t)(colon - hostport);
			port = colon + 1;
		}
	}
	if (hostlen == 0 || hostlen >= sizeof(cfg->peer_host))
		return nb_err_set(err, -EINVAL, "--peer '%s': empty or too long host", hostport);
	if (port) {
		char *end;
		long p = strtol(port, &end, 10);

		if (*port == '\0' || *end != '\0' || p < 1 || p > 65535)
			return nb_err_set(err, -EINVAL, "--peer '%s': port must be 1..65535", hostport);
		cfg->peer_port = (int)p;
	}
	memcpy(cfg->peer_host, host, hostlen);
	cfg->peer_host[hostlen] = '\0';
	return 0;
}

static int knob_name_known(const char *name)
{
	return !strcmp(name, NB_KNOB_TRAFFIC_CPU) || nb_knob_find(name) >= 0;
}

static int validate_knob_value(const char *knob, const char *value, struct nb_err *err)
{
	if (!strcmp(knob, NB_KNOB_TRAFFIC_CPU)) {
		char *end;
		long cpu = strtol(value, &end, 10);

		if (*value == '\0' || *end != '\0' || cpu < 0 || cpu > 4095)
			return nb_err_set(err, -EINVAL, "knob traffic_cpu: '%s' is not a CPU number", value);
		return 0;
	}
	return nb_knob_validate(knob, value, err);
}

/* Split "a:b" knob names into an axis; values are added by nb_knob_axis_add_value. */
int nb_knob_axis_init(struct nb_knob_axis *axis, const char *names, struct nb_err *err)
{
	char buf[NB_MAX_AXIS_KNOBS * NB_KNOB_NAME_MAX];
	char *save = NULL;

	memset(axis, 0, sizeof(*axis));
	if (strlen(names) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "knob '%s': name too long", names);
	snprintf(buf, sizeof(buf), "%s", names);
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (!knob_name_known(tok))
			return nb_err_set(err, -EINVAL, "unknown knob '%s' (see 'nicbench run --help' for the list)", tok);
		if (axis->nknobs >= NB_MAX_AXIS_KNOBS)
			return nb_err_set(err, -EINVAL, "knob '%s': at most %d knobs can be swept together",
					  names, NB_MAX_AXIS_KNOBS);
		snprintf(axis->knobs[axis->nknobs++], NB_KNOB_NAME_MAX, "%s", tok);
	}
	if (axis->nknobs == 0)
		return nb_err_set(err, -EINVAL, "knob: empty knob name");
	return 0;
}

/* Add one value (for a joined axis: "20000:1", one part per knob). */
int nb_knob_axis_add_value(struct nb_knob_axis *axis, const char *value, struct nb_err *err)
{
	char buf[NB_MAX_AXIS_KNOBS * NB_KNOB_VALUE_MAX];
	char *parts[NB_MAX_AXIS_KNOBS];
	int nparts = 0;
	char *p;

	if (axis->nvalues >= NB_MAX_AXIS_VALUES)
		return nb_err_set(err, -EINVAL, "knob %s: more than %d values", axis->knobs[0], NB_MAX_AXIS_VALUES);
	if (strlen(value) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "knob %s: value '%s' too long", axis->knobs[0], value);
	snprintf(buf, sizeof(buf), "%s", value);
	if (axis->nknobs == 1) {
		/* a single knob keeps its value whole: irq_affinity "0-1" has no ':' but may have ',' */
		parts[nparts++] = buf;
	} else {
		p = buf;
		for (;;) {
			char *colon = strchr(p, ':');

			if (nparts >= NB_MAX_AXIS_KNOBS)
				break;
			parts[nparts++] = p;
			if (!colon)
				break;
			*colon = '\0';
			p = colon + 1;
		}
	}
	if (nparts != axis->nknobs)
		return nb_err_set(err, -EINVAL, "knob %s%s: value '%s' needs %d parts joined by ':'",
				  axis->knobs[0], axis->nknobs > 1 ? ":..." : "", value, axis->nknobs);
	for (int k = 0; k < nparts; k++) {
		int rc = validate_knob_value(axis->knobs[k], parts[k], err);

		if (rc < 0)
			return rc;
		snprintf(axis->values[axis->nvalues][k], NB_KNOB_VALUE_MAX, "%s", parts[k]);
	}
	axis->nvalues++;
	return 0;
}

static bool axes_share_a_knob(const struct nb_knob_axis *a, const struct nb_knob_axis *b)
{
	for (int i = 0; i < a->nknobs; i++)
		for (int j = 0; j < b->nknobs; j++)
			if (!strcmp(a->knobs[i], b->knobs[j]))
				return true;
	return false;
}

int nb_config_put_axis(struct nb_config *cfg, const struct nb_knob_axis *axis, struct nb_err *err)
{
	int slot = -1;

	/* A knob named again replaces the earlier axis in its place (so a flag overrides the
	 * file and ids keep the file's order); other axes that shared a knob with it go. */
	for (int i = 0; i < cfg->naxes; i++) {
		if (!axes_share_a_knob(&cfg->axes[i], axis))
			continue;
		if (slot < 0) {
			slot = i;
			continue;
		}
		memmove(&cfg->axes[i], &cfg->axes[i + 1], (size_t)(cfg->naxes - i - 1) * sizeof(cfg->axes[0]));
		cfg->naxes--;
		i--;
	}
	if (slot >= 0) {
		cfg->axes[slot] = *axis;
		return 0;
	}
	if (cfg->naxes >= NB_MAX_AXES)
		return nb_err_set(err, -EINVAL, "more than %d knob axes", NB_MAX_AXES);
	cfg->axes[cfg->naxes++] = *axis;
	return 0;
}

int nb_config_add_knob_axis(struct nb_config *cfg, const char *spec, struct nb_err *err)
{
	struct nb_knob_axis axis;
	const char *eq = strchr(spec, '=');
	char names[NB_MAX_AXIS_KNOBS * NB_KNOB_NAME_MAX];
	char values[1024];
	char *save = NULL;
	int rc;

	if (!eq || eq == spec || eq[1] == '\0')
		return nb_err_set(err, -EINVAL, "--knob '%s': expected NAME=V1,V2,... (e.g. threaded=0,1)", spec);
	if ((size_t)(eq - spec) >= sizeof(names) || strlen(eq + 1) >= sizeof(values))
		return nb_err_set(err, -EINVAL, "--knob '%s': too long", spec);
	memcpy(names, spec, (size_t)(eq - spec));
	names[eq - spec] = '\0';
	snprintf(values, sizeof(values), "%s", eq + 1);
	rc = nb_knob_axis_init(&axis, names, err);
	if (rc < 0)
		goto fail;
	/* a CPU list has commas inside a value: its values are separated by '/' instead */
	const char *sep = (axis.nknobs == 1 && nb_knob_value_kind(axis.knobs[0]) == NB_KNOB_CPU_LIST) ? "/" : ",";

	for (char *tok = strtok_r(values, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		rc = nb_knob_axis_add_value(&axis, tok, err);
		if (rc < 0)
			goto fail;
	}
	if (axis.nvalues == 0) {
		rc = nb_err_set(err, -EINVAL, "no values");
		goto fail;
	}
	return nb_config_put_axis(cfg, &axis, err);
fail:
	nb_err_prefix(err, "--knob '%s': ", spec);
	return rc;
}

/* A value set by code (not through a row's parser) still has to be inside the row's range. */
static int check_range(const struct nb_opt *o, const void *base, const char *what, struct nb_err *err)
{
	char range[64];
	double v = nb_opt_load_number(o, base);

	if (o->type != NB_OPT_INT && o->type != NB_OPT_SECONDS && o->type != NB_OPT_NUMBER && o->type != NB_OPT_RATE)
		return 0;
	if (nb_opt_in_range(o, v))
		return 0;
	if ((o->flags & NB_OPT_MTU_WORD) && v == NB_UDP_LENGTH_MTU)
		return 0;  /* --length mtu, resolved per point */
	nb_opt_range_text(o, range, sizeof(range));
	return nb_err_set(err, -EINVAL, "%s%s is %g, outside %s", what, o->key, v, range);
}

int nb_config_validate(const struct nb_config *cfg, struct nb_err *err)
{
	const struct nb_opt_table *table = &nb_config_table;

	if (cfg->iface[0] == '\0')
		return nb_err_set(err, -EINVAL, "no interface: give -i IFACE or \"interface\" in the config");
	if (!nb_ifname_valid(cfg->iface))
		return nb_err_set(err, -EINVAL, "interface name '%s' is not valid (1-15 characters, no '/', ':' or spaces)",
				  cfg->iface);
	if (cfg->peer_host[0] == '\0')
		return nb_err_set(err, -EINVAL, "no peer: give --peer HOST[:PORT] or \"peer\" in the config");
	if (cfg->ntests == 0)
		return nb_err_set(err, -EINVAL, "no tests to run");
	for (int r = 0; r < table->nrows; r++) {
		const struct nb_opt *o = &table->rows[r];

		if (!o->key)
			continue;
		if (!(o->flags & NB_OPT_TEST_FIELD)) {
			if (check_range(o, cfg, "", err) < 0)
				return err->code;
			continue;
		}
		for (int i = 0; i < cfg->ntests; i++) {
			const struct nb_test_spec *t = &cfg->tests[i];
			char what[32];

			/* a TCP or rr test carries no UDP rate or length (0) */
			if ((o->flags & NB_OPT_UDP_ONLY) && (t->proto != NB_PROTO_UDP || t->dir == NB_DIR_RR))
				continue;
			snprintf(what, sizeof(what), "test %s: ", t->name);
			if (check_range(o, t, what, err) < 0)
				return err->code;
		}
	}
	if (cfg->reps_auto && (cfg->reps_min < 1 || cfg->reps_min > cfg->repetitions))
		return nb_err_set(err, -EINVAL, "repetitions auto:%d-%d: the minimum must be 1..the maximum",
				  cfg->reps_min, cfg->repetitions);
	if (cfg->diag_round != 1 && !cfg->round.present)
		return nb_err_set(err, -EINVAL, "--diagnostics %d: a round number needs --round SIDE:I/N", cfg->diag_round);
	if (cfg->round.present && cfg->diag_round > cfg->round.of)
		return nb_err_set(err, -EINVAL, "--diagnostics %d: the set has only %d rounds a side (--round %c:%d/%d)",
				  cfg->diag_round, cfg->round.of, cfg->round.side, cfg->round.index, cfg->round.of);
	for (int i = 0; i < cfg->ntests; i++)  /* the same test twice would give two points with one id */
		for (int j = 0; j < i; j++)
			if (!strcmp(cfg->tests[j].name, cfg->tests[i].name))
				return nb_err_set(err, -EINVAL, "test %s is listed twice", cfg->tests[i].name);
	return 0;
}
