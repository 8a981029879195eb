/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Terminals.  When ltd-native's stdin is a terminal, the command gets a
 * pseudo-terminal of the cage's own (opened from the cage's devpts, so
 * nothing in the cage holds the user's real terminal); the launcher (or
 * `exec`) relays bytes between the two (runtime/relay.h).
 */
#ifndef LTD_PTY_H
#define LTD_PTY_H

#include <stdbool.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "common/error.h"

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

#endif
