// SPDX-License-Identifier: MIT
/* The bisect over A/B sets (bisect.h) and its record, bisect.json. */
#include "bisect.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/nb_time.h"

struct bisect_run {
	const struct nb_bisect_spec *spec;
	struct nb_bisect_outcome *out;
	json_t *steps;
	struct nb_err *err;
};

static const char *verdict_name(int exit_code)
{
	switch (exit_code) {
	case NB_AB_DECIDED: return "same";
	case NB_AB_REGRESSED: return "regressed";
	case NB_AB_UNDECIDED: return "undecided";
	case NB_AB_WITHHELD: return "withheld";
	case NB_AB_BOOT_FAILED: return "boot failed";
	default: return "interrupted";
	}
}

static const char *result_name(const struct nb_bisect_outcome *o)
{
	if (o->first_bad >= 0)
		return "found";
	if (o->exit_code == NB_AB_DECIDED)
		return "ends alike";
	return verdict_name(o->exit_code);
}

/* bisect.json, rewritten after every step: a bisect stopped at any point says how far it got. */
static int save(const struct bisect_run *r)
{
	const struct nb_bisect_spec *sp = r->spec;
	const struct nb_bisect_outcome *o = r->out;
	char path[4096], tmp[4200];
	json_t *root, *cands = json_array();
	int ret = 0;

	for (int i = 0; cands && i < sp->n; i++)
		json_array_append_new(cands, json_string(sp->kernels[i]));
	root = json_pack("{s:s, s:o, s:s, s:o, s:{s:s, s:s}, s:i, s:o, s:f}", "schema", "nicbench-bisect/1",
			 "candidates", cands, "result", result_name(o), "first_bad",
			 o->first_bad >= 0 ? json_string(sp->kernels[o->first_bad]) : json_null(), "range", "good",
			 sp->kernels[o->good], "bad", sp->kernels[o->bad], "exit", o->exit_code, "steps",
			 json_incref(r->steps), "wall_s", o->wall_s);
	if (!root)
		return nb_err_set(r->err, -ENOMEM, "write %s/%s: %s", sp->work, NB_BISECT_FILE, strerror(ENOMEM));
	snprintf(path, sizeof(path), "%s/%s", sp->work, NB_BISECT_FILE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_dump_file(root, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		ret = nb_err_set(r->err, -EIO, "write %s: %s", tmp, strerror(errno ? errno : EIO));
	else if (rename(tmp, path))
		ret = nb_err_set(r->err, -errno, "rename %s to %s: %s", tmp, path, strerror(errno));
	json_decref(root);
	return ret;
}

/* Candidate j beside candidate i (the good end), with more pairs while undecided: the step's
 * exit code (enum nb_ab_exit), or -errno. */
static int measure(struct bisect_run *r, int i, int j, const char *what)
{
	const struct nb_bisect_spec *sp = r->spec;
	char dir[4096], who[48];
	int step = ++r->out->steps, pairs = sp->max_pairs;
	struct nb_ab_outcome ab;
	double t0 = nb_monotonic_s();

	snprintf(dir, sizeof(dir), "%s/step-%d", sp->work, step);
	snprintf(who, sizeof(who), "bisect step %d", step);
	fprintf(stderr, "nicbench bisect: step %d (%s): %s beside %s\n", step, what, sp->kernels[j], sp->kernels[i]);
	for (;;) {
		struct nb_ab_spec ab_spec = { .boot = sp->boot, .kernel = { sp->kernels[i], sp->kernels[j] }, .work = dir,
					      .max_pairs = pairs, .cmp = sp->cmp, .who = who };

		if (nb_ab_run(&ab_spec, &ab, r->err)) {
			nb_err_prefix(r->err, "bisect step %d: ", step);
			return r->err->code;
		}
		/* "cannot tell" costs pairs, never a skip: the same set goes on, up to the ceiling */
		if (ab.exit_code != NB_AB_UNDECIDED || pairs >= sp->ceiling)
			break;
		pairs = pairs * 2 > sp->ceiling ? sp->ceiling : pairs * 2;
		fprintf(stderr, "nicbench bisect: step %d undecided after %d pairs: extending it to %d\n", step, ab.pairs,
			pairs);
	}
	fprintf(stderr, "nicbench bisect: step %d: %s %s against %s after %d pairs\n", step, sp->kernels[j],
		verdict_name(ab.exit_code), sp->kernels[i], ab.pairs);
	json_array_append_new(r->steps, json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:f, s:s}", "step", step,
						  "what", what, "good", sp->kernels[i], "candidate", sp->kernels[j],
						  "verdict", verdict_name(ab.exit_code), "exit", ab.exit_code, "pairs",
						  ab.pairs, "max_pairs", pairs, "wall_s", nb_monotonic_s() - t0,
						  "work", dir));
	return ab.exit_code;
}

static int search(struct bisect_run *r)
{
	const struct nb_bisect_spec *sp = r->spec;
	struct nb_bisect_outcome *o = r->out;
	char what[160];
	int rc = measure(r, 0, sp->n - 1, "the ends");

	if (rc < 0)
		return rc;
	o->exit_code = rc;
	if (rc != NB_AB_REGRESSED)
		return save(r); /* same: nothing to bisect; else the ends could not be told */
	while (o->bad - o->good > 1) {
		int mid = (o->good + o->bad) / 2;

		if (save(r))
			return r->err->code;
		snprintf(what, sizeof(what), "the first bad in %s..%s", sp->kernels[o->good + 1], sp->kernels[o->bad]);
		rc = measure(r, o->good, mid, what);
		if (rc < 0)
			return rc;
		if (rc == NB_AB_REGRESSED) {
			o->bad = mid;
		} else if (rc == NB_AB_DECIDED) {
			o->good = mid;
		} else {
			o->exit_code = rc;
			return save(r);
		}
	}
	o->first_bad = o->bad;
	o->exit_code = NB_AB_REGRESSED;
	return save(r);
}

int nb_bisect_run(const struct nb_bisect_spec *spec, struct nb_bisect_outcome *out, struct nb_err *err)
{
	struct bisect_run r = { .spec = spec, .out = out, .err = err };
	double t0 = nb_monotonic_s();
	int ret;

	*out = (struct nb_bisect_outcome){ .first_bad = -1, .good = 0, .bad = spec->n - 1 };
	if (spec->n < 2)
		return nb_err_set(err, -EINVAL, "a bisect needs a good and a bad end at least (%d kernels given)", spec->n);
	if (spec->ceiling < spec->max_pairs)
		return nb_err_set(err, -EINVAL, "--ceiling %d is below --max-pairs %d", spec->ceiling, spec->max_pairs);
	if (mkdir(spec->work, 0755) && errno != EEXIST)
		return nb_err_set(err, -errno, "make the work directory %s: %s", spec->work, strerror(errno));
	r.steps = json_array();
	if (!r.steps)
		return nb_err_set(err, -ENOMEM, "bisect: %s", strerror(ENOMEM));
	ret = search(&r);
	out->wall_s = nb_monotonic_s() - t0;
	if (!ret)
		ret = save(&r); /* once more, with the whole time */
	json_decref(r.steps);
	return ret < 0 ? ret : 0;
}
