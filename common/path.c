// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/path.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool ltd_path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 &&
	       (path[n] == '\0' || path[n] == '/');
}

const char *ltd_path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1
							    : NULL;
}

bool ltd_path_is_normal(const char *p)
{
	if (p[0] != '/' || (p[1] == '\0'))
		return p[0] == '/';
	for (const char *c = p; *c; c++) {
		if (*c != '/')
			continue;
		if (c[1] == '/' || c[1] == '\0')
			return false;
		if (c[1] == '.' && (c[2] == '/' || c[2] == '\0'))
			return false;
		if (c[1] == '.' && c[2] == '.' && (c[3] == '/' || c[3] == '\0'))
			return false;
	}
	return true;
}

void ltd_path_normalize(char *path)
{
	char *out = path, *in = path;

	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		size_t n = strcspn(in, "/");

		if (n == 1 && in[0] == '.') {
			/* nothing */
		} else if (n == 2 && in[0] == '.' && in[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

int ltd_path_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

int ltd_path_join(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	if (!*b)
		return ltd_path_fmt(buf, size, "%.*s", (int)la, a);
	return ltd_path_fmt(buf, size, "%.*s%s%s", (int)la, a,
			    la == 1 && a[0] == '/' ? "" : "/", b);
}
