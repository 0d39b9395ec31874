// SPDX-License-Identifier: MIT
/* KCIDB's REST submission (kernelci/kcidb-ng's kcidb-restd): POST /submit with a bearer token, then GET /status
 * until the ingester has processed or failed the file. The token is kept apart from anything printable. */
#ifndef NB_KCIDB_REST_H
#define NB_KCIDB_REST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kit/nb_error.h"

struct nb_kcidb_endpoint {
	char base[512];    /* scheme://host[:port][/path] without credentials: safe to print */
	char token[4096];  /* the bearer token: never printed, never put in a URL */
};

/* KCIDB_REST's form, as kcidb's own client reads it: https://TOKEN@HOST[:PORT][/PATH] (a trailing /submit is
 * dropped). Plain http is refused unless the host is a loopback address. */
int nb_kcidb_endpoint_parse(const char *kcidb_rest, struct nb_kcidb_endpoint *ep, struct nb_err *err);

struct nb_kcidb_policy {
	double timeout_s;  /* from the POST's answer until processed/failed */
	double poll_s;     /* between two GET /status */
	int retries;       /* per request, after a 5xx or a network error; a 4xx is never retried */
	double backoff_s;  /* the first wait before a retry, doubled each time, at most 30 s */
	bool verbose;      /* libcurl's trace on stderr, the Authorization header hidden */
	FILE *log;         /* progress lines; NULL: none */
};

enum nb_kcidb_outcome {
	NB_KCIDB_PROCESSED,    /* status "processed": ingested (archived) */
	NB_KCIDB_FAILED,       /* status "failed" (did not pass validation) or "notfound" */
	NB_KCIDB_REFUSED,      /* a 4xx answer: bad token (401), too large (413), not JSON (400) */
	NB_KCIDB_UNREACHABLE,  /* network errors or 5xx answers after every retry */
	NB_KCIDB_TIMEOUT,      /* still inprogress/ready when timeout_s ran out */
};

struct nb_kcidb_result {
	enum nb_kcidb_outcome outcome;
	char id[128];          /* the submission id the POST answered */
	char status[32];       /* the last status answered */
	long http_code;        /* of the last answer (0: none) */
	char message[512];     /* the server's message or the network error, token removed */
	int requests;          /* HTTP requests made, retries included */
};

/* Send body (a KCIDB JSON document) and follow it to a conclusion. 0 when one was reached (res->outcome says
 * which); -errno when nothing could be tried (libcurl could not start, or nicbench was built without it). */
int nb_kcidb_submit(const struct nb_kcidb_endpoint *ep, const char *body, size_t len,
		    const struct nb_kcidb_policy *pol, struct nb_kcidb_result *res, struct nb_err *err);

/* Copy s into buf with every occurrence of secret replaced by "[token hidden]". */
void nb_kcidb_redact(char *buf, size_t len, const char *s, const char *secret);

#endif
