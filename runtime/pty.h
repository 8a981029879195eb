/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Terminals.  When ltd-native's stdin is a terminal, the command gets a
 * pseudo-terminal of the cage's own (opened from the cage's devpts, so
 * nothing in the cage holds the user's real terminal), and the launcher
 * (or `exec`) relays bytes between the two: the outer terminal in raw
 * mode, so that Ctrl-C, Ctrl-Z and the rest are keys that the inner
 * terminal turns into signals for the cage's foreground job; the window
 * size follows SIGWINCH; the outer terminal is restored at exit.
 */
#ifndef LTD_PTY_H
#define LTD_PTY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "common/error.h"
#include "runtime/termfilter.h"

/* Whether to give the command a terminal: stdin is one. */
bool ltd_pty_wanted(void);

/* Without one, a terminal on stdout or stderr: runtime/outputs.h. */

/*
 * Open a new pty from /dev/ptmx as the caller's root sees it (in the
 * cage: the cage's devpts instance).  The slave is opened from the master
 * (TIOCGPTPEER), never by path.  @ws, if not NULL, is its first size.
 */
int ltd_pty_open(int *master, int *slave, const struct winsize *ws,
		 bool private, struct ltd_err *err);

/* In the command, after setsid(): @slave becomes the controlling
 * terminal and stdin, stdout, stderr. */
int ltd_pty_attach(int slave, struct ltd_err *err);

#define LTD_RELAY_BUF	  8192
#define LTD_RELAY_POLLFDS 2

struct ltd_relay {
	int master; /* -1: no relay */
	bool raw;   /* the outer terminal's modes are saved in @saved */
	bool in_open;
	bool master_open;
	bool filter_on; /* stdout is a terminal: the output is filtered */
	struct ltd_termfilter filter;
	struct termios saved;
	/* stdin -> master, not yet written: LTD_RELAY_BUF bytes from
	 * ltd_relay_start() on (not in the struct: the launcher's
	 * ltd_life would zero them on its stack at every start, a page
	 * fault each on this kind of VM, with or without a terminal) */
	char *buf;
	size_t len, off;
};

/* Take @master (non-blocking from now on); raw mode on stdin if we are in
 * the terminal's foreground (a background launcher leaves it alone and
 * relays output only).  Output to a terminal goes through the terminal
 * filter (runtime/termfilter.h): clipboard sequences are dropped unless
 * @allow_clipboard; to a pipe or a file it is copied as it is. */
void ltd_relay_start(struct ltd_relay *r, int master, bool allow_clipboard);

/* Poll entries for the relay (up to LTD_RELAY_POLLFDS); returns how many. */
size_t ltd_relay_pollfds(struct ltd_relay *r, struct pollfd *pfd);
void ltd_relay_dispatch(struct ltd_relay *r, const struct pollfd *pfd,
			size_t n);

/* SIGWINCH: the outer size onto the inner terminal. */
void ltd_relay_winch(struct ltd_relay *r);

/* The command is gone: copy what it left in the pty, then restore the
 * outer terminal and close the master.  Safe to call twice. */
void ltd_relay_finish(struct ltd_relay *r);

/* What the terminal filters dropped (@dropped sequences), said on @out;
 * nothing when none. */
void ltd_clipboard_report(FILE *out, unsigned long dropped);

#endif
