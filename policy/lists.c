// SPDX-License-Identifier: GPL-2.0-or-later
/* The notes list (warnings, waivers, the inputs in the project: each
 * once), shared by the policy and protect/. */
#include "policy/option.h"
#include "policy/policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int ltd_policy_add_note(char ***list, size_t *n, const char *fmt, ...)
{
	char *s = NULL, **v;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*list)[i], s) == 0) {
			free(s);
			return 0;
		}
	}
	v = ltd_vec_push(list, *n);
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	*v = s;
	(*n)++;
	return 0;
}
