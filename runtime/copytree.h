/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LTD_COPYTREE_H
#define LTD_COPYTREE_H

#include "common/error.h"

/* Open a copy source for reading without following any link (beneath
 * @dirfd unless it is AT_FDCWD); never blocks on a FIFO. */
int ltd_copy_open(int dirfd, const char *path);

/* Copy the file or tree open at @src to @name in @dstdir (regular files
 * and directories only; a link is never followed). */
int ltd_copy_tree(int src, int dstdir, const char *name, struct ltd_err *err);

#endif
