// SPDX-License-Identifier: MIT
/* The configuration's JSON, both ways, the only config code that knows jansson: a config file
 * read into struct nb_config through the settings table's rows (config_table.c), and the
 * effective configuration written back for the report's "config". */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---- a config file ---- */

struct key_ctx {
	const char *file;
	struct nb_err *err;
};

/* `why` is often k->err->msg, a reason a helper (nb_knob_axis_add_value, set_peer) just wrote:
 * it is copied first, since formatting a buffer from itself is undefined (and printed the prefix twice). */
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

/* A swept test field: "rate": ["150M", "1000M"] (or "150M,1000M", a number, one string) into the
 * config's field axes; -EINVAL naming the key. */
static int load_field_values(const struct key_ctx *k, struct nb_config *cfg, const struct nb_opt *o, const char *key,
			     json_t *v)
{
	char text[NB_MAX_AXIS_VALUES * NB_FIELD_LABEL_MAX] = "";
	size_t used = 0, i;
	json_t *item;

	if (!json_is_array(v)) {
		if (json_is_integer(v))
			snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
		else if (json_is_string(v))
			snprintf(text, sizeof(text), "%s", json_string_value(v));
		else
			return bad_key(k, key, "expected a value or a list of values");
	}
	json_array_foreach(v, i, item) {
		char one[NB_FIELD_LABEL_MAX + 8];

		if (json_is_integer(item))
			snprintf(one, sizeof(one), "%lld", (long long)json_integer_value(item));
		else if (json_is_string(item) && !strchr(json_string_value(item), ',') &&
			 strlen(json_string_value(item)) < NB_FIELD_LABEL_MAX)
			snprintf(one, sizeof(one), "%s", json_string_value(item));
		else
			return bad_key(k, key, "expected a list of values (numbers or strings such as \"150M\")");
		if (used + strlen(one) + 2 >= sizeof(text))
			return bad_key(k, key, "too many values");
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", i ? "," : "", one);
	}
	if (nb_config_set_test_field(cfg, o, text, k->err) < 0)
		return bad_key(k, key, k->err->msg);
	return 0;
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
		if ((o->flags & NB_OPT_TEST_FIELD) && o->parse)  /* rate, length: a value or a sweep */
			rc = load_field_values(k, cfg, o, key, item);
		else if (o->flags & NB_OPT_TEST_FIELD)
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
		nb_test_take_defaults(cfg, t);
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
	nb_test_take_defaults(cfg, t);
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
		if (o->parse && (json_is_array(v) || (o->type == NB_OPT_INT && !json_is_integer(v)))) {
			char full[128], why[160];

			snprintf(full, sizeof(full), "tests[].%s", key);
			snprintf(why, sizeof(why), "expected %s; a sweep goes in \"%s\" for every test", json_is_array(v) ?
				 "one value" : "an integer", o->key);
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
		int rc = nb_knob_axis_init(&axis, key, k->err);

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
			rc = nb_knob_axis_add_value(&axis, text, k->err);
			if (rc < 0)
				return bad_key(k, full, k->err->msg);
		}
		rc = nb_config_put_axis(cfg, &axis, k->err);
		if (rc < 0)
			return bad_key(k, "knobs", k->err->msg);
	}
	return 0;
}

/* One irq_names pattern as "role:pattern" (role NULL: guessed from the IRQ's name). */
static int irq_name_add(const struct key_ctx *k, struct nb_config *cfg, const char *role, json_t *v)
{
	const char *pat = json_string_value(v);
	size_t used = strlen(cfg->irq_names);
	int n;

	if (!pat || !*pat || strpbrk(pat, " \t\n"))
		return bad_key(k, "board.irq_names", "a pattern must be a non-empty string without blanks");
	n = snprintf(cfg->irq_names + used, sizeof(cfg->irq_names) - used, "%s%s%s%s", used ? " " : "",
		     role ? role : "", role ? ":" : "", pat);
	if (n < 0 || (size_t)n >= sizeof(cfg->irq_names) - used)
		return bad_key(k, "board.irq_names", "too many patterns");
	return 0;
}

/* board.irq_names: ["eth0", "11c20000.ethernet"] (roles guessed), {"rx": "vrx200_rx", "tx": [..]}, or
 * a list of {"pattern": .., "role": ..}; kept as text and checked by the parser the knobs use. */
