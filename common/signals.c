// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/signals.h"

#include <errno.h>
#include <sys/signalfd.h>

const int ltd_forwarded_signals[] = {SIGINT,  SIGTERM, SIGHUP,	 SIGQUIT,
				     SIGUSR1, SIGUSR2, SIGWINCH, 0};

static void forwarded_set(sigset_t *set)
{
	sigemptyset(set);
	for (const int *s = ltd_forwarded_signals; *s; s++)
		sigaddset(set, *s);
	sigaddset(set, SIGCHLD);
}

int ltd_signals_block(struct ltd_err *err)
{
	sigset_t set;

	forwarded_set(&set);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return ltd_err_sys(err, "block signals");
	return 0;
}

int ltd_signals_fd(struct ltd_err *err)
{
	sigset_t set;
	int fd;

	forwarded_set(&set);
	fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (fd < 0)
		return ltd_err_sys(err, "signalfd");
	return fd;
}

int ltd_signals_reset(struct ltd_err *err)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	sigset_t none;

	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &dfl, NULL); /* EINVAL for RT internals */
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		return ltd_err_sys(err, "unblock signals");
	return 0;
}
