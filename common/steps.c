// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/steps.h"

#include <stddef.h>

int ltd_steps_run(const struct ltd_step *steps, void *ctx,
		  void (*before)(const char *name), struct ltd_err *err)
{
	for (const struct ltd_step *s = steps; s->name; s++) {
		int ret;

		if (before)
			before(s->name);
		ret = s->run(ctx, err);
		if (ret < 0) {
			ltd_err_step(err, s->name);
			return ret;
		}
	}
	return 0;
}
