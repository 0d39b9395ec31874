// SPDX-License-Identifier: MIT
/* One printer for every rendered output: a buffered plain printer and, behind the same calls, a
 * JSON writer (iproute2's json_print is the model). A caller says once per figure what it is
 * (print_uint(ANY, "pid", "%-8u ", pid)); the JSON back end writes "pid":123, the plain one the
 * format. Strings are escaped and made valid UTF-8 here, numbers that are not finite become null,
 * so the JSON stays valid whatever the input held. The plain formats take the one value given
 * ("%-8u ", "%s\n"); like iproute2's they are not checked by the compiler. */
#ifndef NB_PRINT_H
#define NB_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Which back end a call is meant for (iproute2's PRINT_JSON, PRINT_FP, PRINT_ANY). */
enum nb_print_to {
	NB_PRINT_JSON = 1,  /* the JSON back end only */
	NB_PRINT_FP = 2,    /* the plain back end only */
	NB_PRINT_ANY = 3,   /* both: the key goes to JSON, the format to plain */
};

enum nb_print_style {
	NB_PRINT_PLAIN,        /* text: formats only, every JSON-only call is dropped */
	NB_PRINT_JSON_COMPACT, /* JSON without whitespace (except nb_print_open_array_lines) */
	NB_PRINT_JSON_PRETTY,  /* JSON indented by two spaces, "key": value */
};

#define NB_PRINT_MAX_DEPTH 32

struct nb_print {
	char *p;                 /* the pending output */
	size_t len, cap;
	bool failed;             /* nothing more is written: fail_code says why */
	int fail_code;           /* -ENOMEM, or -EINVAL for nesting past NB_PRINT_MAX_DEPTH or a close too many */
	FILE *file;              /* where nb_print_drain and nb_print_finish write; NULL: kept whole */
	int write_err;           /* -EIO once a write failed */
	enum nb_print_style style;
	int depth;
	struct nb_print_level {
		bool array;
		bool empty;      /* no member written yet: no comma before the next one */
		bool lines;      /* each member on its own line (compact style) */
	} level[NB_PRINT_MAX_DEPTH];
};

/* Start a printer writing to file (NULL: into memory, read p/len, free with nb_print_release). */
void nb_print_init(struct nb_print *p, FILE *file, enum nb_print_style style);
static inline bool nb_print_is_json(const struct nb_print *p)
{
	return p->style != NB_PRINT_PLAIN;
}
/* Write what has piled up once it is large (call between records: keeps the buffer small). */
void nb_print_drain(struct nb_print *p);
/* Write the rest and release the buffer: 0, -ENOMEM, -EINVAL (nesting) or -EIO. */
int nb_print_finish(struct nb_print *p);
void nb_print_release(struct nb_print *p);

/* ---- plain output: bytes as they are (in a JSON document only whitespace belongs here) ---- */
void nb_print_put(struct nb_print *p, const char *s, size_t len);
void nb_print_puts(struct nb_print *p, const char *s);
void nb_print_putc(struct nb_print *p, char c);
void nb_print_fmt(struct nb_print *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* printf to the plain back end only; nothing in JSON. */
void nb_print_plain(struct nb_print *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s padded with spaces to |width| like "%*s": on the left, or on the right when width < 0. */
void nb_print_pad(struct nb_print *p, const char *s, int width);
/* A literal: its length is known when compiling. */
#define nb_print_lit(p, s) nb_print_put(p, s, sizeof(s) - 1)

/* ---- structure: JSON only; key is NULL inside an array and at the top ---- */
void nb_print_open_object(struct nb_print *p, const char *key);
void nb_print_close_object(struct nb_print *p);
void nb_print_open_array(struct nb_print *p, const char *key);
/* An array whose members each start a line, even in the compact style (long lists stay diffable). */
void nb_print_open_array_lines(struct nb_print *p, const char *key);
void nb_print_close_array(struct nb_print *p);

/* ---- values: to JSON under key, and/or to plain text through fmt (NULL: nothing) ---- */
void nb_print_string(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, const char *s);
void nb_print_uint(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, unsigned long long v);
void nb_print_int(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, long long v);
/* JSON: 10 significant digits, whole numbers below 1e15 with all their digits; null unless finite. */
void nb_print_double(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, double v);
/* plain: fmt takes "true" or "false" as a string (%s). */
void nb_print_bool(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, bool v);
/* JSON null; plain prints fmt with text (say "-"). */
void nb_print_null(struct nb_print *p, enum nb_print_to to, const char *key, const char *fmt, const char *text);
/* JSON only: a value that is JSON text already (made by jansson), embedded as it is. */
void nb_print_json_text(struct nb_print *p, const char *key, const char *json);

/* Append a formatted piece to the NUL-terminated text in buf (a sentence being built); a full
 * buffer keeps what fits. */
void nb_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Bytes of the valid UTF-8 sequence at s (1..4), or 0 when s starts an invalid one. s[0] != 0. */
size_t nb_utf8_seq_len(const unsigned char *s);

#endif
