// SPDX-License-Identifier: MIT
/* configs/README.md's key table is the settings rows' table: a row changed without the docs fails. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_options.h"
#include "config/config.h"
#include "nb_test.h"

#define BEGIN_MARK "<!-- settings table: begin -->\n"
#define END_MARK "<!-- settings table: end -->"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (!f)
		return NULL;
	mem = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(f);
	fclose(mem);
	return buf;
}

static void test_readme_matches_rows(void)
{
	char *readme = read_all(nb_test_fixture("../../configs/README.md"));
	char *want = NULL;
	size_t want_len = 0;
	FILE *mem = open_memstream(&want, &want_len);
	const char *begin, *end;

	nb_opts_markdown(mem, &nb_config_table);
	fclose(mem);
	CHECK_MSG(readme != NULL, "cannot read configs/README.md beside %s", nb_test_fixture(""));
	begin = readme ? strstr(readme, BEGIN_MARK) : NULL;
	end = begin ? strstr(begin, END_MARK) : NULL;
	CHECK_MSG(begin && end, "configs/README.md lacks the markers '%s' and '%s'", BEGIN_MARK, END_MARK);
	if (begin && end) {
		begin += strlen(BEGIN_MARK);
		CHECK_MSG((size_t)(end - begin) == want_len && !memcmp(begin, want, want_len),
			  "configs/README.md's key table differs from the rows in src/config/config_table.c: "
			  "put the output of build/nb_config_keys between its markers.\n"
			  "--- README ---\n%.*s--- rows ---\n%s", (int)(end - begin), begin, want);
	}
	/* every row with a key is documented, with a meaning */
	for (int i = 0; i < nb_config_table.nrows; i++) {
		const struct nb_opt *o = &nb_config_table.rows[i];

		if (o->key)
			CHECK_MSG(o->doc || o->help, "row '%s' has no text for the docs", o->key);
	}
	free(readme);
	free(want);
}

/* Every flag is in --help, and a flag's row is found by its name. */
static void test_rows_are_consistent(void)
{
	for (int i = 0; i < nb_config_table.nrows; i++) {
		const struct nb_opt *o = &nb_config_table.rows[i];

		if (o->name) {
			CHECK_MSG(o->help != NULL, "--%s has no help", o->name);
			CHECK(nb_opt_by_name(&nb_config_table, o->name) == o);
		}
		if (o->key)
			CHECK_MSG(nb_opt_by_key(&nb_config_table, o->key) == o, "key '%s' twice", o->key);
		if (o->type == NB_OPT_INT || o->type == NB_OPT_SECONDS || o->type == NB_OPT_RATE)
			CHECK_MSG(nb_opt_in_range(o, o->def), "'%s': default %g outside its range", o->key, o->def);
	}
}

/* The man page names every flag of run, as groff writes it (\-\-flag): a new row without a man
 * entry fails here. */
static void test_man_page_has_every_flag(void)
{
	char *man = read_all(nb_test_fixture("../../doc/nicbench.1"));

	CHECK_MSG(man != NULL, "cannot read doc/nicbench.1 beside %s", nb_test_fixture(""));
	for (int i = 0; man && i < nb_config_table.nrows; i++) {
		const struct nb_opt *o = &nb_config_table.rows[i];
		char want[96];
		const char *at;
		bool found = false;

		if (!o->name)
			continue;
		snprintf(want, sizeof(want), "\\-\\-");
		for (const char *c = o->name; *c && strlen(want) + 3 < sizeof(want); c++) {
			size_t n = strlen(want);

			if (*c == '-')
				snprintf(want + n, sizeof(want) - n, "\\-");
			else
				snprintf(want + n, sizeof(want) - n, "%c", *c);
		}
		/* the whole flag, not a longer one that starts with it (--rate in --rate-pps) */
		for (at = strstr(man, want); at && !found; at = strstr(at + 1, want)) {
			char next = at[strlen(want)];

			found = !(next >= 'a' && next <= 'z') && !(next == '\\' && at[strlen(want) + 1] == '-');
		}
		CHECK_MSG(found, "doc/nicbench.1 does not document --%s (looked for '%s')", o->name, want);
	}
	free(man);
}

/* run's and plan's --help fit a screen (one line a setting, the long text is the man page's),
 * stay inside 100 columns, and still name every flag: the bash completion reads them there. */
static void test_help_is_short(void)
{
	const char *commands[] = { "run", "plan" };

	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		int lines = 0, widest = 0;

		nb_run_options_usage(commands[c], mem);
		fclose(mem);
		for (const char *line = text; line && *line;) {
			const char *nl = strchr(line, '\n');
			int n = nl ? (int)(nl - line) : (int)strlen(line);

			lines++;
			if (n > widest)
				widest = n;
			line += n + (nl != NULL);
		}
		CHECK_MSG(lines <= 53, "%s --help has %d lines, more than 53", commands[c], lines);
		CHECK_MSG(widest <= 100, "%s --help has a line of %d columns, more than 100", commands[c], widest);
		for (int i = 0; text && i < nb_config_table.nrows; i++) {
			const struct nb_opt *o = &nb_config_table.rows[i];
			char want[64];

			if (!o->name || (o->flags & NB_OPT_HIDDEN))
				continue;
			snprintf(want, sizeof(want), "--%s", o->name);
			CHECK_MSG(strstr(text, want) != NULL, "%s --help does not name %s", commands[c], want);
		}
		free(text);
	}
}

int main(void)
{
	test_help_is_short();
	test_readme_matches_rows();
	test_man_page_has_every_flag();
	test_rows_are_consistent();
	return nb_test_done("test_config_docs");
}
