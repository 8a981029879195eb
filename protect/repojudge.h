/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * protect/'s own: what the walk's two judges share.  repojudge.c judges
 * each git directory and .git file the walk meets (its configuration,
 * its hooks); repoworktree.c what a git directory takes from elsewhere
 * (a linked worktree's common directory, a review's project below its
 * upper) and the hooks path of each work tree a .git file makes.
 */
#ifndef LTD_REPOJUDGE_H
#define LTD_REPOJUDGE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "protect/repowalk.h"

/* What a repository's configuration makes git run: the first key, the
 * hooks path, and whether any file of it changed during the run. */
struct ltd_repos_cfg {
	struct walk *w;
	char key[512];		 /* "section.key" of the first key that runs */
	char key_file[PATH_MAX]; /* the file it is in, as shown */
	char hooks_path[PATH_MAX];
	char worktree[PATH_MAX]; /* core.worktree, "" when not set */
	bool changed;		 /* a file of the configuration changed */
	unsigned files;
	/* The command lines its keys run, each after its key, every one
	 * ended by a NUL: the files they name (reponamed.c); n_runs pairs,
	 * at most LTD_REPOS_MAX_RUNS (runs_over: more were dropped). */
	char *runs;
	size_t runs_len;
	unsigned n_runs;
	bool runs_over;
};

#define LTD_REPOS_MAX_RUNS 64

/* What ltd_repos_judge_file() says of a file, and how often. */
struct ltd_repos_said {
	const char *what;   /* when it or what it links to changed */
	const char *detail; /* after it, in parentheses, or NULL */
	const char *link;   /* "git follows @link through a symbolic link" */
	unsigned max;	    /* said at most so often a directory */
};

void ltd_repos_cfg_free(struct ltd_repos_cfg *c);

/* The current directory, relative to the root ("" for the root). */
static inline const char *ltd_repos_here(const struct walk *w)
{
	const char *r = w->path + w->root_len;

	return r[0] == '/' ? r + 1 : r;
}

/* ltd_repos_open_in_root()'s failure for a path git would follow: ENOENT,
 * ENOTDIR (nothing there: git finds nothing) and EXDEV (out of the tree:
 * not the command's to write, or another mount) need no word; any other
 * (ELOOP: a link on the way, which the command may have made) is said, on
 * every run, since whether what lies behind it changed cannot be told. */
static inline bool ltd_repos_unfollowed(int err)
{
	return err < 0 && err != -ENOENT && err != -ENOTDIR && err != -EXDEV;
}

/* repojudge.c's */

/* @to as git takes it from @base, opened beneath the root (see there). */
int ltd_repos_open_in_root(struct walk *w, const char *base, const char *to,
			   int flags, char *shown, size_t size);

/* The same, or in a review's upper that does not hold it, in the project
 * below (the cage saw both): a git directory, a common directory. */
int ltd_repos_open_in_view(struct walk *w, const char *base, const char *to,
			   int flags, char *shown, size_t size);

/* "git follows @what through a symbolic link ...", with @err. */
void ltd_repos_say_unfollowed(struct walk *w, const char *at, const char *name,
			      const char *what, int err);

/* @shown (a path in the root) to w->hook_fn, relative to the root:
 * what a review's apply holds back. */
void ltd_repos_tell(struct walk *w, const char *shown);

/* "and N more @what" at @at, when @n_said is past @max. */
void ltd_repos_say_more(struct walk *w, const char *at, unsigned n_said,
			unsigned max, const char *what);

/* The file @name in the directory @dir (shown as @dir_shown, relative to
 * the root as @dir_rel), which git runs: said as @what says when it or,
 * for a link, what it leads to changed; @n_said counts. */
void ltd_repos_judge_file(struct walk *w, int dir, const char *dir_shown,
			  const char *dir_rel, const char *name,
			  const struct ltd_repos_said *what, unsigned *n_said);

/* config or config.worktree (@name) of the git directory @dir, into @c. */
void ltd_repos_config_file(struct walk *w, struct ltd_repos_cfg *c, int dir,
			   const char *name);

/* The system and global configs' relative hooks paths (w->default_hooks),
 * read the first time a repository that sets none is judged: a walk that
 * meets none reads no configuration.  Never NULL (out of memory: none,
 * and said as past the limits). */
const struct ltd_git_hooks_paths *ltd_repos_default_hooks(struct walk *w);

/* The hooks of core.hooksPath @hooks_path taken from the work tree @base. */
void ltd_repos_hooks_path_at(struct walk *w, const char *base,
			     const char *hooks_path);

/* hooks/ of the git directory @dir (w->path) and the hooks path of its
 * configuration @c (or the user's), from each work tree but those of its
 * .git files. */
void ltd_repos_judge_hooks(struct walk *w, int dir,
			   const struct ltd_repos_cfg *c);

/* reponamed.c's */

/* The files the commands of the configuration @c name, as git runs them
 * from the work tree @base (relative to the root): each the command
 * created or changed, said. */
void ltd_repos_judge_named(struct walk *w, const struct ltd_repos_cfg *c,
			   const char *base);

/* repoworktree.c's */

/* Where @name of the git directory @dir is read from (a review's project
 * when its upper does not hold it). */
int ltd_repos_config_dir(struct walk *w, int dir, const char *name);

/* The common directory of the linked worktree's git directory @dir,
 * judged as a git directory when it holds no HEAD. */
void ltd_repos_judge_common(struct walk *w, int dir);

/* The current directory is a work tree of the git directory @gd (closed
 * here): its relative hooks path judged from here. */
void ltd_repos_hooks_of_work_tree(struct walk *w, int gd, const char *gd_shown);

#endif
