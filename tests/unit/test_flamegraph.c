// SPDX-License-Identifier: MIT
/* Tests for the differential flame graph: structure, widths, colour direction, escaping. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/flamegraph.h"
#include "nb_test.h"

/* The cpsw seed's shape: the unlock's share shrinks, the page copy grows; a symbol with XML
 * in its name; a stack only the base has (not drawn: widths are the new side's). */
static const char base_text[] = "rx;net_rx_action;_raw_spin_unlock_irqrestore 47\n"
				"rx;net_rx_action;__dma_page_dev_to_cpu 13\n"
				"rx;a<b>&c 20\n"
				"rx;gone_in_new 20\n";
static const char new_text[] = "rx;net_rx_action;_raw_spin_unlock_irqrestore 41\n"
			       "rx;net_rx_action;__dma_page_dev_to_cpu 39\n"
			       "rx;a<b>&c 20\n";

static char *render(const struct nb_folded *base, const struct nb_folded *nw, int *rc)
{
	struct nb_flame_opts o = { .width = 1000, .title = "tcp-rx & <friends>" };
	char *svg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&svg, &len);

	*rc = f ? nb_flamegraph_diff_svg(base, nw, &o, f) : -1;
	if (f)
		fclose(f);
	return svg;
}

/* The <g> whose title starts with name: its title and rect. */
static const char *frame_of(const char *svg, const char *name)
{
	char key[128];

	snprintf(key, sizeof(key), "<g><title>%s: ", name);
	return strstr(svg, key);
}

static double attr(const char *from, const char *name)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = from ? strstr(from, key) : NULL;
	return p ? atof(p + strlen(key)) : -1;
}

static void fill_rgb(const char *from, int *r, int *g, int *b)
{
	const char *p = from ? strstr(from, "fill=\"rgb(") : NULL;

	*r = *g = *b = -1;
	if (p)
		sscanf(p, "fill=\"rgb(%d,%d,%d)", r, g, b);
}

