// SPDX-License-Identifier: MIT
/* Config file and command-line values -> struct nb_config, with messages that name the key and the file. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit/nb_paths.h"
#include "traffic/rr_proto.h"

static const char *const known_tests[] = { "tcp-tx", "tcp-rx", "udp-tx", "udp-rx" };

static void test_take_defaults(const struct nb_config *cfg, struct nb_test_spec *t);

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
		test_take_defaults(cfg, &cfg->tests[i]);
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

static void test_take_defaults(const struct nb_config *cfg, struct nb_test_spec *t)
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
		test_take_defaults(cfg, &t);
		cfg->tests[n++] = t;
	}
	if (n == 0)
		return nb_err_set(err, -EINVAL, "--tests: empty list (known: tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr)");
	cfg->ntests = n;
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

/* Split "a:b" knob names into an axis; values are added by axis_add_value. */
static int axis_init(struct nb_knob_axis *axis, const char *names, struct nb_err *err)
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
static int axis_add_value(struct nb_knob_axis *axis, const char *value, struct nb_err *err)
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

static int config_add_axis(struct nb_config *cfg, const struct nb_knob_axis *axis, struct nb_err *err)
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
	rc = axis_init(&axis, names, err);
	if (rc < 0)
		goto fail;
	/* irq_affinity takes CPU lists with commas: its values are separated by '/' instead. */
	const char *sep = (axis.nknobs == 1 && !strcmp(axis.knobs[0], "irq_affinity")) ? "/" : ",";

	for (char *tok = strtok_r(values, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		rc = axis_add_value(&axis, tok, err);
		if (rc < 0)
			goto fail;
	}
	if (axis.nvalues == 0) {
		rc = nb_err_set(err, -EINVAL, "no values");
		goto fail;
	}
	return config_add_axis(cfg, &axis, err);
fail:
	nb_err_prefix(err, "--knob '%s': ", spec);
	return rc;
}

/* ---- JSON config file ---- */

struct key_ctx {
	const char *file;
	struct nb_err *err;
};

/* `why` is often k->err->msg, a reason a helper (axis_add_value, set_peer) just wrote: it is
 * copied first, since formatting a buffer from itself is undefined (and printed the prefix twice). */
static int bad_key(const struct key_ctx *k, const char *key, const char *why)
{
	char reason[sizeof(k->err->msg)];

	snprintf(reason, sizeof(reason), "%s", why);
	return nb_err_set(k->err, -EINVAL, "config %s: key \"%s\": %s", k->file, key, reason);
}

static int get_string(const struct key_ctx *k, json_t *v, const char *key, char *out, size_t len)
{
	if (!json_is_string(v))
		return bad_key(k, key, "expected a string");
	if (json_string_length(v) >= len)
		return bad_key(k, key, "string too long");
	snprintf(out, len, "%s", json_string_value(v));
	return 0;
}

/* Knob values may be written as numbers (20000) or strings ("0-1", "20000:1"). */
static int value_text(const struct key_ctx *k, json_t *v, const char *key, char *out, size_t len)
{
	if (json_is_integer(v)) {
		snprintf(out, len, "%lld", (long long)json_integer_value(v));
		return 0;
	}
	if (json_is_boolean(v)) {
		snprintf(out, len, "%d", json_is_true(v) ? 1 : 0);
		return 0;
	}
	return get_string(k, v, key, out, len);
}

/* The last part of a row's key: "rate" for "udp.rate". Test fields are named by it, as a
 * test object spells them. */
static const char *leaf_of(const char *key)
{
	const char *dot = strrchr(key, '.');

	return dot ? dot + 1 : key;
}

