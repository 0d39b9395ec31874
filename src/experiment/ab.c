// SPDX-License-Identifier: MIT
/* The A/B loop (ab.h): boot, check the report, save the state, look, stop or go on (the fixed
 * design: boot on to its pairs, then one plain verdict). */
#include "ab.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab_schedule.h"
#include "ab_state.h"
#include "ab_verdict.h"
#include "boot.h"
#include "kit/nb_time.h"

#define BOOT_ATTEMPTS 2 /* a boot that fails is tried once more, then the set stops */
#define LOG_TAIL_LINES 12

struct ab_run {
	const struct nb_ab_spec *spec;
	char work[3000]; /* spec->work made absolute: the hook may change directory before it writes OUT */
	int lock_fd;
	struct nb_ab_state st;
	struct nb_cmp_options cmp; /* spec->cmp with the design's verdict: sequential, or plain (fixed) */
	struct nb_ab_outcome *out;
	struct nb_err *err;
};

static int make_dir(const char *dir, const char *sub, struct nb_err *err)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	if (mkdir(path, 0755) && errno != EEXIST)
		return nb_err_set(err, -errno, "make the work directory %s: %s", path, strerror(errno));
	return 0;
}

static void work_path(const struct ab_run *r, char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", r->work, name);
}

/* A report that is there but not recorded as done was left by a boot that was killed or failed:
 * it goes to failed/ (kept, never compared), so that the boot is made again. */
static int set_aside(const struct ab_run *r, int side, int pair, const char *why)
{
	char name[32], from[4096], to[4200];

	nb_ab_report_name(name, sizeof(name), side, pair);
	work_path(r, from, sizeof(from), name);
	if (access(from, F_OK))
		return 0;
	snprintf(to, sizeof(to), "%s/failed/%c.%d.%s.json", r->work, nb_ab_side_name(side), pair, why);
	if (rename(from, to))
		return nb_err_set(r->err, -errno, "move %s aside to %s: %s", from, to, strerror(errno));
	return 0;
}

static void print_log_tail(const char *log_path)
{
	char *lines[LOG_TAIL_LINES] = { 0 }, *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f = fopen(log_path, "r");

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		free(lines[n % LOG_TAIL_LINES]);
		lines[n++ % LOG_TAIL_LINES] = strdup(line);
	}
	free(line);
	fclose(f);
	for (int i = n > LOG_TAIL_LINES ? n - LOG_TAIL_LINES : 0; i < n; i++)
		fprintf(stderr, "  | %s", lines[i % LOG_TAIL_LINES] ? lines[i % LOG_TAIL_LINES] : "\n");
	for (int i = 0; i < LOG_TAIL_LINES; i++)
		free(lines[i]);
}

/* Did the hook leave a report of this round at OUT? NULL when so, else why not. */
static const char *check_report(const char *path, int side, int pair, char *why, size_t len)
{
	struct nb_cmp_report rep = { 0 };
	struct nb_err err = { 0 };
	const char *ret = NULL;

	if (access(path, F_OK)) {
		snprintf(why, len, "it exited 0 but left no report at %s", path);
		return why;
	}
	if (nb_cmp_report_load(path, &rep, &err)) {
		snprintf(why, len, "its report does not load: %s", err.msg);
		return why;
	}
	if (!rep.round.present || rep.round.side != nb_ab_side_name(side) || rep.round.index != pair) {
		snprintf(why, len, "its report %s is not round %c:%d (did the hook pass ROUND to nicbench run --round?)",
			 path, nb_ab_side_name(side), pair);
		ret = why;
	}
	nb_cmp_report_free(&rep);
	return ret;
}

