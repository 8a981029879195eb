/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signals the launcher and init pass on to the command.  Both block
 * them and read them from a signalfd; the command unblocks them again.
 */
#ifndef LTD_SIGNALS_H
#define LTD_SIGNALS_H

#include <signal.h>

#include "common/error.h"

extern const int ltd_forwarded_signals[];

/* Block the forwarded signals and SIGCHLD (before clone: init inherits). */
int ltd_signals_block(struct ltd_err *err);

/* A signalfd for the forwarded signals and SIGCHLD. */
int ltd_signals_fd(struct ltd_err *err);

/* Unblock everything and restore default dispositions (before execve). */
int ltd_signals_reset(struct ltd_err *err);

#endif
