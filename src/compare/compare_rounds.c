// SPDX-License-Identifier: MIT
/* compare over rounds: load each side's reports, order and pair them by round, and merge each
 * side into one report of round medians (compare_rounds.h). */
#include "compare_rounds.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit/stats.h"

static char side_name(int side)
{
	return side == NB_CMP_SIDE_A ? 'A' : 'B';
}

static void note(struct nb_cmp_rounds *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct nb_cmp_rounds *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_notes >= NB_CMP_ROUNDS_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->n_notes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

int nb_cmp_rounds_add(struct nb_cmp_rounds *r, int side, struct nb_cmp_report *rep, struct nb_err *err)
{
	struct nb_cmp_report *grown;

	if (r->n[side] >= NB_CMP_ROUNDS_MAX) {
		nb_cmp_report_free(rep);
		return nb_err_set(err, -E2BIG, "compare over rounds: more than %d reports on side %c", NB_CMP_ROUNDS_MAX,
				  side_name(side));
	}
	grown = realloc(r->reports[side], sizeof(*grown) * (size_t)(r->n[side] + 1));
	if (!grown) {
		nb_cmp_report_free(rep);
		return nb_err_set(err, -ENOMEM, "compare over rounds: out of memory for the reports of side %c",
				  side_name(side));
	}
	r->reports[side] = grown;
	grown[r->n[side]++] = *rep;
	memset(rep, 0, sizeof(*rep));
	return 0;
}

static int load_file(struct nb_cmp_rounds *r, int side, const char *path, struct nb_err *err)
{
	struct nb_cmp_report rep;
	int ret = nb_cmp_report_load(path, &rep, err);

	return ret ? ret : nb_cmp_rounds_add(r, side, &rep, err);
}

static int json_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/* A directory stands for the *.json reports in it. */
static int load_dir(struct nb_cmp_rounds *r, int side, const char *dir, struct nb_err *err)
{
	struct dirent **list;
	int n = scandir(dir, &list, json_file, alphasort), ret = 0;

	if (n < 0)
		return nb_err_set(err, -errno, "compare over rounds: read directory %s: %s", dir, strerror(errno));
	if (n == 0)
		ret = nb_err_set(err, -ENOENT, "compare over rounds: directory %s holds no *.json report", dir);
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (!ret && snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name) >= (int)sizeof(path))
			ret = nb_err_set(err, -ENAMETOOLONG, "compare over rounds: path too long in %s", dir);
		if (!ret)
			ret = load_file(r, side, path, err);
		free(list[i]);
	}
	free(list);
	return ret;
}

int nb_cmp_rounds_load(struct nb_cmp_rounds *r, int side, char *const *paths, int n, struct nb_err *err)
{
	for (int i = 0; i < n; i++) {
		struct stat st;
		int ret = !stat(paths[i], &st) && S_ISDIR(st.st_mode) ? load_dir(r, side, paths[i], err)
								       : load_file(r, side, paths[i], err);

		if (ret)
			return ret;
	}
	/* one directory names the side best; else the merge names the first and last file */
	if (n == 1)
		snprintf(r->label[side], sizeof(r->label[side]), "%s", paths[0]);
	return 0;
}

static int by_round_index(const void *pa, const void *pb)
{
	const struct nb_cmp_report *a = pa, *b = pb;

	return (a->round.index > b->round.index) - (a->round.index < b->round.index);
}

static int by_id(const void *pa, const void *pb)
{
	const struct nb_cmp_point *a = *(const struct nb_cmp_point *const *)pa;
	const struct nb_cmp_point *b = *(const struct nb_cmp_point *const *)pb;

	return strcmp(a->id, b->id);
}

/* What the merge works from: per side and round, the points sorted by id, and the partner
 * round (the other side's round of the same index; -1 when it has none). */
struct merge_ctx {
	struct nb_cmp_rounds *r;
	const struct nb_cmp_point **by_id[2];  /* one block a side, round k's at offset[side][k] */
	int *offset[2];
	int *partner[2];
};

