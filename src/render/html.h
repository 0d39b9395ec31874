// SPDX-License-Identifier: MIT
/* Inside the HTML page: what html.c (the page, the report's sections) and html_compare.c (the
 * compare section) share. One self-contained page, inline SVG and CSS. */
#ifndef NB_RENDER_HTML_H
#define NB_RENDER_HTML_H

#include <stdio.h>

#include "render/render.h"

#define NB_HTML_W 1040          /* chart width, px */
#define NB_HTML_LABEL_W 420     /* left column for point labels */

struct nb_html_page {
	FILE *out;
	const struct nb_rv_input *in;
	int charts;
};

/* s as HTML text or attribute value. */
void nb_html_esc(FILE *out, const char *s);
/* The compare section: verdict, environment differences, forest plot, table, moved bottlenecks. */
void nb_html_section_compare(struct nb_html_page *pg);

#endif
