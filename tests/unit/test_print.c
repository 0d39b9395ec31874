// SPDX-License-Identifier: MIT
/* The printer: one set of calls gives valid JSON (checked by jansson) or the plain text. */
#include <errno.h>
#include <jansson.h>

#include "kit/nb_print.h"
#include "nb_test.h"

/* The same small document through any style; the plain text is what the formats say. */
static void sample(struct nb_print *p, const char *name)
{
	nb_print_open_object(p, NULL);
	nb_print_string(p, NB_PRINT_ANY, "name", "name %s\n", name);
	nb_print_uint(p, NB_PRINT_ANY, "pid", "pid %llu\n", 4242);
	nb_print_int(p, NB_PRINT_JSON, "delta", NULL, -7);
	nb_print_double(p, NB_PRINT_ANY, "ratio", "ratio %.2f\n", 0.125);
	nb_print_double(p, NB_PRINT_JSON, "nan", NULL, NAN);
	nb_print_bool(p, NB_PRINT_ANY, "up", "up %s\n", true);
	nb_print_null(p, NB_PRINT_ANY, "irq", "irq %s\n", "-");
	nb_print_open_array(p, "queues");
	for (unsigned q = 0; q < 3; q++)
		nb_print_uint(p, NB_PRINT_JSON, NULL, NULL, q);
	nb_print_close_array(p);
	nb_print_open_object(p, "empty");
	nb_print_close_object(p);
	nb_print_json_text(p, "raw", "{\"a\":[1,2]}");
	nb_print_string(p, NB_PRINT_FP, NULL, "%s", "(plain only)\n");
	nb_print_close_object(p);
}

static char *render(enum nb_print_style style, const char *name)
{
	struct nb_print p;
	char *text;

	nb_print_init(&p, NULL, style);
	sample(&p, name);
	CHECK(!p.failed && p.depth == 0);
	text = strdup(p.p ? p.p : "");
	nb_print_release(&p);
	return text;
}

static void test_compact_and_plain(void)
{
	char *json = render(NB_PRINT_JSON_COMPACT, "eth0");
	char *plain = render(NB_PRINT_PLAIN, "eth0");

	CHECK_STR(json, "{\"name\":\"eth0\",\"pid\":4242,\"delta\":-7,\"ratio\":0.125,\"nan\":null,\"up\":true,"
		  "\"irq\":null,\"queues\":[0,1,2],\"empty\":{},\"raw\":{\"a\":[1,2]}}\n");
	CHECK_STR(plain, "name eth0\npid 4242\nratio 0.12\nup true\nirq -\n(plain only)\n");
	free(json);
	free(plain);
}

static void test_pretty(void)
{
	char *json = render(NB_PRINT_JSON_PRETTY, "eth0");

	CHECK(strstr(json, "{\n  \"name\": \"eth0\",\n  \"pid\": 4242,") == json);
	CHECK(strstr(json, "\"queues\": [\n    0,\n    1,\n    2\n  ],\n  \"empty\": {},") != NULL);
	CHECK(strlen(json) > 2 && !strcmp(json + strlen(json) - 2, "}\n"));
	free(json);
}

/* Numbers as compare has always written them: 10 significant digits, whole numbers whole. */
static void test_numbers(void)
{
	static const struct {
		double v;
		const char *json;
	} cases[] = {
		{ 0, "0" },           { -0.0, "0" },         { 5, "5" },
		{ 500e6, "500000000" }, { 1e15, "1e+15" },     { 123456789012345, "123456789012345" },
		{ 0.1, "0.1" },       { 6.412, "6.412" },    { 0.007936507937, "0.007936507937" },
		{ 1e-5, "1e-05" },    { -24.5, "-24.5" },    { 1.0 / 3, "0.3333333333" },
		{ INFINITY, "null" }, { -INFINITY, "null" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_print p;

		nb_print_init(&p, NULL, NB_PRINT_JSON_COMPACT);
		nb_print_double(&p, NB_PRINT_JSON, NULL, NULL, cases[i].v);
		CHECK_MSG(p.p && !strcmp(p.p, cases[i].json), "%.17g: \"%s\" != \"%s\"", cases[i].v, p.p ? p.p : "",
			  cases[i].json);
		nb_print_release(&p);
	}
}

/* Whatever bytes a string holds (an interface or file name from the command line), the JSON is
 * valid UTF-8 and keeps every valid character. */
static void test_odd_strings(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "plain" },
		{ "q\"b\\s/", "q\"b\\s/" },
		{ "tab\tnl\n\x01\x1f", "tab\tnl\n\x01\x1f" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "bad\xff", "bad\xef\xbf\xbd" },                      /* never a UTF-8 byte */
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },            /* overlong '/' */
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* a UTF-16 surrogate */
		{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* past U+10FFFF */
		{ "cut\xe2\x82", "cut\xef\xbf\xbd\xef\xbf\xbd" },      /* a sequence cut short */
		{ "\x80x", "\xef\xbf\xbdx" },                          /* a lone continuation byte */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_print p;
		json_error_t jerr;
		json_t *root;

		nb_print_init(&p, NULL, NB_PRINT_JSON_PRETTY);
		nb_print_open_object(&p, NULL);
		nb_print_string(&p, NB_PRINT_JSON, cases[i].in, NULL, cases[i].in);
		nb_print_close_object(&p);
		root = json_loads(p.p, 0, &jerr);
		CHECK_MSG(root != NULL, "case %zu: %s", i, jerr.text);
		if (root) {
			const char *key = json_object_iter_key(json_object_iter(root));

			CHECK_STR(json_string_value(json_object_iter_value(json_object_iter(root))), cases[i].out);
			CHECK_STR(key, cases[i].out);
		}
		json_decref(root);
		nb_print_release(&p);
	}
}

static void test_misuse(void)
{
	struct nb_print p;

	nb_print_init(&p, NULL, NB_PRINT_JSON_COMPACT);
	nb_print_close_object(&p);
	CHECK(nb_print_finish(&p) == -EINVAL);
	nb_print_init(&p, NULL, NB_PRINT_JSON_COMPACT);
	for (int i = 0; i <= NB_PRINT_MAX_DEPTH; i++)
		nb_print_open_array(&p, NULL);
	CHECK(nb_print_finish(&p) == -EINVAL);
}

/* Output to a file comes out whole across drains. */
static void test_file(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct nb_print p;

	nb_print_init(&p, f, NB_PRINT_JSON_COMPACT);
	nb_print_open_array_lines(&p, NULL);
	for (int i = 0; i < 20000; i++) {
		nb_print_int(&p, NB_PRINT_JSON, NULL, NULL, i);
		nb_print_drain(&p);
	}
	nb_print_close_array(&p);
	CHECK(nb_print_finish(&p) == 0);
	fclose(f);
	CHECK(strncmp(text, "[\n0,\n1,\n", 8) == 0);
	CHECK(len >= 9 && !strcmp(text + len - 9, "\n19999\n]\n"));
	free(text);
}

int main(void)
{
	test_compact_and_plain();
	test_pretty();
	test_numbers();
	test_odd_strings();
	test_misuse();
	test_file();
	return nb_test_done("test_print");
}
