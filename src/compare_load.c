/* Read nicbench-report/1 files into compare's plain structs: a streaming scanner for the results, jansson for the rest. */
#include "compare_load.h"
#include "compare_stats.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Thousands of small strings and arrays per report: one arena keeps loading fast
 * and makes nb_cmp_report_free a handful of free() calls. */
struct nb_cmp_arena_chunk {
	struct nb_cmp_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct nb_cmp_arena {
	struct nb_cmp_arena_chunk *head;
};

#define ARENA_CHUNK_MIN (256 * 1024)

/* The arena holds chars, ints, doubles and pointers: their alignment, not
 * max_align_t's, which would pad each five-run sample array by a fifth. */
union arena_align {
	double d;
	long long ll;
	void *p;
};

static void *arena_alloc(struct nb_cmp_arena *a, size_t len)
{
	struct nb_cmp_arena_chunk *c = a->head;
	size_t align = _Alignof(union arena_align);

	len = (len + align - 1) / align * align;
	if (!c || c->size - c->used < len) {
		size_t size = len > ARENA_CHUNK_MIN ? len : ARENA_CHUNK_MIN;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;

	c->used += len;
	return p;
}

static void arena_free(struct nb_cmp_arena *a)
{
	if (!a)
		return;
	while (a->head) {
		struct nb_cmp_arena_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
	free(a);
}

static const char *arena_strdup(struct nb_cmp_arena *a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = arena_alloc(a, len);

	if (d)
		memcpy(d, s, len);
	return d;
}

/* Growable scratch arrays, reused for every point of a report. */
struct scratch {
	double *dbl;
	size_t n_dbl, cap_dbl;
	double *dbl2;
	size_t cap_dbl2;
	struct nb_cmp_samples *met;
	size_t n_met, cap_met;
	struct nb_cmp_profile_entry *prof;
	size_t n_prof, cap_prof;
	struct nb_cmp_point *pts;
	size_t n_pts, cap_pts;
};

#define LOADER_NAMES_MAX 256

/* A loader context: the arena, scratch space, the error to fill and the file's name. */
struct loader {
	struct nb_cmp_arena *arena;
	struct scratch sc;
	struct nb_err *err;
	const char *label;
	int first_error;       /* a content error seen while scanning, reported after the schema check */
	int n_names;
	const char *names[LOADER_NAMES_MAX]; /* metric names met so far, each copied once */
};

static int oom(struct loader *ld)
{
	return nb_err_set(ld->err, -ENOMEM, "load report %s: out of memory", ld->label);
}

static const char *json_str_or(json_t *obj, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : fallback;
}

const char *nb_cmp_status_name(enum nb_cmp_status s)
{
	static const char *const names[] = {
		[NB_CMP_STATUS_OK] = "ok",
		[NB_CMP_STATUS_FAILED] = "failed",
		[NB_CMP_STATUS_TIMEOUT] = "timeout",
		[NB_CMP_STATUS_UNSUPPORTED] = "unsupported",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "failed";
}

static enum nb_cmp_status parse_status(const char *s)
{
	if (!s || !strcmp(s, "ok"))
		return NB_CMP_STATUS_OK;
	if (!strcmp(s, "timeout"))
		return NB_CMP_STATUS_TIMEOUT;
	if (!strcmp(s, "unsupported"))
		return NB_CMP_STATUS_UNSUPPORTED;
	/* Unknown states from a newer runner count as a failure rather than as data. */
	return NB_CMP_STATUS_FAILED;
}

/* Fields that should be equal in both reports; the kernel is what is being compared,
 * and in-tree driver versions follow it, so neither is listed. */
static const char *const env_keys[] = {
	"host.hostname", "host.cpus", "host.cpu_model",
	"interface.name", "interface.driver", "interface.firmware", "interface.bus_info",
	"interface.mtu", "interface.speed_mbps",
	"peer.host", "peer.port",
	"config.duration", "config.omit", "config.repetitions", "config.settle",
	"config.tests", "config.knobs", "config.interval_ms", "config.trace", "config.profile",
};

static json_t *json_get_path(json_t *root, const char *dotted)
{
	char buf[64];
	char *save = NULL;
	json_t *cur = root;

	snprintf(buf, sizeof(buf), "%s", dotted);
	for (char *tok = strtok_r(buf, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, tok);
	return cur;
}

/* Compact, key-sorted JSON text so equal values compare equal as strings. */
static const char *json_compact(struct loader *ld, json_t *v)
{
	char *text;
	const char *copy;

	if (!v || json_is_null(v))
		return NULL;
	text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text)
		return NULL;
	copy = arena_strdup(ld->arena, text);
	free(text);
	return copy;
}

static int load_env(struct loader *ld, json_t *root, struct nb_cmp_report *r)
{
	for (size_t i = 0; i < sizeof(env_keys) / sizeof(env_keys[0]) && r->n_env < NB_CMP_ENV_MAX; i++) {
		json_t *v = json_get_path(root, env_keys[i]);

		r->env[r->n_env].key = env_keys[i];
		r->env[r->n_env].value = json_compact(ld, v);
		if (v && !json_is_null(v) && !r->env[r->n_env].value)
			return oom(ld);
		r->n_env++;
	}
	return 0;
}

/* Grow a scratch array so that it holds at least `need` elements. */
static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	bigger = realloc(*arr, n * elem);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	*cap = n;
	return 0;
}

static void scratch_free(struct scratch *sc)
{
	free(sc->dbl);
	free(sc->dbl2);
	free(sc->met);
	free(sc->prof);
	free(sc->pts);
	memset(sc, 0, sizeof(*sc));
}

static void *arena_copy(struct nb_cmp_arena *a, const void *src, size_t len)
{
	void *d = len ? arena_alloc(a, len) : NULL;

	if (d)
		memcpy(d, src, len);
	return d;
}

/* ---- a small, strict JSON scanner ----
 * A report of 1000 points is ~8 MB of JSON; building a jansson tree of it takes
 * ~200 ms, scanning it for the few fields compare needs takes a few. Anything the
 * scanner rejects is handed to jansson, whose message then names line and column. */

#define SCAN_MAX_DEPTH 512

struct scan {
	const char *p, *end;
	int depth;
};

/* Byte classes: 1 = JSON whitespace, 2 = ends a plain run inside a string. */
static const unsigned char byte_class[256] = {
	[' '] = 1, ['\n'] = 1 | 2, ['\r'] = 1 | 2, ['\t'] = 1 | 2,
	[0x00] = 2, [0x01] = 2, [0x02] = 2, [0x03] = 2, [0x04] = 2, [0x05] = 2, [0x06] = 2, [0x07] = 2,
	[0x08] = 2, [0x0b] = 2, [0x0c] = 2, [0x0e] = 2, [0x0f] = 2, [0x10] = 2, [0x11] = 2, [0x12] = 2,
	[0x13] = 2, [0x14] = 2, [0x15] = 2, [0x16] = 2, [0x17] = 2, [0x18] = 2, [0x19] = 2, [0x1a] = 2,
	[0x1b] = 2, [0x1c] = 2, [0x1d] = 2, [0x1e] = 2, [0x1f] = 2, ['"'] = 2, ['\\'] = 2,
};

/* Eight copies of byte c, for looking at eight bytes at a time. */
#define BYTES8(c) (0x0101010101010101u * (uint8_t)(c))

static inline uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/* Index of the first byte of w (in memory order) that is not zero; w != 0. */
static inline int first_nonzero_byte(uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_ctzll(w) / 8;
#else
	return __builtin_clzll(w) / 8;
#endif
}

/* The spaces at p, up to 16; 16 bytes at p must be readable. */
static inline int indent_width(const char *p)
{
	uint64_t a = load8(p) ^ BYTES8(' '), b = load8(p + 8) ^ BYTES8(' ');

	return a ? first_nonzero_byte(a) : b ? 8 + first_nonzero_byte(b) : 16;
}

/* Reports are indented: a fifth of the scanning was stepping over the spaces after
 * each newline, which are counted a word at a time here. */
static inline void skip_ws(struct scan *s)
{
	const char *p = s->p;

	while (p < s->end && (byte_class[(unsigned char)*p] & 1)) {
		p++;
		if (p[-1] == '\n' && s->end - p >= 16)
			p += indent_width(p);
	}
	s->p = p;
}

static inline bool scan_char(struct scan *s, char c)
{
	skip_ws(s);
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return true;
	}
	return false;
}

static inline char peek(struct scan *s)
{
	skip_ws(s);
	return s->p < s->end ? *s->p : '\0';
}

/* The raw text between a string's quotes; validates escapes and control characters. */
static bool scan_string_span(struct scan *s, const char **start, size_t *len, bool *escaped)
{
	const char *p;

	if (!scan_char(s, '"'))
		return false;
	p = s->p;
	*escaped = false;
	for (;;) {
		while (p < s->end && !(byte_class[(unsigned char)*p] & 2))
			p++;
		if (p >= s->end)
			return false;
		unsigned char c = (unsigned char)*p;

		if (c == '"')
			break;
		if (c < 0x20)
			return false;
		*escaped = true;
		if (++p >= s->end)
			return false;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++) {
				if (p + i >= s->end || !isxdigit((unsigned char)p[i]))
					return false;
			}
			p += 5;
		} else if (*p && strchr("\"\\/bfnrt", *p)) {
			p++;
		} else {
			return false;
		}
	}
	*start = s->p;
	*len = (size_t)(p - s->p);
	s->p = p + 1;
	return true;
}

