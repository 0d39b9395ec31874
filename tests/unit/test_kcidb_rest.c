// SPDX-License-Identifier: MIT
/* KCIDB_REST as nicbench submit reads it: base URL and token apart, http only to loopback, and the token removed
 * from anything printed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nb_test.h"
#include "submit/kcidb_rest.h"

#ifdef NB_HAVE_LIBCURL
struct endpoint_case {
	const char *rest;
	int ret;
	const char *base, *token;
};

static const struct endpoint_case endpoint_cases[] = {
	{ "https://tok123@db.kernelci.org", 0, "https://db.kernelci.org", "tok123" },
	{ "https://tok123@db.kernelci.org/", 0, "https://db.kernelci.org", "tok123" },
	/* kci-dev's form names the submit endpoint: the base is kept */
	{ "https://a.b.c@staging.db.kernelci.org:8443/submit", 0, "https://staging.db.kernelci.org:8443", "a.b.c" },
	{ "https://tok@host.example/kcidb/submit/", 0, "https://host.example/kcidb", "tok" },
	/* a token with URL escapes is sent decoded */
	{ "https://to%2Bk@host.example", 0, "https://host.example", "to+k" },
	{ "http://tok@127.0.0.1:8080", 0, "http://127.0.0.1:8080", "tok" },
	{ "http://tok@127.9.8.7", 0, "http://127.9.8.7", "tok" },
	{ "http://tok@localhost:99", 0, "http://localhost:99", "tok" },
	{ "http://tok@[::1]:8080", 0, "http://[::1]:8080", "tok" },
	/* clear text off the machine */
	{ "http://Zq9x@db.kernelci.org", -EPERM, NULL, NULL },
	{ "http://Zq9x@10.0.0.1", -EPERM, NULL, NULL },
	{ "http://Zq9x@[::2]", -EPERM, NULL, NULL },
	{ "https://db.kernelci.org", -EINVAL, NULL, NULL },
	{ "ftp://Zq9x@host.example", -EINVAL, NULL, NULL },
	{ "not a url", -EINVAL, NULL, NULL },
};

static void test_endpoint(void)
{
	for (size_t i = 0; i < sizeof(endpoint_cases) / sizeof(endpoint_cases[0]); i++) {
		const struct endpoint_case *c = &endpoint_cases[i];
		struct nb_kcidb_endpoint ep;
		struct nb_err err = { 0 };
		int ret = nb_kcidb_endpoint_parse(c->rest, &ep, &err);

		CHECK_MSG(ret == c->ret, "%s: %d, want %d (%s)", c->rest, ret, c->ret, err.msg);
		if (!c->ret && !ret) {
			CHECK_STR(ep.base, c->base);
			CHECK_STR(ep.token, c->token);
		}
		if (ret) {
			/* the message names the host, never the token */
			CHECK_MSG(!strstr(err.msg, "Zq9x"), "%s: the message shows the token: %s", c->rest, err.msg);
			CHECK(ep.token[0] == '\0');
		}
	}
}
#endif

static void test_redact(void)
{
	char buf[64];

	nb_kcidb_redact(buf, sizeof(buf), "Bearer s3cr3t and s3cr3t", "s3cr3t");
	CHECK_STR(buf, "Bearer [token hidden] and [token hidden]");
	nb_kcidb_redact(buf, sizeof(buf), "nothing to hide", "s3cr3t");
	CHECK_STR(buf, "nothing to hide");
	nb_kcidb_redact(buf, sizeof(buf), "no secret given", "");
	CHECK_STR(buf, "no secret given");
	/* cut short rather than overflow, and never half a token */
	nb_kcidb_redact(buf, 12, "abcdefghij s3cr3t", "s3cr3t");
	CHECK_STR(buf, "abcdefghij ");
}

int main(void)
{
#ifdef NB_HAVE_LIBCURL
	test_endpoint();
#endif
	test_redact();
	return nb_test_done("test_kcidb_rest");
}
