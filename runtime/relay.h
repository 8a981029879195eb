/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The relay between the user's terminal and the cage's pty (runtime/pty.h),
 * in the launcher or `exec`: the outer terminal in raw mode, so that
 * Ctrl-C, Ctrl-Z and the rest are keys that the inner terminal turns into
 * signals for the cage's foreground job; the window size follows SIGWINCH;
 * the output goes through the terminal filter; the outer terminal is
 * restored at exit.
 */
#ifndef LTD_RELAY_H
#define LTD_RELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

#include "runtime/termfilter.h"

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

#endif
