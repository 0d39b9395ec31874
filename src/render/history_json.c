// SPDX-License-Identifier: MIT
/* nicbench history analyze as JSON (nicbench-history-analysis/1), JUnit (one testcase per gated
 * series) and KCIDB (one test per gated series), all through the one printer (kit/nb_print.h). */
#include <math.h>
#include <string.h>

#include "render/common.h"
#include "render/history_render.h"

#define NB_HIST_ANALYSIS_SCHEMA "nicbench-history-analysis/1"

static void json_change(struct nb_print *out, const struct nb_hist_change *c)
{
	nb_print_open_object(out, NULL);
	nb_print_string(out, NB_PRINT_JSON, "kind", NULL, nb_hist_kind_name(c->kind));
	nb_print_string(out, NB_PRINT_JSON, "last_good", NULL, c->good);
	nb_print_string(out, NB_PRINT_JSON, "first_bad", NULL, c->bad);
	nb_print_int(out, NB_PRINT_JSON, "index", NULL, c->index);
	nb_print_double(out, NB_PRINT_JSON, "before", NULL, c->before);
	nb_print_double(out, NB_PRINT_JSON, "after", NULL, c->after);
	nb_print_double(out, NB_PRINT_JSON, "change_pct", NULL, c->change_pct);
	if (c->has_ci) {
		nb_print_double(out, NB_PRINT_JSON, "ci_lo_pct", NULL, c->ci_lo_pct);
		nb_print_double(out, NB_PRINT_JSON, "ci_hi_pct", NULL, c->ci_hi_pct);
	} else {
		nb_print_null(out, NB_PRINT_JSON, "ci_lo_pct", NULL, NULL);
		nb_print_null(out, NB_PRINT_JSON, "ci_hi_pct", NULL, NULL);
	}
	nb_print_double(out, NB_PRINT_JSON, "p_value", NULL, c->p_value);
	nb_print_bool(out, NB_PRINT_JSON, "gated", NULL, c->gated);
	nb_print_bool(out, NB_PRINT_JSON, "still", NULL, c->still);
	nb_print_string(out, NB_PRINT_JSON, "newest", NULL, c->newest);
	nb_print_double(out, NB_PRINT_JSON, "newest_pct", NULL, c->newest_pct);
	nb_print_open_array(out, "table");
	for (int i = 0; i < c->n_rows; i++) {
		const struct nb_hist_row *row = &c->rows[i];

		nb_print_open_object(out, NULL);
		nb_print_string(out, NB_PRINT_JSON, "metric", NULL, row->metric);
		nb_print_double(out, NB_PRINT_JSON, "before", NULL, row->n_before ? row->before : NAN);
		nb_print_double(out, NB_PRINT_JSON, "before_stddev_pct", NULL, row->n_before ? row->before_sd_pct : NAN);
		nb_print_double(out, NB_PRINT_JSON, "change_pct", NULL, row->has_change ? row->change_pct : NAN);
		nb_print_double(out, NB_PRINT_JSON, "after", NULL, row->n_after ? row->after : NAN);
		nb_print_double(out, NB_PRINT_JSON, "after_stddev_pct", NULL, row->n_after ? row->after_sd_pct : NAN);
		nb_print_close_object(out);
	}
	nb_print_close_array(out);
	nb_print_open_array(out, "profile_movers");
	for (int i = 0; i < c->n_movers; i++) {
		nb_print_open_object(out, NULL);
		nb_print_string(out, NB_PRINT_JSON, "symbol", NULL, c->movers[i].symbol);
		nb_print_double(out, NB_PRINT_JSON, "before_pct", NULL, c->movers[i].before_pct);
		nb_print_double(out, NB_PRINT_JSON, "after_pct", NULL, c->movers[i].after_pct);
		nb_print_close_object(out);
	}
	nb_print_close_array(out);
	nb_print_close_object(out);
}

