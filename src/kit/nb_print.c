// SPDX-License-Identifier: MIT
/* The printer of nb_print.h: an output buffer, a plain back end and a JSON writer over it. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/nb_print.h"

/* Written out past this: a small buffer is reused instead of fresh pages. */
#define DRAIN_AT (1 << 16)

void nb_print_init(struct nb_print *p, FILE *file, enum nb_print_style style)
{
	memset(p, 0, sizeof(*p));
	p->file = file;
	p->style = style;
}

/* ---- the buffer ----
 * Output is built in memory and written in 64 KiB pieces: a compare of a thousand points is
 * ~15000 metric rows, and stdio's per-call locking was much of its time. */

static void fail(struct nb_print *p, int code)
{
	if (!p->failed)
		p->fail_code = code;
	p->failed = true;
}

static void grow(struct nb_print *p, size_t more) __attribute__((noinline));

static void grow(struct nb_print *p, size_t more)
{
	size_t cap = p->cap ? p->cap : 4096;
	char *bigger;

	if (p->failed)
		return;
	while (cap < p->len + more + 1)
		cap *= 2;
	bigger = realloc(p->p, cap);
	if (!bigger) {
		fail(p, -ENOMEM);
		return;
	}
	p->p = bigger;
	p->cap = cap;
}

/* Room for more bytes and a NUL; the check is inline, growing is not. */
static inline void reserve(struct nb_print *p, size_t more)
{
	if (p->len + more + 1 > p->cap)
		grow(p, more);
}

void nb_print_put(struct nb_print *p, const char *s, size_t len)
{
	reserve(p, len);
	if (p->failed)
		return;
	memcpy(p->p + p->len, s, len);
	p->len += len;
	p->p[p->len] = '\0';
}

void nb_print_puts(struct nb_print *p, const char *s)
{
	nb_print_put(p, s, strlen(s));
}

void nb_print_putc(struct nb_print *p, char c)
{
	nb_print_put(p, &c, 1);
}

static void vfmt(struct nb_print *p, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void vfmt(struct nb_print *p, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	reserve(p, 256);
	if (p->failed)
		return;
	va_copy(again, ap);
	n = vsnprintf(p->p + p->len, p->cap - p->len, fmt, ap);
	if (n >= 0 && (size_t)n >= p->cap - p->len) {
		reserve(p, (size_t)n);
		if (!p->failed)
			vsnprintf(p->p + p->len, p->cap - p->len, fmt, again);
	}
	va_end(again);
	if (n >= 0 && !p->failed)
		p->len += (size_t)n;
}

void nb_print_fmt(struct nb_print *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfmt(p, fmt, ap);
	va_end(ap);
}

void nb_print_plain(struct nb_print *p, const char *fmt, ...)
{
	va_list ap;

	if (nb_print_is_json(p))
		return;
	va_start(ap, fmt);
	vfmt(p, fmt, ap);
	va_end(ap);
}

void nb_print_pad(struct nb_print *p, const char *s, int width)
{
	static const char spaces[] = "                                ";
	size_t len = strlen(s), w = (size_t)(width < 0 ? -(long)width : width);
	size_t pad = len < w ? w - len : 0;

	if (width < 0)
		nb_print_put(p, s, len);
	while (pad) {
		size_t n = pad < sizeof(spaces) - 1 ? pad : sizeof(spaces) - 1;

		nb_print_put(p, spaces, n);
		pad -= n;
	}
	if (width >= 0)
		nb_print_put(p, s, len);
}

void nb_print_drain(struct nb_print *p)
{
	if (!p->file || p->len < DRAIN_AT || p->failed)
		return;
	if (!p->write_err && fwrite(p->p, 1, p->len, p->file) != p->len)
		p->write_err = -EIO;
	p->len = 0;
}

void nb_print_release(struct nb_print *p)
{
	free(p->p);
	p->p = NULL;
	p->len = p->cap = 0;
}

int nb_print_finish(struct nb_print *p)
{
	int ret = p->failed ? p->fail_code : p->write_err;

	if (!ret && p->file && p->len && fwrite(p->p, 1, p->len, p->file) != p->len)
		ret = -EIO;
	if (!ret && p->file && (fflush(p->file) || ferror(p->file)))
		ret = -EIO;
	nb_print_release(p);
	return ret;
}

/* ---- plain back end ---- */

/* The caller's format takes the one value it is given: see nb_print.h. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define PLAIN(p, to, fmt, v)                                               \
	do {                                                               \
		if (((to) & NB_PRINT_FP) && (fmt) && !nb_print_is_json(p)) \
			nb_print_fmt(p, fmt, v);                           \
	} while (0)

/* ---- JSON back end ---- */

size_t nb_utf8_seq_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1) or past U+10FFFF */
	/* The second byte's range shuts out overlong forms, UTF-16 surrogates and > U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	}
	return n;
}

/* s as a JSON string: quotes, backslashes and control characters escaped, each byte that is not
 * part of valid UTF-8 replaced by U+FFFD. Plain runs are copied whole. */
