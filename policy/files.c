// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Policy files: their syntax (the command line's options, one per line,
 * without dashes), reading them without following links or blocking on a
 * FIFO, and the approval of a project's policy file by its SHA-256.
 */
#include "policy/option.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/error.h"
#include "common/text.h"

#define LTD_POLICY_MAX_ARGS 4 /* the name, up to 2 arguments, one extra */
#define LTD_POLICY_MAX_WORD 4096

struct line_words {
	char *w[LTD_POLICY_MAX_ARGS];
	int n;
};

static void words_free(struct line_words *lw)
{
	for (int i = 0; i < lw->n; i++)
		free(lw->w[i]);
	lw->n = 0;
}

/*
 * Split one line into words: blanks separate; "..." (with \" and \\) and
 * '...' (literal) quote; '#' at the start of a word starts a comment; an
 * unquoted leading ~/ is @home.  -EINVAL with @why filled on bad syntax.
 */
static int split_line(const char *s, const char *end, const char *home,
		      struct line_words *lw, const char **why)
{
	char buf[LTD_POLICY_MAX_WORD];

	lw->n = 0;
	for (;;) {
		size_t len = 0;

		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == end || *s == '#')
			return 0;
		if (lw->n == LTD_POLICY_MAX_ARGS) {
			*why = "too many words";
			return -EINVAL;
		}
		if (s[0] == '~' && (s + 1 == end || s[1] == '/') && home) {
			len = strlen(home);
			if (len >= sizeof(buf))
				return -ENAMETOOLONG;
			memcpy(buf, home, len);
			s++;
		}
		while (s < end && *s != ' ' && *s != '\t' && *s != '\r') {
			char q = *s;

			if (q == '"' || q == '\'') {
				for (s++; s < end && *s != q; s++) {
					if (q == '"' && *s == '\\' &&
					    s + 1 < end &&
					    (s[1] == '"' || s[1] == '\\'))
						s++;
					if (len + 1 >= sizeof(buf)) {
						*why = "word too long";
						return -EINVAL;
					}
					buf[len++] = *s;
				}
				if (s == end) {
					*why = "unterminated quote";
					return -EINVAL;
				}
				s++;
				continue;
			}
			if (len + 1 >= sizeof(buf)) {
				*why = "word too long";
				return -EINVAL;
			}
			buf[len++] = *s++;
		}
		buf[len] = '\0';
		lw->w[lw->n] = strdup(buf);
		if (!lw->w[lw->n])
			return -ENOMEM;
		lw->n++;
	}
}

static int one_line(struct ltd_opt_list *l, struct line_words *lw,
		    const char *src, unsigned forbid, struct ltd_err *err)
{
	const struct ltd_option *opt;
	const char *name = lw->w[0];

	if (name[0] == '-')
		return ltd_err_set(err, EINVAL,
				   "%s: write options without their dashes "
				   "('%s', not '%s')",
				   src, name + strspn(name, "-"), name);
	opt = ltd_option_find(name);
	if (!opt && ltd_option_renamed(name)) {
		const struct ltd_renamed_option *r = ltd_option_renamed(name);
		const struct ltd_option *now = ltd_option_find(r->now);

		return ltd_err_set(err, EPERM, "%s: '%s' is now '%s' (%s)%s",
				   src, name, r->now, r->why,
				   now->flags & forbid & LTD_OPT_NOT_PROJECT
					   ? ", and not allowed in a "
					     "project's policy file"
					   : "");
	}
	if (!opt)
		return ltd_err_set(err, EINVAL,
				   "%s: unknown option '%s' (see 'ltd-native "
				   "run --help')",
				   src, name);
	if (opt->flags & LTD_OPT_TEST_HOOK)
		return ltd_err_set(err, EPERM,
				   "%s: '%s' is a test hook: never from a "
				   "policy file",
				   src, name);
	if (opt->flags & forbid & LTD_OPT_CLI_ONLY)
		return ltd_err_set(err, EINVAL,
				   "%s: '%s' is only for the command line", src,
				   name);
	if (opt->flags & forbid & LTD_OPT_NOT_PROJECT)
		return ltd_err_set(err, EPERM,
				   "%s: '%s' is not allowed in a project's "
				   "policy file (a project must not loosen "
				   "the cage or pick what it binds as the "
				   "project); put it in your own policy",
				   src, name);
	if (lw->n - 1 != opt->nargs)
		return ltd_err_set(
			err, EINVAL, "%s: '%s' takes %d argument%s%s%s, not %d",
			src, name, opt->nargs, opt->nargs == 1 ? "" : "s",
			opt->metavar ? ": " : "",
			opt->metavar ? opt->metavar : "", lw->n - 1);
	return ltd_opts_add(l, opt, &lw->w[1], src, err);
}