static unsigned hex4(const char *p)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Decode a validated span with escapes into out (room for len + 1 bytes: decoding
 * never grows). False on a lone surrogate or \u0000, which jansson refuses too. */
static bool decode_string(const char *in, size_t len, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (in[i] != '\\') {
			out[o++] = in[i];
			continue;
		}
		char e = in[++i];

		if (e != 'u') {
			static const char from[] = "bfnrt\"\\/", to[] = "\b\f\n\r\t\"\\/";

			out[o++] = to[strchr(from, e) - from];
			continue;
		}
		unsigned cp = hex4(in + i + 1);

		i += 4;
		if (cp >= 0xD800 && cp <= 0xDBFF) {
			if (i + 6 >= len || in[i + 1] != '\\' || in[i + 2] != 'u')
				return false;
			unsigned lo = hex4(in + i + 3);

			if (lo < 0xDC00 || lo > 0xDFFF)
				return false;
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			i += 6;
		} else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
			return false;
		}
		o += put_utf8(out + o, cp);
	}
	out[o] = '\0';
	return true;
}

/* A string value copied into the arena. -EINVAL on bad JSON, -ENOMEM. */
static int scan_string(struct loader *ld, struct scan *s, const char **out)
{
	const char *start;
	size_t len;
	bool escaped;
	char *d;

	if (!scan_string_span(s, &start, &len, &escaped))
		return -EINVAL;
	d = arena_alloc(ld->arena, len + 1);
	if (!d)
		return -ENOMEM;
	if (!escaped) {
		memcpy(d, start, len);
		d[len] = '\0';
	} else if (!decode_string(start, len, d)) {
		return -EINVAL;
	}
	*out = d;
	return 0;
}

