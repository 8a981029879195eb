/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ordered table of named setup steps, each with a one-line "why", run
 * top to bottom by one small loop: the launcher's (runtime/launch.c), the
 * cage's init and the command's (runtime/cage.c).  A failing step's name
 * goes into the error; tests check the orders security rests on.
 */
#ifndef LTD_COMMON_STEPS_H
#define LTD_COMMON_STEPS_H

#include "common/error.h"

struct ltd_step {
	const char *name;
	const char *why;
	int (*run)(void *ctx, struct ltd_err *err);
};

/*
 * Run @steps (ended by a NULL name) on @ctx in order; stop at the first
 * that fails, its name recorded in @err.  @before, when not NULL, is
 * called with each step's name before it runs (the test hooks).
 */
int ltd_steps_run(const struct ltd_step *steps, void *ctx,
		  void (*before)(const char *name), struct ltd_err *err);

#endif
