/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A directory's names, read at once: for the walks that change the
 * directory while they go through it, or that want its entries in order.
 */
#ifndef LTD_COMMON_DIR_H
#define LTD_COMMON_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#define LTD_DIR_SKIP_HIDDEN 0x1 /* names that begin with '.' too */

/*
 * The names in the directory @fd (neither "." nor ".."; with
 * LTD_DIR_SKIP_HIDDEN, none beginning with '.'), sorted by strcmp, into
 * *@out (free with ltd_strv_free) and *@n.  @fd is read through a
 * duplicate and left open; its offset is back at the start.  0 or -errno
 * (nothing returned then).
 */
int ltd_dir_names(int fd, unsigned flags, char ***out, size_t *n);

/* The same, with each name's type as the directory gave it (DT_REG,
 * DT_DIR..., DT_UNKNOWN where the file system says none) in *@types, in
 * the same order (free it); no lstat needed to pass over plain files. */
int ltd_dir_names_typed(int fd, unsigned flags, char ***out,
			unsigned char **types, size_t *n);

/* The same, keeping only the names @keep says yes to (given the type the
 * directory gave): a large directory's other names are never copied. */
typedef bool (*ltd_dir_keep_fn)(void *ctx, const char *name,
				unsigned char type);
int ltd_dir_names_if(int fd, unsigned flags, ltd_dir_keep_fn keep, void *ctx,
		     char ***out, unsigned char **types, size_t *n);

/* The directory @name beneath @dir, read-only: no link, no magic link, no
 * other mount on the way, @name itself no link.  The fd, or -1 (errno). */
int ltd_dir_open_beneath(int dir, const char *name);

/* @st changed at or after @since (its ctime, which no process can set
 * back): what the checks after a run compare with the run's start. */
static inline bool ltd_ctime_since(const struct stat *st, struct timespec since)
{
	return st->st_ctim.tv_sec > since.tv_sec ||
	       (st->st_ctim.tv_sec == since.tv_sec &&
		st->st_ctim.tv_nsec >= since.tv_nsec);
}

#endif
