// SPDX-License-Identifier: MIT
/* `nicbench run`: validate, plan, sweep, report; the exit code says how it went. */
#include <errno.h>
#include <stdbool.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "config/config.h"
#include "knobs/journal.h"
#include "config/plan.h"
#include "report/report.h"
#include "render/run_table.h"
#include "run_options.h"
#include "runner.h"
#include "sampling/sysinfo.h"
#include "iperf_driver.h"
#include "traffic/iperf_prog.h"

static int usage_error(const char *msg)
{
	fprintf(stderr, "nicbench run: %s\n", msg);
	return NB_EXIT_USAGE;
}

/* A peer name that does not resolve is a configuration error; a peer that is down is
 * a measured failure (recorded per point), so only resolution is checked up front. */
static int check_peer_resolves(struct nb_config *cfg, struct nb_err *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	bool loopback = true;
	int rc = getaddrinfo(cfg->peer_host, NULL, &hints, &res);

	if (rc != 0)
		return nb_err_set(err, -EINVAL, "peer '%s': cannot resolve: %s", cfg->peer_host, gai_strerror(rc));
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET)
			loopback &= (ntohl(((const struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127;
		else if (ai->ai_family == AF_INET6)
			loopback &= IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
	}
	/* a loopback peer is this machine: its server's CPU is the test's, not foreign load */
	if (loopback && res)
		cfg->peer_local = true;
	freeaddrinfo(res);
	return 0;
}

/* Before the first point: is anything else busy? Measured figures would be low. */
static void idle_check(const struct nb_config *cfg, struct nb_report *report)
{
	struct nb_idle_check ic;
	struct nb_err err = { 0 };

	if (cfg->idle_check_s <= 0)
		return;
	if (nb_idle_check_run(&nb_paths_live, cfg->idle_check_s, &ic, &err) < 0) {
		fprintf(stderr, "nicbench run: %s (no idle check)\n", err.msg);
		return;
	}
	nb_report_set_idle_check(report, &ic);
	if (!ic.busy_present || ic.busy_pct < NB_FOREIGN_LOAD_PCT)
		return;
	fprintf(stderr, "nicbench run: warning: the machine is not quiet: %.0f%% of its CPU was busy in a %.1f s idle "
		"check (>= %.0f%%); figures will be low and noisy. Busiest:", ic.busy_pct, ic.seconds,
		NB_FOREIGN_LOAD_PCT);
	for (int i = 0; i < ic.nbusiest; i++)
		fprintf(stderr, "%s %s (pid %d) %.0f%% of a core", i ? "," : "", ic.busiest[i].comm, ic.busiest[i].pid,
			ic.busiest[i].core_pct);
	fprintf(stderr, "%s\n", ic.nbusiest ? "" : " (short-lived processes)");
}

/* A set-up failure for lack of rights is nearly always "not root": say so, and how. */
static int setup_error(int rc, const struct nb_err *err)
{
	if (rc != -EACCES && rc != -EPERM)
		return usage_error(err->msg);
	fprintf(stderr, "nicbench run: %s\n"
		"nicbench run: run it as root (sudo): knobs are sysfs writes and the journal of original values "
		"goes to /run/nicbench; --journal FILE puts the journal elsewhere\n", err->msg);
	return NB_EXIT_USAGE;
}

static void default_output(struct nb_config *cfg)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(cfg->output, sizeof(cfg->output), "nicbench-%s-%s.json", cfg->iface, stamp);
}

static int finish(struct nb_report *report, const struct nb_config *cfg, int rc, const struct nb_err *err)
{
	int ok, failed, unsupported;
	FILE *table = cfg->json_stdout ? stderr : stdout;
	struct nb_err table_err = { 0 };

	/* the runner wrote the report (incomplete points included) from the run record */
	nb_report_count(report, &ok, &failed, &unsupported);
	/* the table is read back from the report as written: what `report --format table` prints */
	if (nb_render_run_table(table, cfg->output, &table_err))
		fprintf(stderr, "nicbench run: %s\n", table_err.msg);
	fprintf(table, "%d ok, %d failed or timed out, %d unsupported; report: %s\n", ok, failed, unsupported,
		cfg->output);
	if (cfg->json_stdout) {
		char *text = nb_report_dumps(report);

		if (text)
			puts(text);
		free(text);
	}
	if (rc == -EINTR) {
		fprintf(stderr, "nicbench run: %s\n", err->msg);
		return NB_EXIT_INTERRUPTED;
	}
	if (rc < 0) {
		fprintf(stderr, "nicbench run: %s\n", err->msg);
		return NB_EXIT_FAIL;
	}
	return failed ? NB_EXIT_FAIL : NB_EXIT_OK;
}

/* The iperf3 tests' client, resolved before any knob changes: cfg->traffic_backend becomes "libiperf" or
 * "iperf3" (the report's config says which ran), and the program is run once (--version) so a missing
 * one fails here, not at the first point. version gets the iperf3 version the tests run with. */
static int resolve_traffic_backend(struct nb_config *cfg, char *version, size_t len, struct nb_err *err)
{
	enum nb_iperf_backend want = NB_IPERF_BACKEND_AUTO, got;
	int rc = cfg->traffic_backend[0] ? nb_iperf_backend_parse(cfg->traffic_backend, &want, err) : 0;

	if (rc == 0)
		rc = nb_iperf_backend_resolve(want, &got, err);
	if (rc < 0)
		return rc;
	snprintf(cfg->traffic_backend, sizeof(cfg->traffic_backend), "%s", nb_iperf_backend_name(got));
	if (got == NB_IPERF_BACKEND_LIBIPERF) {
		snprintf(version, len, "%s", nb_iperf_version());
		return 0;
	}
	if (!cfg->iperf3_program[0])
		snprintf(cfg->iperf3_program, sizeof(cfg->iperf3_program), "iperf3");
	/* tcp-rr and udp-rr alone need no iperf3 on the board */
	for (int i = 0; i < cfg->ntests; i++)
		if (cfg->tests[i].dir != NB_DIR_RR)
			return nb_iperf_prog_probe(cfg->iperf3_program, version, len, err);
	snprintf(version, len, "none (no iperf3 test)");
	return 0;
}

static void say_stale_removed(const char *tmp, int pid, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "nicbench run: removed %s: a half-written report left by process %d, which is gone\n", tmp,
		pid);
}

