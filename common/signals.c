// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

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

/*
 * The signals whose disposition is not the default (ignored, SigIgn, or
 * caught, SigCgt: bit N-1 for signal N), as the kernel keeps them in
 * /proc/self/status: one read instead of a sigaction per signal, each a
 * trip through the hypervisor on a paravirtualised VM.  False when it
 * cannot be read (no /proc): then every signal is reset.
 */
static bool not_default(unsigned long long *mask)
{
	char buf[4096], *p;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	int found = 0;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	*mask = 0;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "SigIgn:", 7) != 0 &&
		    strncmp(p, "SigCgt:", 7) != 0)
			continue;
		*mask |= strtoull(p + 7, NULL, 16);
		found++;
	}
	return found == 2;
}

int ltd_signals_reset(struct ltd_err *err)
{
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	unsigned long long mask = ~0ULL;
	sigset_t none;

	if (!not_default(&mask))
		mask = ~0ULL;
	for (int s = 1; s < NSIG && s <= 64; s++)
		if (s != SIGKILL && s != SIGSTOP && (mask >> (s - 1) & 1))
			sigaction(s, &dfl, NULL); /* EINVAL for RT internals */
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
		return ltd_err_sys(err, "unblock signals");
	return 0;
}
