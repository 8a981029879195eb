/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A path as the kernel would reach it, when its tail may not exist yet. */
#ifndef LTD_COMMON_REALPATH_H
#define LTD_COMMON_REALPATH_H

#include <stddef.h>

/*
 * The absolute path @in as the kernel resolves it: the longest leading
 * part that exists through realpath(3) (links and ".." followed as the
 * kernel follows them), the rest, which does not exist yet, normalised by
 * its text.  For the places a variable such as XDG_STATE_HOME names,
 * judged against a bind's real path.  0, -EINVAL (@in is not absolute)
 * or -ENAMETOOLONG (@out is then "").
 */
int ltd_realpath_existing(const char *in, char *out, size_t size);

#endif
