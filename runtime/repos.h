/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Git repositories the command planted in the project.  git finds a
 * repository in any directory a user enters (a `.git` there or above, or
 * the directory itself bare), and a shell prompt that shows git's status
 * runs git there: a repository the cage created, with a core.fsmonitor or
 * a hook, runs the agent's code on the host at the next `cd`.  The
 * project's own .git is protected read-only (gitprotect.c); this reports,
 * at exit, every other git directory whose configuration or hooks the
 * command created or changed and that runs something.
 */
#ifndef LTD_REPOS_H
#define LTD_REPOS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

struct ltd_repos_limits {
	unsigned depth; /* directories below the root looked into */
	unsigned long dirs;
};

#define LTD_REPOS_MAX_DEPTH 128
#define LTD_REPOS_MAX_DIRS  1000000UL

/*
 * Walk @root (a directory, reached without following a link), never
 * through a link or into another mount, and say on @out, one warning a
 * line, each git directory (but @root and @root/.git when @root_protected:
 * the project's, protected before the run) where a file git runs
 * or is configured by changed (by its ctime) at or after @since and
 * names something git runs: a configuration key that names a command
 * (ltd_gitconfig_command(), core.hooksPath, an include), a hook that is
 * not a sample, a `commondir` (configuration and hooks elsewhere), or
 * one ltd-native cannot read (a link, a FIFO).  A `.git` file or link
 * changed since @since that sends git outside @root is said too; one
 * that stays inside is covered by the walk.  What the limits (@lim, NULL
 * for the defaults) keep it from looking at is said, never skipped
 * silently.  Names are shown through ltd_fput_shown().
 */
void ltd_repos_report(FILE *out, const char *root, bool root_protected,
		      struct timespec since,
		      const struct ltd_repos_limits *lim);

#endif
