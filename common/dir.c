// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/vec.h"

static bool skipped(const char *name, unsigned flags)
{
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return true;
	return (flags & LTD_DIR_SKIP_HIDDEN) && name[0] == '.';
}

/* Order @idx by the names it points at. */
static int cmp_at(const void *a, const void *b, void *names)
{
	char **v = names;

	return strcmp(v[*(const size_t *)a], v[*(const size_t *)b]);
}

/* @names and @types (may be NULL) put in the order of their names. */
static int sort_typed(char **names, unsigned char *types, size_t n)
{
	_cleanup_free_ size_t *idx = malloc(n * sizeof(*idx));
	_cleanup_free_ char **v = malloc(n * sizeof(*v));
	_cleanup_free_ unsigned char *t = types ? malloc(n) : NULL;

	if (!idx || !v || (types && !t))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_at, names);
	for (size_t i = 0; i < n; i++) {
		v[i] = names[idx[i]];
		if (types)
			t[i] = types[idx[i]];
	}
	memcpy(names, v, n * sizeof(*v));
	if (types)
		memcpy(types, t, n);
	return 0;
}

int ltd_dir_names_typed(int fd, unsigned flags, char ***out,
			unsigned char **types, size_t *n)
{
	return ltd_dir_names_if(fd, flags, NULL, NULL, out, types, n);
}

int ltd_dir_names_if(int fd, unsigned flags, ltd_dir_keep_fn keep, void *ctx,
		     char ***out, unsigned char **types, size_t *n)
{
	int dup_fd = dup(fd), ret = 0;
	char **names = NULL;
	unsigned char *t = NULL, *grown;
	size_t count = 0;
	struct dirent *de;
	DIR *d;

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		ret = -errno;
		close(dup_fd);
		return ret;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		if (skipped(de->d_name, flags) ||
		    (keep && !keep(ctx, de->d_name, de->d_type)))
			continue;
		ret = ltd_strv_push(&names, &count, de->d_name);
		if (!ret && types && !(grown = realloc(t, count)))
			ret = -ENOMEM;
		else if (!ret && types)
			(t = grown)[count - 1] = de->d_type;
	}
	if (!ret && errno)
		ret = -errno;
	rewinddir(d);
	closedir(d);
	if (!ret && count > 1)
		ret = sort_typed(names, types ? t : NULL, count);
	if (ret) {
		ltd_strv_free(names, count);
		free(t);
		return ret;
	}
	*out = names;
	if (types)
		*types = t;
	*n = count;
	return 0;
}

int ltd_dir_names(int fd, unsigned flags, char ***out, size_t *n)
{
	return ltd_dir_names_typed(fd, flags, out, NULL, n);
}

int ltd_dir_open_beneath(int dir, const char *name)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
}