/* An object key as read: its text in the report, or decoded into buf when it has
 * escapes. Callers compare it in place; only metric names and knobs are copied. */
#define KEY_MAX 64

struct key {
	const char *p;
	size_t len;
	char buf[KEY_MAX]; /* a decoded key, cut to KEY_MAX - 1 bytes: longer than any name looked for */
};

#define KEY_IS(k, literal) ((k)->len == sizeof(literal) - 1 && !memcmp((k)->p, literal, sizeof(literal) - 1))

static int scan_key(struct scan *s, struct key *k)
{
	const char *start;
	size_t len;
	bool escaped;

	char *tmp;

	if (!scan_string_span(s, &start, &len, &escaped) || !scan_char(s, ':'))
		return -EINVAL;
	if (!escaped) {
		k->p = start;
		k->len = len;
		return 0;
	}
	tmp = malloc(len + 1);
	if (!tmp)
		return -ENOMEM;
	if (!decode_string(start, len, tmp)) {
		free(tmp);
		return -EINVAL;
	}
	k->len = strnlen(tmp, KEY_MAX - 1);
	memcpy(k->buf, tmp, k->len);
	k->p = k->buf;
	free(tmp);
	return 0;
}

/* The key as a string in buf, cut to cap - 1 bytes. */
static char *key_copy(const struct key *k, char *buf, size_t cap)
{
	size_t len = k->len < cap - 1 ? k->len : cap - 1;

	memcpy(buf, k->p, len);
	buf[len] = '\0';
	return buf;
}

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* Length of the run of digits at p, eight bytes at a time: samples have ten digits. */
static inline size_t digit_run(const char *p, const char *end)
{
	const char *q = p;

	for (; end - q >= 8; q += 8) {
		uint64_t w = load8(q);
		/* Per byte, without carries between bytes: a digit's high nibble is 3,
		 * and its low nibble stays below 16 when 6 is added. */
		uint64_t other = ((w & BYTES8(0xf0)) ^ BYTES8(0x30)) | (((w & BYTES8(0x0f)) + BYTES8(6)) & BYTES8(0x10));

		if (other)
			return (size_t)(q - p) + (size_t)first_nonzero_byte(other);
	}
	while (q < end && is_digit(*q))
		q++;
	return (size_t)(q - p);
}

/* Check a number's grammar without converting it: most numbers of a report are
 * statistics and samples compare does not use. */
static int skip_number(struct scan *s)
{
	const char *p = s->p;
	bool is_int = true;
	size_t n, int_digits;

	if (p < s->end && *p == '-')
		p++;
	n = digit_run(p, s->end);
	if (!n)
		return -EINVAL;
	int_digits = *p == '0' ? 1 : n; /* no leading zeros: a digit after 0 is not this number's */
	p += int_digits;
	if (p < s->end && *p == '.') {
		is_int = false;
		n = digit_run(++p, s->end);
		if (!n)
			return -EINVAL;
		p += n;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		is_int = false;
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		n = digit_run(p, s->end);
		if (!n)
			return -EINVAL;
		p += n;
	}
	/* Integers beyond 18 digits go to jansson, as in scan_number. */
	if (is_int && int_digits > 18)
		return -ERANGE;
	s->p = p;
	return 0;
}

static const double exact_pow10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* mant * 10^n + the n digits at p */
static inline uint64_t append_digits(uint64_t mant, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mant = mant * 10 + (uint64_t)(p[i] - '0');
	return mant;
}

/* A JSON number. Up to 15 significant digits and a power of ten within 1e22 the
 * value is one exact IEEE operation (so equal to strtod's); anything else goes to
 * strtod. Integers beyond 18 digits are refused so jansson can judge them. */
static int scan_number(struct scan *s, double *out)
{
	const char *p, *start;
	uint64_t mant = 0;
	size_t n, take, digits = 0, int_digits;
	int exp10 = 0;
	bool neg = false, is_int = true, exact = true;

	skip_ws(s);
	p = start = s->p;
	if (p < s->end && *p == '-') {
		neg = true;
		p++;
	}
	n = digit_run(p, s->end);
	if (!n)
		return -EINVAL;
	if (*p == '0') {
		int_digits = 1; /* no leading zeros: a digit after 0 is not this number's */
	} else {
		/* The first 19 significant digits make the mantissa; more leave it to strtod. */
		int_digits = n;
		digits = n < 19 ? n : 19;
		mant = append_digits(0, p, digits);
		exp10 += (int)(n - digits);
		exact = n == digits;
	}
	p += int_digits;
	if (p < s->end && *p == '.') {
		const char *frac = ++p;

		is_int = false;
		n = digit_run(frac, s->end);
		if (!n)
			return -EINVAL;
		p += n;
		while (mant == 0 && frac < p && *frac == '0') {
			frac++; /* leading zeros of a fraction carry no digits */
			exp10--;
		}
		take = (size_t)(p - frac) < 19 - digits ? (size_t)(p - frac) : 19 - digits;
		mant = append_digits(mant, frac, take);
		digits += take;
		exp10 -= (int)take;
		exact = exact && frac + take == p;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		int sign = 1, e = 0;

		is_int = false;
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			sign = *p++ == '-' ? -1 : 1;
		if (p >= s->end || !is_digit(*p))
			return -EINVAL;
		while (p < s->end && is_digit(*p)) {
			if (e < 100000)
				e = e * 10 + (*p - '0');
			p++;
		}
		exp10 += sign * e;
	}
	s->p = p;
	if (is_int && int_digits > 18)
		return -ERANGE;
	if (exact && digits <= 15 && exp10 >= -22 && exp10 <= 22) {
		double v = (double)mant;

		v = exp10 < 0 ? v / exact_pow10[-exp10] : v * exact_pow10[exp10];
		*out = neg ? -v : v;
		return 0;
	}
	{
		char buf[128];

		/* The text need not be NUL-terminated: strtod gets a copy of the validated number. */
		if (p - start >= (long)sizeof(buf))
			return -ERANGE;
		memcpy(buf, start, (size_t)(p - start));
		buf[p - start] = '\0';
		*out = strtod(buf, NULL);
	}
	return isfinite(*out) ? 0 : -ERANGE;
}