static void json_quote(struct nb_print *p, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	const char *run = s;

	nb_print_putc(p, '"');
	while (*u) {
		size_t n;

		if (*u >= 0x20 && *u < 0x80 && *u != '"' && *u != '\\') { /* most bytes: no call */
			u++;
			continue;
		}
		n = *u >= 0x80 ? nb_utf8_seq_len(u) : 0;
		if (n) {
			u += n;
			continue;
		}
		nb_print_put(p, run, (size_t)((const char *)u - run));
		if (*u == '"' || *u == '\\')
			nb_print_fmt(p, "\\%c", *u);
		else if (*u < 0x20)
			nb_print_fmt(p, "\\u%04x", *u);
		else
			nb_print_lit(p, "\\ufffd");
		u++;
		run = (const char *)u;
	}
	nb_print_puts(p, run);
	nb_print_putc(p, '"');
}

static void indent(struct nb_print *p, int depth)
{
	nb_print_putc(p, '\n');
	for (int i = 0; i < depth; i++)
		nb_print_lit(p, "  ");
}

/* Whatever goes before a value: the comma after its sibling, the line break, the key. */
static void json_member(struct nb_print *p, const char *key)
{
	if (p->depth > 0) {
		struct nb_print_level *l = &p->level[p->depth - 1];

		if (!l->empty)
			nb_print_putc(p, ',');
		if (p->style == NB_PRINT_JSON_PRETTY)
			indent(p, p->depth);
		else if (l->lines)
			nb_print_putc(p, '\n');
		l->empty = false;
		if (l->array)
			key = NULL;
	}
	if (key) {
		json_quote(p, key);
		if (p->style == NB_PRINT_JSON_PRETTY)
			nb_print_lit(p, ": ");
		else
			nb_print_putc(p, ':');
	}
}

static void json_open(struct nb_print *p, const char *key, bool array, bool lines)
{
	if (!nb_print_is_json(p))
		return;
	json_member(p, key);
	nb_print_putc(p, array ? '[' : '{');
	if (p->depth >= NB_PRINT_MAX_DEPTH) {
		fail(p, -EINVAL);
		return;
	}
	p->level[p->depth].array = array;
	p->level[p->depth].empty = true;
	p->level[p->depth].lines = lines;
	p->depth++;
}

static void json_close(struct nb_print *p, char bracket)
{
	bool empty, lines;

	if (!nb_print_is_json(p))
		return;
	if (p->depth <= 0) {
		fail(p, -EINVAL);
		return;
	}
	p->depth--;
	empty = p->level[p->depth].empty;
	lines = p->level[p->depth].lines;
	if (p->style == NB_PRINT_JSON_PRETTY && !empty)
		indent(p, p->depth);
	else if (lines && p->style != NB_PRINT_JSON_PRETTY)
		nb_print_putc(p, '\n');
	nb_print_putc(p, bracket);
	if (p->depth == 0)
		nb_print_putc(p, '\n'); /* a document ends its line */
}

void nb_print_open_object(struct nb_print *p, const char *key)
{
	json_open(p, key, false, false);
}

void nb_print_close_object(struct nb_print *p)
{
	json_close(p, '}');
}

void nb_print_open_array(struct nb_print *p, const char *key)
{
	json_open(p, key, true, false);
}

void nb_print_open_array_lines(struct nb_print *p, const char *key)
{
	json_open(p, key, true, true);
}

void nb_print_close_array(struct nb_print *p)
{
	json_close(p, ']');
}

/* A finite number with 10 significant digits, like "%.10g" but without its exponent form for
 * large integers (counts, whole bits per second keep their digits); magnitudes outside
 * 1e-4..1e15 take "%.10g" as they are. */
static void json_number(struct nb_print *p, double v)
{
	double a = fabs(v);
	char tmp[64];
	int n, decimals;

	if (a == 0) {
		nb_print_putc(p, '0');
		return;
	}
	if (!(a >= 1e-4 && a < 1e15)) {
		nb_print_fmt(p, "%.10g", v);
		return;
	}
	decimals = a == floor(a) ? 0 : 9 - (int)floor(log10(a));
	n = snprintf(tmp, sizeof(tmp), "%.*f", decimals < 0 ? 0 : decimals, v);
	if (decimals > 0) { /* the fraction's trailing zeros, and its point when nothing is left */
		while (tmp[n - 1] == '0')
			n--;
		if (tmp[n - 1] == '.')
			n--;
	}
	nb_print_put(p, tmp, (size_t)n);
}

void nb_print_string(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, const char *s)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		json_quote(p, s);
	}
	PLAIN(p, to, fmt, s);
}

void nb_print_uint(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, unsigned long long v)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		nb_print_fmt(p, "%llu", v);
	}
	PLAIN(p, to, fmt, v);
}

void nb_print_int(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, long long v)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		nb_print_fmt(p, "%lld", v);
	}
	PLAIN(p, to, fmt, v);
}

void nb_print_double(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, double v)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		if (isfinite(v))
			json_number(p, v);
		else
			nb_print_lit(p, "null");
	}
	PLAIN(p, to, fmt, v);
}

void nb_print_bool(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, bool v)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		nb_print_puts(p, v ? "true" : "false");
	}
	PLAIN(p, to, fmt, v ? "true" : "false");
}

void nb_print_null(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, const char *text)
{
	if ((to & NB_PRINT_JSON) && nb_print_is_json(p)) {
		json_member(p, key);
		nb_print_lit(p, "null");
	}
	PLAIN(p, to, fmt, text);
}
#pragma GCC diagnostic pop

void nb_print_json_text(struct nb_print *p, const char *key, const char *json)
{
	if (!nb_print_is_json(p))
		return;
	json_member(p, key);
	nb_print_puts(p, json);
}

void nb_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
