// SPDX-License-Identifier: MIT
/* nicbench submit: send a KCIDB file (report/compare --format kcidb) to KCIDB's REST API and wait for its verdict. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "kit/nb_error.h"
#include "kit/options.h"
#include "submit/kcidb_rest.h"

/* submit's own exit codes past the shared 0/1/2 (commands.h); --help and the man page list them */
enum {
	SUBMIT_EXIT_REFUSED = 4,     /* a 4xx answer: 401 bad token, 413 too large, 400 not JSON; never retried */
	SUBMIT_EXIT_UNREACHABLE = 5, /* network errors or 5xx answers after every retry */
	SUBMIT_EXIT_TIMEOUT = 6,     /* received, but neither processed nor failed within --timeout */
};

struct submit_cli {
	const char *path;
	struct nb_kcidb_policy pol;
};

static void submit_usage(FILE *out)
{
	fputs("usage: KCIDB_REST=https://TOKEN@HOST[:PORT] nicbench submit [OPTIONS] FILE.kcidb.json\n"
	      "\n"
	      "Send a KCIDB v5.3 file (what report or compare wrote in the kcidb format) to KCIDB's REST API:\n"
	      "POST /submit with the token as 'Authorization: Bearer', then GET /status?id=... until\n"
	      "the ingester answers processed or failed. 'ok' from /submit only means received.\n"
	      "The token comes from KCIDB_REST only (never the command line) and is never printed;\n"
	      "plain http is refused unless the host is a loopback address.\n"
	      "\n"
	      "options:\n"
	      "  -t, --timeout S    wait at most S seconds for processed/failed (default 600)\n"
	      "      --poll S       between two status queries (default 5)\n"
	      "      --retries N    retries of a request after a 5xx or a network error (default 5);\n"
	      "                     a 4xx is never retried\n"
	      "      --backoff S    the first wait before a retry, doubled each time up to 30 (default 2)\n"
	      "  -v, --verbose      libcurl's trace on stderr (the Authorization header hidden)\n"
	      "  -q, --quiet        no progress lines\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "exit codes: 0 processed (KCIDB accepted it); 1 failed (the reason is printed) or lost\n"
	      "(notfound); 2 usage or input error (no KCIDB_REST, bad URL, http to a non-loopback host,\n"
	      "FILE unreadable, not JSON or not KCIDB v5.3); 4 refused with a 4xx (401: the token;\n"
	      "413: the file is too large; 400: not JSON), never retried; 5 unreachable or 5xx after\n"
	      "every retry; 6 received but not processed within --timeout (the id is printed).\n"
	      "The guide: docs/boards.md.\n",
	      out);
}

static int usage_error(struct nb_err *err, const char *msg, const char *arg)
{
	return nb_err_set(err, -EINVAL, "%s%s%s (try 'nicbench submit --help')", msg, arg ? ": " : "", arg ? arg : "");
}

static int parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

enum { OPT_POLL = 256, OPT_RETRIES, OPT_BACKOFF };

static const struct option long_options[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ "poll", required_argument, NULL, OPT_POLL },
	{ "retries", required_argument, NULL, OPT_RETRIES },
	{ "backoff", required_argument, NULL, OPT_BACKOFF },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_cli(struct submit_cli *cli, int argc, char **argv, struct nb_err *err)
{
	double retries;
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->pol = (struct nb_kcidb_policy){ .timeout_s = 600, .poll_s = 5, .retries = 5, .backoff_s = 2,
					     .log = stdout };
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "t:vqh", long_options, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_seconds(optarg, 0, 86400, &cli->pol.timeout_s))
				return usage_error(err, "--timeout wants seconds, 0..86400", optarg);
			break;
		case OPT_POLL:
			if (parse_seconds(optarg, 0.01, 3600, &cli->pol.poll_s))
				return usage_error(err, "--poll wants seconds, 0.01..3600", optarg);
			break;
		case OPT_RETRIES:
			if (parse_seconds(optarg, 0, 100, &retries) || retries != (int)retries)
				return usage_error(err, "--retries wants a whole number, 0..100", optarg);
			cli->pol.retries = (int)retries;
			break;
		case OPT_BACKOFF:
			if (parse_seconds(optarg, 0.01, 30, &cli->pol.backoff_s))
				return usage_error(err, "--backoff wants seconds, 0.01..30", optarg);
			break;
		case 'v':
			cli->pol.verbose = true;
			break;
		case 'q':
			cli->pol.log = NULL;
			break;
		case 'h':
			return 1;
		default:
			return usage_error(err, "bad option", NULL);
		}
	}
	if (argc - optind != 1)
		return usage_error(err, "expected one file, FILE.kcidb.json", NULL);
	cli->path = argv[optind];
	return 0;
}

/* The file as bytes to send, after checking it is what KCIDB's v5.3 REST API takes: a JSON object whose version
 * is 5.3. The schema itself is the ingester's to check (its verdict comes back through /status). */