static bool scan_literal(struct scan *s, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(s->end - s->p) < len || memcmp(s->p, word, len))
		return false;
	s->p += len;
	return true;
}

static int skip_value(struct scan *s);

/* The next element of an array or object: 1 when there is one, 0 after the closing byte,
 * <0 on a missing ','. */
static int list_next(struct scan *s, bool *first, char close)
{
	char c = peek(s);

	if (c == close) {
		s->p++;
		return 0;
	}
	if (!*first) {
		if (c != ',')
			return -EINVAL;
		s->p++;
	}
	*first = false;
	return 1;
}

/* Walk an object: obj_next returns 1 with the next key read, 0 after '}', <0 on bad JSON. */
static int obj_next(struct scan *s, bool *first, struct key *key)
{
	int ret = list_next(s, first, '}');

	if (ret <= 0)
		return ret;
	return scan_key(s, key) ? -EINVAL : 1;
}

static int arr_next(struct scan *s, bool *first)
{
	return list_next(s, first, ']');
}

static int skip_container(struct scan *s, bool is_object)
{
	bool first = true;
	struct key key;
	int ret;

	if (++s->depth > SCAN_MAX_DEPTH)
		return -E2BIG;
	s->p++;
	for (;;) {
		ret = is_object ? obj_next(s, &first, &key) : arr_next(s, &first);
		if (ret <= 0)
			break;
		ret = skip_value(s);
		if (ret)
			break;
	}
	s->depth--;
	return ret;
}

static int skip_value(struct scan *s)
{
	const char *start;
	size_t len;
	bool escaped;

	switch (peek(s)) {
	case '"':
		return scan_string_span(s, &start, &len, &escaped) ? 0 : -EINVAL;
	case '{':
		return skip_container(s, true);
	case '[':
		return skip_container(s, false);
	case 't':
		return scan_literal(s, "true") ? 0 : -EINVAL;
	case 'f':
		return scan_literal(s, "false") ? 0 : -EINVAL;
	case 'n':
		return scan_literal(s, "null") ? 0 : -EINVAL;
	default:
		return skip_number(s);
	}
}

/* ---- the results, read straight from the text ---- */

static bool is_number_start(char c)
{
	return c == '-' || (c >= '0' && c <= '9');
}

/* Numbers of an array into sc->dbl (non-numbers are skipped, as a broken writer's). */
static int scan_number_array(struct loader *ld, struct scan *s)
{
	bool first = true;
	int ret;

	ld->sc.n_dbl = 0;
	if (peek(s) != '[')
		return skip_value(s);
	s->p++;
	while ((ret = arr_next(s, &first)) > 0) {
		double v;

		if (!is_number_start(peek(s))) {
			ret = skip_value(s);
			if (ret)
				return ret;
			continue;
		}
		ret = scan_number(s, &v);
		if (ret)
			return ret;
		if (grow((void **)&ld->sc.dbl, &ld->sc.cap_dbl, ld->sc.n_dbl + 1, sizeof(double)))
			return -ENOMEM;
		ld->sc.dbl[ld->sc.n_dbl++] = v;
	}
	return ret;
}

/* One metric: {"median": M, "values": [...]} or a bare number. Returns 1 when kept. */
static int scan_metric(struct loader *ld, struct scan *s, struct nb_cmp_samples *m)
{
	bool first = true, has_median = false;
	struct key key;
	int ret;

	m->n = 0;
	m->values = NULL;
	m->diagnostic = false;
	if (is_number_start(peek(s))) {
		ret = scan_number(s, &m->median);
		return ret ? ret : 1;
	}
	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "median") && is_number_start(peek(s))) {
			ret = scan_number(s, &m->median);
			has_median = true;
		} else if (KEY_IS(&key, "values")) {
			ret = scan_number_array(ld, s);
			if (!ret) {
				m->n = (int)ld->sc.n_dbl;
				m->values = arena_copy(ld->arena, ld->sc.dbl, sizeof(double) * ld->sc.n_dbl);
				if (m->n && !m->values)
					return -ENOMEM;
			}
		} else {
			ret = skip_value(s);
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!has_median && m->n)
		m->median = nb_stats_median(m->values, m->n);
	return has_median || m->n ? 1 : 0;
}

/* One copy of each metric name per report (a dozen names, a thousand points) keeps
 * the samples small; hint is where the name was in the last point. */
static const char *intern_name(struct loader *ld, size_t hint, const char *name)
{
	const char *copy;

	if (hint < (size_t)ld->n_names && !strcmp(ld->names[hint], name))
		return ld->names[hint];
	for (int i = 0; i < ld->n_names; i++) {
		if (!strcmp(ld->names[i], name))
			return ld->names[i];
	}
	copy = arena_strdup(ld->arena, name);
	if (copy && ld->n_names < LOADER_NAMES_MAX)
		ld->names[ld->n_names++] = copy;
	return copy;
}