/* One value from the file into the row's field of base (the config, or a test). */
static int load_row(const struct key_ctx *k, const struct nb_opt *o, void *base, const char *key, json_t *v)
{
	char why[192], range[64];
	char text[256];
	uint64_t rate;

	nb_opt_range_text(o, range, sizeof(range));
	switch (o->type) {
	case NB_OPT_INT:
		if (o->parse && json_is_string(v)) {  /* the row's words: "auto:3-10" */
			if (o->parse(base, o, json_string_value(v), k->err) < 0)
				return bad_key(k, key, k->err->msg);
			return 0;
		}
		if (!json_is_integer(v))
			return bad_key(k, key, "expected an integer");
		if (!nb_opt_in_range(o, (double)json_integer_value(v))) {
			snprintf(why, sizeof(why), "%lld is out of range %s", (long long)json_integer_value(v), range);
			return bad_key(k, key, why);
		}
		nb_opt_store_number(o, base, (double)json_integer_value(v));
		return 0;
	case NB_OPT_SECONDS:
	case NB_OPT_NUMBER:
		if (!json_is_number(v) || !nb_opt_in_range(o, json_number_value(v))) {
			snprintf(why, sizeof(why), "expected %s, %s", o->type == NB_OPT_SECONDS ? "seconds" : "a number", range);
			return bad_key(k, key, why);
		}
		snprintf(text, sizeof(text), "%.17g", json_number_value(v));
		if (o->parse && o->parse(base, o, text, k->err) < 0)
			return bad_key(k, key, k->err->msg);
		nb_opt_store_number(o, base, json_number_value(v));
		return 0;
	case NB_OPT_FLAG:
		if (!json_is_boolean(v))
			return bad_key(k, key, "expected true or false");
		nb_opt_store_number(o, base, json_is_true(v));
		return 0;
	case NB_OPT_RATE:
		if (value_text(k, v, key, text, sizeof(text)) < 0)
			return -EINVAL;
		if (nb_parse_rate(text, &rate) < 0 || !nb_opt_in_range(o, (double)rate)) {
			snprintf(why, sizeof(why), "expected %s", nb_opt_rate_expect(o));
			return bad_key(k, key, why);
		}
		nb_opt_store_number(o, base, (double)rate);
		return 0;
	case NB_OPT_STRING:
		if (get_string(k, v, key, (char *)base + o->offset, o->size) < 0)
			return -EINVAL;
		if (o->parse && o->parse(base, o, json_string_value(v), k->err) < 0)
			return bad_key(k, key, k->err->msg);
		return 0;
	case NB_OPT_CUSTOM:
		if (json_is_integer(v))  /* a number given as one: "shuffle": 42 */
			snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
		else if (json_is_string(v))
			snprintf(text, sizeof(text), "%s", json_string_value(v));
		else
			return bad_key(k, key, "expected a string");
		if (o->parse(base, o, text, k->err) < 0)
			return bad_key(k, key, k->err->msg);
		return 0;
	case NB_OPT_ARG:
		break;
	}
	return 0;
}

/* "known: a, b" for the rows inside a group ("rr") or, with group NULL, the test fields. */
static void known_keys(const char *group, char *buf, size_t len)
{
	const struct nb_opt_table *t = &nb_config_table;
	size_t glen = group ? strlen(group) : 0;
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];
		bool in = group ? o->key && !strncmp(o->key, group, glen) && o->key[glen] == '.'
				: (o->flags & NB_OPT_TEST_FIELD) != 0;

		if (in && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", leaf_of(o->key));
	}
}

/* A test field by its leaf name ("rate"), as in a test object or inside "udp". */
static const struct nb_opt *test_field(const char *leaf)
{
	const struct nb_opt_table *t = &nb_config_table;

	for (int i = 0; i < t->nrows; i++)
		if ((t->rows[i].flags & NB_OPT_TEST_FIELD) && !strcmp(leaf_of(t->rows[i].key), leaf))
			return &t->rows[i];
	return NULL;
}

static bool is_group(const char *key)
{
	char known[256];

	known_keys(key, known, sizeof(known));
	return known[0] != '\0';
}

/* An object of rows ("rr": {"flows": ...}); a group that has its own row ("peer") also takes that
 * row's string form. Test fields land in the test defaults. */