static int load_payload(const char *path, char **body, size_t *len, struct nb_err *err)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr), *ver;
	FILE *f;
	long n;

	*body = NULL;
	if (!doc)
		return nb_err_set(err, -EINVAL, "read %s: %s (line %d)", path, jerr.text, jerr.line);
	ver = json_object_get(doc, "version");
	if (!json_is_object(doc) || json_integer_value(json_object_get(ver, "major")) != 5 ||
	    json_integer_value(json_object_get(ver, "minor")) != 3) {
		json_decref(doc);
		return nb_err_set(err, -EINVAL, "%s is not a KCIDB v5.3 document (no \"version\": {\"major\": 5, "
				  "\"minor\": 3}); write it with report or compare --format kcidb", path);
	}
	json_decref(doc);
	/* the bytes as written, not a re-encoding: what was validated locally is what KCIDB gets */
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		int e = errno;

		if (f)
			fclose(f);
		return nb_err_set(err, -e, "read %s: %s", path, strerror(e));
	}
	*body = malloc((size_t)n + 1);
	if (!*body || fread(*body, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(*body);
		*body = NULL;
		return nb_err_set(err, -EIO, "read %s: short read", path);
	}
	fclose(f);
	(*body)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

static int outcome_exit(const struct nb_kcidb_result *res, const struct nb_kcidb_endpoint *ep, const char *path)
{
	switch (res->outcome) {
	case NB_KCIDB_PROCESSED:
		printf("nicbench submit: %s processed by %s (submission %s)\n", path, ep->base, res->id);
		return NB_EXIT_OK;
	case NB_KCIDB_FAILED:
		fprintf(stderr, "nicbench submit: %s: KCIDB did not take submission %s: %s%s%s\n", path,
			res->id[0] ? res->id : "(no id)", res->status[0] ? res->status : "failed",
			res->message[0] ? ": " : "", res->message);
		return NB_EXIT_FAIL;
	case NB_KCIDB_REFUSED:
		fprintf(stderr, "nicbench submit: %s refused by %s: HTTP %ld%s%s%s\n", path, ep->base, res->http_code,
			res->http_code == 401   ? " (the token in KCIDB_REST was not accepted)" :
			res->http_code == 413 ? " (the file is larger than the server takes)" :
			res->http_code == 400 ? " (the server could not read the request)" : "",
			res->message[0] ? ": " : "", res->message);
		return SUBMIT_EXIT_REFUSED;
	case NB_KCIDB_UNREACHABLE:
		fprintf(stderr, "nicbench submit: %s: %s %s after %d request(s): %s\n", path, ep->base,
			res->http_code ? "kept answering with a server error" : "could not be reached", res->requests,
			res->message[0] ? res->message : "no answer");
		if (res->id[0])
			fprintf(stderr, "nicbench submit: it had received the file as %s; its status is unknown\n", res->id);
		return SUBMIT_EXIT_UNREACHABLE;
	case NB_KCIDB_TIMEOUT:
		fprintf(stderr, "nicbench submit: %s: submission %s still '%s' at %s after the timeout\n", path,
			res->id, res->status, ep->base);
		return SUBMIT_EXIT_TIMEOUT;
	}
	return NB_EXIT_FAIL;
}

int cmd_submit(int argc, char **argv)
{
	struct submit_cli cli;
	struct nb_kcidb_endpoint ep;
	struct nb_kcidb_result res;
	struct nb_err err = { 0 };
	const char *rest;
	char *body = NULL;
	size_t len = 0;
	int rc = parse_cli(&cli, argc, argv, &err);

	if (nb_opts_done(rc, "submit", &err, submit_usage, &rc))
		return rc;
	rest = getenv("KCIDB_REST");
	if (!rest || !rest[0]) {
		fprintf(stderr, "nicbench submit: KCIDB_REST is not set (https://TOKEN@HOST[:PORT], the token "
				"KernelCI gave your lab)\n");
		return NB_EXIT_USAGE;
	}
	if (nb_kcidb_endpoint_parse(rest, &ep, &err)) {
		fprintf(stderr, "nicbench submit: %s\n", err.msg);
		return NB_EXIT_USAGE;
	}
	if (load_payload(cli.path, &body, &len, &err)) {
		fprintf(stderr, "nicbench submit: %s\n", err.msg);
		rc = NB_EXIT_USAGE;
		goto out;
	}
	if (nb_kcidb_submit(&ep, body, len, &cli.pol, &res, &err)) {
		fprintf(stderr, "nicbench submit: %s\n", err.msg);
		rc = NB_EXIT_USAGE;
		goto out;
	}
	if (cli.pol.log)
		fflush(cli.pol.log);
	rc = outcome_exit(&res, &ep, cli.path);
out:
	free(body);
	explicit_bzero(ep.token, sizeof(ep.token));
	return rc;
}