static int scan_metrics(struct loader *ld, struct scan *s, struct nb_cmp_point *p)
{
	bool first = true;
	struct key key;
	char name[NB_METRIC_NAME_MAX];
	int ret;

	ld->sc.n_met = 0;
	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		struct nb_cmp_samples *m;

		if (grow((void **)&ld->sc.met, &ld->sc.cap_met, ld->sc.n_met + 1, sizeof(*ld->sc.met)))
			return -ENOMEM;
		m = &ld->sc.met[ld->sc.n_met];
		ret = scan_metric(ld, s, m);
		if (ret < 0)
			return ret;
		if (ret) {
			m->name = intern_name(ld, ld->sc.n_met, key_copy(&key, name, sizeof(name)));
			if (!m->name)
				return -ENOMEM;
			ld->sc.n_met++;
		}
	}
	if (ret)
		return ret;
	p->n_metrics = (int)ld->sc.n_met;
	p->metrics = arena_copy(ld->arena, ld->sc.met, sizeof(*p->metrics) * ld->sc.n_met);
	return p->n_metrics && !p->metrics ? -ENOMEM : 0;
}

/* A point's "diagnostics" (its extra repetition with tracepoints on): its metrics, bare numbers,
 * into diag (arena); the caller adds those the measured runs lack. Skipped unless it ran ok. */
static int scan_diagnostics(struct loader *ld, struct scan *s, struct nb_cmp_point *diag)
{
	bool first = true, ok = false;
	struct key key;
	int ret;

	memset(diag, 0, sizeof(*diag));
	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "status") && peek(s) == '"') {
			const char *status;

			ret = scan_string(ld, s, &status);
			ok = !ret && !strcmp(status, "ok");
		} else if (KEY_IS(&key, "metrics")) {
			ret = scan_metrics(ld, s, diag);
		} else {
			ret = skip_value(s);
		}
		if (ret)
			return ret;
	}
	if (!ok)
		diag->n_metrics = 0;
	return ret;
}

/* The measured metrics, then the diagnostic ones they lack, each as one value. */
static int merge_diagnostics(struct loader *ld, struct nb_cmp_point *p, const struct nb_cmp_point *diag)
{
	size_t n = (size_t)p->n_metrics;

	if (!diag->n_metrics)
		return 0;
	if (grow((void **)&ld->sc.met, &ld->sc.cap_met, n + (size_t)diag->n_metrics, sizeof(*ld->sc.met)))
		return -ENOMEM;
	if (n)
		memcpy(ld->sc.met, p->metrics, sizeof(*p->metrics) * n);
	for (int i = 0; i < diag->n_metrics; i++) {
		struct nb_cmp_samples *m = &ld->sc.met[n];
		bool measured = false;

		for (int j = 0; j < p->n_metrics && !measured; j++)
			measured = !strcmp(p->metrics[j].name, diag->metrics[i].name);
		if (measured)
			continue;
		*m = diag->metrics[i];
		m->diagnostic = true;
		m->n = 1;
		m->values = arena_copy(ld->arena, &m->median, sizeof(double));
		if (!m->values)
			return -ENOMEM;
		n++;
	}
	p->n_metrics = (int)n;
	p->metrics = arena_copy(ld->arena, ld->sc.met, sizeof(*p->metrics) * n);
	return p->metrics ? 0 : -ENOMEM;
}

/* One run: keeps throughput and CPU busy when the run is ok and has both. */
static int scan_run(struct loader *ld, struct scan *s, size_t *n_pairs)
{
	bool first = true, ok = true, has_thr = false, has_cpu = false;
	double thr = 0, cpu = 0;
	struct key key;
	int ret;

	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "status") && peek(s) == '"') {
			const char *status;

			ret = scan_string(ld, s, &status);
			ok = !ret && parse_status(status) == NB_CMP_STATUS_OK;
		} else if (KEY_IS(&key, "metrics") && peek(s) == '{') {
			bool mfirst = true;
			struct key name;

			s->p++;
			while ((ret = obj_next(s, &mfirst, &name)) > 0) {
				bool want_thr = KEY_IS(&name, "throughput_bps"), want_cpu = KEY_IS(&name, "cpu_busy_pct");

				if ((want_thr || want_cpu) && is_number_start(peek(s))) {
					ret = scan_number(s, want_thr ? &thr : &cpu);
					has_thr |= want_thr;
					has_cpu |= want_cpu;
				} else {
					ret = skip_value(s);
				}
				if (ret)
					break;
			}
		} else {
			ret = skip_value(s);
		}
		if (ret)
			return ret;
	}
	if (ret || !ok || !has_thr || !has_cpu)
		return ret;
	if (grow((void **)&ld->sc.dbl, &ld->sc.cap_dbl, *n_pairs + 1, sizeof(double)) ||
	    grow((void **)&ld->sc.dbl2, &ld->sc.cap_dbl2, *n_pairs + 1, sizeof(double)))
		return -ENOMEM;
	ld->sc.dbl[*n_pairs] = thr;
	ld->sc.dbl2[*n_pairs] = cpu;
	(*n_pairs)++;
	return 0;
}