static void json_series(struct nb_print *out, const struct nb_hist_series *s)
{
	nb_print_open_object(out, NULL);
	nb_print_string(out, NB_PRINT_JSON, "board", NULL, s->board);
	nb_print_string(out, NB_PRINT_JSON, "point", NULL, s->point);
	nb_print_string(out, NB_PRINT_JSON, "metric", NULL, s->metric);
	nb_print_string(out, NB_PRINT_JSON, "direction", NULL,
			nb_metric_direction_words((enum nb_metric_direction)s->direction));
	nb_print_bool(out, NB_PRINT_JSON, "gated", NULL, s->gated);
	nb_print_double(out, NB_PRINT_JSON, "floor", NULL, s->floor);
	nb_print_open_array(out, "commits");
	for (int i = 0; i < s->n; i++)
		nb_print_string(out, NB_PRINT_JSON, NULL, NULL, s->commits[i]);
	nb_print_close_array(out);
	nb_print_open_array(out, "values");
	for (int i = 0; i < s->n; i++)
		nb_print_double(out, NB_PRINT_JSON, NULL, NULL, s->values[i]);
	nb_print_close_array(out);
	nb_print_open_array(out, "changes");
	for (int j = 0; j < s->n_changes; j++)
		json_change(out, &s->changes[j]);
	nb_print_close_array(out);
	nb_print_close_object(out);
}

int nb_hist_render_json(FILE *file, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro)
{
	const struct nb_hist_options *o = r->opt;
	struct nb_print out;

	nb_print_init(&out, file, NB_PRINT_JSON_PRETTY);
	nb_print_open_object(&out, NULL);
	nb_print_string(&out, NB_PRINT_JSON, "schema", NULL, NB_HIST_ANALYSIS_SCHEMA);
	nb_print_int(&out, NB_PRINT_JSON, "reports", NULL, r->n_reports);
	nb_print_int(&out, NB_PRINT_JSON, "boards", NULL, r->n_boards);
	nb_print_int(&out, NB_PRINT_JSON, "commits", NULL, r->n_commits);
	nb_print_int(&out, NB_PRINT_JSON, "series_count", NULL, r->n_series);
	nb_print_open_object(&out, "method");
	nb_print_string(&out, NB_PRINT_JSON, "name", NULL, "e-divisive-means");
	nb_print_string(&out, NB_PRINT_JSON, "test", NULL, o->cp.test == NB_CP_TEST_T ? "t" : "energy");
	nb_print_int(&out, NB_PRINT_JSON, "permutations", NULL, o->cp.permutations);
	nb_print_double(&out, NB_PRINT_JSON, "alpha", NULL, o->cp.alpha);
	nb_print_int(&out, NB_PRINT_JSON, "seed", NULL, (long long)o->cp.seed);
	nb_print_int(&out, NB_PRINT_JSON, "min_segment", NULL, o->cp.min_segment);
	nb_print_int(&out, NB_PRINT_JSON, "edge_buffer", NULL, o->cp.edge_buffer);
	nb_print_double(&out, NB_PRINT_JSON, "min_effect_pct", NULL, o->cmp.min_effect_pct);
	nb_print_int(&out, NB_PRINT_JSON, "window", NULL, o->window);
	nb_print_close_object(&out);
	nb_print_int(&out, NB_PRINT_JSON, "regressions_holding", NULL, r->n_regressions);
	nb_print_open_array_lines(&out, "series");
	for (int i = 0; i < r->n_series; i++) {
		/* every analyzed series with a change; all of them with --all */
		if (r->series[i].n_changes || (ro->all && r->series[i].direction != NB_CMP_NEUTRAL))
			json_series(&out, &r->series[i]);
		nb_print_drain(&out);
	}
	nb_print_close_array(&out);
	nb_print_close_object(&out);
	nb_print_putc(&out, '\n');
	return nb_print_finish(&out);
}

/* The change a gated series fails on: its first regression that still holds; NULL when none. */
static const struct nb_hist_change *failing_change(const struct nb_hist_series *s)
{
	for (int j = 0; j < s->n_changes; j++) {
		if (s->changes[j].kind == NB_HIST_REGRESSION && s->changes[j].still && s->changes[j].gated)
			return &s->changes[j];
	}
	return NULL;
}

int nb_hist_render_junit(FILE *file, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro)
{
	struct nb_print out;
	int tests = 0;

	(void)ro;
	for (int i = 0; i < r->n_series; i++)
		tests += r->series[i].gated;
	nb_print_init(&out, file, NB_PRINT_PLAIN);
	nb_print_fmt(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
		     "<testsuite name=\"nicbench history\" tests=\"%d\" failures=\"%d\">\n", tests, r->n_regressions);
	for (int i = 0; i < r->n_series; i++) {
		const struct nb_hist_series *s = &r->series[i];
		const struct nb_hist_change *c = failing_change(s);

		if (!s->gated)
			continue;
		nb_print_puts(&out, "<testcase classname=\"");
		nb_render_markup_text(&out, s->board);
		nb_print_puts(&out, ".");
		nb_render_markup_text(&out, s->point);
		nb_print_puts(&out, "\" name=\"");
		nb_render_markup_text(&out, s->metric);
		nb_print_puts(&out, c ? "\">\n<failure message=\"" : "\"/>\n");
		if (c) {
			char msg[512];

			snprintf(msg, sizeof(msg), "%+.1f%% regression of %s at %s on commit %s (last good %s), still %+.1f%% at %s",
				 c->change_pct, s->metric, s->point, c->bad, c->good, c->newest_pct, c->newest);
			nb_render_markup_text(&out, msg);
			nb_print_puts(&out, "\"/>\n</testcase>\n");
		}
		nb_print_drain(&out);
	}
	nb_print_puts(&out, "</testsuite>\n</testsuites>\n");
	return nb_print_finish(&out);
}

