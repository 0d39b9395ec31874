// SPDX-License-Identifier: MIT
/* KCIDB REST client over libcurl: the endpoint from KCIDB_REST, POST /submit, GET /status, retries with backoff. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "kit/nb_time.h"
#include "submit/kcidb_rest.h"

#ifdef NB_HAVE_LIBCURL
#include <curl/curl.h>
#endif

#define BACKOFF_MAX_S 30.0
#define HIDDEN "[token hidden]"

void nb_kcidb_redact(char *buf, size_t len, const char *s, const char *secret)
{
	size_t o = 0, slen = secret ? strlen(secret) : 0;

	if (!len)
		return;
	while (*s && o + 1 < len) {
		if (slen && !strncmp(s, secret, slen)) {
			size_t n = strlen(HIDDEN);

			if (o + n >= len)
				break;
			memcpy(buf + o, HIDDEN, n);
			o += n;
			s += slen;
			continue;
		}
		buf[o++] = *s++;
	}
	buf[o] = '\0';
}

/* http:// only where nothing leaves the machine: the token would cross the wire in clear text otherwise. */
static bool host_is_loopback(const char *host)
{
	unsigned char a[16];
	char h[64];
	size_t n = strlen(host);

	if (!strcasecmp(host, "localhost"))
		return true;
	if (n >= sizeof(h))
		return false;
	/* libcurl hands IPv6 hosts back in brackets */
	if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
		memcpy(h, host + 1, n - 2);
		h[n - 2] = '\0';
	} else {
		memcpy(h, host, n + 1);
	}
	if (inet_pton(AF_INET, h, a) == 1)
		return a[0] == 127;
	if (inet_pton(AF_INET6, h, a) == 1)
		return !memcmp(a, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1", 16);
	return false;
}

#ifdef NB_HAVE_LIBCURL

static int url_part(CURLU *u, CURLUPart part, unsigned flags, char *buf, size_t len)
{
	char *v = NULL;
	CURLUcode rc = curl_url_get(u, part, &v, flags);

	buf[0] = '\0';
	if (rc != CURLUE_OK)
		return -ENOENT;
	if (strlen(v) >= len) {
		curl_free(v);
		return -ENAMETOOLONG;
	}
	strcpy(buf, v);
	curl_free(v);
	return 0;
}

int nb_kcidb_endpoint_parse(const char *kcidb_rest, struct nb_kcidb_endpoint *ep, struct nb_err *err)
{
	char scheme[16], host[256], port[16], path[256];
	CURLU *u = curl_url();
	size_t plen;
	int ret = 0;

	memset(ep, 0, sizeof(*ep));
	if (!u)
		return nb_err_set(err, -ENOMEM, "KCIDB_REST: cannot allocate a URL parser");
	/* messages never quote KCIDB_REST itself: it carries the token */
	if (curl_url_set(u, CURLUPART_URL, kcidb_rest, 0) != CURLUE_OK) {
		ret = nb_err_set(err, -EINVAL, "KCIDB_REST is not a URL (want https://TOKEN@HOST[:PORT])");
		goto out;
	}
	url_part(u, CURLUPART_SCHEME, 0, scheme, sizeof(scheme));
	if (url_part(u, CURLUPART_HOST, 0, host, sizeof(host))) {
		ret = nb_err_set(err, -EINVAL, "KCIDB_REST has no host (want https://TOKEN@HOST[:PORT])");
		goto out;
	}
	if (strcmp(scheme, "https") && strcmp(scheme, "http")) {
		ret = nb_err_set(err, -EINVAL, "KCIDB_REST: scheme %s is not http(s) (want https://TOKEN@%s)", scheme, host);
		goto out;
	}
	if (!strcmp(scheme, "http") && !host_is_loopback(host)) {
		ret = nb_err_set(err, -EPERM, "KCIDB_REST: plain http to %s would send the token in clear text; "
				 "use https (http is allowed only to a loopback address)", host);
		goto out;
	}
	if (url_part(u, CURLUPART_USER, CURLU_URLDECODE, ep->token, sizeof(ep->token)) || !ep->token[0]) {
		ret = nb_err_set(err, -EINVAL, "KCIDB_REST has no token (want %s://TOKEN@%s[:PORT])", scheme, host);
		goto out;
	}
	if (url_part(u, CURLUPART_PORT, 0, port, sizeof(port)))
		port[0] = '\0';
	if (url_part(u, CURLUPART_PATH, 0, path, sizeof(path)))
		path[0] = '\0';
	/* kcidb's clients accept the base or the /submit URL: keep the base, the requests add their endpoint */
	plen = strlen(path);
	while (plen && path[plen - 1] == '/')
		path[--plen] = '\0';
	if (plen >= 7 && !strcmp(path + plen - 7, "/submit"))
		path[plen - 7] = '\0';
	if ((size_t)snprintf(ep->base, sizeof(ep->base), "%s://%s%s%s%s", scheme, host, port[0] ? ":" : "", port, path) >=
	    sizeof(ep->base))
		ret = nb_err_set(err, -ENAMETOOLONG, "KCIDB_REST: the URL of %s is too long", host);
out:
	curl_url_cleanup(u);
	if (ret)
		memset(ep->token, 0, sizeof(ep->token));
	return ret;
}