static int scan_runs(struct loader *ld, struct scan *s, struct nb_cmp_point *p)
{
	bool first = true;
	size_t n = 0;
	int ret;

	if (peek(s) != '[')
		return skip_value(s);
	s->p++;
	while ((ret = arr_next(s, &first)) > 0) {
		ret = scan_run(ld, s, &n);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	p->n_pairs = (int)n;
	p->pair_throughput_bps = arena_copy(ld->arena, ld->sc.dbl, sizeof(double) * n);
	p->pair_cpu_busy_pct = arena_copy(ld->arena, ld->sc.dbl2, sizeof(double) * n);
	return n && (!p->pair_throughput_bps || !p->pair_cpu_busy_pct) ? -ENOMEM : 0;
}

static int scan_profile_entry(struct loader *ld, struct scan *s)
{
	bool first = true, has_share = false;
	const char *symbol = NULL;
	double share = 0;
	struct key key;
	int ret;

	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "symbol") && peek(s) == '"') {
			ret = scan_string(ld, s, &symbol);
		} else if (KEY_IS(&key, "share_pct") && is_number_start(peek(s))) {
			ret = scan_number(s, &share);
			has_share = true;
		} else {
			ret = skip_value(s);
		}
		if (ret)
			return ret;
	}
	if (ret || !symbol || !has_share)
		return ret;
	if (grow((void **)&ld->sc.prof, &ld->sc.cap_prof, ld->sc.n_prof + 1, sizeof(*ld->sc.prof)))
		return -ENOMEM;
	ld->sc.prof[ld->sc.n_prof++] = (struct nb_cmp_profile_entry){ symbol, share };
	return 0;
}

static int scan_profile(struct loader *ld, struct scan *s, struct nb_cmp_point *p)
{
	bool first = true;
	int ret;

	ld->sc.n_prof = 0;
	if (peek(s) != '[')
		return skip_value(s);
	s->p++;
	while ((ret = arr_next(s, &first)) > 0) {
		ret = scan_profile_entry(ld, s);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	p->n_profile = (int)ld->sc.n_prof;
	p->profile = arena_copy(ld->arena, ld->sc.prof, sizeof(*p->profile) * ld->sc.n_prof);
	return p->n_profile && !p->profile ? -ENOMEM : 0;
}

/* The value's text without the whitespace outside strings: equal settings give equal text. */
static const char *compact_span(struct loader *ld, const char *start, const char *end)
{
	char *d = arena_alloc(ld->arena, (size_t)(end - start) + 1), *o = d;
	bool in_string = false;

	if (!d)
		return NULL;
	for (const char *p = start; p < end; p++) {
		if (in_string) {
			if (*p == '\\' && p + 1 < end)
				*o++ = *p++;
			else if (*p == '"')
				in_string = false;
		} else if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') {
			continue;
		} else if (*p == '"') {
			in_string = true;
		}
		*o++ = *p;
	}
	*o = '\0';
	return d;
}

static int scan_test(struct loader *ld, struct scan *s, struct nb_cmp_point *p)
{
	bool first = true;
	const char *start;
	struct key key;
	int ret;

	if (peek(s) != '{')
		return skip_value(s);
	start = s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "name") && peek(s) == '"')
			ret = scan_string(ld, s, &p->test_name);
		else if (KEY_IS(&key, "direction") && peek(s) == '"')
			ret = scan_string(ld, s, &p->direction);
		else
			ret = skip_value(s);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	p->test_json = compact_span(ld, start, s->p);
	return p->test_json ? 0 : -ENOMEM;
}

/* Append " KEY=VAL" (no space first) to the text of length used in buf[cap] like
 * snprintf(buf + used, cap - used, "%s%s=%s", ...) and return the new length:
 * unchanged, after a cut copy, when the whole does not fit. */
static size_t append_knob(char *buf, size_t cap, size_t used, const char *key, const char *val)
{
	const char *parts[] = { used ? " " : "", key, "=", val };
	size_t room = cap - used, n = 0;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		size_t len = strlen(parts[i]);

		if (n < room - 1)
			memcpy(buf + used + n, parts[i], len < room - 1 - n ? len : room - 1 - n);
		n += len;
	}
	buf[used + (n < room - 1 ? n : room - 1)] = '\0';
	return n < room ? used + n : used;
}

/* "threaded=1 gro_flush_timeout=20000" in the report's key order; for display only. */
static int scan_knobs(struct loader *ld, struct scan *s, struct nb_cmp_point *p)
{
	char buf[512], name[KEY_MAX];
	struct key key;
	size_t used = 0;
	bool first = true;
	int ret;

	if (peek(s) != '{')
		return skip_value(s);
	s->p++;
	buf[0] = '\0';
	while ((ret = obj_next(s, &first, &key)) > 0) {
		const char *val = NULL, *start;
		char num[32];

		if (peek(s) == '"') {
			ret = scan_string(ld, s, &val);
		} else {
			start = s->p;
			ret = skip_value(s);
			snprintf(num, sizeof(num), "%.*s", (int)(s->p - start), start);
			val = num;
		}
		if (ret)
			return ret;
		used = append_knob(buf, sizeof(buf), used, key_copy(&key, name, sizeof(name)), val);
	}
	if (ret)
		return ret;
	p->knobs = arena_strdup(ld->arena, buf);
	return p->knobs ? 0 : -ENOMEM;
}

