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
	/* Messages carry names from the project's tree and its configs. */
	fputs("ltd-native: ", stderr);
	if (err->step[0]) {
		ltd_fput_shown(stderr, err->step);
		fputs(": ", stderr);
	}
	ltd_fput_shown(stderr, err->msg);
	fputc('\n', stderr);
}

/*
 * The length of the UTF-8 sequence at @s: positive when it is well formed
 * and no control character, negative when it is a well-formed control
 * (C0, DEL, C1: a terminal may read U+009B as CSI), 0 for a byte that
 * starts no well-formed sequence.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned cp;
	int n;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : -1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond Unicode. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return cp < 0xa0 ? -n : n;
}

void ltd_warn(const char *msg)
{
	fputs("ltd-native: warning: ", stderr);
	ltd_fput_shown(stderr, msg);
	fputc('\n', stderr);
}

void ltd_fput_shown(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		int n = utf8_len(u);

		if (n > 0)
			fwrite(u, 1, (size_t)n, out);
		else
			fputc('?', out);
		u += n > 0 ? n : n < 0 ? -n : 1;
	}
}