struct answer {
	char buf[8192];  /* kcidb-restd answers a small JSON object; more is cut, never overflowed */
	size_t len;
};

static size_t answer_write(char *data, size_t size, size_t n, void *userp)
{
	struct answer *a = userp;
	size_t len = size * n, room = sizeof(a->buf) - 1 - a->len;

	memcpy(a->buf + a->len, data, len < room ? len : room);
	a->len += len < room ? len : room;
	a->buf[a->len] = '\0';
	return len;
}

/* -v: libcurl's trace, line by line, with the Authorization header and any copy of the token hidden. */
static int trace(CURL *c, curl_infotype type, char *data, size_t size, void *userp)
{
	const struct nb_kcidb_endpoint *ep = userp;
	const char *mark = type == CURLINFO_TEXT ? "* " : type == CURLINFO_HEADER_OUT ? "> " :
			   type == CURLINFO_HEADER_IN ? "< " : NULL;
	char line[1024], shown[1200];
	size_t i = 0;

	(void)c;
	if (!mark)
		return 0;  /* bodies are not traced: the document is the user's own file */
	while (i < size) {
		size_t n = 0;

		while (i + n < size && data[i + n] != '\n' && n + 1 < sizeof(line))
			n++;
		memcpy(line, data + i, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		i += n + (i + n < size && data[i + n] == '\n');
		if (!line[0])
			continue;
		if (!strncasecmp(line, "Authorization:", 14))
			snprintf(line, sizeof(line), "Authorization: Bearer %s", HIDDEN);
		nb_kcidb_redact(shown, sizeof(shown), line, ep->token);
		fprintf(stderr, "%s%s\n", mark, shown);
	}
	return 0;
}

struct exchange {
	long code;         /* HTTP status; 0: no answer (network error) */
	char status[32];   /* the answer's "status" */
	char id[128];      /* the answer's "id" */
	char message[512]; /* the answer's "message", or curl's error; token removed */
};

/* One HTTP request. 0 with x->code set when the server answered (whatever the code); -EIO on a network error. */
static int request_once(const struct nb_kcidb_endpoint *ep, const char *url, const char *body, size_t len,
			const struct nb_kcidb_policy *pol, struct exchange *x)
{
	char auth[sizeof(ep->token) + 32], curl_err[CURL_ERROR_SIZE] = "";
	struct curl_slist *hdr = NULL, *h;
	struct answer a = { .len = 0 };
	CURL *c = curl_easy_init();
	CURLcode rc;
	json_t *j;

	memset(x, 0, sizeof(*x));
	if (!c) {
		snprintf(x->message, sizeof(x->message), "libcurl could not start a request");
		return -ENOMEM;
	}
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", ep->token);
	h = curl_slist_append(hdr, auth);
	if (h)
		hdr = h;
	explicit_bzero(auth, sizeof(auth));
	if (body && (h = curl_slist_append(hdr, "Content-Type: application/json")))
		hdr = h;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 15L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 300L);
	/* no redirects: the token goes to the host the user named and nowhere else */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
	curl_easy_setopt(c, CURLOPT_USERAGENT, "nicbench-submit/" NICBENCH_VERSION);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, answer_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &a);
	if (body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	}
	if (pol->verbose) {
		curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, trace);
		curl_easy_setopt(c, CURLOPT_DEBUGDATA, (void *)ep);
		curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	}
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &x->code);
	curl_slist_free_all(hdr);
	curl_easy_cleanup(c);
	if (rc != CURLE_OK) {
		nb_kcidb_redact(x->message, sizeof(x->message), curl_err[0] ? curl_err : curl_easy_strerror(rc),
				ep->token);
		return -EIO;
	}
	/* kcidb-restd answers {"id": ..., "status": ..., "message": ...}; a proxy's error page is kept as text */
	j = json_loads(a.buf, 0, NULL);
	if (json_is_object(j)) {
		const char *s = json_string_value(json_object_get(j, "status"));
		const char *id = json_string_value(json_object_get(j, "id"));
		const char *m = json_string_value(json_object_get(j, "message"));

		snprintf(x->status, sizeof(x->status), "%s", s ? s : "");
		snprintf(x->id, sizeof(x->id), "%s", id ? id : "");
		nb_kcidb_redact(x->message, sizeof(x->message), m ? m : "", ep->token);
	} else {
		a.buf[strcspn(a.buf, "\r\n")] = '\0';
		nb_kcidb_redact(x->message, sizeof(x->message), a.buf, ep->token);
	}
	json_decref(j);
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A request until it gets an answer that is not a 5xx, retrying with backoff, never past deadline (0: none).
 * 0: answered (x->code < 500); -EIO: gave up (network error or 5xx every time). */
