/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening paths of a tree that someone else may have shaped: beneath a
 * directory fd, never through a link, never onto another mount.  The
 * review's upper directory is the cage's work and the project is the
 * user's: both are read and written only through these.
 */
#ifndef LTD_REVIEW_FS_H
#define LTD_REVIEW_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "common/error.h"

/* openat2(@dir, @path, @flags | O_CLOEXEC) with RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV; "" or
 * "." is @dir itself.  -1 with errno set. */
int ltd_beneath(int dir, const char *path, int flags);

/* An absolute @path (the project, the reviews' directory) opened with no
 * link on its way.  -1 with errno. */
int ltd_open_nofollow(const char *path, int flags);

/* The directory that holds @path (relative) beneath @dir, opened as
 * ltd_beneath() opens; *@leaf points at @path's last component. */
int ltd_beneath_parent(int dir, const char *path, const char **leaf);

/* lstat of @path beneath @dir, no link followed on the way (the last
 * component itself is not followed either).  0 or -errno. */
int ltd_beneath_lstat(int dir, const char *path, struct stat *st);

/* Read the whole regular file @fd into a malloc'd buffer (at most @max
 * bytes: -EFBIG past it).  0 or -errno. */
int ltd_read_fd(int fd, size_t max, char **buf, size_t *len);

/* @fd and @fd2 (regular files of @size bytes) hold the same bytes: 1,
 * 0 when not, -errno on a read error. */
int ltd_same_content(int fd, int fd2, off_t size);

/* Write @len bytes of @buf to @fd; 0 or -errno. */
int ltd_write_all(int fd, const void *buf, size_t len);

/* Copy what @in holds from its start to @out (both regular files). */
int ltd_copy_fd(int in, int out);

/* chmod of @path beneath @dir, never a link's target.  0 or -errno. */
int ltd_chmod_beneath(int dir, const char *path, mode_t mode);

/*
 * Remove @name in @dir and everything below it, never through a link or
 * onto another mount; directories it may not enter (mode 000, as
 * overlayfs leaves its work directory) are opened up first.  A missing
 * @name is no error.  0 or -errno.
 */
int ltd_remove_tree(int dir, const char *name);

/* mkdir -p of @rel beneath @dir, each component 0700, none a link.
 * Returns the last directory's fd or -errno. */
int ltd_mkdirs_beneath(int dir, const char *rel);

#endif
