/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The core.hooksPath the user's system and global git configuration set,
 * for the exit walk (protect/repojudge.c): a repository whose own
 * configuration sets none takes it, and a relative one is taken from each
 * of its work trees, where the command may have written hooks.
 */
#ifndef LTD_GITHOOKSPATH_H
#define LTD_GITHOOKSPATH_H

#include <stddef.h>

/* Into @out: the last core.hooksPath of the system and global configs
 * (and the files they include), as git reads them; "" when none is set
 * or it does not fit. */
void ltd_git_default_hooks_path(char *out, size_t size);

#endif