static int load_group(const struct key_ctx *k, struct nb_config *cfg, const char *group, json_t *v)
{
	const struct nb_opt *self = nb_opt_by_key(&nb_config_table, group);
	char known[256], full[128], why[320];
	const char *key;
	json_t *item;

	known_keys(group, known, sizeof(known));
	if (self && json_is_string(v))
		return load_row(k, self, cfg, group, v);
	if (!json_is_object(v)) {
		char shape[256] = "{";

		for (char *save = NULL, *tok = strtok_r(known, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save))
			snprintf(shape + strlen(shape), sizeof(shape) - strlen(shape), "%s\"%s\": ...", shape[1] ? ", " : "",
				 tok);
		snprintf(why, sizeof(why), "expected %s%s%s}", self ? "\"" : "", self ? self->metavar : "",
			 self ? "\" or " : "");
		snprintf(why + strlen(why) - 1, sizeof(why) - strlen(why) + 1, "%s}", shape);
		return bad_key(k, group, why);
	}
	json_object_foreach(v, key, item) {
		const struct nb_opt *o;
		int rc;

		snprintf(full, sizeof(full), "%s.%s", group, key);
		o = nb_opt_by_key(&nb_config_table, full);
		if (!o) {
			snprintf(why, sizeof(why), "unknown key inside (known: %s)", known);
			return bad_key(k, group, why);
		}
		if (o->flags & NB_OPT_TEST_FIELD)
			rc = load_row(k, o, &cfg->test_defaults, key, item);
		else
			rc = load_row(k, o, cfg, full, item);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int load_test(const struct key_ctx *k, struct nb_config *cfg, json_t *item, struct nb_test_spec *t)
{
	const char *key;
	json_t *v;

	if (json_is_string(item)) {
		if (nb_test_from_name(t, json_string_value(item)) < 0) {
			char why[160];

			snprintf(why, sizeof(why), "unknown test name '%.64s' (known: tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr)",
				 json_string_value(item));
			return bad_key(k, "tests", why);
		}
		test_take_defaults(cfg, t);
		return 0;
	}
	if (!json_is_object(item))
		return bad_key(k, "tests", "each test is a name or an object with \"name\"");
	v = json_object_get(item, "name");
	if (!json_is_string(v))
		return bad_key(k, "tests[].name", "expected one of tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr");
	if (nb_test_from_name(t, json_string_value(v)) < 0) {
		char why[160];

		snprintf(why, sizeof(why), "unknown test name '%.64s' (known: tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr)",
			 json_string_value(v));
		return bad_key(k, "tests[].name", why);
	}
	test_take_defaults(cfg, t);
	json_object_foreach(item, key, v) {
		const struct nb_opt *o;
		int rc;

		if (!strcmp(key, "name"))
			continue;
		o = test_field(key);
		if (!o) {
			char full[128], why[300], known[256];

			known_keys(NULL, known, sizeof(known));
			snprintf(full, sizeof(full), "tests[].%s", key);
			snprintf(why, sizeof(why), "unknown key (known: name, %s)", known);
			return bad_key(k, full, why);
		}
		rc = load_row(k, o, t, key, v);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int load_tests(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	size_t i;
	json_t *item;

	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > NB_MAX_TESTS)
		return bad_key(k, "tests", "expected a list of 1..16 tests");
	cfg->ntests = 0;
	json_array_foreach(v, i, item) {
		int rc = load_test(k, cfg, item, &cfg->tests[cfg->ntests]);

		if (rc < 0)
			return rc;
		cfg->ntests++;
	}
	return 0;
}

static int load_knobs(const struct key_ctx *k, struct nb_config *cfg, json_t *obj)
{
	const char *key;
	json_t *v;

	if (!json_is_object(obj))
		return bad_key(k, "knobs", "expected an object of knob name -> list of values");
	json_object_foreach(obj, key, v) {
		struct nb_knob_axis axis;
		size_t i;
		json_t *item;
		int rc = axis_init(&axis, key, k->err);

		if (rc < 0 || !json_is_array(v) || json_array_size(v) == 0) {
			char full[160];

			snprintf(full, sizeof(full), "knobs.%s", key);
			return bad_key(k, full, rc < 0 ? k->err->msg : "expected a non-empty list of values");
		}
		json_array_foreach(v, i, item) {
			char text[NB_MAX_AXIS_KNOBS * NB_KNOB_VALUE_MAX];
			char full[160];

			snprintf(full, sizeof(full), "knobs.%s", key);
			rc = value_text(k, item, full, text, sizeof(text));
			if (rc < 0)
				return rc;
			rc = axis_add_value(&axis, text, k->err);
			if (rc < 0)
				return bad_key(k, full, k->err->msg);
		}
		rc = config_add_axis(cfg, &axis, k->err);
		if (rc < 0)
			return bad_key(k, "knobs", k->err->msg);
	}
	return 0;
}

/* Documentation-only board description in board profiles: accepted, kept in the report. */
static int check_board(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	static const char *const allowed[] = { "name", "soc", "cpus", "irq_names", "notes", "kernel", "interface" };
	const char *key;
	json_t *item;

	(void)cfg;
	if (!json_is_object(v))
		return bad_key(k, "board", "expected an object");
	json_object_foreach(v, key, item) {
		bool ok = false;

		for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
			ok = ok || !strcmp(key, allowed[i]);
		if (!ok)
			return bad_key(k, "board", "unknown key inside (known: name, soc, cpus, irq_names, notes, kernel, interface)");
	}
	return 0;
}

static int ignore_key(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	(void)k, (void)cfg, (void)v;
	return 0;
}

/* Keys with a shape of their own (lists, knob objects); every other key is a row. */
static const struct {
	const char *key;
	int (*load)(const struct key_ctx *k, struct nb_config *cfg, json_t *v);
} shaped_keys[] = {
	{ "tests", load_tests }, { "knobs", load_knobs }, { "board", check_board },
	{ "comment", ignore_key }, { "$schema", ignore_key },
};

static int load_key(const struct key_ctx *k, struct nb_config *cfg, const char *key, json_t *v)
{
	const struct nb_opt *o;

	for (size_t i = 0; i < sizeof(shaped_keys) / sizeof(shaped_keys[0]); i++)
		if (!strcmp(key, shaped_keys[i].key))
			return shaped_keys[i].load(k, cfg, v);
	if (is_group(key))
		return load_group(k, cfg, key, v);
	o = nb_opt_by_key(&nb_config_table, key);
	if (o)
		return load_row(k, o, cfg, key, v);
	o = test_field(key);
	if (o) {  /* "rate" at the top: it belongs in its group ("udp") */
		char why[128];

		snprintf(why, sizeof(why), "a UDP test setting: it must go inside \"%.*s\" or a test object",
			 (int)(strchr(o->key, '.') - o->key), o->key);
		return bad_key(k, key, why);
	}
	return bad_key(k, key, "unknown key (see configs/README.md for the keys)");
}

/* Test defaults first (top-level and in their group, "udp"), so that "tests" gets them whatever
 * the key order; then every other key. */
static bool sets_test_defaults(const char *key)
{
	const struct nb_opt *o = nb_opt_by_key(&nb_config_table, key);

	size_t len = strlen(key);

	if (o && (o->flags & NB_OPT_TEST_FIELD))
		return true;
	for (int i = 0; i < nb_config_table.nrows; i++) {  /* the group of a test field: "udp" of "udp.rate" */
		const struct nb_opt *r = &nb_config_table.rows[i];

		if ((r->flags & NB_OPT_TEST_FIELD) && !strncmp(r->key, key, len) && r->key[len] == '.')
			return true;
	}
	return false;
}

static int load_top_level(const struct key_ctx *k, struct nb_config *cfg, json_t *root)
{
	const char *key;
	json_t *v;

	json_object_foreach(root, key, v) {
		if (sets_test_defaults(key)) {
			const struct nb_opt *o = nb_opt_by_key(&nb_config_table, key);
			int rc = o ? load_row(k, o, &cfg->test_defaults, key, v) : load_group(k, cfg, key, v);

			if (rc < 0)
				return rc;
		}
	}
	for (int i = 0; i < cfg->ntests; i++)
		test_take_defaults(cfg, &cfg->tests[i]);
	json_object_foreach(root, key, v) {
		int rc = sets_test_defaults(key) ? 0 : load_key(k, cfg, key, v);

		if (rc < 0)
			return rc;
	}
	/* a seed turns rounds on: with "interleave": false the key order would pick the winner */
	if (json_object_get(root, "shuffle") && json_is_false(json_object_get(root, "interleave")))
		return bad_key(k, "shuffle", "a seed orders interleaved rounds, and \"interleave\" is false: drop one");
	return 0;
}

int nb_config_load_file(struct nb_config *cfg, const char *path, struct nb_err *err)
{
	struct key_ctx k = { .file = path, .err = err };
	struct stat st;
	json_error_t jerr;
	json_t *root;
	int rc;

	/* jansson reads a directory as an empty stream ("'[' or '{' expected"): say what it is */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return nb_err_set(err, -EISDIR, "config %s: is a directory, not a JSON config file (such as configs/demo-veth.json)", path);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line <= 0)
			return nb_err_set(err, -ENOENT, "config %s: cannot read: %s", path, jerr.text);
		return nb_err_set(err, -EINVAL, "config %s: line %d column %d: %s", path, jerr.line, jerr.column,
				  jerr.text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return nb_err_set(err, -EINVAL, "config %s: expected a JSON object at the top", path);
	}
	rc = load_top_level(&k, cfg, root);
	json_decref(root);
	if (rc == 0)
		snprintf(cfg->config_file, sizeof(cfg->config_file), "%s", path);
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

static json_t *test_to_json(const struct nb_test_spec *t)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:i}",
			 "name", t->name,
			 "protocol", t->proto == NB_PROTO_TCP ? "tcp" : "udp",
			 "direction", t->dir == NB_DIR_TX ? "tx" : t->dir == NB_DIR_RX ? "rx" : "rr",
			 "duration", t->duration_s, "omit", t->omit_s, "streams", t->streams,
			 "rate", (json_int_t)t->rate_bps, "length", t->length);
}

