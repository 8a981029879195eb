// SPDX-License-Identifier: GPL-2.0-or-later
/* git's configuration syntax (see gitconfig.h). */
#include "protect/gitconfig.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* ---- the values git runs ------------------------------------------------ */

/* How git runs a configuration value. */
enum run_as {
	RUN_SHELL,   /* a command line, as sh -c runs it */
	RUN_PROGRAM, /* one program's path (no shell) */
	RUN_BANG,    /* a command line when it starts with '!' */
	RUN_HELPER,  /* credential.helper: "!line", "/path args", or a name
			that runs git-credential-NAME (remote.*.vcs:
			git-remote-NAME), a project file once it has a '/':
			git runs it from where it works */
	RUN_NOBOOL,  /* a command line unless it is a boolean */
	RUN_EXT,     /* a URL: "ext::line" runs the line (git-remote-ext) */
	RUN_EXT_SUB, /* the same, in the subsection (url.<URL>.insteadOf) */
};

/*
 * The keys whose value git runs (git-config(1)): "section" with no
 * subsection, "section.*" with one, "section?" with or without; key "*"
 * is any key.  Lowercase.
 */
static const struct {
	const char *section, *key;
	enum run_as how;
} command_keys[] = {
	{"filter.*", "clean", RUN_SHELL},
	{"filter.*", "smudge", RUN_SHELL},
	{"filter.*", "process", RUN_SHELL},
	{"diff.*", "textconv", RUN_SHELL},
	{"diff.*", "command", RUN_SHELL},
	{"diff", "external", RUN_SHELL},
	{"merge.*", "driver", RUN_SHELL},
	{"core", "sshcommand", RUN_SHELL},
	{"core", "editor", RUN_SHELL},
	{"core", "pager", RUN_SHELL},
	{"core", "gitproxy", RUN_SHELL},
	{"core", "alternaterefscommand", RUN_SHELL},
	{"core", "fsmonitor", RUN_NOBOOL},
	{"core", "askpass", RUN_PROGRAM},
	{"pager", "*", RUN_NOBOOL},
	{"sequence", "editor", RUN_SHELL},
	{"gpg?", "program", RUN_PROGRAM},
	{"gpg.*", "defaultkeycommand", RUN_SHELL},
	{"credential?", "helper", RUN_HELPER},
	{"remote.*", "vcs", RUN_HELPER},
	{"remote.*", "url", RUN_EXT},
	{"remote.*", "pushurl", RUN_EXT},
	{"url.*", "insteadof", RUN_EXT_SUB},
	{"url.*", "pushinsteadof", RUN_EXT_SUB},
	{"instaweb", "httpd", RUN_SHELL},
	{"alias?", "*", RUN_BANG},
	{"submodule.*", "update", RUN_BANG},
	{"uploadpack", "packobjectshook", RUN_SHELL},
	{"hook.*", "command", RUN_SHELL},
	{"interactive", "difffilter", RUN_SHELL},
	{"remote.*", "uploadpack", RUN_SHELL},
	{"remote.*", "receivepack", RUN_SHELL},
	{"trailer.*", "command", RUN_SHELL},
	{"trailer.*", "cmd", RUN_SHELL},
	{"difftool.*", "cmd", RUN_SHELL},
	{"difftool.*", "path", RUN_PROGRAM},
	{"mergetool.*", "cmd", RUN_SHELL},
	{"mergetool.*", "path", RUN_PROGRAM},
	{"browser.*", "cmd", RUN_SHELL},
	{"browser.*", "path", RUN_PROGRAM},
	{"man.*", "cmd", RUN_SHELL},
	{"man.*", "path", RUN_PROGRAM},
	{"guitool.*", "cmd", RUN_SHELL},
	{"imap", "tunnel", RUN_SHELL},
	{"sendemail?", "tocmd", RUN_SHELL},
	{"sendemail?", "cccmd", RUN_SHELL},
	{"sendemail?", "headercmd", RUN_SHELL},
	{"sendemail?", "sendmailcmd", RUN_SHELL},
	{"sendemail?", "smtpserver", RUN_PROGRAM},
	{"tar.*", "command", RUN_SHELL},
	/* git-lfs: lfs.customtransfer.NAME.path, lfs.extension.NAME.* */
	{"lfs.*", "path", RUN_PROGRAM},
	{"lfs.*", "clean", RUN_SHELL},
	{"lfs.*", "smudge", RUN_SHELL},
};

/* @section ("name" or "name.sub", the name lowercased) matches @pat. */
static bool section_is(const char *section, const char *pat)
{
	size_t n = strcspn(pat, ".?");
	const char *dot = strchr(section, '.');
	size_t len = dot ? (size_t)(dot - section) : strlen(section);

	if (len != n || strncmp(section, pat, n) != 0)
		return false;
	if (pat[n] == '?')
		return true;
	return pat[n] == '.' ? dot != NULL : dot == NULL;
}

/* What git's git_parse_maybe_bool() takes for a boolean. */
bool ltd_gitconfig_is_bool(const char *v)
{
	static const char *const words[] = {
		"", "true", "false", "yes", "no", "on", "off",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(v, words[i]))
			return true;
	v += *v == '-' || *v == '+';
	return *v && strspn(v, "0123456789") == strlen(v);
}

/*
 * The command line that git runs for @section.@key = @val, into @buf, or
 * NULL when it runs none from that value: a program's path is quoted as
 * one word.
 */
const char *ltd_gitconfig_command(const char *section, const char *key,
				  const char *val, char *buf, size_t size)
{
	const char *sub;
	size_t i, n = 0;

	for (i = 0; i < sizeof(command_keys) / sizeof(command_keys[0]); i++)
		if (section_is(section, command_keys[i].section) &&
		    (!strcmp(command_keys[i].key, "*") ||
		     !strcasecmp(key, command_keys[i].key)))
			break;
	if (i == sizeof(command_keys) / sizeof(command_keys[0]))
		return NULL;
	switch (command_keys[i].how) {
	case RUN_SHELL:
		return val;
	case RUN_NOBOOL:
		return ltd_gitconfig_is_bool(val) ? NULL : val;
	case RUN_BANG:
		return val[0] == '!' ? val + 1 : NULL;
	case RUN_HELPER:
		if (val[0] == '!' || val[0] == '/')
			return val + (val[0] == '!');
		/* A name runs "git credential-NAME" from git's exec path or
		 * PATH; a relative path runs that file where git works. */
		if (strcspn(val, "/") >= strcspn(val, " \t") ||
		    snprintf(buf, size, "git-%s-%s",
			     section[0] == 'c' ? "credential" : "remote",
			     val) >= (int)size)
			return NULL;
		return buf;
	case RUN_EXT:
		return strncmp(val, "ext::", 5) ? NULL : val + 5;
	case RUN_EXT_SUB:
		sub = strchr(section, '.');
		return sub && !strncmp(sub + 1, "ext::", 5) ? sub + 6 : NULL;
	case RUN_PROGRAM:
		break;
	}
	/* 'as it is', each ' as '\'' */
	buf[n++] = '\'';
	for (; *val && n + 5 < size; val++) {
		if (*val == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *val;
		}
	}
	if (*val)
		return NULL; /* longer than any path */
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

const char *ltd_gitconfig_expand_home(const char *v, char *buf, size_t size)
{
	const char *home = getenv("HOME");

	if (strncmp(v, "~/", 2) != 0 || !home)
		return v;
	if (snprintf(buf, size, "%s/%s", home, v + 2) >= (int)size)
		return "";
	return buf;
}
