// SPDX-License-Identifier: MIT
/* nicbench history: keep reports in an SQLite database (add, list) and find the change points of
 * every series over commits (analyze), with the report a maintainer reads and a CI exit code. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/nb_paths.h"
#include "commands.h"
#include "history/history_analyze.h"
#include "history/history_store.h"
#include "render/history_render.h"

static const char *const usage_lines[] = {
	"add --db FILE [--commit ID] [--branch NAME] [--board NAME] REPORT...",
	"list --db FILE",
	"analyze --db FILE [OPTIONS]",
};

static const char usage_head[] =
	"\n"
	"Keep reports over commits and find where a series changed: one row per report, point,\n"
	"metric and run in an SQLite database; change points per series (board, point, metric) by\n"
	"a permutation test of the largest t over the splits (or E-Divisive's energy); the\n"
	"regressions a maintainer reads.\n";

static const char usage_add[] =
	"\n"
	"add:\n"
	"  --db FILE            the database (created when absent)\n"
	"  --commit ID          the commit the reports measured (default: the report's kernel release)\n"
	"  --branch NAME        the branch it is on (kept, shown by list)\n"
	"  --board NAME         the board the series belongs to (default: the report's host name)\n"
	"  A report already stored (same bytes) is skipped; all reports are one transaction: a bad\n"
	"  report or database adds nothing.\n";

static const char usage_list[] =
	"\n"
	"list:\n"
	"  --db FILE            the database: one line per report (commit, board, branch, round)\n";

static const char usage_analyze[] =
	"\n"
	"analyze:\n"
	"  --db FILE            the database\n"
	"  -f, --format FMT     text (default; the maintainer's report), json, junit, kcidb, html\n"
	"  -o, --output FILE    write there instead of stdout\n"
	"  --gate RULES         METRIC[@TESTS][=PCT],... as compare takes it, or none (default:\n"
	"                       compare's: throughput_bps,cpu_busy_pct@*-rx,rr_latency_p99_us@*-rr,...)\n"
	"  --min-effect [METRIC=]PCT  a change smaller than this is no change (default 2)\n"
	"  --floor METRIC=V|FAMILY=V|none  compare's floors (the metric table's by default)\n"
	"  --board NAME         only this board's series\n"
	"  --metrics LIST       only these metrics (comma-separated)\n"
	"  --window N           the newest N commits of each board (default 200, 0: all)\n"
	"  --min-segment N      points a segment needs, so one spike is no change (default 3)\n"
	"  --edge-buffer N      no change among the window's first N commits (default 3)\n"
	"  --test t|energy      what the permutation test judges: the largest two-sample t over\n"
	"                       the splits (default; a shift of the level; the change is where it\n"
	"                       is largest) or E-Divisive's energy (any change of the\n"
	"                       distribution, less power; E-Divisive places the split); each\n"
	"                       commit judged by the mean rank of its runs among the series'\n"
	"  --unit commit|report what the permutations shuffle: commits (default) or, for --test t,\n"
	"                       reports (each boot or round: for independent boots measured\n"
	"                       interleaved, as the lab's rounds are; a short series of commits\n"
	"                       with several boots each can then reach --alpha)\n"
	"  --permutations N     of the permutation test (default 999)\n"
	"  --alpha P            its significance level (default 0.01)\n"
	"  --seed N             the permutations' seed (default 1: the same data, the same answer)\n"
	"  --boot HOOK          the hook the printed `nicbench bisect` command names\n"
	"  --git DIR            count the commits between last good and first bad in this git tree\n"
	"  --all                text: every regression, not only the gated ones\n";

static const char usage_tail[] =
	"\n"
	"exit codes: 0 done (analyze: no gated regression holds at the newest commit); 1 analyze: a\n"
	"gated metric has a regression change point that still holds at the newest commit; 2 usage\n"
	"or input error (a report of another schema or cut short, a database that is locked,\n"
	"corrupt or not a history): nothing stored is lost. docs/history.md, man nicbench.\n";

/* The whole help, or one subcommand's (what the bash completion offers after it). */
static void history_usage(FILE *out, const char *sub)
{
	int shown = 0;

	for (size_t i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++) {
		if (sub && strncmp(usage_lines[i], sub, strlen(sub)))
			continue;
		fprintf(out, "%s nicbench history %s\n", shown++ ? "      " : "usage:", usage_lines[i]);
	}
	fputs(usage_head, out);
	if (!sub || !strcmp(sub, "add"))
		fputs(usage_add, out);
	if (!sub || !strcmp(sub, "list"))
		fputs(usage_list, out);
	if (!sub || !strcmp(sub, "analyze"))
		fputs(usage_analyze, out);
	fputs(usage_tail, out);
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "nicbench history: %s%s%s (try 'nicbench history --help')\n", msg, arg ? ": " : "",
		arg ? arg : "");
	return NB_EXIT_USAGE;
}

