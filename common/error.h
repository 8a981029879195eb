/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one error idiom of ltd-native.
 *
 * Every fallible function returns 0 on success or a negative errno on
 * failure, and takes a `struct ltd_err *` as its last argument which it
 * fills on failure.  The struct is fixed-size and holds no pointers, so the
 * cage can send it to the launcher over the setup socket as-is.
 *
 * Library code never calls exit(); only the CLI (cli/ltd-native.c) chooses an
 * exit status.
 */
#ifndef LTD_ERROR_H
#define LTD_ERROR_H

#include <stddef.h>

#define LTD_ERR_STEP_MAX 32
#define LTD_ERR_MSG_MAX	 472

struct ltd_err {
	int code;		     /* positive errno, 0 when unset */
	char step[LTD_ERR_STEP_MAX]; /* setup step, "" outside the cage */
	char msg[LTD_ERR_MSG_MAX];   /* one line, names the flag or path */
};

/* Fill @err with @code and a formatted message; return -@code. */
int ltd_err_set(struct ltd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like ltd_err_set() with the current errno, appending strerror(errno). */
int ltd_err_sys(struct ltd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Put "CONTEXT: " (formatted) before the message @err holds; return
 * -@err->code.  For a caller that knows what the callee did not (the
 * file, the option) instead of writing the prefix by hand. */
int ltd_err_prefix(struct ltd_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record which setup step failed (kept if already set). */
void ltd_err_step(struct ltd_err *err, const char *step);

/* Print "ltd-native: [step: ]message" on stderr. */
void ltd_err_print(const struct ltd_err *err);

#endif
