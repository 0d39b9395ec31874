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

#include "nb_paths.h"
#include "rr_proto.h"

static const char *const known_tests[] = { "tcp-tx", "tcp-rx", "udp-tx", "udp-rx" };

void nb_config_defaults(struct nb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->peer_port = 5201;
	cfg->test_defaults.duration_s = 10;
	cfg->test_defaults.omit_s = 2;
	cfg->test_defaults.streams = 1;
	cfg->test_defaults.rate_bps = 0;
	/* 1448 = the TCP MSS of a 1500-byte MTU with timestamps: what the iperf3 CLI picks */
	cfg->test_defaults.length = 1448;
	cfg->repetitions = 3;
	cfg->reps_min = NB_AUTO_REPS_MIN;
	cfg->precision_pct = NB_DEFAULT_PRECISION_PCT;
	cfg->settle_s = 2.0;
	cfg->interval_ms = 100;
	cfg->grace_s = 5;
	cfg->connect_timeout_s = 10;
	cfg->trace = true;
	cfg->profile = true;
	cfg->capture_snaplen = 128;
	cfg->rr.flows = 1;
	cfg->rr.request = 64;
	cfg->rr.response = 64;
	cfg->rr.timeout_ms = 100;
	cfg->rr.port = NB_RR_DEFAULT_PORT;
	cfg->idle_check_s = 1.0;
	for (size_t i = 0; i < sizeof(known_tests) / sizeof(known_tests[0]); i++)
		nb_test_from_name(&cfg->tests[cfg->ntests++], known_tests[i]);
	for (int i = 0; i < cfg->ntests; i++) {
		struct nb_test_spec *t = &cfg->tests[i];

		t->duration_s = cfg->test_defaults.duration_s;
		t->omit_s = cfg->test_defaults.omit_s;
		t->streams = cfg->test_defaults.streams;
		t->length = t->proto == NB_PROTO_UDP ? cfg->test_defaults.length : 0;
	}
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

void nb_config_set_test_field(struct nb_config *cfg, enum nb_test_field field, uint64_t value)
{
	for (int i = -1; i < cfg->ntests; i++) {
		struct nb_test_spec *t = i < 0 ? &cfg->test_defaults : &cfg->tests[i];
		bool udp_only = field == NB_FIELD_RATE || field == NB_FIELD_LENGTH;

		if (i >= 0 && udp_only && (t->proto != NB_PROTO_UDP || t->dir == NB_DIR_RR))
			continue;
		switch (field) {
		case NB_FIELD_DURATION: t->duration_s = (int)value; break;
		case NB_FIELD_OMIT: t->omit_s = (int)value; break;
		case NB_FIELD_STREAMS: t->streams = (int)value; break;
		case NB_FIELD_RATE: t->rate_bps = value; break;
		case NB_FIELD_LENGTH: t->length = (int)value; break;
		}
	}
}

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

int nb_config_set_rr_rate(struct nb_config *cfg, const char *text, struct nb_err *err)
{
	uint64_t tps;

	/* the same k/M suffixes as a bit rate, but counting transactions */
	if (nb_parse_rate(text, &tps) < 0 || tps > 10000000)
		return nb_err_set(err, -EINVAL, "--rr-rate '%s': expected transactions per second 0..10M "
				  "(0 = closed loop), e.g. 20000 or 20k", text);
	cfg->rr.rate_tps = (double)tps;
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

static int get_int(const struct key_ctx *k, json_t *v, const char *key, long min, long max, long *out)
{
	if (!json_is_integer(v))
		return bad_key(k, key, "expected an integer");
	if (json_integer_value(v) < min || json_integer_value(v) > max) {
		char why[96];

		snprintf(why, sizeof(why), "%lld is out of range %ld..%ld", (long long)json_integer_value(v), min, max);
		return bad_key(k, key, why);
	}
	*out = (long)json_integer_value(v);
	return 0;
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

static int get_rate(const struct key_ctx *k, json_t *v, const char *key, uint64_t *out)
{
	char text[64];
	int rc = value_text(k, v, key, text, sizeof(text));

	if (rc < 0)
		return rc;
	if (nb_parse_rate(text, out) < 0)
		return bad_key(k, key, "expected a rate such as 0 (unlimited), 500M or 1G");
	return 0;
}

/* The test fields that may appear at the top level, in "udp", or in a test object. */
static int apply_test_key(const struct key_ctx *k, struct nb_test_spec *t, const char *key, json_t *v,
			  bool *handled)
{
	long n;
	int rc = 0;

	*handled = true;
	if (!strcmp(key, "duration")) {
		rc = get_int(k, v, key, 1, 86400, &n);
		t->duration_s = (int)n;
	} else if (!strcmp(key, "omit")) {
		rc = get_int(k, v, key, 0, 3600, &n);
		t->omit_s = (int)n;
	} else if (!strcmp(key, "streams")) {
		rc = get_int(k, v, key, 1, 128, &n);
		t->streams = (int)n;
	} else if (!strcmp(key, "rate")) {
		rc = get_rate(k, v, key, &t->rate_bps);
	} else if (!strcmp(key, "length")) {
		rc = get_int(k, v, key, 16, 65507, &n);
		t->length = (int)n;
	} else {
		*handled = false;
	}
	return rc;
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
		bool handled;
		int rc;

		if (!strcmp(key, "name"))
			continue;
		rc = apply_test_key(k, t, key, v, &handled);
		if (rc < 0)
			return rc;
		if (!handled) {
			char full[128];

			snprintf(full, sizeof(full), "tests[].%s", key);
			return bad_key(k, full, "unknown key (known: name, duration, omit, streams, rate, length)");
		}
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

static int load_peer(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	const char *key;
	json_t *item;
	long n;

	if (json_is_string(v))
		return nb_config_set_peer(cfg, json_string_value(v), k->err) < 0 ? bad_key(k, "peer", k->err->msg) : 0;
	if (!json_is_object(v))
		return bad_key(k, "peer", "expected \"HOST[:PORT]\" or {\"host\": ..., \"port\": ...}");
	json_object_foreach(v, key, item) {
		int rc;

		if (!strcmp(key, "host"))
			rc = get_string(k, item, "peer.host", cfg->peer_host, sizeof(cfg->peer_host));
		else if (!strcmp(key, "port")) {
			rc = get_int(k, item, "peer.port", 1, 65535, &n);
			cfg->peer_port = (int)n;
		} else
			rc = bad_key(k, "peer", "unknown key inside (known: host, port)");
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "capture": {"packets": N, "snaplen": BYTES}: a bounded .pcap per point, for debugging. */
static int load_capture(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	const char *key;
	json_t *item;
	long n;

	if (!json_is_object(v))
		return bad_key(k, "capture", "expected {\"packets\": N, \"snaplen\": BYTES}");
	json_object_foreach(v, key, item) {
		int rc;

		if (!strcmp(key, "packets")) {
			rc = get_int(k, item, "capture.packets", 0, 1000000, &n);
			cfg->capture_packets = (int)n;
		} else if (!strcmp(key, "snaplen")) {
			rc = get_int(k, item, "capture.snaplen", 14, 65535, &n);
			cfg->capture_snaplen = (int)n;
		} else {
			rc = bad_key(k, "capture", "unknown key inside (known: packets, snaplen)");
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* "rr": {"flows", "request", "response", "rate", "timeout_ms", "port"}: the tcp-rr / udp-rr tests. */
static int load_rr(const struct key_ctx *k, struct nb_config *cfg, json_t *v)
{
	const char *key;
	json_t *item;
	long n;

	if (!json_is_object(v))
		return bad_key(k, "rr", "expected {\"flows\": N, \"request\": BYTES, \"response\": BYTES, \"rate\": TPS, ...}");
	json_object_foreach(v, key, item) {
		int rc = 0;

		if (!strcmp(key, "flows")) {
			rc = get_int(k, item, "rr.flows", 1, 256, &n);
			cfg->rr.flows = (int)n;
		} else if (!strcmp(key, "request")) {
			rc = get_int(k, item, "rr.request", NB_RR_MIN_LEN, NB_RR_MAX_LEN, &n);
			cfg->rr.request = (int)n;
		} else if (!strcmp(key, "response")) {
			rc = get_int(k, item, "rr.response", NB_RR_MIN_LEN, NB_RR_MAX_LEN, &n);
			cfg->rr.response = (int)n;
		} else if (!strcmp(key, "rate")) {
			char text[64];

			rc = value_text(k, item, "rr.rate", text, sizeof(text));
			if (rc == 0 && nb_config_set_rr_rate(cfg, text, k->err) < 0)
				rc = bad_key(k, "rr.rate", "expected transactions per second, 0 (closed loop) .. 10M");
		} else if (!strcmp(key, "timeout_ms")) {
			rc = get_int(k, item, "rr.timeout_ms", 1, 60000, &n);
			cfg->rr.timeout_ms = (int)n;
		} else if (!strcmp(key, "port")) {
			rc = get_int(k, item, "rr.port", 1, 65535, &n);
			cfg->rr.port = (int)n;
		} else {
			rc = bad_key(k, "rr", "unknown key inside (known: flows, request, response, rate, timeout_ms, port)");
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Documentation-only board description in board profiles: accepted, kept in the report. */
static int check_board(const struct key_ctx *k, json_t *v)
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
	}
	return 0;
}

static int load_top_level(const struct key_ctx *k, struct nb_config *cfg, json_t *root)
{
	const char *key;
	json_t *v;
	long n;

	/* Test defaults first, so that "tests" gets them whatever the key order. */
	json_object_foreach(root, key, v) {
		bool handled;
		int rc;

		if (!strcmp(key, "udp")) {
			const char *ukey;
			json_t *uv;

			if (!json_is_object(v))
				return bad_key(k, "udp", "expected {\"rate\": ..., \"length\": ...}");
			json_object_foreach(v, ukey, uv) {
				if (strcmp(ukey, "rate") && strcmp(ukey, "length"))
					return bad_key(k, "udp", "unknown key inside (known: rate, length)");
				rc = apply_test_key(k, &cfg->test_defaults, ukey, uv, &handled);
				if (rc < 0)
					return rc;
			}
			continue;
		}
		if (!strcmp(key, "rate") || !strcmp(key, "length"))
			return bad_key(k, key, "UDP rate and length go inside \"udp\" or a test object");
		rc = apply_test_key(k, &cfg->test_defaults, key, v, &handled);
		if (rc < 0)
			return rc;
	}
	for (int i = 0; i < cfg->ntests; i++)
		test_take_defaults(cfg, &cfg->tests[i]);

	json_object_foreach(root, key, v) {
		int rc = 0;

		if (!strcmp(key, "duration") || !strcmp(key, "omit") || !strcmp(key, "streams") || !strcmp(key, "udp")) {
			continue;
		} else if (!strcmp(key, "interface")) {
			rc = get_string(k, v, key, cfg->iface, sizeof(cfg->iface));
			if (rc == 0 && !nb_ifname_valid(cfg->iface))
				rc = bad_key(k, key, "not a valid interface name");
		} else if (!strcmp(key, "peer")) {
			rc = load_peer(k, cfg, v);
		} else if (!strcmp(key, "tests")) {
			size_t i;
			json_t *item;

			if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > NB_MAX_TESTS)
				return bad_key(k, key, "expected a list of 1..16 tests");
			cfg->ntests = 0;
			json_array_foreach(v, i, item) {
				rc = load_test(k, cfg, item, &cfg->tests[cfg->ntests]);
				if (rc < 0)
					return rc;
				cfg->ntests++;
			}
		} else if (!strcmp(key, "repetitions") && json_is_string(v)) {
			if (nb_config_set_repetitions(cfg, json_string_value(v), k->err) < 0)
				return bad_key(k, key, k->err->msg);
		} else if (!strcmp(key, "repetitions")) {
			rc = get_int(k, v, key, 1, NB_MAX_REPETITIONS, &n);
			cfg->repetitions = (int)n;
			cfg->reps_auto = false;
		} else if (!strcmp(key, "precision")) {
			if (!json_is_number(v) || !(json_number_value(v) > 0) || json_number_value(v) > 100)
				return bad_key(k, key, "expected a percentage above 0, at most 100");
			cfg->precision_pct = json_number_value(v);
		} else if (!strcmp(key, "interleave")) {
			if (!json_is_boolean(v))
				return bad_key(k, key, "expected true or false");
			cfg->interleave = json_is_true(v);
		} else if (!strcmp(key, "shuffle")) {
			if (!json_is_integer(v) || json_integer_value(v) < 0)
				return bad_key(k, key, "expected a seed, a whole number >= 0");
			cfg->shuffle = cfg->interleave = true;
			cfg->shuffle_seed = (uint64_t)json_integer_value(v);
		} else if (!strcmp(key, "settle")) {
			if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 600)
				return bad_key(k, key, "expected seconds, 0..600");
			cfg->settle_s = json_number_value(v);
		} else if (!strcmp(key, "interval_ms")) {
			rc = get_int(k, v, key, 10, 10000, &n);
			cfg->interval_ms = (int)n;
		} else if (!strcmp(key, "grace")) {
			rc = get_int(k, v, key, 1, 600, &n);
			cfg->grace_s = (int)n;
		} else if (!strcmp(key, "connect_timeout")) {
			rc = get_int(k, v, key, 1, 600, &n);
			cfg->connect_timeout_s = (int)n;
		} else if (!strcmp(key, "knobs")) {
			rc = load_knobs(k, cfg, v);
		} else if (!strcmp(key, "journal")) {
			rc = get_string(k, v, key, cfg->journal, sizeof(cfg->journal));
		} else if (!strcmp(key, "output")) {
			rc = get_string(k, v, key, cfg->output, sizeof(cfg->output));
		} else if (!strcmp(key, "description")) {
			rc = get_string(k, v, key, cfg->description, sizeof(cfg->description));
		} else if (!strcmp(key, "raw") || !strcmp(key, "trace") || !strcmp(key, "profile")) {
			if (!json_is_boolean(v))
				return bad_key(k, key, "expected true or false");
			if (!strcmp(key, "raw"))
				cfg->no_raw = !json_is_true(v);
			else if (!strcmp(key, "trace"))
				cfg->trace = json_is_true(v);
			else
				cfg->profile = json_is_true(v);
		} else if (!strcmp(key, "peer_local") || !strcmp(key, "redact")) {
			if (!json_is_boolean(v))
				return bad_key(k, key, "expected true or false");
			if (!strcmp(key, "peer_local"))
				cfg->peer_local = json_is_true(v);
			else
				cfg->redact = json_is_true(v);
		} else if (!strcmp(key, "idle_check")) {
			if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 60)
				return bad_key(k, key, "expected seconds, 0..60 (0: no check)");
			cfg->idle_check_s = json_number_value(v);
		} else if (!strcmp(key, "promiscuous")) {
			if (!json_is_boolean(v))
				return bad_key(k, key, "expected true or false");
			cfg->promiscuous = json_is_true(v);
		} else if (!strcmp(key, "capture")) {
			rc = load_capture(k, cfg, v);
		} else if (!strcmp(key, "board")) {
			rc = check_board(k, v);
		} else if (!strcmp(key, "rr")) {
			rc = load_rr(k, cfg, v);
		} else if (!strcmp(key, "$schema") || !strcmp(key, "comment")) {
			continue;
		} else {
			rc = bad_key(k, key, "unknown key (see configs/README.md for the keys)");
		}
		if (rc < 0)
			return rc;
	}
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

int nb_config_validate(const struct nb_config *cfg, struct nb_err *err)
{
	if (cfg->iface[0] == '\0')
		return nb_err_set(err, -EINVAL, "no interface: give -i IFACE or \"interface\" in the config");
	if (!nb_ifname_valid(cfg->iface))
		return nb_err_set(err, -EINVAL, "interface name '%s' is not valid (1-15 characters, no '/', ':' or spaces)",
				  cfg->iface);
	if (cfg->peer_host[0] == '\0')
		return nb_err_set(err, -EINVAL, "no peer: give --peer HOST[:PORT] or \"peer\" in the config");
	if (cfg->ntests == 0)
		return nb_err_set(err, -EINVAL, "no tests to run");
	for (int i = 0; i < cfg->ntests; i++) {
		const struct nb_test_spec *t = &cfg->tests[i];

		if (t->duration_s < 1 || t->omit_s < 0 || t->streams < 1)
			return nb_err_set(err, -EINVAL, "test %s: duration must be >= 1 s, omit >= 0, streams >= 1", t->name);
		/* the same test twice would give two points with one id */
		for (int j = 0; j < i; j++)
			if (!strcmp(cfg->tests[j].name, t->name))
				return nb_err_set(err, -EINVAL, "test %s is listed twice", t->name);
	}
	if (cfg->repetitions < 1 || cfg->repetitions > NB_MAX_REPETITIONS)
		return nb_err_set(err, -EINVAL, "repetitions must be 1..%d", NB_MAX_REPETITIONS);
	if (cfg->reps_auto && (cfg->reps_min < 1 || cfg->reps_min > cfg->repetitions))
		return nb_err_set(err, -EINVAL, "repetitions auto:%d-%d: the minimum must be 1..the maximum",
				  cfg->reps_min, cfg->repetitions);
	if (!(cfg->precision_pct > 0) || cfg->precision_pct > 100)
		return nb_err_set(err, -EINVAL, "precision must be above 0 and at most 100 %%");
	if (cfg->rr.flows < 1 || cfg->rr.flows > 256 || cfg->rr.request < NB_RR_MIN_LEN ||
	    cfg->rr.request > NB_RR_MAX_LEN || cfg->rr.response < NB_RR_MIN_LEN || cfg->rr.response > NB_RR_MAX_LEN)
		return nb_err_set(err, -EINVAL, "rr: flows must be 1..256, request and response %d..%d bytes",
				  NB_RR_MIN_LEN, NB_RR_MAX_LEN);
	if (cfg->interval_ms < 10 || cfg->interval_ms > 10000)
		return nb_err_set(err, -EINVAL, "interval must be 10..10000 ms");
	if (cfg->settle_s < 0 || cfg->settle_s > 600)
		return nb_err_set(err, -EINVAL, "settle must be 0..600 s");
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

char *nb_config_to_json(const struct nb_config *cfg)
{
	json_t *root = json_object();
	json_t *tests = json_array();
	json_t *knobs = json_object();
	char *text;

	for (int i = 0; i < cfg->ntests; i++)
		json_array_append_new(tests, test_to_json(&cfg->tests[i]));
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
	json_object_set_new(root, "interface", json_string(cfg->iface));
	json_object_set_new(root, "peer", json_pack("{s:s, s:i}", "host", cfg->peer_host, "port", cfg->peer_port));
	json_object_set_new(root, "tests", tests);
	if (cfg->reps_auto) {
		char reps[32];

		snprintf(reps, sizeof(reps), "auto:%d-%d", cfg->reps_min, cfg->repetitions);
		json_object_set_new(root, "repetitions", json_string(reps));
	} else {
		json_object_set_new(root, "repetitions", json_integer(cfg->repetitions));
	}
	json_object_set_new(root, "precision", json_real(cfg->precision_pct));
	json_object_set_new(root, "interleave", json_boolean(cfg->interleave));
	if (cfg->shuffle)
		json_object_set_new(root, "shuffle", json_integer((json_int_t)cfg->shuffle_seed));
	json_object_set_new(root, "settle", json_real(cfg->settle_s));
	json_object_set_new(root, "interval_ms", json_integer(cfg->interval_ms));
	json_object_set_new(root, "grace", json_integer(cfg->grace_s));
	json_object_set_new(root, "connect_timeout", json_integer(cfg->connect_timeout_s));
	json_object_set_new(root, "knobs", knobs);
	json_object_set_new(root, "raw", json_boolean(!cfg->no_raw));
	json_object_set_new(root, "trace", json_boolean(cfg->trace));
	json_object_set_new(root, "profile", json_boolean(cfg->profile));
	json_object_set_new(root, "promiscuous", json_boolean(cfg->promiscuous));
	json_object_set_new(root, "peer_local", json_boolean(cfg->peer_local));
	json_object_set_new(root, "idle_check", json_real(cfg->idle_check_s));
	json_object_set_new(root, "redact", json_boolean(cfg->redact));
	json_object_set_new(root, "capture", json_pack("{s:i, s:i}", "packets", cfg->capture_packets,
						       "snaplen", cfg->capture_snaplen));
	/* the rate is parsed as whole transactions per second: written back as an integer, as a file takes it */
	json_object_set_new(root, "rr", json_pack("{s:i, s:i, s:i, s:I, s:i, s:i}", "flows", cfg->rr.flows,
						  "request", cfg->rr.request, "response", cfg->rr.response,
						  "rate", (json_int_t)llround(cfg->rr.rate_tps), "timeout_ms", cfg->rr.timeout_ms,
						  "port", cfg->rr.port));
	if (cfg->description[0])
		json_object_set_new(root, "description", json_string(cfg->description));
	if (cfg->config_file[0])
		json_object_set_new(root, "config_file", json_string(cfg->config_file));
	text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return text;
}
