/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The review commands: `review [NAME] [--json]`, `diff NAME [PATH...]`,
 * `apply NAME [PATH...]`, `discard NAME`, as rows of cli/ltd-native.c's
 * command table.  Each takes the words after its own name (and main()'s
 * argv, unused) and returns the exit status: 0; 1 when apply found conflicts
 * (nothing landed); 125 for any other error.
 */
#ifndef LTD_CLI_REVIEW_H
#define LTD_CLI_REVIEW_H

/* A usage error's lines begin so: every message ltd-native writes to
 * stderr says whose it is (`ltd-native --help` prints plain "usage: "). */
#define LTD_USAGE_LEAD "ltd-native: usage: "

int ltd_cli_review(int argc, char **argv, char **launcher_argv);
int ltd_cli_diff(int argc, char **argv, char **launcher_argv);
int ltd_cli_apply(int argc, char **argv, char **launcher_argv);
int ltd_cli_discard(int argc, char **argv, char **launcher_argv);

#endif
