// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/names.h"

#include <errno.h>
#include <string.h>

#define NAME_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"

bool ltd_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n <= LTD_NAME_MAX && name[0] != '.' && name[0] != '-' &&
	       strspn(name, NAME_CHARS) == n;
}

bool ltd_pin_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n <= LTD_PIN_NAME_MAX && name[0] != '.' &&
	       name[0] != '_' && name[0] != '-' &&
	       strspn(name, NAME_CHARS) == n;
}

bool ltd_hex_ok(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == LTD_HEX_LEN && s[n] == '\0';
}

int ltd_ref_parse(const char *ref, char hex[LTD_HEX_LEN + 1],
		  struct ltd_err *err)
{
	if (strncmp(ref, "sha256:", 7) == 0) {
		if (!ltd_hex_ok(ref + 7))
			return ltd_err_set(err, EINVAL,
					   "'%s': a digest is sha256: and 64 "
					   "lowercase hex digits",
					   ref);
		memcpy(hex, ref + 7, LTD_HEX_LEN + 1);
		return 1;
	}
	if (!ltd_pin_name_ok(ref))
		return ltd_err_set(err, EINVAL,
				   "'%s' is neither a rootfs name (letters, "
				   "digits, '.', '_', '-') nor sha256:DIGEST",
				   ref);
	return 0;
}
