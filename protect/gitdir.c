// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What git takes for a git directory, and the files that send it to one
 * (see gitdir.h).
 */
#include "protect/gitdir.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/option.h"

int ltd_gitdir_pointer(const char *file, const char *prefix, const char *base,
		       char *out, size_t size, struct ltd_err *err)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err rerr = {0};
	char joined[PATH_MAX * 2];
	size_t len, n = strlen(prefix);
	char *v, *e;
	int ret;

	ret = ltd_policy_read_file(AT_FDCWD, file, file, &text, &len, &rerr);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return 1;
	if (ret)
		return ltd_err_set(err, -ret,
				   "%s (read to protect what git runs)",
				   rerr.msg);
	if (strlen(text) != len || strncmp(text, prefix, n) != 0)
		return 1;
	for (v = text + n; *v == ' ' || *v == '\t'; v++)
		;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	if (!*v || strchr(v, '\n') ||
	    snprintf(joined, sizeof(joined), "%s%s%s", v[0] == '/' ? "" : base,
		     v[0] == '/' ? "" : "/", v) >= (int)sizeof(joined))
		return 1;
	ltd_path_normalize(joined);
	if (strlen(joined) >= size)
		return 1;
	memcpy(out, joined, strlen(joined) + 1);
	return 0;
}

/*
 * A HEAD git accepts (its validate_headref()): a link whose target starts
 * with "refs/", a symbolic ref "ref: refs/...", or an object name.
 */
static bool valid_head(const char *dir)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err rerr = {0};
	char path[PATH_MAX], link[256];
	const char *v;
	struct stat st;
	ssize_t n;
	size_t len, i;

	if (snprintf(path, sizeof(path), "%s/HEAD", dir) >= (int)sizeof(path) ||
	    lstat(path, &st) < 0)
		return false;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, link, sizeof(link) - 1);
		return n >= 5 && !memcmp(link, "refs/", 5);
	}
	if (ltd_policy_read_file(AT_FDCWD, path, path, &text, &len, &rerr))
		return false;
	if (!strncmp(text, "ref:", 4)) {
		for (v = text + 4; isspace((unsigned char)*v); v++)
			;
		return !strncmp(v, "refs/", 5);
	}
	/* An object name: the shortest git knows (SHA-1) is 40 digits. */
	for (i = 0; i < 40 && isxdigit((unsigned char)text[i]); i++)
		;
	return i == 40;
}

bool ltd_gitdir_is(const char *dir)
{
	char path[PATH_MAX], common[PATH_MAX];
	struct ltd_err rerr = {0};
	int ret;

	if (!valid_head(dir) || snprintf(path, sizeof(path), "%s/commondir",
					 dir) >= (int)sizeof(path))
		return false;
	ret = ltd_gitdir_pointer(path, "", dir, common, sizeof(common), &rerr);
	if (ret < 0)
		return true;
	if (ret)
		snprintf(common, sizeof(common), "%s", dir);
	if (snprintf(path, sizeof(path), "%s/objects", common) >=
		    (int)sizeof(path) ||
	    access(path, X_OK) < 0)
		return false;
	if (snprintf(path, sizeof(path), "%s/refs", common) >=
		    (int)sizeof(path) ||
	    access(path, X_OK) < 0)
		return false;
	return true;
}
