// SPDX-License-Identifier: MIT
/* A tiny table-friendly test kit: CHECK records a failure with its line and goes on;
 * nb_test_done() prints "N passed, N failed" and returns the exit code. */
#ifndef NB_TEST_H
#define NB_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nb_test_passed, nb_test_failed;

#define CHECK(cond) do { \
	if (cond) { nb_test_passed++; } \
	else { nb_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define CHECK_MSG(cond, ...) do { \
	if (cond) { nb_test_passed++; } \
	else { nb_test_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
	       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

#define CHECK_STR(a, b) CHECK_MSG(strcmp((a), (b)) == 0, "\"%s\" != \"%s\"", (a), (b))
#define CHECK_NEAR(a, b, eps) CHECK_MSG(fabs((double)(a) - (double)(b)) <= (eps), "%.9g != %.9g", (double)(a), (double)(b))

static inline const char *nb_test_fixture(const char *rel)
{
	static char buf[1024];
	const char *root = getenv("NB_FIXTURES");

	snprintf(buf, sizeof(buf), "%s/%s", root ? root : "tests/fixtures", rel);
	return buf;
}

/* Copy a fixture tree into a new temporary directory (root receives its path), so a test
 * can write to it and the fixture in the repo stays clean. Returns 0 or -1. */
static inline int nb_test_tree_copy(const char *fixture, char *root, size_t len)
{
	char cmd[3 * 1024];

	snprintf(root, len, "/tmp/nb-test-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/.' '%s/'", nb_test_fixture(fixture), root);
	return system(cmd) == 0 ? 0 : -1;
}

static inline void nb_test_tree_remove(const char *root)
{
	char cmd[1024 + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

static inline int nb_test_done(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, nb_test_passed, nb_test_failed);
	return nb_test_failed ? 1 : 0;
}

#endif