/* One boot, tried up to BOOT_ATTEMPTS times. 0 done; 1 failed every time; -EINTR; -errno. */
static int boot_one(struct ab_run *r, int side, int pair)
{
	const struct nb_ab_spec *sp = r->spec;
	struct nb_ab_boot_record *rec = &r->st.boots[side][pair];
	char round[NB_AB_SET_MAX + 32], name[32], outp[4096], logn[48], logp[4096], why[4800];

	nb_ab_round_name(round, sizeof(round), side, pair, sp->max_pairs, r->st.set);
	nb_ab_report_name(name, sizeof(name), side, pair);
	work_path(r, outp, sizeof(outp), name);
	for (int attempt = 1; attempt <= BOOT_ATTEMPTS; attempt++) {
		double t0 = nb_monotonic_s(), dt;
		const char *bad = NULL;
		int status = 0, ret;

		nb_ab_log_name(logn, sizeof(logn), side, pair, attempt);
		work_path(r, logp, sizeof(logp), logn);
		fprintf(stderr, "nicbench %s: pair %d/%d, %c: boot %s (round %s)%s\n", sp->who, pair, sp->max_pairs,
			nb_ab_side_name(side), r->st.kernel[side], round, attempt > 1 ? ", second try" : "");
		ret = nb_boot_run(r->st.boot, r->st.kernel[side], round, outp, logp, &status, r->err);
		dt = nb_monotonic_s() - t0;
		r->st.wall_s += dt;
		if (ret == -EINTR) {
			set_aside(r, side, pair, "interrupted");
			return ret;
		}
		if (ret)
			return ret;
		rec->attempts = attempt;
		if (status) {
			snprintf(why, sizeof(why), "the hook exited %d", status);
			bad = why;
		} else {
			bad = check_report(outp, side, pair, why, sizeof(why));
		}
		if (!bad) {
			rec->done = true;
			rec->wall_s = dt;
			r->out->boots++;
			fprintf(stderr, "nicbench %s: pair %d, %c: report in %.1f s\n", sp->who, pair, nb_ab_side_name(side),
				dt);
			return 0;
		}
		fprintf(stderr, "nicbench %s: pair %d, %c: boot %s failed: %s; its log %s ends:\n", sp->who, pair,
			nb_ab_side_name(side), r->st.kernel[side], bad, logp);
		print_log_tail(logp);
		snprintf(why, sizeof(why), "try%d", attempt);
		if (set_aside(r, side, pair, why))
			return r->err->code;
	}
	return 1;
}

static const char *status_of(int exit_code)
{
	switch (exit_code) {
	case NB_AB_DECIDED: return "decided";
	case NB_AB_REGRESSED: return "regressed";
	case NB_AB_WITHHELD: return "withheld";
	default: return "undecided";
	}
}

/* One ab at a time in a work directory. The lock's descriptor is inherited by the hooks (no
 * O_CLOEXEC), so that a hook left running by an ab killed with SIGKILL still holds it: the next ab
 * waits for that boot to end instead of booting beside it. */
static int lock_work(struct ab_run *r)
{
	char path[4096];

	work_path(r, path, sizeof(path), ".lock");
	r->lock_fd = open(path, O_RDWR | O_CREAT, 0644);
	if (r->lock_fd < 0)
		return nb_err_set(r->err, -errno, "open the lock %s: %s", path, strerror(errno));
	if (!flock(r->lock_fd, LOCK_EX | LOCK_NB))
		return 0;
	fprintf(stderr, "nicbench %s: waiting for %s: another nicbench ab, or a boot hook an ab killed left running, "
		"works in %s\n", r->spec->who, path, r->work);
	while (flock(r->lock_fd, LOCK_EX)) {
		if (errno != EINTR || nb_boot_interrupted())
			return nb_err_set(r->err, -errno, "lock %s: %s", path, strerror(errno));
	}
	return 0;
}