int cmd_run(int argc, char **argv)
{
	struct nb_config *cfg = calloc(1, sizeof(*cfg));
	struct nb_host_info host;
	struct nb_iface_info iface;
	struct nb_report *report = NULL;
	struct nb_plan plan = { 0 };
	struct nb_err err = { 0 };
	char journal[PATH_MAX], iperf3_version[32];
	bool changed = false;
	int rc, exit_code;

	if (!cfg)
		return usage_error("out of memory");
	rc = nb_run_options_parse(argc, argv, cfg, &err);
	if (rc == 1) {
		nb_run_options_usage("run", stdout);
		free(cfg);
		return NB_EXIT_OK;
	}
	if (rc == 0 && cfg->redact)
		cfg->raw = false;  /* iperf3's JSON repeats the hostname and uname -a */
	if (rc < 0 || nb_config_validate(cfg, &err) < 0 ||
	    resolve_traffic_backend(cfg, iperf3_version, sizeof(iperf3_version), &err) < 0 ||
	    check_peer_resolves(cfg, &err) < 0 ||
	    nb_iface_info_read(&nb_paths_live, cfg->iface, &iface, &err) < 0 ||
	    nb_plan_build(cfg, &plan, &err) < 0) {
		free(cfg);
		return usage_error(err.msg);
	}
	if (!cfg->output[0])
		default_output(cfg);
	if (cfg->journal[0])
		snprintf(journal, sizeof(journal), "%s", cfg->journal);
	else if (nb_journal_default_path(cfg->iface, journal, sizeof(journal)) < 0) {
		nb_plan_free(&plan);
		free(cfg);
		return usage_error("journal path too long");
	}
	nb_host_info_read(&nb_paths_live, &host);
	nb_report_remove_stale_temps(cfg->output, say_stale_removed, NULL);
	if (nb_report_new(cfg, &host, &iface, &report, &err) < 0 ||
	    nb_report_check_writable(cfg->output, &err) < 0) {
		/* an unwritable report path is found before any knob changes; an existing
		 * report there is only replaced once this run has measured something */
		nb_report_free(report);
		nb_plan_free(&plan);
		free(cfg);
		return usage_error(err.msg);
	}
	nb_report_set_traffic_backend(report, cfg->traffic_backend, iperf3_version,
				      strcmp(cfg->traffic_backend, "iperf3") ? NULL : cfg->iperf3_program);
	if (cfg->reps_auto)
		fprintf(stderr, "nicbench %s: %s (%s) -> %s:%d, %d points x auto %d-%d repetitions (+-%.3g%%)%s, "
			"%.0f-%.0f s; kernel %s\n", NICBENCH_VERSION, cfg->iface,
			iface.driver[0] ? iface.driver : "unknown driver", cfg->peer_host, cfg->peer_port, plan.npoints,
			cfg->reps_min, cfg->repetitions, cfg->precision_pct, cfg->interleave ? ", interleaved" : "",
			nb_plan_estimate_min_s(cfg, &plan), nb_plan_estimate_s(cfg, &plan), host.release);
	else
		fprintf(stderr, "nicbench %s: %s (%s) -> %s:%d, %d points x %d repetitions%s, about %.0f s; kernel %s\n",
			NICBENCH_VERSION, cfg->iface, iface.driver[0] ? iface.driver : "unknown driver", cfg->peer_host,
			cfg->peer_port, plan.npoints, cfg->repetitions, cfg->interleave ? " interleaved" : "",
			nb_plan_estimate_s(cfg, &plan), host.release);
	idle_check(cfg, report);

	nb_runner_install_signals();
	struct nb_runner_opts opts = {
		.cfg = cfg, .plan = &plan, .paths = &nb_paths_live, .report_path = cfg->output,
		.journal_path = journal, .progress = stderr, .progress_tty = isatty(STDERR_FILENO),
		.changed = &changed,
	};
	rc = nb_runner_run(&opts, report, &err);
	if (rc < 0 && !changed) {
		/* set-up failed (a journal from a killed run, libpcap, tracefs): nothing was changed */
		exit_code = setup_error(rc, &err);
	} else {
		exit_code = finish(report, cfg, rc, &err);
	}
	nb_report_free(report);
	nb_plan_free(&plan);
	free(cfg);
	return exit_code;
}
