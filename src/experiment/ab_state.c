// SPDX-License-Identifier: MIT
/* The A/B state file (ab_state.h), through jansson. */
#include "ab_state.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int nb_ab_state_init(struct nb_ab_state *s, const char *kernel_a, const char *kernel_b, const char *boot,
		     const char *set, struct nb_err *err)
{
	memset(s, 0, sizeof(*s));
	s->exit_code = -1;
	s->status = "running";
	if (set) {
		snprintf(s->set, sizeof(s->set), "%s", set);
	} else {
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(s->set, sizeof(s->set), "ab-%Y%m%dT%H%M%SZ", &tm);
	}
	s->kernel[0] = strdup(kernel_a);
	s->kernel[1] = strdup(kernel_b);
	s->boot = strdup(boot);
	if (!s->kernel[0] || !s->kernel[1] || !s->boot) {
		nb_ab_state_free(s);
		return nb_err_set(err, -ENOMEM, "new A/B state: %s", strerror(ENOMEM));
	}
	return 0;
}

void nb_ab_state_free(struct nb_ab_state *s)
{
	free(s->kernel[0]);
	free(s->kernel[1]);
	free(s->boot);
	s->kernel[0] = s->kernel[1] = s->boot = NULL;
}

int nb_ab_state_pairs(const struct nb_ab_state *s)
{
	int n = 0;

	while (n < NB_AB_PAIRS_MAX && s->boots[0][n + 1].done && s->boots[1][n + 1].done)
		n++;
	return n;
}

/* The status literals a state may hold: a loaded one is mapped back onto them. */
static const char *const statuses[] = { "running", "decided", "regressed", "undecided", "withheld", "boot failed",
					"interrupted" };

static const char *status_literal(const char *text)
{
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (text && !strcmp(text, statuses[i]))
			return statuses[i];
	return NULL;
}

static json_t *boots_json(const struct nb_ab_state *s)
{
	json_t *arr = json_array();

	for (int pair = 1; arr && pair <= NB_AB_PAIRS_MAX; pair++) {
		for (int side = 0; side < 2; side++) {
			const struct nb_ab_boot_record *b = &s->boots[side][pair];
			char report[32], name[2] = { nb_ab_side_name(side), 0 };

			if (!b->done && !b->attempts)
				continue;
			nb_ab_report_name(report, sizeof(report), side, pair);
			json_array_append_new(arr, json_pack("{s:s, s:i, s:b, s:i, s:f, s:s}", "side", name, "pair", pair,
							     "done", b->done, "attempts", b->attempts, "wall_s",
							     b->wall_s, "report", report));
		}
	}
	return arr;
}

int nb_ab_state_save(const struct nb_ab_state *s, const char *dir, struct nb_err *err)
{
	char path[4096], tmp[4200];
	json_t *root;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, NB_AB_STATE_FILE);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	root = json_pack("{s:s, s:s, s:{s:s, s:s}, s:s, s:i, s:s, s:i, s:i, s:f, s:o}", "schema", NB_AB_STATE_SCHEMA,
			 "set", s->set, "kernels", "A", s->kernel[0], "B", s->kernel[1], "boot", s->boot, "max_pairs",
			 s->max_pairs, "status", s->status, "pairs", nb_ab_state_pairs(s), "looks", s->looks,
			 "wall_s", s->wall_s, "boots", boots_json(s));
	if (!root)
		return nb_err_set(err, -ENOMEM, "write %s: %s", path, strerror(ENOMEM));
	if (s->exit_code >= 0)
		json_object_set_new(root, "exit", json_integer(s->exit_code));
	json_object_set_new(root, "design", json_string(s->fixed ? "fixed" : "sequential"));
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		ret = nb_err_set(err, -errno, "write %s: %s", tmp, strerror(errno));
	else if (json_dumpfd(root, fd, JSON_INDENT(2) | JSON_PRESERVE_ORDER) || write(fd, "\n", 1) != 1 || fsync(fd))
		ret = nb_err_set(err, -EIO, "write %s: %s", tmp, strerror(errno ? errno : EIO));
	if (fd >= 0 && close(fd) && !ret)
		ret = nb_err_set(err, -errno, "write %s: %s", tmp, strerror(errno));
	if (!ret && rename(tmp, path))
		ret = nb_err_set(err, -errno, "rename %s to %s: %s", tmp, path, strerror(errno));
	json_decref(root);
	return ret;
}

static int load_boots(struct nb_ab_state *s, json_t *boots, const char *path, struct nb_err *err)
{
	size_t i;
	json_t *b;

	json_array_foreach(boots, i, b) {
		const char *side = NULL;
		int pair = 0, done = 0, attempts = 0;
		double wall = 0;

		if (json_unpack(b, "{s:s, s:i, s:b, s:i, s?F}", "side", &side, "pair", &pair, "done", &done, "attempts",
				&attempts, "wall_s", &wall) ||
		    (strcmp(side, "A") && strcmp(side, "B")) || pair < 1 || pair > NB_AB_PAIRS_MAX)
			return nb_err_set(err, -EINVAL, "read %s: boots[%zu] is not {side: A|B, pair: 1..%d, done, attempts}",
					  path, i, NB_AB_PAIRS_MAX);
		s->boots[side[0] == 'B'][pair] = (struct nb_ab_boot_record){ done, attempts, wall };
	}
	return 0;
}

int nb_ab_state_load(struct nb_ab_state *s, const char *dir, struct nb_err *err)
{
	char path[4096];
	const char *schema = NULL, *set = NULL, *ka = NULL, *kb = NULL, *boot = NULL, *status = NULL,
		   *design = "sequential"; /* a state from before the fixed design */
	json_t *root, *boots = NULL;
	json_error_t jerr;
	int max_pairs = 0, looks = 0, exit_code = -1, ret;
	double wall = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, NB_AB_STATE_FILE);
	if (access(path, F_OK))
		return -ENOENT;
	root = json_load_file(path, 0, &jerr);
	if (!root)
		return nb_err_set(err, -EINVAL, "read %s: not valid JSON: %s (line %d)", path, jerr.text, jerr.line);
	if (json_unpack(root, "{s:s, s:s, s:{s:s, s:s}, s:s, s:i, s:s, s?i, s?F, s:o, s?i, s?s}", "schema", &schema,
			"set", &set, "kernels", "A", &ka, "B", &kb, "boot", &boot, "max_pairs", &max_pairs, "status",
			&status, "looks", &looks, "wall_s", &wall, "boots", &boots, "exit", &exit_code, "design",
			&design) ||
	    strcmp(schema, NB_AB_STATE_SCHEMA) || !json_is_array(boots) || !nb_ab_set_valid(set) ||
	    !status_literal(status) || (strcmp(design, "fixed") && strcmp(design, "sequential"))) {
		json_decref(root);
		return nb_err_set(err, -EINVAL, "read %s: not a %s state file (made by another nicbench, or edited?)",
				  path, NB_AB_STATE_SCHEMA);
	}
	ret = nb_ab_state_init(s, ka, kb, boot, set, err);
	if (!ret) {
		s->max_pairs = max_pairs;
		s->fixed = !strcmp(design, "fixed");
		s->status = status_literal(status);
		s->looks = looks;
		s->wall_s = wall;
		s->exit_code = exit_code;
		ret = load_boots(s, boots, path, err);
	}
	json_decref(root);
	if (ret)
		nb_ab_state_free(s);
	return ret;
}