/* Open the work directory: the state there (the same kernels), or a new one. */
static int open_set(struct ab_run *r)
{
	const struct nb_ab_spec *sp = r->spec;
	static const char *const subs[] = { NULL, "A", "B", "log", "failed" };
	int ret;

	char abs[PATH_MAX];

	if (make_dir(sp->work, NULL, r->err))
		return r->err->code;
	if (!realpath(sp->work, abs))
		return nb_err_set(r->err, -errno, "resolve the work directory %s: %s", sp->work, strerror(errno));
	if (strlen(abs) >= sizeof(r->work))
		return nb_err_set(r->err, -ENAMETOOLONG, "the work directory %s: its path is too long", sp->work);
	memcpy(r->work, abs, strlen(abs) + 1);
	for (size_t i = 1; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (make_dir(r->work, subs[i], r->err))
			return r->err->code;
	if (lock_work(r))
		return r->err->code;
	ret = nb_ab_state_load(&r->st, r->work, r->err);
	if (ret == -ENOENT) {
		char a1[4096];

		snprintf(a1, sizeof(a1), "%s/A/1.json", r->work);
		if (!access(a1, F_OK))
			return nb_err_set(r->err, -EEXIST, "%s holds reports but no %s: not a set nicbench made; give "
					  "another --work", r->work, NB_AB_STATE_FILE);
		ret = nb_ab_state_init(&r->st, sp->kernel[0], sp->kernel[1], sp->boot, sp->set, r->err);
		r->st.fixed = sp->fixed;
		if (!ret)
			fprintf(stderr, "nicbench %s: new set %s in %s\n", sp->who, r->st.set, r->work);
		return ret;
	}
	if (ret)
		return ret;
	/* a sequential set's pairs were taken looking at them: they cannot become a fixed design's */
	if (r->st.fixed != sp->fixed)
		return nb_err_set(r->err, -EINVAL, "%s holds a set of the %s design: go on with %s N, or give another --work",
				  r->work, r->st.fixed ? "fixed" : "sequential", r->st.fixed ? "--pairs" : "--max-pairs");
	if (strcmp(r->st.kernel[0], sp->kernel[0]) || strcmp(r->st.kernel[1], sp->kernel[1]))
		return nb_err_set(r->err, -EINVAL, "%s holds the set of kernels %s and %s, not %s and %s: give another --work",
				  r->work, r->st.kernel[0], r->st.kernel[1], sp->kernel[0], sp->kernel[1]);
	if (sp->set && strcmp(sp->set, r->st.set))
		return nb_err_set(r->err, -EINVAL, "%s holds set %s, not %s", r->work, r->st.set, sp->set);
	if (strcmp(r->st.boot, sp->boot)) {
		char *boot = strdup(sp->boot);

		if (!boot)
			return nb_err_set(r->err, -ENOMEM, "resume %s: %s", r->work, strerror(ENOMEM));
		fprintf(stderr, "nicbench %s: note: the set began with another boot hook (%s)\n", sp->who, r->st.boot);
		free(r->st.boot);
		r->st.boot = boot;
	}
	fprintf(stderr, "nicbench %s: resuming set %s in %s: %d pairs kept\n", sp->who, r->st.set, r->work,
		nb_ab_state_pairs(&r->st));
	return 0;
}

/* Reports of boots not recorded as done go aside, and so do records whose report is gone. */
static int tidy(struct ab_run *r)
{
	for (int pair = 1; pair <= NB_AB_PAIRS_MAX; pair++) {
		for (int side = 0; side < 2; side++) {
			struct nb_ab_boot_record *b = &r->st.boots[side][pair];
			char name[32], path[4096];

			nb_ab_report_name(name, sizeof(name), side, pair);
			work_path(r, path, sizeof(path), name);
			if (b->done && access(path, F_OK)) {
				fprintf(stderr, "nicbench %s: note: %s is gone; that boot is made again\n", r->spec->who, path);
				b->done = false;
			}
			if (!b->done && set_aside(r, side, pair, "unfinished"))
				return r->err->code;
		}
	}
	return 0;
}

static int finish(struct ab_run *r, int exit_code, const char *status)
{
	r->st.status = status;
	r->st.exit_code = exit_code;
	r->out->exit_code = exit_code;
	r->out->status = status;
	return nb_ab_state_save(&r->st, r->work, r->err);
}

/* Look at pairs 1..n; true when the set stops here (decided, regressed or withheld). */
static int look(struct ab_run *r, int n, bool *stop)
{
	int code = 0, ret = nb_ab_look(r->work, n, &r->cmp, false, &code, r->err);

	if (ret)
		return ret;
	r->st.looks++;
	r->st.exit_code = code;
	r->out->pairs = n;
	fprintf(stderr, "nicbench %s: after %d pair%s: %s (exit %d)\n", r->spec->who, n, n == 1 ? "" : "s",
		status_of(code), code);
	*stop = code != NB_AB_UNDECIDED;
	return nb_ab_state_save(&r->st, r->work, r->err);
}

static int run_pairs(struct ab_run *r)
{
	const struct nb_ab_spec *sp = r->spec;
	int have = nb_ab_state_pairs(&r->st), code = 0, ret;
	bool stop = false;

	r->st.max_pairs = sp->max_pairs;
	r->st.status = "running";
	/* the fixed design never looks before its last pair: no stop can hang on what the pairs show */
	if (have > 0 && !sp->fixed && (ret = look(r, have, &stop)))
		return ret;
	for (int pair = have + 1; !stop && pair <= sp->max_pairs; pair++) {
		for (int pos = 0; pos < 2; pos++) {
			int side = nb_ab_side_at(pair, pos);

			if (r->st.boots[side][pair].done)
				continue;
			ret = boot_one(r, side, pair);
			if (ret == -EINTR)
				return finish(r, NB_AB_INTERRUPTED, "interrupted");
			if (ret < 0)
				return ret;
			if (ret == 1) {
				fprintf(stderr, "nicbench %s: pair %d, %c: the boot failed twice: the set stops (exit %d); "
					"every report is kept in %s; the same command resumes it\n", sp->who, pair,
					nb_ab_side_name(side), NB_AB_BOOT_FAILED, r->work);
				return finish(r, NB_AB_BOOT_FAILED, "boot failed");
			}
			if ((ret = nb_ab_state_save(&r->st, r->work, r->err)))
				return ret;
		}
		if (!sp->fixed && (ret = look(r, pair, &stop)))
			return ret;
	}
	have = nb_ab_state_pairs(&r->st);
	if (sp->fixed && have > sp->max_pairs)
		have = sp->max_pairs; /* exactly N: a set made with more pairs is judged on its first N */
	if (!have)
		return finish(r, NB_AB_UNDECIDED, "undecided");
	/* the verdict the set ends with, into verdict.txt and verdict.json */
	if ((ret = nb_ab_look(r->work, have, &r->cmp, true, &code, r->err)))
		return ret;
	r->out->pairs = have;
	return finish(r, code, status_of(code));
}

int nb_ab_run(const struct nb_ab_spec *spec, struct nb_ab_outcome *out, struct nb_err *err)
{
	struct ab_run r = { .spec = spec, .cmp = spec->cmp, .out = out, .err = err, .lock_fd = -1 };
	double t0 = nb_monotonic_s();
	int ret;

	memset(out, 0, sizeof(*out));
	if (spec->max_pairs < 1 || spec->max_pairs > NB_AB_PAIRS_MAX)
		return nb_err_set(err, -EINVAL, "%s %d: 1..%d pairs", spec->fixed ? "--pairs" : "--max-pairs",
				  spec->max_pairs, NB_AB_PAIRS_MAX);
	/* the plain verdict is compare's without --sequential, and --alpha-split goes only with that */
	r.cmp.sequential = !spec->fixed;
	r.cmp.alpha_split = r.cmp.alpha_split && !spec->fixed;
	ret = open_set(&r);
	if (!ret)
		ret = tidy(&r);
	if (!ret)
		ret = run_pairs(&r);
	out->wall_s = nb_monotonic_s() - t0;
	nb_ab_state_free(&r.st);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
	return ret;
}
