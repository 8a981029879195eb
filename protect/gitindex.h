/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A git index the command wrote, read as git reads it.  The cage may write
 * a repository's index (git add, git commit), and git does not check the
 * paths in an index it reads: an entry .git/hooks/post-checkout, or
 * ../x/.bashrc, written there by hand is what `git checkout -- .` on the
 * host writes next.  After the run, an index (and a split index's shared
 * index) that changed is parsed here, without running git, and every path
 * in it is held to what git's verify_path() asks of a path it adds; one
 * that fails is moved aside.
 */
#ifndef LTD_GITINDEX_H
#define LTD_GITINDEX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* Why an index was refused: @why, and the entry's path ("" for none). */
struct ltd_gitindex_fault {
	const char *why;
	char path[PATH_MAX];
};

/*
 * The index file's @len bytes at @buf: its header (DIRC, version 2, 3 or
 * 4, a count), then each entry (v4's names prefix-compressed), read with
 * SHA-1 object ids and, when that does not parse and @sha256 (the
 * repository's config may make it a SHA-256 one), with SHA-256 ones.  0
 * when the entries parse and every path is one git would add: relative,
 * no empty, "." or ".." component, no component git or a Windows or macOS
 * file system would take for .git (.GIT, git~1, ".git." or ".git ", .git
 * with invisible characters, a component split by a backslash); a
 * directory entry of a sparse index may end in '/', a split index's entry
 * may have no name.  A path git would refuse in a layout that parses that
 * far is refused even if the other layout parses.  An IEOT extension (git
 * reads the entries in blocks from it) must name exactly the entries'
 * blocks.  Otherwise -EINVAL, and @f says why.  The trailing checksum and
 * the other extensions are not read.
 */
int ltd_gitindex_check(const void *buf, size_t len, bool sha256,
		       struct ltd_gitindex_fault *f);

/* @name (a component of a path, @len bytes) is one git would take for
 * .git on some file system. */
bool ltd_gitindex_is_dotgit(const char *name, size_t len);

/*
 * The index and the shared indexes (sharedindex.*) of the git directory
 * open at @gitdir, shown as @shown: each that changed (its ctime) at or
 * after @since is checked (a link or another file in their place is
 * refused); each that fails is renamed NAME.ltd-native-quarantine in its
 * directory (never over a file) and said on @out, naming the entry.
 */
void ltd_gitindex_judge(FILE *out, int gitdir, const char *shown,
			struct timespec since);

#endif