static int load_irq_names(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	static const char shape[] = "expected a list of patterns, {\"pattern\": P, \"role\": R} objects, or an "
				    "object of roles (rx, tx, txrx, misc) to a pattern or a list of them";
	struct nb_irq_names names;
	enum nb_irq_role role;
	const char *key;
	json_t *item;
	size_t i;
	int rc = 0;

	cfg->irq_names[0] = '\0';
	if (json_is_object(v)) {
		json_object_foreach(v, key, item) {
			if (nb_irq_role_parse(key, strlen(key), &role))
				return bad_key(k, "board.irq_names", "unknown role (known: rx, tx, txrx, misc)");
			if (json_is_string(item)) {
				rc = irq_name_add(k, cfg, key, item);
			} else if (json_is_array(item)) {
				json_t *pat;
				size_t j;

				json_array_foreach(item, j, pat) {
					if ((rc = irq_name_add(k, cfg, key, pat)) < 0)
						return rc;
				}
			} else {
				return bad_key(k, "board.irq_names", shape);
			}
			if (rc < 0)
				return rc;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			json_t *role_v = json_object_get(item, "role");
			const char *r = json_string_value(role_v);

			if (json_is_object(item) && (json_object_size(item) != 1 + (role_v != NULL) ||
						     (role_v && (!r || nb_irq_role_parse(r, strlen(r), &role)))))
				return bad_key(k, "board.irq_names", role_v ? "unknown role (known: rx, tx, txrx, misc)" : shape);
			rc = irq_name_add(k, cfg, r, json_is_object(item) ? json_object_get(item, "pattern") : item);
			if (rc < 0)
				return rc;
		}
	} else {
		return bad_key(k, "board.irq_names", shape);
	}
	rc = nb_irq_names_parse(cfg->irq_names, &names, k->err);
	return rc < 0 ? bad_key(k, "board.irq_names", k->err->msg) : 0;
}

/* The board description in board profiles: accepted, kept in the report; irq_names also says
 * how to find the NIC's IRQs. */
static int check_board(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	static const char *const allowed[] = { "name", "soc", "cpus", "irq_names", "notes", "kernel", "interface" };
	const char *key;
	json_t *item;

	if (!json_is_object(v))
		return bad_key(k, "board", "expected an object");
	json_object_foreach(v, key, item) {
		bool ok = false;

		for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
			ok = ok || !strcmp(key, allowed[i]);
		if (!ok)
			return bad_key(k, "board", "unknown key inside (known: name, soc, cpus, irq_names, notes, kernel, interface)");
		if (!strcmp(key, "irq_names")) {
			int rc = load_irq_names(k, cfg, item);

			if (rc < 0)
				return rc;
		}
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
		nb_test_take_defaults(cfg, &cfg->tests[i]);
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

/* ---- the effective configuration, for the report ---- */

static json_t *test_to_json(const struct nb_test_spec *t)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:I, s:i}",
			      "name", t->name,
			      "protocol", t->proto == NB_PROTO_TCP ? "tcp" : "udp",
			      "direction", t->dir == NB_DIR_TX ? "tx" : t->dir == NB_DIR_RX ? "rx" : "rr",
			      "duration", t->duration_s, "omit", t->omit_s, "streams", t->streams,
			      "rate", (json_int_t)t->rate_bps, "length", t->length);

	if (o && t->length == NB_UDP_LENGTH_MTU)
		json_object_set_new(o, "length", json_string("mtu"));
	return o;
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
	for (int a = 0; a < cfg->nfield_axes; a++) {  /* "udp": {"rate": ["150M", "1000M"]}, as the file takes it */
		const struct nb_field_axis *axis = &cfg->field_axes[a];
		const char *dot = strchr(axis->row->key, '.');
		char group[32];
		json_t *values = json_array(), *parent;

		snprintf(group, sizeof(group), "%.*s", dot ? (int)(dot - axis->row->key) : 0, axis->row->key);
		for (int v = 0; v < axis->nvalues; v++)
			json_array_append_new(values, json_string(axis->labels[v]));
		parent = dot ? json_object_get(root, group) : root;
		if (!parent) {
			parent = json_object();
			json_object_set_new(root, group, parent);
		}
		json_object_set_new(parent, nb_field_axis_name(axis), values);
	}
	if (cfg->config_file[0])
		json_object_set_new(root, "config_file", json_string(cfg->config_file));
	text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return text;
}
