// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Disposable copies into the cage's tmpfs (the strict tier's ~/.claude
 * subset).  Every source is opened beneath its parent without following a
 * link, so nothing outside the copied tree can come along; links, devices,
 * FIFOs and sockets are left out.  Runs in the cage's init, before
 * pivot_root; the source was opened while host paths were visible.
 */
#include "runtime/copytree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

#define LTD_COPY_MAX_BYTES (256ULL << 20)
#define LTD_COPY_MAX_FILES 20000
#define LTD_COPY_MAX_DEPTH 32

struct budget {
	unsigned long long bytes;
	unsigned files;
};

int ltd_copy_open(int dirfd, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   (dirfd == AT_FDCWD ? 0 : RESOLVE_BENEATH),
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

static int copy_node(int src, int dstdir, const char *name, int depth,
		     struct budget *b, struct ltd_err *err);

static int copy_file(int src, const struct stat *st, int dstdir,
		     const char *name, struct budget *b, struct ltd_err *err)
{
	_cleanup_close_ int dst = -1;
	off_t off = 0;

	b->bytes += (unsigned long long)st->st_size;
	if (b->bytes > LTD_COPY_MAX_BYTES)
		return ltd_err_set(err, EFBIG,
				   "'%s': the copied files exceed %llu MiB",
				   name, LTD_COPY_MAX_BYTES >> 20);
	dst = openat(dstdir, name,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     st->st_mode & 0777);
	if (dst < 0)
		return ltd_err_sys(err, "create '%s'", name);
	while (off < st->st_size) {
		ssize_t n =
			sendfile(dst, src, &off, (size_t)(st->st_size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ltd_err_sys(err, "copy '%s'", name);
		if (n == 0)
			break; /* shrank meanwhile */
	}
	return 0;
}

static int copy_dir(int src, const struct stat *st, int dstdir,
		    const char *name, int depth, struct budget *b,
		    struct ltd_err *err)
{
	_cleanup_close_ int dst = -1;
	struct dirent *d;
	DIR *dir;
	int ret = 0, fd;

	if (depth > LTD_COPY_MAX_DEPTH)
		return ltd_err_set(err, ELOOP, "'%s': nested too deep", name);
	if (mkdirat(dstdir, name, 0700) < 0 && errno != EEXIST)
		return ltd_err_sys(err, "create '%s'", name);
	dst = openat(dstdir, name,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dst < 0)
		return ltd_err_sys(err, "open '%s'", name);
	fd = dup(src);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		ltd_closep(&fd);
		return ltd_err_sys(err, "read '%s'", name);
	}
	while (!ret && (d = readdir(dir))) {
		_cleanup_close_ int child = -1;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		child = ltd_copy_open(src, d->d_name);
		if (child < 0) {
			/* A link (ELOOP, EXDEV) or what we cannot read:
			 * left out. */
			continue;
		}
		ret = copy_node(child, dst, d->d_name, depth + 1, b, err);
	}
	closedir(dir);
	if (!ret && fchmod(dst, (st->st_mode & 0777) | 0700) < 0)
		ret = ltd_err_sys(err, "chmod '%s'", name);
	return ret;
}

static int copy_node(int src, int dstdir, const char *name, int depth,
		     struct budget *b, struct ltd_err *err)
{
	struct stat st;

	if (fstat(src, &st) < 0)
		return ltd_err_sys(err, "stat '%s'", name);
	if (++b->files > LTD_COPY_MAX_FILES)
		return ltd_err_set(err, EFBIG, "more than %d files to copy",
				   LTD_COPY_MAX_FILES);
	if (S_ISDIR(st.st_mode))
		return copy_dir(src, &st, dstdir, name, depth, b, err);
	/* A second name for a file (a hard link planted by a trusted run:
	 * .credentials.json as commands/notes.md) is left out like a link. */
	if (S_ISREG(st.st_mode) && st.st_nlink > 1)
		return 0;
	if (S_ISREG(st.st_mode))
		return copy_file(src, &st, dstdir, name, b, err);
	return 0; /* devices, FIFOs, sockets: left out */
}

int ltd_copy_tree(int src, int dstdir, const char *name, struct ltd_err *err)
{
	struct budget b = {0};

	return copy_node(src, dstdir, name, 0, &b, err);
}