static int scan_result(struct loader *ld, struct scan *s, size_t index, struct nb_cmp_point *p)
{
	struct nb_cmp_point diag = { 0 };
	bool first = true;
	struct key key;
	int ret;

	memset(p, 0, sizeof(*p));
	p->test_name = p->direction = p->knobs = "";
	if (peek(s) != '{') {
		ret = skip_value(s);
		goto no_id;
	}
	s->p++;
	while ((ret = obj_next(s, &first, &key)) > 0) {
		if (KEY_IS(&key, "id") && peek(s) == '"') {
			ret = scan_string(ld, s, &p->id);
		} else if (KEY_IS(&key, "status") && peek(s) == '"') {
			const char *status;

			ret = scan_string(ld, s, &status);
			p->incomplete = !ret && !strcmp(status, "incomplete");
			if (!ret)
				p->status = p->incomplete ? NB_CMP_STATUS_OK : parse_status(status);
		} else if (KEY_IS(&key, "error") && peek(s) == '"') {
			ret = scan_string(ld, s, &p->error);
		} else if (KEY_IS(&key, "test")) {
			ret = scan_test(ld, s, p);
		} else if (KEY_IS(&key, "knobs")) {
			ret = scan_knobs(ld, s, p);
		} else if (KEY_IS(&key, "metrics")) {
			ret = scan_metrics(ld, s, p);
		} else if (KEY_IS(&key, "runs")) {
			ret = scan_runs(ld, s, p);
		} else if (KEY_IS(&key, "profile")) {
			ret = scan_profile(ld, s, p);
		} else if (KEY_IS(&key, "diagnostics")) {
			ret = scan_diagnostics(ld, s, &diag);
		} else {
			ret = skip_value(s);
		}
		if (ret)
			return ret;
	}
no_id:
	if (!ret)
		ret = merge_diagnostics(ld, p, &diag);
	if (ret)
		return ret;
	if ((!p->id || !*p->id) && !ld->first_error)
		ld->first_error = nb_err_set(ld->err, -EINVAL, "load report %s: results[%zu] has no \"id\"", ld->label,
					     index);
	return 0;
}

static int scan_results(struct loader *ld, struct scan *s)
{
	bool first = true;
	size_t index = 0;
	int ret;

	ld->sc.n_pts = 0;
	if (peek(s) != '[')
		return skip_value(s);
	s->p++;
	while ((ret = arr_next(s, &first)) > 0) {
		if (grow((void **)&ld->sc.pts, &ld->sc.cap_pts, ld->sc.n_pts + 1, sizeof(*ld->sc.pts)))
			return -ENOMEM;
		ret = scan_result(ld, s, index++, &ld->sc.pts[ld->sc.n_pts]);
		if (ret)
			return ret;
		if (ld->sc.pts[ld->sc.n_pts].id)
			ld->sc.n_pts++;
	}
	return ret;
}

/* Everything but "results" is small: it is re-assembled into one object for jansson. */
struct meta {
	char *text;
	size_t len, cap;
};

static int meta_append(struct meta *m, const char *start, size_t len)
{
	if (grow((void **)&m->text, &m->cap, m->len + len + 2, 1))
		return -ENOMEM;
	memcpy(m->text + m->len, start, len);
	m->len += len;
	return 0;
}

static int scan_root(struct loader *ld, struct scan *s, struct meta *meta, bool *has_results)
{
	bool first = true;
	int ret;

	if (!scan_char(s, '{') || meta_append(meta, "{", 1))
		return -EINVAL;
	for (;;) {
		const char *key_start, *value_start;
		struct key key;

		skip_ws(s);
		key_start = s->p;
		ret = obj_next(s, &first, &key);
		if (ret <= 0)
			break;
		if (KEY_IS(&key, "results")) {
			if (*has_results)
				return -EINVAL; /* twice: leave the meaning of that to jansson */
			*has_results = true;
			ret = scan_results(ld, s);
			if (ret)
				return ret;
			continue;
		}
		if (*key_start == ',')
			key_start++;
		skip_ws(s);
		value_start = s->p;
		ret = skip_value(s);
		if (ret)
			return ret;
		if ((meta->len > 1 && meta_append(meta, ",", 1)) ||
		    meta_append(meta, key_start, (size_t)(value_start - key_start)) ||
		    meta_append(meta, value_start, (size_t)(s->p - value_start)))
			return -ENOMEM;
	}
	if (ret)
		return ret;
	skip_ws(s);
	if (s->p != s->end)
		return -EINVAL; /* trailing text */
	return meta_append(meta, "}", 1);
}

/* The scanner refused the text: let jansson say where and why. */
static int explain_bad_json(struct loader *ld, const char *text, size_t len, int scan_ret)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	bool is_object = json_is_object(root);

	json_decref(root);
	if (scan_ret == -ENOMEM)
		return oom(ld);
	if (!root)
		return nb_err_set(ld->err, -EINVAL, "load report %s: not valid JSON (line %d, column %d: %s)", ld->label,
				  jerr.line, jerr.column, jerr.text);
	if (!is_object)
		return nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (top level is not an object)",
				  ld->label);
	return nb_err_set(ld->err, -EINVAL,
			  "load report %s: unsupported JSON (nesting deeper than %d, a huge integer, or \"results\" twice)",
			  ld->label, SCAN_MAX_DEPTH);
}

static int load_meta(struct loader *ld, const struct meta *meta, bool has_results, struct nb_cmp_report *r)
{
	json_error_t jerr;
	json_t *root = json_loadb(meta->text, meta->len, 0, &jerr);
	json_t *schema = json_object_get(root, "schema");
	json_t *host = json_object_get(root, "host");
	int ret;

	if (!root)
		return nb_err_set(ld->err, -EINVAL, "load report %s: not valid JSON (%s)", ld->label, jerr.text);
	if (!json_is_string(schema))
		ret = nb_err_set(ld->err, -EINVAL, "load report %s: not a nicbench report (no \"schema\" key)", ld->label);
	else if (strcmp(json_string_value(schema), NB_CMP_REPORT_SCHEMA))
		ret = nb_err_set(ld->err, -EPROTO, "load report %s: schema \"%s\" is not supported (expected \"%s\")",
				 ld->label, json_string_value(schema), NB_CMP_REPORT_SCHEMA);
	else if (!has_results || (ld->sc.n_pts == 0 && !ld->first_error))
		ret = nb_err_set(ld->err, -ENODATA, "load report %s: the report has no results", ld->label);
	else
		ret = ld->first_error;
	if (!ret) {
		r->kernel_release =
			arena_strdup(ld->arena, json_str_or(json_object_get(host, "kernel"), "release", ""));
		r->created = arena_strdup(ld->arena, json_str_or(root, "created", ""));
		r->cpus = (int)json_integer_value(json_object_get(host, "cpus"));
		ret = r->kernel_release && r->created ? load_env(ld, root, r) : oom(ld);
	}
	json_decref(root);
	return ret;
}

