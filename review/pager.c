// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/pager.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t ltd_pager_start(void)
{
	const char *pager = getenv("LTD_PAGER");
	int pfd[2];
	pid_t pid;

	if (!isatty(STDOUT_FILENO))
		return -1;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!pager[0] || !strcmp(pager, "cat"))
		return -1;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		if (dup2(pfd[0], STDIN_FILENO) < 0)
			_exit(127);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		setenv("LV", getenv("LV") ? getenv("LV") : "-c", 1);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	close(pfd[0]);
	if (dup2(pfd[1], STDOUT_FILENO) < 0) {
		close(pfd[1]);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pfd[1]);
	/* A pager that quits early must not kill us mid-write. */
	signal(SIGPIPE, SIG_IGN);
	return pid;
}

void ltd_pager_end(pid_t pid)
{
	if (pid < 0)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