static void test_diff(void)
{
	struct nb_folded base = { 0 }, nw = { 0 };
	struct nb_err err = { 0 };
	const char *f;
	char *svg;
	int rc, r, g, b;

	CHECK(nb_folded_parse(&base, base_text, "base", &err) == 0);
	CHECK(nb_folded_parse(&nw, new_text, "new", &err) == 0);
	svg = render(&base, &nw, &rc);
	CHECK(rc == 0 && svg);
	if (!svg)
		return;
	/* self-contained: one svg element, nothing to fetch or run */
	CHECK(!strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
	CHECK(strstr(svg, "</svg>\n") && !strstr(svg, "<script") && !strstr(svg, "href") && !strstr(svg, "<style"));
	CHECK(strstr(svg, "tcp-rx &amp; &lt;friends&gt;"));
	/* widths: the new side's samples over 1000 px */
	f = frame_of(svg, "rx");
	CHECK(f && attr(f, "width") == 1000.0 && attr(f, "x") == 0.0);
	f = frame_of(svg, "net_rx_action");
	CHECK(f && attr(f, "width") == 800.0);
	f = frame_of(svg, "__dma_page_dev_to_cpu");
	CHECK(f && attr(f, "width") == 390.0);
	/* children sorted by name: the dma frame starts where its parent does */
	CHECK(f && attr(f, "x") == attr(frame_of(svg, "net_rx_action"), "x"));
	/* 13% -> 39% grew: red; 47% -> 41% shrank: blue; 20% -> 20%: neutral */
	fill_rgb(f, &r, &g, &b);
	CHECK_MSG(r > b && r > g, "grew: rgb(%d,%d,%d)", r, g, b);
	CHECK(f && strstr(f, "13.00% -> 39.00% (+26.00 pts"));
	fill_rgb(frame_of(svg, "_raw_spin_unlock_irqrestore"), &r, &g, &b);
	CHECK_MSG(b > r && b > 0, "shrank: rgb(%d,%d,%d)", r, g, b);
	/* a name with XML in it is escaped in the title and the label */
	f = frame_of(svg, "a&lt;b&gt;&amp;c");
	CHECK(f != NULL);
	fill_rgb(f, &r, &g, &b);
	CHECK(r == g && g == b);
	CHECK(!strstr(svg, "a<b>"));
	/* only in base: not drawn */
	CHECK(!frame_of(svg, "gone_in_new"));
	/* a vertical order: the leaf sits above its parent */
	CHECK(attr(frame_of(svg, "__dma_page_dev_to_cpu"), "y") < attr(frame_of(svg, "net_rx_action"), "y"));
	free(svg);

	/* no base: every frame reads as grown from 0 */
	svg = render(NULL, &nw, &rc);
	CHECK(rc == 0 && svg && strstr(svg, "0.00% -> 100.00%"));
	free(svg);
	/* an empty new side has nothing to size frames by */
	{
		struct nb_folded empty = { 0 };

		svg = render(&base, &empty, &rc);
		CHECK(rc == -EINVAL);
		free(svg);
	}
	nb_folded_free(&base);
	nb_folded_free(&nw);
}

/* Frames too narrow to see are left out and counted. */
static void test_narrow(void)
{
	struct nb_folded nw = { 0 };
	char *svg;
	int rc;

	CHECK(nb_folded_add(&nw, "big", 100000) == 0);
	CHECK(nb_folded_add(&nw, "tiny", 1) == 0);
	svg = render(NULL, &nw, &rc);
	CHECK(rc == 0 && svg && !frame_of(svg, "tiny") && strstr(svg, ">1 frame(s) narrower"));
	free(svg);
	nb_folded_free(&nw);
}

/* One report's flame graph: widths are shares of its own samples, titles carry no base, and the
 * cpsw seed's folded file (perf top as printed) reads and draws with its shares. */
static void test_single(void)
{
	struct nb_folded nw = { 0 }, cpsw = { 0 }, none = { 0 };
	struct nb_err err = { 0 };
	char *svg = NULL;
	size_t len = 0;
	FILE *f;
	const char *fr;
	int rc;

	CHECK(nb_folded_parse(&nw, new_text, "new", &err) == 0);
	f = open_memstream(&svg, &len);
	rc = f ? nb_flamegraph_svg(&nw, &(struct nb_flame_opts){ .width = 1000 }, f) : -1;
	if (f)
		fclose(f);
	CHECK(rc == 0 && svg);
	if (svg) {
		fr = frame_of(svg, "__dma_page_dev_to_cpu");
		CHECK_MSG(fr && strstr(fr, "<g><title>__dma_page_dev_to_cpu: 39.00% (39 samples)</title>") == fr, "%s",
			  fr ? fr : svg);
		CHECK_NEAR(attr(fr, "width"), 390.0, 0.01);
		CHECK(strstr(svg, ">Flame graph<") && !strstr(svg, "->"));
	}
	free(svg);
	CHECK(nb_folded_load(nb_test_fixture("compare/seeds/cpsw-base.udp-rx.folded"), &cpsw, &err) == 0);
	CHECK(cpsw.total == 10000);
	svg = NULL;
	f = open_memstream(&svg, &len);
	rc = f ? nb_flamegraph_svg(&cpsw, NULL, f) : -1;
	if (f)
		fclose(f);
	CHECK(rc == 0 && svg && strstr(svg, "<g><title>page_pool_release_page: 1.19% (119 samples)</title>"));
	free(svg);
	CHECK(nb_folded_load("/nonexistent/x.folded", &none, &err) == -ENOENT);
	CHECK(strstr(err.msg, "stacks not read: /nonexistent/x.folded: ") == err.msg);
	CHECK(nb_flamegraph_svg(&none, NULL, stdout) == -EINVAL);
	nb_folded_free(&nw);
	nb_folded_free(&cpsw);
}

int main(void)
{
	test_single();
	test_diff();
	test_narrow();
	return nb_test_done("flamegraph");
}