static int request(const struct nb_kcidb_endpoint *ep, const char *url, const char *body, size_t len,
		   const struct nb_kcidb_policy *pol, double deadline, struct nb_kcidb_result *res, struct exchange *x)
{
	double wait = pol->backoff_s;
	int ret;

	for (int attempt = 0;; attempt++) {
		res->requests++;
		ret = request_once(ep, url, body, len, pol, x);
		if (ret == -ENOMEM)
			return ret;
		if (!ret && x->code < 500)
			return 0;
		if (attempt >= pol->retries || (deadline > 0 && nb_monotonic_s() + wait > deadline))
			return -EIO;
		if (pol->log)
			fprintf(pol->log, "nicbench submit: %s: %s%s%s; retry %d of %d in %.2g s\n", url,
				ret ? "network error" : "server error", x->message[0] ? ": " : "", x->message,
				attempt + 1, pol->retries, wait);
		sleep_s(wait);
		wait = fmin(wait * 2, BACKOFF_MAX_S);
	}
}

static void result_from(struct nb_kcidb_result *res, const struct exchange *x, enum nb_kcidb_outcome outcome)
{
	res->outcome = outcome;
	res->http_code = x->code;
	snprintf(res->message, sizeof(res->message), "%s", x->message);
	if (x->status[0])
		snprintf(res->status, sizeof(res->status), "%s", x->status);
}

