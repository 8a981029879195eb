/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lifecycle commands besides `run`: exec, ps, kill.  Each returns 0 or
 * a negative errno with @err filled; the CLI says it and picks the exit
 * status.
 */
#ifndef LTD_EXEC_H
#define LTD_EXEC_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

/* `exec NAME -- CMD...`: run @argv in the named cage; *@status is its
 * exit status (128+N for signal N).  A command that cannot be executed
 * fails with @err's step "exec". */
int ltd_exec(const char *name, char **argv, int *status, struct ltd_err *err);

/* `ps [--json]`, to @out. */
int ltd_ps(bool json, FILE *out, struct ltd_err *err);

/* `kill NAME [SIGNAL]`: @signame NULL for the default ending (TERM, then
 * KILL after a grace period). */
int ltd_kill(const char *name, const char *signame, struct ltd_err *err);

/* Pure: "TERM", "SIGTERM", "15" -> 15; 0 if unknown. */
int ltd_signal_parse(const char *s);

#endif
