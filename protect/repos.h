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

#include "common/sha256.h"

struct ltd_repos_limits {
	unsigned depth; /* directories below the root looked into */
	unsigned long dirs;
	long long racy_ns; /* the index's racy margin; 0: LTD_RINDEX_RACY_NS */
};

#define LTD_REPOS_MAX_DEPTH 128
#define LTD_REPOS_MAX_DIRS  1000000UL

/* Not judged, the project's own (protected before the run, gitprotect.c):
 * the root, when it was a git directory then; its .git. */
#define LTD_REPOS_SKIP_ROOT	1u
#define LTD_REPOS_SKIP_ROOT_GIT 2u
/* The root's own instruction files and .claude: the project's, judged by
 * agentinstr.c and protected.c (decision 0162). */
#define LTD_REPOS_SKIP_ROOT_AGENT 4u

/*
 * Walk @root (a directory, reached without following a link), never
 * through a link or into another mount, and say on @out, one warning a
 * line, for each git directory (HEAD, and objects, refs or commondir of
 * any type; but what @skip names):
 *  - its configuration (config, config.worktree and what they include
 *    within @root) when it runs something (a key ltd_gitconfig_command()
 *    knows, core.hooksPath, an include, protocol.allow) and a file that
 *    makes the directory a git directory or configures it changed (its
 *    ctime) at or after @since;
 *  - each hook (in hooks/, and in a core.hooksPath within @root) that is
 *    not a sample and changed, itself or, for a link, what it leads to;
 *  - a commondir that changed; a config that is a link or unreadable.
 * Below the root (and at it, but for LTD_REPOS_SKIP_ROOT_AGENT), what
 * the command made in a .claude that Claude Code runs or loads (its
 * table's places, its settings), and an agent's instruction file it made
 * a link out of @root or a FIFO, is moved aside and said (decision 0162;
 * not in a review's upper).
 * A `.git` file or link that changed and sends git where the walk does
 * not look (out of @root, through a link, nowhere yet) is said; so is a
 * directory of the user's the walk cannot read, on every run.  What the
 * limits (@lim, NULL for the defaults) keep it from looking at is said,
 * never skipped silently; past 100 warnings, their count.  Names are shown
 * through ltd_fput_shown().
 *
 * @index_dir (-1: none): a directory of ltd-native's own, out of the
 * cage's reach, where the walk keeps an index of @root's directories
 * (repoindex.h) and reads the previous one: it reads fewer directories
 * to say the same, and remembers where it could not look (a directory it
 * could not open, past a limit): what a later walk finds there, or in a
 * directory the run moved to a place the index did not know it at, is
 * judged as new (decision 0159).  Without one, a walk that could not
 * look somewhere says that no later walk will tell what was there.
 */
void ltd_repos_report(FILE *out, const char *root, unsigned skip,
		      struct timespec since, const struct ltd_repos_limits *lim,
		      int index_dir);

/* The name of @root's index in the index directory: its path's SHA-256,
 * in hex. */
void ltd_repos_index_name(const char *root, char name[LTD_SHA256_HEX_LEN + 1]);

/* The filesystem of the directory at @fd keeps a walk index (ext4, XFS,
 * Btrfs, tmpfs, ZFS, F2FS: their ctimes and inode numbers hold). */
bool ltd_repos_indexable(int fd);

/*
 * The first walk of @root, before the command runs, when @index_dir holds
 * no index of it and its filesystem keeps one: nothing judged, nothing
 * said, the index made; so the walk at the first run's end tells what
 * the user had in a nested .claude from what the command made there, as
 * at any later run (without an index it could not: a new user's review
 * saw a committed commands/ moved aside whole).
 */
void ltd_repos_prime(const char *root, int index_dir);

/*
 * The same walk over a review's upper directory @upper (`run --review`:
 * only it holds what the command wrote), shown as the project @project
 * below it: a git directory is told by what the upper and the project
 * hold together, as the cage saw them, and a configuration the upper
 * does not hold is read from the project.
 */
void ltd_repos_report_upper(FILE *out, const char *upper, const char *project,
			    unsigned skip, struct timespec since,
			    const struct ltd_repos_limits *lim);

/*
 * What a review's apply holds back of the hooks: the walk of the upper
 * @upper over the project @project (shown as @project_path), as
 * ltd_repos_report_upper()'s, everything in the upper taken as the
 * command's; each hook it would say (a file in a hooks directory or a
 * hooks path of any repository of the two together, what a hook links
 * to, a hooks path with a link on the way) to @fn, as a path relative to
 * the project, and nothing said.
 */
void ltd_repos_upper_hooks(int upper, int project, const char *project_path,
			   void (*fn)(void *ctx, const char *rel), void *ctx);

#endif
