// SPDX-License-Identifier: GPL-2.0-or-later
/* The list of protected paths and the notes list: shared by protect/ and
 * gate.c. */
#include "policy/option.h"
#include "policy/policy.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ltd_policy_protect(struct ltd_policy *p, const char *path,
		       struct ltd_err *err)
{
	char **v;

	for (size_t i = 0; i < p->n_protected; i++)
		if (strcmp(p->protected[i], path) == 0)
			return 0;
	v = realloc(p->protected, (p->n_protected + 1) * sizeof(char *));
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->protected = v;
	v[p->n_protected] = strdup(path);
	if (!v[p->n_protected])
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->n_protected++;
	return 0;
}

int ltd_policy_protect_names(struct ltd_policy *p, const char *const *names,
			     size_t n, struct ltd_err *err)
{
	char path[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", p->project,
			     names[i]) >= (int)sizeof(path))
			return ltd_err_set(err, ENAMETOOLONG,
					   "--project: path too long");
		ret = ltd_policy_protect(p, path, err);
	}
	return ret;
}

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
	v = realloc(*list, (*n + 1) * sizeof(char *));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	*list = v;
	v[(*n)++] = s;
	return 0;
}
