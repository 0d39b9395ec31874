// SPDX-License-Identifier: MIT
/* The format table of `report --format` and `compare --format`: a row per format, with the
 * function each command calls; --help's list and the unknown-format error come from it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render/render.h"
#include "render/run_table.h"

static int report_text(FILE *out, const struct nb_render_job *job)
{
	return nb_rv_render_text(out, &job->in);
}

/* compare's text and Markdown end with the points whose bottleneck moved */
static int compare_text(FILE *out, const struct nb_render_job *job)
{
	if (nb_cmp_render_text(out, job->in.cmp, &job->text))
		return -EIO;
	nb_rv_render_moved(out, job->in.cmp, false);
	return ferror(out) ? -EIO : 0;
}

static int compare_json(FILE *out, const struct nb_render_job *job)
{
	return nb_cmp_render_json(out, job->in.cmp);
}

static int compare_junit(FILE *out, const struct nb_render_job *job)
{
	return nb_cmp_render_junit(out, job->in.cmp);
}

/* the table `run` prints after a sweep, read again from the report it wrote */
static int report_table(FILE *out, const struct nb_render_job *job)
{
	struct nb_err err = { 0 };
	int ret = nb_render_run_table(out, job->in.rep->path, &err);

	if (ret)
		fprintf(stderr, "nicbench report: %s\n", err.msg);
	return ret;
}

static int report_markdown(FILE *out, const struct nb_render_job *job)
{
	return nb_rv_render_markdown(out, &job->in);
}

static int compare_markdown(FILE *out, const struct nb_render_job *job)
{
	if (nb_cmp_render_markdown(out, job->in.cmp))
		return -EIO;
	nb_rv_render_moved(out, job->in.cmp, true);
	return ferror(out) ? -EIO : 0;
}

/* one page for both: the report's sections, and the compare section when there is a compare */
static int any_html(FILE *out, const struct nb_render_job *job)
{
	return nb_rv_render_html(out, &job->in);
}

/* report --base gives KCIDB the compare's PASS/FAIL; a report alone its numbers */
static int report_kcidb(FILE *out, const struct nb_render_job *job)
{
	return job->in.cmp ? nb_kcidb_render_compare(out, job->in.cmp, &job->kcidb)
			   : nb_kcidb_render_report(out, job->in.rep, &job->kcidb);
}

static int compare_kcidb(FILE *out, const struct nb_render_job *job)
{
	return nb_kcidb_render_compare(out, job->in.cmp, &job->kcidb);
}

static const struct nb_render_format formats[] = {
	{ "text", "(default)", report_text, compare_text, false },
	{ "json", NULL, NULL, compare_json, false },
	{ "junit", NULL, NULL, compare_junit, false },
	{ "markdown", NULL, report_markdown, compare_markdown, false },
	{ "html", "(one self-contained page: inline SVG and CSS, nothing fetched)", any_html, any_html, true },
	{ "kcidb", "(KCIDB I/O v5.3 JSON)", report_kcidb, compare_kcidb, false },
	{ "table", "(the table run prints after a sweep)", report_table, NULL, false },
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

static nb_render_fn fn_of(const struct nb_render_format *f, enum nb_render_command cmd)
{
	return cmd == NB_RENDER_REPORT ? f->report : f->compare;
}

const struct nb_render_format *nb_render_format_find(enum nb_render_command cmd, const char *name)
{
	for (size_t i = 0; i < N_FORMATS; i++) {
		if (!strcmp(formats[i].name, name) && fn_of(&formats[i], cmd))
			return &formats[i];
	}
	return NULL;
}

const struct nb_render_format *nb_render_format_default(void)
{
	return &formats[0];
}

const char *nb_render_format_names(enum nb_render_command cmd, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_FORMATS && n < len; i++) {
		if (fn_of(&formats[i], cmd))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", formats[i].name);
	}
	return buf;
}

int nb_render_format_parse(enum nb_render_command cmd, const char *text, const char *hint,
			   const struct nb_render_format **f, struct nb_err *err)
{
	char names[128];

	*f = nb_render_format_find(cmd, text);
	if (*f)
		return 0;
	return nb_err_set(err, -EINVAL, "--format '%s': unknown format (%s)%s", text,
			  nb_render_format_names(cmd, names, sizeof(names)), hint);
}

/* One word of the list, wrapped: a line holds as many words as fit in width. */
static void put_word(FILE *out, const char *word, size_t wlen, int indent, int width, int *col)
{
	if (*col > indent && *col + 1 + (int)wlen > width) {
		fprintf(out, "\n%*s", indent, "");
		*col = indent;
	} else if (*col > indent) {
		fputc(' ', out);
		(*col)++;
	}
	fwrite(word, 1, wlen, out);
	*col += (int)wlen;
}

static void put_words(FILE *out, const char *s, int indent, int width, int *col)
{
	while (*s) {
		size_t n = strcspn(s, " ");

		put_word(out, s, n, indent, width, col);
		s += n;
		s += strspn(s, " ");
	}
}

void nb_render_format_help(FILE *out, enum nb_render_command cmd, int indent, int width)
{
	int col = indent, n = 0, k = 0;

	for (size_t i = 0; i < N_FORMATS; i++)
		n += fn_of(&formats[i], cmd) != NULL;
	for (size_t i = 0; i < N_FORMATS; i++) {
		char word[64];

		if (!fn_of(&formats[i], cmd))
			continue;
		k++;
		/* "text (default), json, ..., html (...) or kcidb (...)" */
		snprintf(word, sizeof(word), "%s%s", k == n && n > 1 ? "or " : "", formats[i].name);
		if (!formats[i].note && k < n - 1)
			strcat(word, ",");
		put_words(out, word, indent, width, &col);
		if (formats[i].note) {
			char note[128];

			snprintf(note, sizeof(note), "%s%s", formats[i].note, k < n - 1 ? "," : "");
			put_words(out, note, indent, width, &col);
		}
	}
	fputc('\n', out);
}

int nb_render(FILE *out, const struct nb_render_format *f, enum nb_render_command cmd, const struct nb_render_job *job)
{
	nb_render_fn fn = fn_of(f, cmd);

	return fn ? fn(out, job) : -EINVAL;
}
