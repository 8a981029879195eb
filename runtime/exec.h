/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lifecycle commands besides `run`: exec, ps, kill.  Each returns the
 * process exit status (125 for an error of ltd-native, printed).
 */
#ifndef LTD_EXEC_H
#define LTD_EXEC_H

#include <stdbool.h>

/* `exec NAME [--] CMD...`: @argv starts at NAME. */
int ltd_exec(int argc, char **argv);

/* `ps [--json]`. */
int ltd_ps(bool json);

/* `kill NAME [SIGNAL]`: @argv starts at NAME. */
int ltd_kill(int argc, char **argv);

/* Pure: "TERM", "SIGTERM", "15" -> 15; 0 if unknown. */
int ltd_signal_parse(const char *s);

#endif