/* KCIDB I/O v5.3: a checkout and a build for the newest commit of each board, and one test per gated
 * series: FAIL when a regression still holds, PASS otherwise. */
int nb_hist_render_kcidb(FILE *file, const struct nb_hist_result *r, const struct nb_hist_render_opts *ro)
{
	const char *origin = ro->origin ? ro->origin : "nicbench";
	const char *newest = "";
	struct nb_print out;
	char id[512];

	for (int i = 0; i < r->n_series; i++) {
		if (r->series[i].n)
			newest = r->series[i].commits[r->series[i].n - 1];
	}
	nb_print_init(&out, file, NB_PRINT_JSON_PRETTY);
	nb_print_open_object(&out, NULL);
	nb_print_open_object(&out, "version");
	nb_print_int(&out, NB_PRINT_JSON, "major", NULL, 5);
	nb_print_int(&out, NB_PRINT_JSON, "minor", NULL, 3);
	nb_print_close_object(&out);
	snprintf(id, sizeof(id), "%s:history-%s", origin, newest);
	nb_print_open_array(&out, "checkouts");
	nb_print_open_object(&out, NULL);
	nb_print_string(&out, NB_PRINT_JSON, "id", NULL, id);
	nb_print_string(&out, NB_PRINT_JSON, "origin", NULL, origin);
	nb_print_string(&out, NB_PRINT_JSON, "git_commit_hash", NULL, newest);
	nb_print_close_object(&out);
	nb_print_close_array(&out);
	nb_print_open_array(&out, "builds");
	nb_print_open_object(&out, NULL);
	nb_print_string(&out, NB_PRINT_JSON, "id", NULL, id);
	nb_print_string(&out, NB_PRINT_JSON, "checkout_id", NULL, id);
	nb_print_string(&out, NB_PRINT_JSON, "origin", NULL, origin);
	nb_print_close_object(&out);
	nb_print_close_array(&out);
	nb_print_open_array_lines(&out, "tests");
	for (int i = 0; i < r->n_series; i++) {
		const struct nb_hist_series *s = &r->series[i];
		const struct nb_hist_change *c = failing_change(s);
		char tid[1024], path[512];

		if (!s->gated)
			continue;
		snprintf(tid, sizeof(tid), "%s:history-%s-%s-%s-%s", origin, newest, s->board, s->point, s->metric);
		snprintf(path, sizeof(path), "nicbench.history.%s.%s", s->point, s->metric);
		for (char *p = path; *p; p++) {
			if (*p == '/' || *p == '=' || *p == ' ')
				*p = '_';
		}
		nb_print_open_object(&out, NULL);
		nb_print_string(&out, NB_PRINT_JSON, "id", NULL, tid);
		nb_print_string(&out, NB_PRINT_JSON, "build_id", NULL, id);
		nb_print_string(&out, NB_PRINT_JSON, "origin", NULL, origin);
		nb_print_string(&out, NB_PRINT_JSON, "path", NULL, path);
		nb_print_string(&out, NB_PRINT_JSON, "status", NULL, c ? "FAIL" : "PASS");
		nb_print_open_object(&out, "misc");
		nb_print_string(&out, NB_PRINT_JSON, "board", NULL, s->board);
		if (c) {
			nb_print_string(&out, NB_PRINT_JSON, "last_good", NULL, c->good);
			nb_print_string(&out, NB_PRINT_JSON, "first_bad", NULL, c->bad);
			nb_print_double(&out, NB_PRINT_JSON, "change_pct", NULL, c->change_pct);
			nb_print_double(&out, NB_PRINT_JSON, "newest_pct", NULL, c->newest_pct);
		}
		nb_print_close_object(&out);
		nb_print_close_object(&out);
	}
	nb_print_close_array(&out);
	nb_print_close_object(&out);
	nb_print_putc(&out, '\n');
	return nb_print_finish(&out);
}