static const struct nb_cmp_point *find_point(const struct merge_ctx *mc, int side, int round, const char *id)
{
	const struct nb_cmp_report *rep = &mc->r->reports[side][round];
	struct nb_cmp_point key = { .id = id };
	const struct nb_cmp_point *kp = &key, *const *hit;

	hit = bsearch(&kp, mc->by_id[side] + mc->offset[side][round], (size_t)rep->n_points, sizeof(*hit), by_id);
	return hit ? *hit : NULL;
}

static int index_points(struct merge_ctx *mc, int side, struct nb_err *err)
{
	const struct nb_cmp_rounds *r = mc->r;
	int total = 0;

	mc->offset[side] = calloc((size_t)r->n[side], sizeof(int));
	mc->partner[side] = calloc((size_t)r->n[side], sizeof(int));
	for (int k = 0; k < r->n[side]; k++)
		total += r->reports[side][k].n_points;
	mc->by_id[side] = calloc((size_t)total + 1, sizeof(*mc->by_id[side]));
	if (!mc->offset[side] || !mc->partner[side] || !mc->by_id[side])
		return -ENOMEM;
	total = 0;
	for (int k = 0; k < r->n[side]; k++) {
		const struct nb_cmp_report *rep = &r->reports[side][k];

		mc->offset[side][k] = total;
		for (int i = 0; i < rep->n_points; i++)
			mc->by_id[side][total + i] = &rep->points[i];
		qsort(mc->by_id[side] + total, (size_t)rep->n_points, sizeof(*mc->by_id[side]), by_id);
		for (int i = 1; i < rep->n_points; i++) {
			if (!by_id(&mc->by_id[side][total + i - 1], &mc->by_id[side][total + i]))
				return nb_err_set(err, -EINVAL, "compare over rounds: %s repeats point id \"%s\"", rep->path,
						  mc->by_id[side][total + i]->id);
		}
		total += rep->n_points;
		mc->partner[side][k] = -1;
	}
	return 0;
}

static bool round_ok(const struct nb_cmp_point *p)
{
	return p && p->status == NB_CMP_STATUS_OK;
}

/* A metric measured by the round's runs (not only by its diagnostic repetition). */
static const struct nb_cmp_samples *measured(const struct nb_cmp_point *p, const char *name)
{
	const struct nb_cmp_samples *s = round_ok(p) ? nb_cmp_point_metric(p, name) : NULL;

	return s && !s->diagnostic ? s : NULL;
}

/* One metric of the merged point: the round medians, the paired rounds first (ascending index
 * on both sides, so that value i pairs with the other side's value i), then the rest. */
static int merge_metric(struct merge_ctx *mc, int side, const struct nb_cmp_point **pt,
			const struct nb_cmp_point **mate, const char *name, struct nb_cmp_samples *out)
{
	struct nb_cmp_report *m = &mc->r->merged[side];
	int rounds = mc->r->n[side];
	bool *used = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(bool));

	out->name = name;
	out->values = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(double));
	if (!used || !out->values)
		return -ENOMEM;
	for (int k = 0; k < rounds; k++) {
		const struct nb_cmp_samples *s = measured(pt[k], name);

		if (s && measured(mate[k], name)) {
			out->values[out->n++] = s->median;
			used[k] = true;
		}
	}
	out->paired = out->n;
	for (int k = 0; k < rounds; k++) {
		const struct nb_cmp_samples *s = round_ok(pt[k]) ? nb_cmp_point_metric(pt[k], name) : NULL;

		if (!s || used[k] || (s->diagnostic && out->paired))
			continue;
		out->values[out->n++] = s->median;
		/* only the diagnostic repetition has it: shown, never gated, never paired */
		out->diagnostic = out->diagnostic || s->diagnostic;
	}
	if (out->diagnostic)
		out->paired = 0;
	out->median = nb_stats_median(out->values, out->n);
	return 0;
}

/* The efficiency pairs (throughput and CPU busy of the same runs): one a round, its medians. */
static bool round_pair(const struct nb_cmp_point *p, double *thr, double *cpu)
{
	if (!round_ok(p) || p->n_pairs < 1)
		return false;
	*thr = nb_stats_median(p->pair_throughput_bps, p->n_pairs);
	*cpu = nb_stats_median(p->pair_cpu_busy_pct, p->n_pairs);
	return *cpu > 0;
}

