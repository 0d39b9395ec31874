// SPDX-License-Identifier: MIT
/* The boot hook runner (boot.h): fork, /bin/sh -c, wait, and signals passed on. */
#include "boot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;
static volatile pid_t hook_pgid; /* the running hook's process group; 0 when none */

/* The hook runs in a process group of its own (a terminal's Ctrl-C reaches ab only), so ab passes
 * the signal on: the hook's `nicbench run` then restores its knobs and stops as under Ctrl-C. */
static void on_signal(int sig)
{
	stop_signal = sig;
	if (hook_pgid > 0)
		kill(-hook_pgid, sig);
}

int nb_boot_signals_install(struct nb_err *err)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: waitpid returns EINTR, and the loop sees the flag */
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return nb_err_set(err, -errno, "catch SIGINT and SIGTERM: %s", strerror(errno));
	return 0;
}

bool nb_boot_interrupted(void)
{
	return stop_signal != 0;
}

static void child(const char *script, const char *kernel, const char *round, const char *out, const char *log_path)
{
	int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct sigaction dfl;

	setpgid(0, 0);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	if (log_fd < 0 || null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0) {
		fprintf(stderr, "nicbench: boot hook: open its log %s: %s\n", log_path, strerror(errno));
		_exit(126);
	}
	/* $0 names the hook in the shell's own messages */
	execl("/bin/sh", "sh", "-c", script, "nicbench-boot", kernel, round, out, (char *)NULL);
	fprintf(stderr, "nicbench: boot hook: exec /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

int nb_boot_run(const char *cmd, const char *kernel, const char *round, const char *out, const char *log_path,
		int *status, struct nb_err *err)
{
	size_t len = strlen(cmd) + sizeof(" \"$@\"");
	char *script = malloc(len);
	int wstatus = 0;
	pid_t pid;

	if (!script)
		return nb_err_set(err, -ENOMEM, "boot %s: %s", kernel, strerror(ENOMEM));
	snprintf(script, len, "%s \"$@\"", cmd);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(script);
		return nb_err_set(err, -errno, "boot %s: fork: %s", kernel, strerror(errno));
	}
	if (pid == 0)
		child(script, kernel, round, out, log_path);
	free(script);
	setpgid(pid, pid); /* both sides, so that a signal right after fork finds the group */
	hook_pgid = pid;
	if (stop_signal)
		kill(-pid, stop_signal);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			hook_pgid = 0;
			return nb_err_set(err, -errno, "boot %s: wait for the hook: %s", kernel, strerror(errno));
		}
	}
	hook_pgid = 0;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	if (stop_signal)
		return nb_err_set(err, -EINTR, "boot %s: interrupted by signal %d", kernel, (int)stop_signal);
	return 0;
}
