// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The resource flags' values: sizes with binary suffixes and fractional
 * CPU counts.  Pure functions; the flags themselves are in options.c.
 */
#include "policy/limits.h"
#include "policy/policy.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* Digits only (no sign, no spaces, no hex): strtoull accepts too much. */
static int parse_digits(const char **s, uint64_t *out)
{
	uint64_t v = 0;
	const char *c = *s;

	if (!isdigit((unsigned char)*c))
		return -EINVAL;
	for (; isdigit((unsigned char)*c); c++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*c - '0');
	}
	*s = c;
	*out = v;
	return 0;
}

int ltd_limits_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "kmgt";
	uint64_t v;
	unsigned shift = 0;
	const char *u;
	int ret;

	ret = parse_digits(&s, &v);
	if (ret < 0)
		return ret;
	if (*s) {
		u = strchr(units, tolower((unsigned char)*s));
		if (!u || !*u)
			return -EINVAL;
		shift = 10 * (unsigned)(u - units + 1);
		s++;
		if (*s == 'b' || *s == 'B') /* "4gb", as docker allows */
			s++;
	}
	if (*s)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

int ltd_limits_parse_cpus(const char *s, unsigned *milli)
{
	uint64_t whole, frac = 0;
	unsigned digits = 0;
	int ret;

	ret = parse_digits(&s, &whole);
	if (ret < 0)
		return ret;
	if (*s == '.') {
		s++;
		for (; isdigit((unsigned char)*s); s++, digits++) {
			if (digits == 3)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (digits == 0)
			return -EINVAL;
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if (*s)
		return -EINVAL;
	if (whole > 1000000)
		return -ERANGE;
	*milli = (unsigned)(whole * 1000 + frac);
	return 0;
}
