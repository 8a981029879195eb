// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"

static const char *const names[] = {"stdout", "stderr"};

/* @fd moved above 2 (close-on-exec): stdio may have been closed when we
 * started, and the launcher's own stdout and stderr must never be a pipe
 * that only the launcher reads. */
static int above_stdio(int *fd)
{
	int moved;

	if (*fd > STDERR_FILENO)
		return 0;
	moved = fcntl(*fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (moved < 0)
		return -errno;
	close(*fd);
	*fd = moved;
	return 0;
}

static bool same_terminal(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       S_ISCHR(sa.st_mode) && S_ISCHR(sb.st_mode) &&
	       sa.st_rdev == sb.st_rdev;
}

static int relay(struct ltd_outputs *o, int fd, struct ltd_err *err)
{
	int i = fd - STDOUT_FILENO, p[2], ret;

	/* stdout and stderr on one terminal share one pipe: what the
	 * command writes to either keeps its order, as on the terminal. */
	if (i == 1 && o->cmd[0] >= 0 &&
	    same_terminal(STDOUT_FILENO, STDERR_FILENO)) {
		o->cmd[1] = o->cmd[0];
		return 0;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		return ltd_err_sys(err, "a pipe for the terminal on %s",
				   names[i]);
	ret = above_stdio(&p[0]);
	if (!ret)
		ret = above_stdio(&p[1]);
	if (!ret && fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
		ret = -errno;
	if (!ret &&
	    !(o->out[i].buf = malloc(LTD_OUTPUTS_BUF + LTD_TERMFILTER_HOLD)))
		ret = -ENOMEM;
	if (ret < 0) {
		close(p[0]);
		close(p[1]);
		return ltd_err_set(err, -ret, "a pipe for the terminal on %s",
				   names[i]);
	}
	o->out[i].pipe = p[0];
	o->out[i].tty = fd;
	ltd_termfilter_init(&o->out[i].filter, o->allow_clipboard);
	o->cmd[i] = p[1];
	return 0;
}

int ltd_outputs_prepare(struct ltd_outputs *o, struct ltd_err *err)
{
	for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
		int flags = fcntl(fd, F_GETFL), ret;

		/* Even write-only, the terminal itself would be the
		 * command's to ioctl: stop its output (TCXONC), change its
		 * modes, and the launcher's last words would block on it. */
		if (flags < 0 || !isatty(fd))
			continue;
		ret = relay(o, fd, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The write ends, each once (stdout and stderr may share one). */
static void close_cmd(int cmd[2])
{
	if (cmd[0] >= 0)
		close(cmd[0]);
	if (cmd[1] >= 0 && cmd[1] != cmd[0])
		close(cmd[1]);
	cmd[0] = cmd[1] = -1;
}

int ltd_outputs_attach(int cmd[2], struct ltd_err *err)
{
	for (int i = 0; i < 2; i++)
		if (cmd[i] >= 0 && dup2(cmd[i], STDOUT_FILENO + i) < 0)
			return ltd_err_sys(err, "dup2 the %s relay", names[i]);
	close_cmd(cmd);
	return 0;
}

void ltd_outputs_cloned(struct ltd_outputs *o)
{
	close_cmd(o->cmd);
}

/* What is buffered, onto the terminal: all of it, unless the terminal's
 * description is non-blocking (the user's shell shares it: its flags are
 * not ours to change) and full, then the rest waits for POLLOUT. */
static void flush(struct ltd_output *r)
{
	while (r->off < r->len) {
		ssize_t n = write(r->tty, r->buf + r->off, r->len - r->off);

		if (n > 0) {
			r->off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		/* Hung up: what comes is dropped, as the pty relay does. */
		r->tty_gone = true;
		break;
	}
	r->off = r->len = 0;
}

/* A buffer from the pipe: > 0 read, 0 nothing yet, < 0 its end (no
 * writer is left). */
static int fill(struct ltd_output *r)
{
	char raw[LTD_OUTPUTS_BUF];
	ssize_t n;

	do
		n = read(r->pipe, raw, sizeof(raw));
	while (n < 0 && errno == EINTR);
	if (n > 0 && !r->tty_gone) {
		r->len =
			ltd_termfilter_feed(&r->filter, raw, (size_t)n, r->buf);
		r->off = 0;
	}
	if (n > 0)
		return 1;
	return n < 0 && errno == EAGAIN ? 0 : -1;
}

static void close_pipe(struct ltd_output *r)
{
	close(r->pipe);
	r->pipe = -1;
	r->off = r->len = 0;
	free(r->buf);
	r->buf = NULL;
}

LTD_WAIT_CODE size_t ltd_outputs_pollfds(struct ltd_outputs *o,
					 struct pollfd *pfd)
{
	for (int i = 0; i < 2; i++) {
		const struct ltd_output *r = &o->out[i];

		/* Never both: a buffer waits for the terminal, an empty one
		 * for the pipe (which then fills while the terminal is slow:
		 * the command waits, nothing is dropped). */
		if (r->pipe < 0)
			pfd[i] = (struct pollfd){.fd = -1};
		else if (r->off < r->len)
			pfd[i] = (struct pollfd){.fd = r->tty,
						 .events = POLLOUT};
		else
			pfd[i] = (struct pollfd){.fd = r->pipe,
						 .events = POLLIN};
	}
	return LTD_OUTPUTS_POLLFDS;
}

void ltd_outputs_dispatch(struct ltd_outputs *o, const struct pollfd *pfd,
			  size_t n)
{
	for (size_t i = 0; i < n && i < 2; i++) {
		struct ltd_output *r = &o->out[i];

		if (pfd[i].fd < 0 || !pfd[i].revents)
			continue;
		if (pfd[i].fd != r->pipe)
			flush(r);
		else if (fill(r) < 0)
			close_pipe(r);
	}
}

/* The buffer onto the terminal, waiting for it as long as it takes (a
 * terminal stopped with Ctrl-S holds us as it would hold the command). */
static void flush_wait(struct ltd_output *r)
{
	struct pollfd pfd = {.fd = r->tty, .events = POLLOUT};

	for (flush(r); r->off < r->len; flush(r))
		poll(&pfd, 1, -1);
}

static void drain(struct ltd_output *r)
{
	/* The command's processes are gone, so all they wrote is in the
	 * pipe: at most its capacity, and no more than that even if a
	 * writer lives on (an exec session's background job). */
	int size = fcntl(r->pipe, F_GETPIPE_SZ);
	size_t rounds =
		(size_t)(size > 0 ? size : 1 << 20) / LTD_OUTPUTS_BUF + 2;

	flush_wait(r);
	while (rounds-- && fill(r) > 0)
		flush_wait(r);
	/* What the command switched on in the terminal, and only that, off
	 * (runtime/termfilter.h). */
	if (!r->tty_gone) {
		r->len = ltd_termfilter_reset(&r->filter, r->buf);
		r->off = 0;
		flush_wait(r);
	}
	close_pipe(r);
}

void ltd_outputs_finish(struct ltd_outputs *o)
{
	close_cmd(o->cmd);
	for (int i = 0; i < 2; i++)
		if (o->out[i].pipe >= 0)
			drain(&o->out[i]);
}

unsigned long ltd_outputs_dropped(const struct ltd_outputs *o)
{
	unsigned long n = 0;

	for (int i = 0; i < 2; i++)
		n += o->out[i].filter.dropped;
	return n;
}
