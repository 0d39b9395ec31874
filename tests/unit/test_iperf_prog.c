// SPDX-License-Identifier: MIT
/* Tests for the iperf3 program backend (traffic/iperf_prog.c) without traffic: the command lines it
 * gives the program for each kind of test, the backend names and their resolution, which error texts
 * are retried, and running programs (/bin/sh scripts standing in for iperf3: version, output, exit). */
#include "traffic/iperf_prog.h"

#include <errno.h>
#include <sys/wait.h>

#include "nb_test.h"

static char *joined(char *const argv[])
{
	static char buf[1024];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; argv[i]; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? " " : "", argv[i]);
	return buf;
}

static void test_client_argv(void)
{
	static const struct {
		struct nb_iperf_prog_test t;
		const char *want;
	} cases[] = {
		{ { .host = "10.0.0.2", .port = 5201, .duration_s = 10, .omit_s = 2, .streams = 1 },
		  "iperf3 --client 10.0.0.2 --port 5201 --time 10 --omit 2 --parallel 1 --connect-timeout 5000 --json "
		  "--bitrate 0" },
		/* RX: -R, and the server's JSON for the sender's RTT, as libiperf's get_server_output */
		{ { .host = "10.0.0.2", .port = 5202, .reverse = true, .duration_s = 5, .streams = 4 },
		  "iperf3 --client 10.0.0.2 --port 5202 --time 5 --omit 0 --parallel 4 --reverse --connect-timeout 5000 "
		  "--json --bitrate 0 --get-server-output" },
		/* UDP: the rate always said (the program's default is 1M, libiperf's 0) */
		{ { .host = "fe80::2", .port = 5201, .udp = true, .duration_s = 3, .rate_bps = 150000000, .length = 1460 },
		  "iperf3 --client fe80::2 --port 5201 --time 3 --omit 0 --parallel 1 --connect-timeout 5000 --json "
		  "--udp --length 1460 --bitrate 150000000" },
		{ { .host = "h", .port = 1, .udp = true, .reverse = true, .duration_s = 1, .length = 64 },
		  "iperf3 --client h --port 1 --time 1 --omit 0 --parallel 1 --reverse --connect-timeout 5000 --json "
		  "--udp --length 64 --bitrate 0" },
		{ { .host = "h", .port = 1, .duration_s = 1, .length = 9000 },
		  "iperf3 --client h --port 1 --time 1 --omit 0 --parallel 1 --connect-timeout 5000 --json --length 9000 "
		  "--bitrate 0" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nb_iperf_argv a;

		CHECK(nb_iperf_prog_client_argv("iperf3", &cases[i].t, 5000, &a) == 0);
		CHECK_STR(joined(a.argv), cases[i].want);
	}
}

static void test_server_argv(void)
{
	struct nb_iperf_argv a;
	char host[2000];

	CHECK(nb_iperf_prog_server_argv("/usr/bin/iperf3", "10.0.0.2", 5201, 0.5, &a) == 0);
	CHECK_STR(joined(a.argv), "/usr/bin/iperf3 --server --one-off --port 5201 --bind 10.0.0.2 --interval 0.5 --json");
	/* a command line past the buffer is refused, not cut */
	memset(host, 'h', sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	CHECK(nb_iperf_prog_server_argv("iperf3", host, 5201, 0, &a) == -ENOSPC);
	CHECK(a.argv[0] == NULL);
}

static void test_backends(void)
{
	enum nb_iperf_backend b;
	struct nb_err err = { 0 };

	CHECK(nb_iperf_backend_parse("iperf3", &b, &err) == 0 && b == NB_IPERF_BACKEND_PROGRAM);
	CHECK(nb_iperf_backend_parse("libiperf", &b, &err) == 0 && b == NB_IPERF_BACKEND_LIBIPERF);
	CHECK(nb_iperf_backend_parse("auto", &b, &err) == 0 && b == NB_IPERF_BACKEND_AUTO);
	CHECK(nb_iperf_backend_parse("iperf", &b, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "auto, libiperf or iperf3") != NULL, "%s", err.msg);
	CHECK(nb_iperf_backend_resolve(NB_IPERF_BACKEND_AUTO, &b, &err) == 0);
	CHECK(b == (nb_iperf_have_libiperf() ? NB_IPERF_BACKEND_LIBIPERF : NB_IPERF_BACKEND_PROGRAM));
	CHECK(nb_iperf_backend_resolve(NB_IPERF_BACKEND_PROGRAM, &b, &err) == 0 && b == NB_IPERF_BACKEND_PROGRAM);
	if (!nb_iperf_have_libiperf()) {
		CHECK(nb_iperf_backend_resolve(NB_IPERF_BACKEND_LIBIPERF, &b, &err) == -ENOTSUP);
		CHECK_MSG(strstr(err.msg, "built without libiperf") != NULL, "%s", err.msg);
	}
	CHECK_STR(nb_iperf_backend_name(NB_IPERF_BACKEND_PROGRAM), "iperf3");
	CHECK_STR(nb_iperf_backend_name(NB_IPERF_BACKEND_LIBIPERF), "libiperf");
}

/* iperf3 3.12's texts, as its --json output gives them */
static void test_retryable(void)
{
	CHECK(nb_iperf_prog_error_retryable("unable to connect to server - server may have stopped running or use a "
					    "different port, firewall issue, etc.: Connection refused"));
	CHECK(nb_iperf_prog_error_retryable("the server is busy running a test. try again later"));
	CHECK(nb_iperf_prog_error_retryable("unable to receive control message - port may not be available, the other "
					    "side may have stopped running, etc.: Connection reset by peer"));
	CHECK(!nb_iperf_prog_error_retryable("unable to create a new stream: Cannot assign requested address"));
	CHECK(!nb_iperf_prog_error_retryable(""));
	CHECK(!nb_iperf_prog_error_retryable(NULL));
}

static int pid_seen;

static void saw_pid(void *ctx, pid_t pid)
{
	(void)ctx;
	pid_seen = (int)pid;
}

/* Real programs through fork/exec: what they print, their exit, a program that is not there. */
static void test_run(void)
{
	char *ok[] = { "/bin/sh", "-c", "echo '{\"end\":{}}'; echo 'a warning' >&2; exit 3", NULL };
	char *missing[] = { "/nonexistent/iperf3", "--version", NULL };
	char *flood[] = { "/bin/sh", "-c", "while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done", NULL };
	struct nb_iperf_prog_out out;
	struct nb_err err = { 0 };
	char version[32];

	CHECK(nb_iperf_prog_run(ok, 1u << 20, saw_pid, NULL, &out) == 0);
	CHECK(pid_seen > 0);
	CHECK_STR(out.json ? out.json : "", "{\"end\":{}}\n");
	CHECK(WIFEXITED(out.wait_status) && WEXITSTATUS(out.wait_status) == 3);
	CHECK_STR(out.stderr_tail, "a warning ");
	CHECK_STR(out.error, "");
	nb_iperf_prog_out_release(&out);

	CHECK(nb_iperf_prog_run(missing, 1u << 20, NULL, NULL, &out) == -ENOENT);
	CHECK_MSG(strstr(out.error, "exec /nonexistent/iperf3: No such file") != NULL, "%s", out.error);
	nb_iperf_prog_out_release(&out);

	/* stdout past its limit: the program is killed, what came is kept and the error says so */
	CHECK(nb_iperf_prog_run(flood, 4096, NULL, NULL, &out) == 0);
	CHECK(WIFSIGNALED(out.wait_status));
	CHECK_MSG(strstr(out.error, "wrote over") != NULL, "%s", out.error);
	nb_iperf_prog_out_release(&out);

	CHECK(nb_iperf_prog_probe("/nonexistent/iperf3", version, sizeof(version), &err) == -ENOENT);
	CHECK(nb_iperf_prog_probe("/bin/true", version, sizeof(version), &err) == -EBADMSG);
	CHECK_MSG(strstr(err.msg, "did not print") != NULL, "%s", err.msg);
	/* the real program when this machine has it (the integration tests need it anyway) */
	if (access("/usr/bin/iperf3", X_OK) == 0) {
		CHECK(nb_iperf_prog_probe("iperf3", version, sizeof(version), &err) == 0);
		CHECK_MSG(version[0] == '3' && version[1] == '.', "%s", version);
	}
}

int main(void)
{
	test_client_argv();
	test_server_argv();
	test_backends();
	test_retryable();
	test_run();
	return nb_test_done("iperf_prog");
}
