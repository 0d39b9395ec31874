// SPDX-License-Identifier: MIT
/* Differential flame graph: folded stacks of two sides into one tree, laid out as SVG. */
#include "render/flamegraph.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_H 16
#define FONT_PX 11
#define CHAR_PX 6.6 /* average width of an 11 px sans-serif glyph, to decide what fits */
#define SATURATE_PTS 5.0
#define TOP_PAD 40
#define BOTTOM_PAD 24

struct flame_node {
	char *name;
	uint64_t n_new, n_base; /* inclusive samples */
	int n_kids, cap_kids;
	struct flame_node **kids;
};

struct flame {
	struct flame_node root;
	bool single;        /* one side: no base to colour against */
	uint64_t total_new, total_base;
	int depth;          /* deepest stack */
	uint64_t hidden;    /* frames too narrow to draw */
	double width, min_px;
};

static struct flame_node *node_child(struct flame_node *n, const char *name, size_t len)
{
	struct flame_node *k;

	for (int i = 0; i < n->n_kids; i++) {
		if (strlen(n->kids[i]->name) == len && !memcmp(n->kids[i]->name, name, len))
			return n->kids[i];
	}
	if (n->n_kids == n->cap_kids) {
		int cap = n->cap_kids ? n->cap_kids * 2 : 4;
		struct flame_node **kids = realloc(n->kids, (size_t)cap * sizeof(*kids));

		if (!kids)
			return NULL;
		n->kids = kids;
		n->cap_kids = cap;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->name = strndup(name, len))) {
		free(k);
		return NULL;
	}
	n->kids[n->n_kids++] = k;
	return k;
}

static int flame_add(struct flame *fl, const struct nb_folded *set, bool is_new)
{
	for (int i = 0; i < set->n; i++) {
		struct flame_node *n = &fl->root;
		const char *p = set->v[i].stack;
		uint64_t c = set->v[i].count;
		int depth = 0;

		for (;;) {
			size_t len = strcspn(p, ";");

			n = node_child(n, p, len);
			if (!n)
				return -ENOMEM;
			if (is_new)
				n->n_new += c;
			else
				n->n_base += c;
			depth++;
			if (!p[len])
				break;
			p += len + 1;
		}
		if (is_new && depth > fl->depth)
			fl->depth = depth;
	}
	return 0;
}

static void node_free(struct flame_node *n)
{
	for (int i = 0; i < n->n_kids; i++) {
		node_free(n->kids[i]);
		free(n->kids[i]);
	}
	free(n->kids);
	free(n->name);
}

static int kid_cmp(const void *a, const void *b)
{
	const struct flame_node *x = *(const struct flame_node *const *)a, *y = *(const struct flame_node *const *)b;

	return strcmp(x->name, y->name);
}

static void put_esc(FILE *out, const char *s, size_t max)
{
	for (size_t i = 0; s[i] && i < max; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* control bytes are not XML */
			fputc((unsigned char)s[i] < 0x20 ? '?' : s[i], out);
		}
	}
}

/* Red for growth, blue for shrinkage, near white for no change: strength |d| / SATURATE_PTS. */
static void fill_of(double delta_pts, int *r, int *g, int *b)
{
	double k = fmin(fabs(delta_pts) / SATURATE_PTS, 1.0);
	int fade = (int)lround(235 - 170 * k);

	if (delta_pts > 0) {
		*r = 235;
		*g = *b = fade;
	} else if (delta_pts < 0) {
		*r = *g = fade;
		*b = 235;
	} else {
		*r = *g = *b = 235;
	}
}

/* A single flame graph's fill: red to yellow by a hash of the name, so neighbours differ and a
 * symbol keeps its colour from one graph to the next. */
static void warm_of(const char *name, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	*r = 205 + (int)(h % 50);
	*g = 80 + (int)((h >> 8) % 150);
	*b = 40 + (int)((h >> 16) % 40);
}

