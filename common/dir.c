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

#include "common/vec.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool skipped(const char *name, unsigned flags)
{
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return true;
	return (flags & LTD_DIR_SKIP_HIDDEN) && name[0] == '.';
}

int ltd_dir_names(int fd, unsigned flags, char ***out, size_t *n)
{
	int dup_fd = dup(fd), ret = 0;
	char **names = NULL;
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
	while (!ret && (errno = 0, de = readdir(d)))
		if (!skipped(de->d_name, flags))
			ret = ltd_strv_push(&names, &count, de->d_name);
	if (!ret && errno)
		ret = -errno;
	rewinddir(d);
	closedir(d);
	if (ret) {
		ltd_strv_free(names, count);
		return ret;
	}
	if (count)
		qsort(names, count, sizeof(*names), cmp);
	*out = names;
	*n = count;
	return 0;
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