static json_t *knobs_to_json(const struct nb_config *cfg)
{
	json_t *knobs = json_object();

	for (int a = 0; a < cfg->naxes; a++) {
		const struct nb_knob_axis *axis = &cfg->axes[a];
		char name[NB_MAX_AXIS_KNOBS * NB_KNOB_NAME_MAX] = "";
		json_t *values = json_array();

		for (int k = 0; k < axis->nknobs; k++) {
			strcat(name, k ? ":" : "");
			strcat(name, axis->knobs[k]);
		}
		for (int v = 0; v < axis->nvalues; v++) {
			char joined[NB_MAX_AXIS_KNOBS * NB_KNOB_VALUE_MAX] = "";

			for (int k = 0; k < axis->nknobs; k++) {
				strcat(joined, k ? ":" : "");
				strcat(joined, axis->values[v][k]);
			}
			json_array_append_new(values, json_string(joined));
		}
		json_object_set_new(knobs, name, values);
	}
	return knobs;
}

/* One row's value as the file would give it; NULL: the row writes nothing. */
static json_t *row_to_json(const struct nb_opt *o, const struct nb_config *cfg)
{
	const char *field = (const char *)cfg + o->offset;

	switch (o->type) {
	case NB_OPT_INT:
		if (!strcmp(o->key, "repetitions") && cfg->reps_auto) {  /* the file's own words back */
			char reps[32];

			snprintf(reps, sizeof(reps), "auto:%d-%d", cfg->reps_min, cfg->repetitions);
			return json_string(reps);
		}
		return json_integer(*(const int *)field);
	case NB_OPT_SECONDS: case NB_OPT_NUMBER: return json_real(*(const double *)field);
	case NB_OPT_FLAG: return json_boolean(*(const bool *)field);
	case NB_OPT_RATE: return json_integer((json_int_t)*(const uint64_t *)field);  /* whole units, as parsed */
	case NB_OPT_STRING: return field[0] ? json_string(field) : NULL;
	case NB_OPT_CUSTOM:
		if (!strcmp(o->key, "tests")) {
			json_t *tests = json_array();

			for (int i = 0; i < cfg->ntests; i++)
				json_array_append_new(tests, test_to_json(&cfg->tests[i]));
			return tests;
		}
		if (!strcmp(o->key, "shuffle"))
			return cfg->shuffle ? json_integer((json_int_t)cfg->shuffle_seed) : NULL;
		if (!strcmp(o->key, "diagnostics")) {  /* auto in round K reads back as K */
			if (cfg->diag_mode == NB_DIAG_AUTO && cfg->diag_round != 1)
				return json_integer(cfg->diag_round);
			return json_string(nb_diag_mode_name(cfg->diag_mode));
		}
		return !strcmp(o->key, "knobs") ? knobs_to_json(cfg) : NULL;
	case NB_OPT_ARG: break;
	}
	return NULL;
}

char *nb_config_to_json(const struct nb_config *cfg)
{
	const struct nb_opt_table *t = &nb_config_table;
	json_t *root = json_object();
	char *text;

	for (int i = 0; i < t->nrows; i++) {
		const struct nb_opt *o = &t->rows[i];
		const char *dot = o->key ? strchr(o->key, '.') : NULL;
		json_t *parent = root, *value;

		if (!o->key || (o->flags & (NB_OPT_NO_REPORT | NB_OPT_TEST_FIELD)))
			continue;
		value = row_to_json(o, cfg);
		if (!value)
			continue;
		if (dot) {  /* "rr.flows" goes into the object "rr" */
			char group[32];

			snprintf(group, sizeof(group), "%.*s", (int)(dot - o->key), o->key);
			parent = json_object_get(root, group);
			if (!parent) {
				parent = json_object();
				json_object_set_new(root, group, parent);
			}
		}
		json_object_set_new(parent, dot ? dot + 1 : o->key, value);
	}
	if (cfg->config_file[0])
		json_object_set_new(root, "config_file", json_string(cfg->config_file));
	text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return text;
}