static void draw(struct flame *fl, struct flame_node *n, int level, double x, FILE *out)
{
	double w = fl->width * (double)n->n_new / (double)fl->total_new;
	double y = TOP_PAD + (double)(fl->depth - level) * FRAME_H;
	double base_pct = fl->total_base ? 100.0 * (double)n->n_base / (double)fl->total_base : 0.0;
	double new_pct = 100.0 * (double)n->n_new / (double)fl->total_new;
	double kid_x = x;
	int r, g, b;

	if (w < fl->min_px) {
		fl->hidden++;
		return;
	}
	if (fl->single) {
		warm_of(n->name, &r, &g, &b);
		fprintf(out, "<g><title>");
		put_esc(out, n->name, (size_t)-1);
		fprintf(out, ": %.2f%% (%" PRIu64 " samples)</title>", new_pct, n->n_new);
	} else {
		fill_of(new_pct - base_pct, &r, &g, &b);
		fprintf(out, "<g><title>");
		put_esc(out, n->name, (size_t)-1);
		fprintf(out, ": %.2f%% -> %.2f%% (%+.2f pts; %" PRIu64 " -> %" PRIu64 " samples)</title>", base_pct,
			new_pct, new_pct - base_pct, n->n_base, n->n_new);
	}
	fprintf(out, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" stroke=\"#fff\" stroke-width=\"0.5\"/>",
		x, y, w, FRAME_H - 1, r, g, b);
	if (w > 3 * CHAR_PX) {
		size_t fits = (size_t)((w - 4) / CHAR_PX);
		size_t len = strlen(n->name);

		fprintf(out, "<text x=\"%.2f\" y=\"%.0f\">", x + 2, y + FRAME_H - 4);
		put_esc(out, n->name, len > fits ? fits - 2 : len);
		if (len > fits)
			fputs("..", out);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
	if (n->n_kids > 1) /* a leaf has no kids array: qsort must not get NULL */
		qsort(n->kids, (size_t)n->n_kids, sizeof(n->kids[0]), kid_cmp);
	for (int i = 0; i < n->n_kids; i++) {
		if (!n->kids[i]->n_new)
			continue;
		draw(fl, n->kids[i], level + 1, kid_x, out);
		kid_x += fl->width * (double)n->kids[i]->n_new / (double)fl->total_new;
	}
}

static int flame_svg(const struct nb_folded *base, const struct nb_folded *new_side, bool single,
		     const struct nb_flame_opts *opts, FILE *out)
{
	struct flame fl = { 0 };
	double height;
	int rc;

	if (!new_side || new_side->total == 0)
		return -EINVAL;
	fl.single = single;
	fl.width = opts && opts->width > 0 ? opts->width : 1200;
	fl.min_px = opts && opts->min_frame_px > 0 ? opts->min_frame_px : 0.5;
	fl.total_new = new_side->total;
	fl.total_base = base ? base->total : 0;
	rc = flame_add(&fl, new_side, true);
	if (rc == 0 && base)
		rc = flame_add(&fl, base, false);
	if (rc < 0) {
		node_free(&fl.root);
		return rc;
	}
	height = TOP_PAD + (double)(fl.depth + 1) * FRAME_H + BOTTOM_PAD;
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"%d\">\n",
		fl.width, height, fl.width, height, FONT_PX);
	fprintf(out, "<text x=\"%.0f\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">", fl.width / 2);
	put_esc(out, opts && opts->title ? opts->title : single ? "Flame graph" : "Differential flame graph", (size_t)-1);
	if (single)
		fprintf(out, "</text>\n<text x=\"%.0f\" y=\"33\" text-anchor=\"middle\">width: share of the %" PRIu64
			     " samples; a frame's callers below it; colours only tell neighbours apart</text>\n",
			fl.width / 2, fl.total_new);
	else
		fprintf(out, "</text>\n<text x=\"%.0f\" y=\"33\" text-anchor=\"middle\">width: new side's samples (%" PRIu64
			     "); colour: change of share against base (%" PRIu64 " samples), red grew, blue shrank, full at %.0f pts</text>\n",
			fl.width / 2, fl.total_new, fl.total_base, SATURATE_PTS);
	/* the root spans everything: its children are the drawn roots */
	fl.depth--;
	{
		double x = 0;

		qsort(fl.root.kids, (size_t)fl.root.n_kids, sizeof(fl.root.kids[0]), kid_cmp);
		for (int i = 0; i < fl.root.n_kids; i++) {
			if (!fl.root.kids[i]->n_new)
				continue;
			draw(&fl, fl.root.kids[i], 0, x, out);
			x += fl.width * (double)fl.root.kids[i]->n_new / (double)fl.total_new;
		}
	}
	fprintf(out, "<text x=\"2\" y=\"%.0f\">%" PRIu64 " frame(s) narrower than %.1f px left out</text>\n</svg>\n",
		height - 6, fl.hidden, fl.min_px);
	node_free(&fl.root);
	return ferror(out) ? -EIO : 0;
}

int nb_flamegraph_diff_svg(const struct nb_folded *base, const struct nb_folded *new_side,
			   const struct nb_flame_opts *opts, FILE *out)
{
	return flame_svg(base, new_side, false, opts, out);
}

int nb_flamegraph_svg(const struct nb_folded *set, const struct nb_flame_opts *opts, FILE *out)
{
	return flame_svg(NULL, set, true, opts, out);
}

int nb_folded_load(const char *path, struct nb_folded *set, struct nb_err *err)
{
	char *text = NULL;
	size_t cap = 0, len = 0;
	FILE *f = fopen(path, "re");
	int rc;

	if (!f)
		return nb_err_set(err, -errno, "stacks not read: %s: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (len + 4097 > cap) {
			char *p = realloc(text, cap = cap ? cap * 2 : 65536);

			if (!p) {
				free(text);
				fclose(f);
				return nb_err_set(err, -ENOMEM, "stacks not read: %s: out of memory", path);
			}
			text = p;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	text[len] = '\0';
	rc = nb_folded_parse(set, text, path, err);
	free(text);
	return rc;
}