static int merge_pairs(struct merge_ctx *mc, int side, const struct nb_cmp_point **pt,
		       const struct nb_cmp_point **mate, struct nb_cmp_point *out)
{
	struct nb_cmp_report *m = &mc->r->merged[side];
	int rounds = mc->r->n[side];
	double thr, cpu, t2, c2;

	out->pair_throughput_bps = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(double));
	out->pair_cpu_busy_pct = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(double));
	if (!out->pair_throughput_bps || !out->pair_cpu_busy_pct)
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < rounds; k++) {
			bool paired = round_pair(mate[k], &t2, &c2);

			if (!round_pair(pt[k], &thr, &cpu) || paired != (pass == 0))
				continue;
			out->pair_throughput_bps[out->n_pairs] = thr;
			out->pair_cpu_busy_pct[out->n_pairs] = cpu;
			out->n_pairs++;
		}
		if (pass == 0)
			out->pairs_paired = out->n_pairs;
	}
	return 0;
}

static bool name_seen(const struct nb_cmp_point *out, const char *name)
{
	for (int i = 0; i < out->n_metrics; i++) {
		if (!strcmp(out->metrics[i].name, name))
			return true;
	}
	return false;
}

/* A point's status over the rounds: the worst round decides (a kernel that fails a point in one
 * boot of five is broken), and the error names the round. */
static int merge_status(struct nb_cmp_report *m, const struct nb_cmp_point **pt, int rounds,
			const struct nb_cmp_report *reports, struct nb_cmp_point *out)
{
	out->status = NB_CMP_STATUS_OK;
	for (int k = 0; k < rounds; k++) {
		char buf[512];

		if (!pt[k])
			continue;
		out->incomplete = out->incomplete || pt[k]->incomplete;
		if (pt[k]->status == NB_CMP_STATUS_OK || out->status != NB_CMP_STATUS_OK)
			continue;
		out->status = pt[k]->status;
		snprintf(buf, sizeof(buf), "round %d (%s): %s", reports[k].round.index ? reports[k].round.index : k + 1,
			 reports[k].path, pt[k]->error ? pt[k]->error : nb_cmp_status_name(pt[k]->status));
		if (!(out->error = nb_cmp_report_strdup(m, buf)))
			return -ENOMEM;
	}
	return 0;
}

static int merge_point(struct merge_ctx *mc, int side, const char *id, struct nb_cmp_point *out)
{
	struct nb_cmp_rounds *r = mc->r;
	struct nb_cmp_report *m = &r->merged[side];
	int rounds = r->n[side], room = 0, ret;
	const struct nb_cmp_point **pt = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(*pt));
	const struct nb_cmp_point **mate = nb_cmp_report_alloc(m, (size_t)rounds, sizeof(*mate));
	const struct nb_cmp_point *first = NULL;

	if (!pt || !mate)
		return -ENOMEM;
	for (int k = 0; k < rounds; k++) {
		int p = mc->partner[side][k];

		pt[k] = find_point(mc, side, k, id);
		mate[k] = p >= 0 ? find_point(mc, !side, p, id) : NULL;
		first = first ? first : pt[k];
		room += pt[k] ? pt[k]->n_metrics : 0;
	}
	out->id = first->id;
	out->test_name = first->test_name;
	out->direction = first->direction;
	out->knobs = first->knobs;
	out->test_json = first->test_json;
	out->headline = first->headline;
	if ((ret = merge_status(m, pt, rounds, r->reports[side], out)))
		return ret;
	out->metrics = nb_cmp_report_alloc(m, (size_t)room + 1, sizeof(*out->metrics));
	if (!out->metrics)
		return -ENOMEM;
	for (int k = 0; k < rounds; k++) {
		for (int i = 0; pt[k] && i < pt[k]->n_metrics; i++) {
			const char *name = pt[k]->metrics[i].name;

			if (name_seen(out, name))
				continue;
			if ((ret = merge_metric(mc, side, pt, mate, name, &out->metrics[out->n_metrics])))
				return ret;
			/* a metric no ok round measured (all of its rounds failed) is not data */
			out->n_metrics += out->metrics[out->n_metrics].n > 0;
		}
		if (!out->profile && pt[k] && pt[k]->n_profile) {
			out->profile = pt[k]->profile;
			out->n_profile = pt[k]->n_profile;
		}
	}
	return merge_pairs(mc, side, pt, mate, out);
}