/* ---- add ---- */

/* The whole file, for its identity and the report parser (which takes it from memory). */
static int read_file(const char *path, char **text, size_t *len, struct nb_err *err)
{
	int rc = nb_read_whole_file(path, 65536, text, len);

	if (rc)
		return nb_err_set(err, rc, "load report %s: %s", path, rc == -ENOMEM ? "out of memory" : strerror(-rc));
	return 0;
}

struct add_cli {
	const char *db, *commit, *branch, *board;
};

enum { OPT_DB = 256, OPT_COMMIT, OPT_BRANCH, OPT_BOARD, OPT_GATE, OPT_MIN_EFFECT, OPT_FLOOR, OPT_METRICS, OPT_WINDOW,
       OPT_MIN_SEGMENT, OPT_EDGE_BUFFER, OPT_PERMUTATIONS, OPT_ALPHA, OPT_SEED, OPT_TEST, OPT_UNIT, OPT_BOOT, OPT_GIT, OPT_ALL };

static int history_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },         { "commit", required_argument, NULL, OPT_COMMIT },
		{ "branch", required_argument, NULL, OPT_BRANCH }, { "board", required_argument, NULL, OPT_BOARD },
		{ "help", no_argument, NULL, 'h' },                { NULL, 0, NULL, 0 },
	};
	struct add_cli cli = { .branch = "" };
	struct nb_cmp_report *reports;
	char (*identity)[64];
	struct nb_hist_db *db = NULL;
	struct nb_err err = { 0 };
	int c, n, ret = 0, loaded = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB: cli.db = optarg; break;
		case OPT_COMMIT: cli.commit = optarg; break;
		case OPT_BRANCH: cli.branch = optarg; break;
		case OPT_BOARD: cli.board = optarg; break;
		case 'h': history_usage(stdout, "add"); return NB_EXIT_OK;
		default: return usage_error("bad option to history add", NULL);
		}
	}
	if (!cli.db)
		return usage_error("history add needs --db FILE", NULL);
	n = argc - optind;
	if (n <= 0)
		return usage_error("history add needs at least one REPORT", NULL);
	if ((cli.commit && !*cli.commit) || (cli.board && !*cli.board))
		return usage_error("--commit and --board take a non-empty name", NULL);
	reports = calloc((size_t)n, sizeof(*reports));
	identity = calloc((size_t)n, sizeof(*identity));
	if (!reports || !identity) {
		free(reports);
		free(identity);
		fprintf(stderr, "nicbench history add: out of memory\n");
		return NB_EXIT_USAGE;
	}
	/* every report read and checked before the database is touched */
	for (int i = 0; i < n && !ret; i++) {
		char *text;
		size_t len = 0;

		ret = read_file(argv[optind + i], &text, &len, &err);
		if (ret)
			break;
		nb_hist_identity(text, len, identity[i], sizeof(identity[i]));
		ret = nb_cmp_report_parse(text, len, argv[optind + i], &reports[i], &err);
		free(text);
		if (!ret)
			loaded++;
	}
	if (!ret)
		ret = nb_hist_open(cli.db, true, &db, &err);
	if (!ret)
		ret = nb_hist_begin(db, &err);
	for (int i = 0; i < n && !ret; i++) {
		const struct nb_cmp_report *r = &reports[i];
		struct nb_hist_add_meta m = {
			.identity = identity[i],
			.commit = cli.commit ? cli.commit : *r->kernel_release ? r->kernel_release : "unknown",
			.branch = cli.branch,
			.board = cli.board ? cli.board : *r->hostname ? r->hostname : "unknown",
		};
		struct nb_hist_added added;

		ret = nb_hist_add_report(db, r, &m, &added, &err);
		if (ret)
			break;
		if (added.duplicate)
			printf("%s: already stored as report %lld; skipped\n", r->path, (long long)added.report_id);
		else
			printf("%s: report %lld (board %s, commit %s): %d points, %d run values\n", r->path,
			       (long long)added.report_id, m.board, m.commit, r->n_points, added.rows);
	}
	if (!ret)
		ret = nb_hist_commit(db, &err);
	nb_hist_close(db);
	for (int i = 0; i < loaded; i++)
		nb_cmp_report_free(&reports[i]);
	free(reports);
	free(identity);
	if (ret) {
		fprintf(stderr, "nicbench history add: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	return NB_EXIT_OK;
}

/* ---- list ---- */

static int print_report_row(const struct nb_hist_report_row *row, void *arg)
{
	(void)arg;
	printf("%-5lld %-20s %-16s %-12s %-20s %6d %7d", (long long)row->id, row->commit, row->board,
	       *row->branch ? row->branch : "-", row->created, row->points, row->rows);
	if (*row->round_side)
		printf("  round %s%d of set %s", row->round_side, row->round_index, *row->round_set ? row->round_set : "-");
	printf("  %s\n", row->path);
	return 0;
}

static int history_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	struct nb_hist_db *db = NULL;
	struct nb_err err = { 0 };
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == OPT_DB)
			path = optarg;
		else if (c == 'h') {
			history_usage(stdout, "list");
			return NB_EXIT_OK;
		} else
			return usage_error("bad option to history list", NULL);
	}
	if (!path)
		return usage_error("history list needs --db FILE", NULL);
	if (optind < argc)
		return usage_error("history list takes no arguments", argv[optind]);
	ret = nb_hist_open(path, false, &db, &err);
	if (!ret) {
		printf("%-5s %-20s %-16s %-12s %-20s %6s %7s  %s\n", "id", "commit", "board", "branch", "created", "points",
		       "values", "report");
		ret = nb_hist_each_report(db, print_report_row, NULL, &err);
	}
	nb_hist_close(db);
	if (ret) {
		fprintf(stderr, "nicbench history list: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	return NB_EXIT_OK;
}

/* ---- analyze ---- */

/* git rev-list --reverse GOOD..BAD in the tree of --git: the count, and the commits before BAD into
 * between (empty when they do not fit); 0 when git cannot say. */
static int git_range(const char *good, const char *bad, char *between, size_t len, void *arg)
{
	const char *dir = arg;
	char range[512], out[65536];
	int pipefd[2], status, count = 0;
	size_t got = 0, used = 0;
	ssize_t n;
	pid_t pid;

	between[0] = '\0';
	if (snprintf(range, sizeof(range), "%s..%s", good, bad) >= (int)sizeof(range) || pipe(pipefd))
		return 0;
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(pipefd[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		close(pipefd[0]);
		execlp("git", "git", "-C", dir, "rev-list", "--reverse", range, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (pid > 0 && (n = read(pipefd[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)n;
	close(pipefd[0]);
	if (pid <= 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 0;
	out[got] = '\0';
	/* rev-list --reverse ends with BAD itself: the lines before it are the candidates */
	while (got && out[got - 1] == '\n')
		out[--got] = '\0';
	if (!got)
		return 0;
	count = 1;
	char *last = strrchr(out, '\n');

	if (!last)
		return count;
	*last = '\0';
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line);

		count++;
		if (used + l + 2 > len) {
			used = len; /* does not fit: name none rather than some */
			continue;
		}
		used += (size_t)snprintf(between + used, len - used, "%s%s", used ? " " : "", line);
	}
	if (used >= len)
		between[0] = '\0';
	return count;
}

static int parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < min || v > max)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int history_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "gate", required_argument, NULL, OPT_GATE },
		{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
		{ "floor", required_argument, NULL, OPT_FLOOR },
		{ "board", required_argument, NULL, OPT_BOARD },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "min-segment", required_argument, NULL, OPT_MIN_SEGMENT },
		{ "edge-buffer", required_argument, NULL, OPT_EDGE_BUFFER },
		{ "permutations", required_argument, NULL, OPT_PERMUTATIONS },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "boot", required_argument, NULL, OPT_BOOT },
		{ "git", required_argument, NULL, OPT_GIT },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nb_hist_options o;
	struct nb_hist_render_opts ro = { 0 };
	nb_hist_render_fn render = nb_hist_render_text;
	const char *path = NULL, *output = NULL, *git = NULL;
	struct nb_hist_result res;
	struct nb_hist_db *db = NULL;
	struct nb_err err = { 0 };
	FILE *out = stdout;
	int c, ret, seed;
	char *end;

	nb_hist_options_init(&o);
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB: path = optarg; break;
		case 'o': output = optarg; break;
		case 'f':
			render = nb_hist_render_format(optarg);
			if (!render)
				return usage_error("unknown format (text, json, junit, kcidb, html)", optarg);
			break;
		case OPT_GATE:
			if (nb_cmp_gate_parse(&o.cmp, optarg, &err))
				return usage_error(err.msg, NULL);
			break;
		case OPT_MIN_EFFECT:
			if (nb_cmp_effect_parse(&o.cmp, optarg, &err))
				return usage_error(err.msg, NULL);
			break;
		case OPT_FLOOR:
			if (nb_cmp_floor_parse(&o.cmp, optarg, &err))
				return usage_error(err.msg, NULL);
			break;
		case OPT_BOARD: o.board = optarg; break;
		case OPT_METRICS: o.metrics = optarg; break;
		case OPT_WINDOW:
			if (parse_int(optarg, 0, 1000000, &o.window))
				return usage_error("--window takes a number of commits, 0 for all", optarg);
			break;
		case OPT_MIN_SEGMENT:
			if (parse_int(optarg, 2, 10000, &o.cp.min_segment))
				return usage_error("--min-segment takes a number from 2", optarg);
			break;
		case OPT_EDGE_BUFFER:
			if (parse_int(optarg, 0, 10000, &o.cp.edge_buffer))
				return usage_error("--edge-buffer takes a number from 0", optarg);
			break;
		case OPT_PERMUTATIONS:
			if (parse_int(optarg, 19, 100000, &o.cp.permutations))
				return usage_error("--permutations takes a number from 19 to 100000", optarg);
			break;
		case OPT_ALPHA:
			errno = 0;
			o.cp.alpha = strtod(optarg, &end);
			if (end == optarg || *end || errno || !(o.cp.alpha > 0 && o.cp.alpha < 1))
				return usage_error("--alpha takes a probability between 0 and 1", optarg);
			break;
		case OPT_SEED:
			if (parse_int(optarg, 0, 2147483647, &seed))
				return usage_error("--seed takes a whole number", optarg);
			o.cp.seed = (uint64_t)seed;
			break;
		case OPT_TEST:
			if (strcmp(optarg, "t") && strcmp(optarg, "energy"))
				return usage_error("--test takes t or energy", optarg);
			o.cp.test = strcmp(optarg, "t") ? NB_CP_TEST_ENERGY : NB_CP_TEST_T;
			break;
		case OPT_UNIT:
			if (strcmp(optarg, "commit") && strcmp(optarg, "report"))
				return usage_error("--unit takes commit or report", optarg);
			o.unit_report = !strcmp(optarg, "report");
			break;
		case OPT_BOOT: ro.boot_hook = optarg; break;
		case OPT_GIT: git = optarg; break;
		case OPT_ALL: ro.all = true; break;
		case 'h': history_usage(stdout, "analyze"); return NB_EXIT_OK;
		default: return usage_error("bad option to history analyze", NULL);
		}
	}
	if (!path)
		return usage_error("history analyze needs --db FILE", NULL);
	if (optind < argc)
		return usage_error("history analyze takes no arguments", argv[optind]);
	if (o.unit_report && o.cp.test != NB_CP_TEST_T)
		return usage_error("--unit report goes with --test t (the energy test shuffles commits)", NULL);
	/* the permutation test cannot reach alpha with fewer permutations than 1/alpha - 1 */
	if ((o.cp.permutations + 1) * o.cp.alpha < 1)
		return usage_error("--alpha is below 1/(permutations + 1): no split could ever be significant; "
				   "raise --permutations", NULL);
	if (git) {
		ro.range_commits = git_range;
		ro.range_arg = (void *)git;
	}
	ret = nb_hist_open(path, false, &db, &err);
	if (!ret)
		ret = nb_hist_analyze(db, &o, &res, &err);
	nb_hist_close(db);
	if (ret) {
		fprintf(stderr, "nicbench history analyze: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	if (output && !(out = fopen(output, "w"))) {
		fprintf(stderr, "nicbench history analyze: write %s: %s\n", output, strerror(errno));
		nb_hist_result_free(&res);
		return NB_EXIT_USAGE;
	}
	ret = render(out, &res, &ro);
	if (output && fclose(out) && !ret)
		ret = -EIO;
	if (ret) {
		fprintf(stderr, "nicbench history analyze: write %s: %s\n", output ? output : "stdout", strerror(-ret));
		nb_hist_result_free(&res);
		return NB_EXIT_USAGE;
	}
	ret = res.n_regressions ? NB_EXIT_FAIL : NB_EXIT_OK;
	nb_hist_result_free(&res);
	return ret;
}

int cmd_history(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		history_usage(argc < 2 ? stderr : stdout, NULL);
		return argc < 2 ? NB_EXIT_USAGE : NB_EXIT_OK;
	}
	if (!strcmp(argv[1], "add"))
		return history_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return history_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "analyze"))
		return history_analyze(argc - 1, argv + 1);
	return usage_error("unknown history command (add, list, analyze)", argv[1]);
}
