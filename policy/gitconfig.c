// SPDX-License-Identifier: GPL-2.0-or-later
/* git's configuration syntax (see gitconfig.h). */
#include "policy/gitconfig.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * git's configuration syntax, as git itself reads it (config.c): a key may
 * follow a section header on the same line; "#" and ";" start a comment
 * outside quotes; a backslash at the end of a line continues the value;
 * quotes and \" \\ \n \t \b escapes.  A reading that differs from git's
 * would let a hooks path git follows go unprotected.
 */
struct cfg_reader {
	const char *s, *end;
	char section[256]; /* "core", "include", "includeif.<cond>" */
};

/* git's isspace() in a header and a value ('\n' ends a line first). */
static bool cfg_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int cfg_getc(struct cfg_reader *r)
{
	if (r->s >= r->end)
		return EOF;
	if (r->s[0] == '\r' && r->s + 1 < r->end && r->s[1] == '\n')
		r->s++;
	return (unsigned char)*r->s++;
}

/* "[name]", "[name \"sub\"]" or the old "[name.sub]"; after the "[". */
static int cfg_section(struct cfg_reader *r)
{
	size_t n = 0;
	int c;

	while ((c = cfg_getc(r)) != EOF && (isalnum(c) || c == '-' || c == '.'))
		if (n + 1 < sizeof(r->section))
			r->section[n++] = (char)tolower(c);
	if (cfg_space(c)) {
		while (cfg_space(c = cfg_getc(r)))
			;
		if (c != '"')
			return -1;
		if (n + 1 < sizeof(r->section))
			r->section[n++] = '.';
		while ((c = cfg_getc(r)) != EOF && c != '"' && c != '\n') {
			if (c == '\\' && (c = cfg_getc(r)) == EOF)
				return -1;
			if (n + 1 < sizeof(r->section))
				r->section[n++] = (char)c;
		}
		if (c != '"')
			return -1;
		c = cfg_getc(r);
	}
	r->section[n] = '\0';
	return c == ']' ? 0 : -1;
}

/* The value after "=", into @val (truncated past its size). */
static int cfg_value(struct cfg_reader *r, char *val, size_t size)
{
	size_t n = 0, spaces = 0;
	bool quoted = false, comment = false;
	int c;

	for (;;) {
		c = cfg_getc(r);
		if (c == EOF || c == '\n') {
			if (quoted)
				return -1;
			break;
		}
		if (comment)
			continue;
		if (!quoted && cfg_space(c)) {
			spaces += n > 0; /* leading ones dropped, inner kept */
			continue;
		}
		if (!quoted && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		for (; spaces && n + 1 < size; spaces--)
			val[n++] = ' ';
		spaces = 0;
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c == '\\') {
			switch (c = cfg_getc(r)) {
			case '\n':
				continue;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return -1;
			}
		}
		if (n + 1 < size)
			val[n++] = (char)c;
	}
	val[n] = '\0';
	return 0;
}

int ltd_gitconfig_parse(const char *text, size_t len,
			int (*on_key)(void *ctx, const char *section,
				      const char *key, const char *val),
			void *ctx)
{
	struct cfg_reader r = {0};
	char key[64], val[PATH_MAX];
	int c, ret;

	r.s = text;
	r.end = text + len;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		r.s += 3; /* a UTF-8 byte order mark, as git skips it */
	while ((c = cfg_getc(&r)) != EOF) {
		size_t n = 0;

		if (isspace(c))
			continue;
		if (c == '#' || c == ';') {
			while ((c = cfg_getc(&r)) != EOF && c != '\n')
				;
			continue;
		}
		if (c == '[') {
			if (cfg_section(&r) < 0)
				return 0; /* git refuses the file, too */
			continue;
		}
		if (!isalpha(c))
			return 0;
		do {
			if (n + 1 < sizeof(key))
				key[n++] = (char)c;
		} while ((c = cfg_getc(&r)) != EOF && (isalnum(c) || c == '-'));
		key[n] = '\0';
		while (c == ' ' || c == '\t')
			c = cfg_getc(&r);
		if (c == '\n' || c == EOF)
			continue; /* a boolean: no path */
		if (c != '=' || cfg_value(&r, val, sizeof(val)) < 0)
			return 0;
		ret = on_key(ctx, r.section, key, val);
		if (ret)
			return ret;
	}
	return 0;
}