static bool seen_before(const struct merge_ctx *mc, int side, int round, const char *id)
{
	for (int k = 0; k < round; k++) {
		if (find_point(mc, side, k, id))
			return true;
	}
	return false;
}

static int merge_side(struct merge_ctx *mc, int side)
{
	struct nb_cmp_rounds *r = mc->r;
	struct nb_cmp_report *m = &r->merged[side];
	const struct nb_cmp_report *reps = r->reports[side], *first = &reps[0];
	int rounds = r->n[side], total = 0, ret;
	char label[sizeof(r->label[0]) + 64];

	if (r->label[side][0])
		snprintf(label, sizeof(label), "%s (%d round%s of %c)", r->label[side], rounds, rounds == 1 ? "" : "s",
			 side_name(side));
	else
		snprintf(label, sizeof(label), "%d rounds of %c (%s .. %s)", rounds, side_name(side), first->path,
			 reps[rounds - 1].path);
	if (nb_cmp_report_init(m, label))
		return -ENOMEM;
	m->kernel_release = first->kernel_release;
	m->created = first->created;
	m->cpus = first->cpus;
	m->restore_status = first->restore_status;
	m->restore_error = first->restore_error;
	m->restore_knobs = first->restore_knobs;
	m->n_env = first->n_env;
	memcpy(m->env, first->env, sizeof(m->env));
	for (int k = 0; k < rounds; k++) {
		total += reps[k].n_points;
		if (!strcmp(reps[k].restore_status, "failed") && strcmp(m->restore_status, "failed")) {
			m->restore_status = reps[k].restore_status;
			m->restore_error = reps[k].restore_error;
		}
	}
	m->points = nb_cmp_report_alloc(m, (size_t)total, sizeof(*m->points));
	if (!m->points)
		return -ENOMEM;
	for (int k = 0; k < rounds; k++) {
		for (int i = 0; i < reps[k].n_points; i++) {
			const char *id = reps[k].points[i].id;

			if (seen_before(mc, side, k, id))
				continue;
			if ((ret = merge_point(mc, side, id, &m->points[m->n_points++])))
				return ret;
		}
	}
	return 0;
}

/* Reports on the wrong side, or a round index twice on a side: the set is not what it says. */
static int check_side(struct nb_cmp_rounds *r, int side, struct nb_err *err)
{
	struct nb_cmp_report *reps = r->reports[side];

	if (!r->n[side])
		return nb_err_set(err, -EINVAL, "compare over rounds: no report %s '--' (side %c)",
				  side == NB_CMP_SIDE_A ? "before" : "after", side_name(side));
	for (int k = 0; k < r->n[side]; k++) {
		const struct nb_cmp_round *rd = &reps[k].round;

		if (rd->present && rd->side != side_name(side))
			return nb_err_set(err, -EINVAL,
					  "compare over rounds: %s is round %c %d/%d, but stands %s '--' with side %c's rounds",
					  reps[k].path, rd->side, rd->index, rd->of, side == NB_CMP_SIDE_A ? "before" : "after",
					  side_name(side));
		if (!rd->present && r->paired) {
			r->paired = false;
			note(r, "%s names no round (nicbench run --round): the rounds are not paired; each round's "
				"medians count as one sample", reps[k].path);
		}
	}
	return 0;
}

static int check_indices(struct nb_cmp_rounds *r, int side, struct nb_err *err)
{
	struct nb_cmp_report *reps = r->reports[side];

	qsort(reps, (size_t)r->n[side], sizeof(*reps), by_round_index);
	for (int k = 1; k < r->n[side]; k++) {
		if (reps[k].round.index == reps[k - 1].round.index)
			return nb_err_set(err, -EINVAL, "compare over rounds: %s and %s are both round %c %d",
					  reps[k - 1].path, reps[k].path, side_name(side), reps[k].round.index);
	}
	return 0;
}