int ltd_opts_from_text(struct ltd_opt_list *l, const char *text, size_t len,
		       const char *file, const char *home, unsigned forbid,
		       struct ltd_err *err)
{
	const char *s = text, *end = text + len;
	unsigned lineno = 0;

	if (memchr(text, '\0', len))
		return ltd_err_set(err, EINVAL, "%s: not a text file", file);
	/* Text, as ltd_fput_shown() shows it as it is: no control byte (a
	 * carriage return or an escape sequence can hide a line from
	 * whoever reads the file on a terminal), C1 controls in UTF-8
	 * included, no bidi control or zero-width character (they reorder
	 * or hide what is around them), nothing but well-formed UTF-8. */
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		int n = ltd_utf8_char(text + i, len - i, &cp);
		unsigned line = 1;

		if (n > 0 || (n == -1 && (cp == '\n' || cp == '\t'))) {
			i += (size_t)(n > 0 ? n : 1);
			continue;
		}
		for (size_t j = 0; j < i; j++)
			line += text[j] == '\n';
		if (n == 0)
			return ltd_err_set(err, EINVAL,
					   "%s:%u: byte 0x%02x is not UTF-8 "
					   "text (policy files are UTF-8)",
					   file, line, (unsigned char)text[i]);
		if (cp < 0x80)
			return ltd_err_set(err, EINVAL,
					   "%s:%u: control character 0x%02x "
					   "(it can hide text on a terminal)",
					   file, line, cp);
		return ltd_err_set(err, EINVAL,
				   "%s:%u: U+%04X, a control, bidi or "
				   "zero-width character (it can hide or "
				   "reorder text on a terminal)",
				   file, line, cp);
	}
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		struct line_words lw = {.n = 0};
		const char *why = "bad syntax";
		char src[4200];
		int ret;

		lineno++;
		snprintf(src, sizeof(src), "%s:%u", file, lineno);
		ret = split_line(s, eol, home, &lw, &why);
		if (ret == -EINVAL)
			ret = ltd_err_set(err, EINVAL, "%s: %s", src, why);
		else if (ret < 0)
			ret = ltd_err_set(err, -ret, "%s: %s", src,
					  strerror(-ret));
		else if (lw.n > 0)
			ret = one_line(l, &lw, src, forbid, err);
		words_free(&lw);
		if (ret < 0)
			return ret;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

const char *ltd_opt_quote(const char *s, char *buf, size_t size)
{
	size_t j = 0;

	if (*s && !strpbrk(s, " \t\"'#\\") && s[0] != '~')
		return s;
	buf[j++] = '"';
	for (; *s && j + 3 < size; s++) {
		if (*s == '"' || *s == '\\')
			buf[j++] = '\\';
		buf[j++] = *s;
	}
	buf[j++] = '"';
	buf[j] = '\0';
	return buf;
}

int ltd_policy_read_fd(int fd, const char *shown, char **text, size_t *len,
		       struct ltd_err *err)
{
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t off = 0;

	if (fstat(fd, &st) < 0)
		return ltd_err_sys(err, "%s", shown);
	if (!S_ISREG(st.st_mode))
		return ltd_err_set(err, EINVAL, "%s: not a regular file",
				   shown);
	if (st.st_size > LTD_POLICY_MAX_FILE)
		return ltd_err_set(err, EFBIG, "%s: larger than %d bytes",
				   shown, LTD_POLICY_MAX_FILE);
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return ltd_err_set(err, ENOMEM, "out of memory");
	for (;;) {
		ssize_t n = read(fd, buf + off, (size_t)st.st_size + 1 - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ltd_err_sys(err, "%s", shown);
		if (n == 0)
			break;
		off += (size_t)n;
		if (off > (size_t)st.st_size)
			return ltd_err_set(err, EFBIG, "%s: grew while read",
					   shown);
	}
	buf[off] = '\0';
	*len = off;
	*text = ltd_steal_ptr(&buf);
	return 0;
}

/* A project's file is the agent's to replace: no link is followed in it. */
int ltd_policy_read_file(int dirfd, const char *path, const char *shown,
			 char **text, size_t *len, struct ltd_err *err)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		.resolve = dirfd == AT_FDCWD
				   ? 0
				   : RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
					     RESOLVE_NO_MAGICLINKS,
	};
	_cleanup_close_ int fd = -1;

	fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd < 0 && errno == ELOOP)
		return ltd_err_set(err, ELOOP,
				   "%s: is or passes through a symbolic link; "
				   "ltd-native reads policy files only by "
				   "their real path",
				   shown);
	if (fd < 0)
		return ltd_err_sys(err, "%s", shown);
	return ltd_policy_read_fd(fd, shown, text, len, err);
}
