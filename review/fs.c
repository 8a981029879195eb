// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"

int ltd_beneath(int dir, const char *path, int flags)
{
	struct open_how how = {
		.flags = (__u64)flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	if (!path[0])
		path = ".";
	return (int)syscall(SYS_openat2, dir, path, &how, sizeof(how));
}

int ltd_open_nofollow(const char *path, int flags)
{
	struct open_how how = {
		.flags = (__u64)flags | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
}

int ltd_beneath_parent(int dir, const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');
	char *head;
	int fd;

	if (!slash) {
		*leaf = path;
		return ltd_beneath(dir, ".", O_PATH | O_DIRECTORY);
	}
	*leaf = slash + 1;
	head = strndup(path, (size_t)(slash - path));
	if (!head) {
		errno = ENOMEM;
		return -1;
	}
	fd = ltd_beneath(dir, head, O_PATH | O_DIRECTORY);
	free(head);
	return fd;
}

int ltd_beneath_lstat(int dir, const char *path, struct stat *st)
{
	const char *leaf;
	_cleanup_close_ int pfd = ltd_beneath_parent(dir, path, &leaf);

	if (pfd < 0)
		return -errno;
	if (fstatat(pfd, leaf, st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	return 0;
}

int ltd_read_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= max) {
				free(b);
				return -EFBIG;
			}
			cap = cap * 2 > max ? max : cap * 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

static ssize_t pread_full(int fd, char *buf, size_t len, off_t off)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = pread(fd, buf + n, len - n, off + (off_t)n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

int ltd_same_content(int fd, int fd2, off_t size)
{
	enum { CHUNK = 65536 };
	_cleanup_free_ char *a = malloc(CHUNK), *b = malloc(CHUNK);

	if (!a || !b)
		return -ENOMEM;
	for (off_t off = 0; off < size; off += CHUNK) {
		size_t want = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
		ssize_t x = pread_full(fd, a, want, off);
		ssize_t y = pread_full(fd2, b, want, off);

		if (x < 0 || y < 0)
			return -errno;
		if (x != y || memcmp(a, b, (size_t)x) != 0)
			return 0;
		if ((size_t)x < want)
			return 1; /* both shorter than said: the same */
	}
	return 1;
}

int ltd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int ltd_copy_fd(int in, int out)
{
	char buf[65536];
	off_t off = 0;

	/* The kernel's copy first (reflinks where the filesystem has
	 * them); read and write where it refuses. */
	for (;;) {
		ssize_t n = copy_file_range(in, &off, out, NULL, 1 << 30, 0);

		if (n == 0)
			return 0;
		if (n < 0)
			break;
	}
	if (off != 0)
		return -errno;
	for (;;) {
		ssize_t n = pread(in, buf, sizeof(buf), off);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		ret = ltd_write_all(out, buf, (size_t)n);
		if (ret < 0)
			return ret;
		off += n;
	}
}

int ltd_chmod_beneath(int dir, const char *path, mode_t mode)
{
	_cleanup_close_ int fd = ltd_beneath(dir, path, O_PATH | O_NOFOLLOW);
	char proc[32];
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	/* The magic link leads to exactly this inode: nothing is looked up
	 * by name again. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return fchmodat(AT_FDCWD, proc, mode, 0) < 0 ? -errno : 0;
}

/* A removal: the directory it began in (where a subtree deeper than
 * RM_DEPTH is moved, to be removed from there), how many were moved. */
struct rm {
	int top;
	unsigned moved;
};

/* Levels a removal descends at once: each holds a descriptor and a
 * frame.  The cage chooses how deep its upper goes. */
#define RM_DEPTH 256

static int remove_tree_at(struct rm *r, int dir, const char *name,
			  unsigned depth);

/* Remove what the directory @fd, @depth levels down, holds (@fd closed).  Read
 * with getdents64 itself: the entry's type spares the unlink that would fail on
 * a directory, and no DIR stream (its fstat and fcntl) is made. */
static int remove_below(struct rm *r, int fd, unsigned depth)
{
	/* On the heap: a buffer a level. */
	_cleanup_free_ char *buf = malloc(8192);
	int ret = 0;
	long n = 0;

	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (!ret && (n = syscall(SYS_getdents64, fd, buf, 8192)) > 0)
		for (long off = 0; !ret && off < n;) {
			const struct dirent64 *e = (const void *)(buf + off);

			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN &&
			    (unlinkat(fd, e->d_name, 0) == 0 ||
			     errno == ENOENT))
				continue;
			if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN &&
			    errno != EISDIR && errno != EPERM) {
				ret = -errno;
				break;
			}
			ret = remove_tree_at(r, fd, e->d_name, depth + 1);
		}
	if (!ret && n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The name of the @i-th subtree a removal moved up. */
static void moved_name(char *buf, size_t size, unsigned i)
{
	snprintf(buf, size, ".ltd-deep-%d-%u", (int)getpid(), i);
}

int ltd_remove_tree(int dir, const char *name)
{
	struct rm r = {.top = dir};
	char deep[64];
	int ret = remove_tree_at(&r, dir, name, 0);

	/* Each moved subtree goes the same way (and may move more). */
	for (unsigned i = 0; !ret && i < r.moved; i++) {
		moved_name(deep, sizeof(deep), i);
		ret = remove_tree_at(&r, dir, deep, 0);
	}
	return ret;
}

static int remove_tree_at(struct rm *r, int dir, const char *name,
			  unsigned depth)
{
	char deep[64];
	struct stat st;
	int fd, ret;

	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dir, name, 0) == 0 || errno == ENOENT ? 0
								      : -errno;
	/* Too deep to go on from here: moved up beside the tree, and
	 * removed from there once this pass is done. */
	if (depth >= RM_DEPTH) {
		moved_name(deep, sizeof(deep), r->moved);
		if (renameat(dir, name, r->top, deep) < 0)
			return -errno;
		r->moved++;
		return 0;
	}
	/* Ours (the review's, or the project's user's): open it up so that
	 * its entries can be listed and removed. */
	if ((st.st_mode & 0700) != 0700)
		ltd_chmod_beneath(dir, name, (st.st_mode & 07777) | 0700);
	fd = ltd_beneath(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	ret = remove_below(r, fd, depth);
	if (ret < 0)
		return ret;
	if (unlinkat(dir, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int ltd_mkdirs_beneath(int dir, const char *rel)
{
	_cleanup_close_ int cur = -1;
	_cleanup_free_ char *copy = strdup(rel);
	char *comp, *save = NULL;

	if (!copy)
		return -ENOMEM;
	cur = ltd_beneath(dir, ".", O_PATH | O_DIRECTORY);
	if (cur < 0)
		return -errno;
	for (comp = strtok_r(copy, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		int fd;

		if (mkdirat(cur, comp, 0700) < 0 && errno != EEXIST)
			return -errno;
		fd = ltd_beneath(cur, comp, O_PATH | O_DIRECTORY);
		if (fd < 0)
			return -errno;
		ltd_closep(&cur);
		cur = fd;
	}
	return ltd_steal_fd(&cur);
}
