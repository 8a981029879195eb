// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"

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

int ltd_err_prefix(struct ltd_err *err, const char *fmt, ...)
{
	char msg[LTD_ERR_MSG_MAX];
	size_t len;
	va_list ap;

	memcpy(msg, err->msg, sizeof(msg));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	/* What does not fit is cut: the message stays one line. */
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %.*s",
		 (int)(sizeof(err->msg) - len), msg);
	if (err->code <= 0)
		err->code = EINVAL;
	return -err->code;
}

void ltd_err_step(struct ltd_err *err, const char *step)
{
	if (err->step[0] == '\0')
		snprintf(err->step, sizeof(err->step), "%s", step);
}

void ltd_err_print(const struct ltd_err *err)
{
	/* Messages carry names from the project's tree and its configs. */
	if (err->step[0])
		ltd_line_shown("ltd-native: ", err->step, err->msg);
	else
		ltd_line_shown("ltd-native: ", err->msg, NULL);
}
