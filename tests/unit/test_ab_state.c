// SPDX-License-Identifier: MIT
/* nicbench ab's pure parts: the pair order and round names (ab_schedule.c) and the state file's round
 * trip and checks (ab_state.c), on a temporary directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/ab_schedule.h"
#include "experiment/ab_state.h"
#include "nb_test.h"

static void test_schedule(void)
{
	/* A B, B A, A B, ...: the first boot of pair i and the second */
	static const int first[] = { -1, 0, 1, 0, 1, 0 };
	char buf[128];

	for (int pair = 1; pair <= 5; pair++) {
		CHECK(nb_ab_side_at(pair, 0) == first[pair]);
		CHECK(nb_ab_side_at(pair, 1) == 1 - first[pair]);
	}
	nb_ab_round_name(buf, sizeof(buf), 1, 3, 10, "ab-x");
	CHECK_STR(buf, "B:3/10:ab-x");
	nb_ab_report_name(buf, sizeof(buf), 0, 12);
	CHECK_STR(buf, "A/12.json");
	nb_ab_log_name(buf, sizeof(buf), 1, 2, 2);
	CHECK_STR(buf, "log/B.2.try2.log");
	CHECK(nb_ab_set_valid("ab-20261207T213101Z"));
	CHECK(nb_ab_set_valid("a.b_c-d"));
	CHECK(!nb_ab_set_valid(""));
	CHECK(!nb_ab_set_valid("a b"));
	CHECK(!nb_ab_set_valid("a/b"));
	CHECK(!nb_ab_set_valid("0123456789012345678901234567890123456789012345678901234567890123")); /* 64 */
}

static void test_state_round_trip(const char *dir)
{
	struct nb_ab_state s, t;
	struct nb_err err = { 0 };

	CHECK(nb_ab_state_init(&s, "6.12.0", "6.12.1 with spaces", "./hook.sh --x 'y'", "set-1", &err) == 0);
	s.max_pairs = 10;
	s.looks = 2;
	s.wall_s = 12.5;
	s.boots[0][1] = (struct nb_ab_boot_record){ true, 1, 3.0 };
	s.boots[1][1] = (struct nb_ab_boot_record){ true, 2, 4.0 };
	s.boots[1][2] = (struct nb_ab_boot_record){ true, 1, 3.5 };
	s.boots[0][2] = (struct nb_ab_boot_record){ false, 2, 0 }; /* failed twice */
	CHECK(nb_ab_state_pairs(&s) == 1);
	s.status = "boot failed";
	s.exit_code = 5;
	CHECK_MSG(nb_ab_state_save(&s, dir, &err) == 0, "%s", err.msg);
	CHECK_MSG(nb_ab_state_load(&t, dir, &err) == 0, "%s", err.msg);
	CHECK_STR(t.set, "set-1");
	CHECK_STR(t.kernel[0], "6.12.0");
	CHECK_STR(t.kernel[1], "6.12.1 with spaces");
	CHECK_STR(t.boot, "./hook.sh --x 'y'");
	CHECK_STR(t.status, "boot failed");
	CHECK(t.max_pairs == 10 && t.looks == 2 && t.exit_code == 5);
	CHECK(nb_ab_state_pairs(&t) == 1);
	CHECK(t.boots[1][1].done && t.boots[1][1].attempts == 2);
	CHECK(!t.boots[0][2].done && t.boots[0][2].attempts == 2);
	CHECK(t.boots[1][2].done);
	nb_ab_state_free(&s);
	nb_ab_state_free(&t);
}

static void test_state_bad(const char *dir)
{
	static const char *const bad[] = {
		"not json",
		"{\"schema\": \"nicbench-ab-state/9\"}",
		"{\"schema\": \"nicbench-ab-state/1\", \"set\": \"a b\", \"kernels\": {\"A\": \"x\", \"B\": \"y\"}, \"boot\": \"h\", "
		"\"max_pairs\": 3, \"status\": \"running\", \"boots\": []}",
		"{\"schema\": \"nicbench-ab-state/1\", \"set\": \"s\", \"kernels\": {\"A\": \"x\", \"B\": \"y\"}, \"boot\": \"h\", "
		"\"max_pairs\": 3, \"status\": \"running\", \"boots\": [{\"side\": \"C\", \"pair\": 1, \"done\": true, "
		"\"attempts\": 1}]}",
	};
	char path[512];
	struct nb_ab_state s;
	struct nb_err err = { 0 };

	snprintf(path, sizeof(path), "%s/%s", dir, NB_AB_STATE_FILE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		CHECK(f != NULL);
		if (!f)
			return;
		fputs(bad[i], f);
		fclose(f);
		CHECK_MSG(nb_ab_state_load(&s, dir, &err) == -EINVAL, "case %zu loaded", i);
		CHECK_MSG(strstr(err.msg, path) != NULL, "case %zu: the message does not name the file: %s", i, err.msg);
	}
	unlink(path);
	CHECK(nb_ab_state_load(&s, dir, &err) == -ENOENT);
}

int main(void)
{
	char dir[] = "/tmp/nb-ab-state-XXXXXX";

	test_schedule();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_state_round_trip(dir);
	test_state_bad(dir);
	unlink(strcat(strcpy((char[600]){ 0 }, dir), "/" NB_AB_STATE_FILE));
	rmdir(dir);
	return nb_test_done("test_ab_state");
}