int nb_kcidb_submit(const struct nb_kcidb_endpoint *ep, const char *body, size_t len,
		    const struct nb_kcidb_policy *pol, struct nb_kcidb_result *res, struct nb_err *err)
{
	char url[sizeof(ep->base) + 300], last[32] = "";
	struct exchange x;
	double deadline;
	char *esc;
	int ret;

	memset(res, 0, sizeof(*res));
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return nb_err_set(err, -ENOMEM, "submit to %s: libcurl could not start", ep->base);
	snprintf(url, sizeof(url), "%s/submit", ep->base);
	ret = request(ep, url, body, len, pol, 0, res, &x);
	if (ret == -ENOMEM) {
		ret = nb_err_set(err, ret, "submit to %s: %s", ep->base, x.message);
		goto out;
	}
	if (ret || x.code >= 400 || x.code < 200) {
		result_from(res, &x, ret ? NB_KCIDB_UNREACHABLE : x.code >= 400 ? NB_KCIDB_REFUSED : NB_KCIDB_UNREACHABLE);
		ret = 0;
		goto out;
	}
	/* "ok" only says the file was received: the schema is checked later, by the ingester */
	if (strcmp(x.status, "ok") || !x.id[0]) {
		snprintf(x.message, sizeof(x.message), "POST /submit answered %ld without a submission id (status '%s')",
			 x.code, x.status);
		result_from(res, &x, NB_KCIDB_FAILED);
		goto out;
	}
	snprintf(res->id, sizeof(res->id), "%s", x.id);
	if (pol->log)
		fprintf(pol->log, "nicbench submit: received by %s as %s (%zu bytes)\n", ep->base, res->id, len);
	esc = curl_easy_escape(NULL, res->id, 0);
	snprintf(url, sizeof(url), "%s/status?id=%s", ep->base, esc ? esc : "");
	curl_free(esc);
	deadline = nb_monotonic_s() + pol->timeout_s;
	for (;;) {
		ret = request(ep, url, NULL, 0, pol, deadline, res, &x);
		if (ret == -ENOMEM) {
			ret = nb_err_set(err, ret, "status of %s at %s: %s", res->id, ep->base, x.message);
			goto out;
		}
		if (ret) {
			result_from(res, &x, NB_KCIDB_UNREACHABLE);
			break;
		}
		if (x.code == 404 || !strcmp(x.status, "notfound")) {
			result_from(res, &x, NB_KCIDB_FAILED);  /* the server has no file by that id: the data is lost */
			break;
		}
		if (x.code >= 400) {
			result_from(res, &x, NB_KCIDB_REFUSED);
			break;
		}
		if (pol->log && strcmp(last, x.status))
			fprintf(pol->log, "nicbench submit: %s: %s\n", res->id, x.status);
		snprintf(last, sizeof(last), "%s", x.status);
		if (!strcmp(x.status, "processed")) {
			result_from(res, &x, NB_KCIDB_PROCESSED);
			break;
		}
		if (!strcmp(x.status, "failed")) {
			result_from(res, &x, NB_KCIDB_FAILED);
			break;
		}
		/* inprogress (still being written), ready (waiting for the ingester), or one we do not know yet */
		if (nb_monotonic_s() + pol->poll_s > deadline) {
			result_from(res, &x, NB_KCIDB_TIMEOUT);
			break;
		}
		sleep_s(pol->poll_s);
	}
	ret = 0;
out:
	curl_global_cleanup();
	return ret;
}

#else /* !NB_HAVE_LIBCURL */

int nb_kcidb_endpoint_parse(const char *kcidb_rest, struct nb_kcidb_endpoint *ep, struct nb_err *err)
{
	(void)kcidb_rest;
	(void)host_is_loopback;
	memset(ep, 0, sizeof(*ep));
	return nb_err_set(err, -ENOTSUP, "this nicbench was built without libcurl (a static board build): "
			  "submit from the lab host's nicbench");
}

int nb_kcidb_submit(const struct nb_kcidb_endpoint *ep, const char *body, size_t len,
		    const struct nb_kcidb_policy *pol, struct nb_kcidb_result *res, struct nb_err *err)
{
	(void)ep, (void)body, (void)len, (void)pol;
	memset(res, 0, sizeof(*res));
	return nb_err_set(err, -ENOTSUP, "this nicbench was built without libcurl");
}

#endif