/* Rounds of the same index pair up; a round without a partner stays in its side's medians. */
static void pair_rounds(struct nb_cmp_rounds *r, struct merge_ctx *mc)
{
	int a = 0, b = 0, unpaired = 0;
	const struct nb_cmp_report *ra = r->reports[NB_CMP_SIDE_A], *rb = r->reports[NB_CMP_SIDE_B];

	while (a < r->n[NB_CMP_SIDE_A] || b < r->n[NB_CMP_SIDE_B]) {
		int ia = a < r->n[NB_CMP_SIDE_A] ? ra[a].round.index : -1;
		int ib = b < r->n[NB_CMP_SIDE_B] ? rb[b].round.index : -1;

		if (ia == ib) {
			mc->partner[NB_CMP_SIDE_A][a++] = b;
			mc->partner[NB_CMP_SIDE_B][b++] = a - 1;
			r->n_paired++;
			continue;
		}
		/* the smaller index (or the side with rounds left) has no partner */
		bool a_alone = ib < 0 || (ia >= 0 && ia < ib);

		if (++unpaired <= 3)
			note(r, "round %c %d (%s) has no partner among %c's rounds: left unpaired", a_alone ? 'A' : 'B',
			     a_alone ? ia : ib, a_alone ? ra[a].path : rb[b].path, a_alone ? 'B' : 'A');
		if (a_alone)
			a++;
		else
			b++;
	}
	if (unpaired > 3)
		note(r, "%d more rounds have no partner", unpaired - 3);
}

/* Notes only: a mixed set or two kernels on one side still compare, but the reader should know. */
static void check_consistency(struct nb_cmp_rounds *r)
{
	r->set = r->reports[NB_CMP_SIDE_A][0].round.set;
	for (int side = 0; side < 2; side++) {
		const struct nb_cmp_report *reps = r->reports[side];

		for (int k = 1; k < r->n[side]; k++) {
			if (strcmp(reps[k].kernel_release, reps[0].kernel_release)) {
				note(r, "side %c's rounds ran different kernels: %s (%s) and %s (%s)", side_name(side),
				     reps[0].kernel_release, reps[0].path, reps[k].kernel_release, reps[k].path);
				break;
			}
		}
		for (int k = 0; k < r->n[side]; k++) {
			if (reps[k].round.present && strcmp(reps[k].round.set, r->set)) {
				note(r, "the rounds come from more than one set (\"%s\" in %s, \"%s\" in %s): they pair by "
					"index all the same", r->set, r->reports[NB_CMP_SIDE_A][0].path, reps[k].round.set,
				     reps[k].path);
				return;
			}
		}
	}
}

int nb_cmp_rounds_merge(struct nb_cmp_rounds *r, struct nb_err *err)
{
	struct merge_ctx mc = { .r = r };
	int ret;

	r->paired = true;
	r->n_paired = 0;
	r->n_notes = 0;
	for (int side = 0; side < 2; side++) {
		if ((ret = check_side(r, side, err)))
			return ret;
	}
	for (int side = 0; r->paired && side < 2; side++) {
		if ((ret = check_indices(r, side, err)))
			return ret;
	}
	check_consistency(r);
	for (int side = 0; side < 2; side++) {
		if ((ret = index_points(&mc, side, err)))
			goto out;
	}
	if (r->paired)
		pair_rounds(r, &mc);
	for (int side = 0; side < 2; side++) {
		if ((ret = merge_side(&mc, side)))
			goto out;
	}
out:
	for (int side = 0; side < 2; side++) {
		free(mc.by_id[side]);
		free(mc.offset[side]);
		free(mc.partner[side]);
	}
	if (ret == -ENOMEM)
		return nb_err_set(err, ret, "compare over rounds: out of memory merging the rounds");
	return ret;
}

void nb_cmp_rounds_free(struct nb_cmp_rounds *r)
{
	for (int side = 0; side < 2; side++) {
		for (int k = 0; k < r->n[side]; k++)
			nb_cmp_report_free(&r->reports[side][k]);
		free(r->reports[side]);
		nb_cmp_report_free(&r->merged[side]);
	}
	memset(r, 0, sizeof(*r));
}
