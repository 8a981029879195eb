/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The core.hooksPath the user's system and global git configuration set,
 * for the exit walk (protect/repojudge.c): a repository whose own
 * configuration sets none takes it, and a relative one is taken from each
 * of its work trees, where the command may have written hooks.
 */
#ifndef LTD_GITHOOKSPATH_H
#define LTD_GITHOOKSPATH_H

#include <limits.h>
#include <stdbool.h>

/* How many relative hooks paths the walk judges. */
#define LTD_GIT_HOOKS_PATHS_MAX 8

struct ltd_git_hooks_paths {
	char v[LTD_GIT_HOOKS_PATHS_MAX][PATH_MAX];
	unsigned n;
	/* Not all are in v: more than LTD_GIT_HOOKS_PATHS_MAX, one too
	 * long, or more files than LTD_GIT_MAX_CONFIG_FILES to read. */
	bool over;
};

/*
 * Into @p: every relative core.hooksPath (each once, in the order read)
 * of the system and global configs and the files they include, as git
 * reads them.  Every include is followed, whatever its includeIf's
 * condition (which git judges in each repository): so each value a
 * repository may take is there, not only the last one read.  An absolute
 * one (or "~/") is left out: the checks before the run protect it.
 */
void ltd_git_default_hooks_paths(struct ltd_git_hooks_paths *p);

#endif
