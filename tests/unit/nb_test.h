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

static inline int nb_test_done(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, nb_test_passed, nb_test_failed);
	return nb_test_failed ? 1 : 0;
}

#endif
