// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void err_vfill(struct ltd_err *err, int code, const char *fmt,
		      va_list ap)
{
	err->code = code > 0 ? code : EINVAL;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int ltd_err_set(struct ltd_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vfill(err, code, fmt, ap);
	va_end(ap);
	return -err->code;
}

int ltd_err_sys(struct ltd_err *err, const char *fmt, ...)
{
	int saved = errno ? errno : EIO;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	err_vfill(err, saved, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s",
		 strerror(saved));
	return -saved;
}

void ltd_err_step(struct ltd_err *err, const char *step)
{
	if (err->step[0] == '\0')
		snprintf(err->step, sizeof(err->step), "%s", step);
}

void ltd_err_print(const struct ltd_err *err)
{
	if (err->step[0])
		fprintf(stderr, "ltd-native: %s: %s\n", err->step, err->msg);
	else
		fprintf(stderr, "ltd-native: %s\n", err->msg);
}

void ltd_fput_shown(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}
