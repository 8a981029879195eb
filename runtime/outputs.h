/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A terminal on stdout or stderr when the command gets no pty of its own
 * (stdin is no terminal).  The user's shell opened that terminal for
 * reading too: passed on as it is, it would give the command what the
 * user types; even write-only, the command could ioctl it (stop its output,
 * change its modes) and the launcher's own messages would block on it.
 * The command gets the write end of a pipe instead, and the launcher (or
 * `exec`) copies the pipe to the terminal from its poll loop, a buffer at
 * a time, and drains it when the command has ended.  The launcher's own
 * stdout and stderr stay the terminal: its messages never wait on the
 * pipe it reads itself.
 */
#ifndef LTD_OUTPUTS_H
#define LTD_OUTPUTS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "runtime/termfilter.h"

#define LTD_OUTPUTS_BUF 8192

/* One relayed terminal. */
struct ltd_output {
	int pipe;      /* the read end, non-blocking; -1: no relay */
	int tty;       /* our own stdout or stderr: the terminal */
	bool tty_gone; /* it hung up: what the command writes is dropped */
	/* LTD_OUTPUTS_BUF + LTD_TERMFILTER_HOLD bytes, read, filtered
	 * (runtime/termfilter.h), not yet on the terminal (allocated with
	 * the pipe: see struct ltd_relay) */
	char *buf;
	size_t len, off;
	struct ltd_termfilter filter;
};

struct ltd_outputs {
	struct ltd_output out[2]; /* from the command's stdout, stderr */
	/* The command's fd 1 and 2: a pipe's write end (one pipe for both
	 * when they are the same terminal), or -1: as the launcher's. */
	int cmd[2];
	bool allow_clipboard; /* set before ltd_outputs_prepare() */
};

#define LTD_OUTPUTS_INIT                                                       \
	{                                                                      \
		.out = {{.pipe = -1}, {.pipe = -1}}, .cmd = { -1, -1 }         \
	}

/*
 * Before the command is started (and only without a pty): a terminal on
 * stdout or stderr is relayed through a pipe whose write end is left in
 * @o->cmd for the command (the command never holds the terminal), and
 * through the terminal filter (clipboard sequences dropped unless
 * @o->allow_clipboard).
 */
int ltd_outputs_prepare(struct ltd_outputs *o, struct ltd_err *err);

/* In the cage (init for the first command, exec's child): @cmd onto fds
 * 1 and 2, the originals closed and set to -1. */
int ltd_outputs_attach(int cmd[2], struct ltd_err *err);

/* After clone or fork: the write ends are the cage's alone (the pipe's
 * end of file is the command's). */
void ltd_outputs_cloned(struct ltd_outputs *o);

/* Poll entries (LTD_OUTPUTS_POLLFDS) and their handling: at most one
 * read or one write of a buffer per relay and wake-up, so a flood of
 * output cannot keep the caller from its other descriptors. */
#define LTD_OUTPUTS_POLLFDS 2
size_t ltd_outputs_pollfds(struct ltd_outputs *o, struct pollfd *pfd);
void ltd_outputs_dispatch(struct ltd_outputs *o, const struct pollfd *pfd,
			  size_t n);

/* The command has ended: what it wrote reaches the terminal (at most what
 * the pipe holds: a writer left behind cannot keep us), then the pipes
 * close.  Safe to call twice. */
void ltd_outputs_finish(struct ltd_outputs *o);

/* Clipboard sequences the filters dropped. */
unsigned long ltd_outputs_dropped(const struct ltd_outputs *o);

#endif
