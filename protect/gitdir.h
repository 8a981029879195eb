/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What git takes for a git directory, and the files that send it to one
 * (a .git file, a commondir), read as git reads them.  Reads the host.
 */
#ifndef LTD_GITDIR_H
#define LTD_GITDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/*
 * Whether git would take @dir for a git directory (its is_git_directory()):
 * a valid HEAD here, objects/ and refs/ in the common directory.  One whose
 * commondir cannot be read counts as one (protecting it then refuses).
 */
bool ltd_gitdir_is(const char *dir);

/*
 * The path a .git file ("gitdir: X", @prefix "gitdir:") or a commondir
 * file ("X", @prefix "") names, relative to @base, into @out of @size,
 * normalized.  1 when absent or not of that form (git would not follow it
 * either), 0 when found, <0 when it cannot be read.
 */
int ltd_gitdir_pointer(const char *file, const char *prefix, const char *base,
		       char *out, size_t size, struct ltd_err *err);

#endif