int nb_cmp_report_parse(const char *text, size_t len, const char *label, struct nb_cmp_report *out,
			struct nb_err *err)
{
	struct loader ld = { .err = err, .label = label };
	struct scan s = { .p = text, .end = text + len };
	struct meta meta = { 0 };
	bool has_results = false;
	int ret;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return nb_err_set(err, -EINVAL, "load report %s: the file is empty", label);
	ld.arena = calloc(1, sizeof(*ld.arena));
	if (!ld.arena)
		return oom(&ld);
	out->arena = ld.arena;
	out->path = arena_strdup(ld.arena, label);
	ret = out->path ? scan_root(&ld, &s, &meta, &has_results) : -ENOMEM;
	if (ret)
		ret = explain_bad_json(&ld, text, len, ret);
	else
		ret = load_meta(&ld, &meta, has_results, out);
	if (!ret) {
		out->n_points = (int)ld.sc.n_pts;
		out->points = arena_copy(ld.arena, ld.sc.pts, sizeof(*out->points) * ld.sc.n_pts);
		if (!out->points)
			ret = oom(&ld);
	}
	free(meta.text);
	scratch_free(&ld.sc);
	if (ret)
		nb_cmp_report_free(out);
	return ret;
}

/* A report's bytes: mapped when it is a regular file (no copy of megabytes), read
 * otherwise (a pipe, /dev/stdin). */
struct file_text {
	const char *text;
	size_t len;
	bool mapped;
};

static int read_stream(int fd, struct file_text *ft)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap);

	for (;;) {
		ssize_t got;

		if (!buf)
			return -ENOMEM;
		got = read(fd, buf + used, cap - used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		if (got == 0)
			break;
		used += (size_t)got;
		if (used == cap) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	ft->text = buf;
	ft->len = used;
	ft->mapped = false;
	return 0;
}

static int read_report_file(const char *path, struct file_text *ft, struct nb_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int ret = 0;

	memset(ft, 0, sizeof(*ft));
	if (fd < 0)
		return nb_err_set(err, -errno, "load report %s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
	} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);

		if (map != MAP_FAILED) {
			ft->text = map;
			ft->len = (size_t)st.st_size;
			ft->mapped = true;
		} else {
			ret = read_stream(fd, ft);
		}
	} else {
		ret = read_stream(fd, ft);
	}
	close(fd);
	if (ret)
		return nb_err_set(err, ret, "load report %s: %s", path, strerror(-ret));
	return 0;
}

static void file_text_free(struct file_text *ft)
{
	if (ft->mapped)
		munmap((void *)ft->text, ft->len);
	else
		free((void *)ft->text);
	memset(ft, 0, sizeof(*ft));
}

int nb_cmp_report_load(const char *path, struct nb_cmp_report *out, struct nb_err *err)
{
	struct file_text ft;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_report_file(path, &ft, err);
	if (ret)
		return ret;
	ret = nb_cmp_report_parse(ft.text, ft.len, path, out, err);
	file_text_free(&ft);
	return ret;
}

struct load_job {
	const char *path;
	struct nb_cmp_report *report;
	struct nb_err err;
	int ret;
};

static void *load_job_run(void *arg)
{
	struct load_job *job = arg;

	job->ret = nb_cmp_report_load(job->path, job->report, &job->err);
	return NULL;
}

int nb_cmp_reports_load(const char *base_path, const char *new_path, struct nb_cmp_report *base,
			struct nb_cmp_report *new, struct nb_err *err)
{
	struct load_job jobs[2] = { { .path = base_path, .report = base }, { .path = new_path, .report = new } };
	pthread_t thread;
	bool threaded;

	/* jansson seeds its hash function on first use; do that before two threads race to. */
	json_object_seed(0);
	threaded = pthread_create(&thread, NULL, load_job_run, &jobs[0]) == 0;
	if (!threaded)
		load_job_run(&jobs[0]);
	load_job_run(&jobs[1]);
	if (threaded)
		pthread_join(thread, NULL);
	for (int i = 0; i < 2; i++) {
		if (!jobs[i].ret)
			continue;
		if (err)
			*err = jobs[i].err;
		nb_cmp_report_free(base);
		nb_cmp_report_free(new);
		return jobs[i].ret;
	}
	return 0;
}

void nb_cmp_report_free(struct nb_cmp_report *r)
{
	if (!r)
		return;
	arena_free(r->arena);
	memset(r, 0, sizeof(*r));
}

const struct nb_cmp_samples *nb_cmp_point_metric(const struct nb_cmp_point *p, const char *name)
{
	for (int i = 0; i < p->n_metrics; i++) {
		/* Renderers ask for one metric per point: skip the call for most names. */
		if (p->metrics[i].name[0] == name[0] && !strcmp(p->metrics[i].name, name))
			return &p->metrics[i];
	}
	return NULL;
}
