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

/* One name the directory gave, kept (with its @type) when @keep says so. */
static int take(const char *name, unsigned char type, unsigned flags,
		ltd_dir_keep_fn keep, void *ctx, char ***names,
		unsigned char **types, size_t *count)
{
	unsigned char *grown;
	int ret;

	if (skipped(name, flags) || (keep && !keep(ctx, name, type)))
		return 0;
	ret = ltd_strv_push(names, count, name);
	if (ret || !types)
		return ret;
	grown = realloc(*types, *count);
	if (!grown)
		return -ENOMEM;
	grown[*count - 1] = type;
	*types = grown;
	return 0;
}

int ltd_dir_names_if(int fd, unsigned flags, ltd_dir_keep_fn keep, void *ctx,
		     char ***out, unsigned char **types, size_t *n)
{
	/* getdents64 on @fd itself, then its offset back to the start: no
	 * duplicate and no stdio directory stream (a walk of many small
	 * directories pays those four calls for each). */
	enum { DENTS = 32768 };
	_cleanup_free_ char *buf = malloc(DENTS);
	unsigned char *t = NULL;
	char **names = NULL;
	size_t count = 0;
	long len;
	int ret = buf ? 0 : -ENOMEM;

	while (!ret && (len = syscall(SYS_getdents64, fd, buf, DENTS)) > 0)
		for (long off = 0; !ret && off < len;) {
			struct dirent64 *de = (struct dirent64 *)(buf + off);

			ret = take(de->d_name, de->d_type, flags, keep, ctx,
				   &names, types ? &t : NULL, &count);
			off += de->d_reclen;
		}
	if (!ret && len < 0)
		ret = -errno;
	if (lseek(fd, 0, SEEK_SET) < 0 && !ret)
		ret = -errno;
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
