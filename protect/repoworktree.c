// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Git repositories planted in the project (see repos.h): what a git
 * directory the walk (repos.c) meets takes from elsewhere, and the work
 * trees of a .git file (repojudge.h).  git reads a linked worktree's
 * configuration and hooks from the directory its commondir names; in a
 * review's upper, what the upper does not hold from the project below
 * it (the cage saw both); and it takes a relative core.hooksPath from
 * each work tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/error.h"
#include "policy/option.h"
#include "protect/repojudge.h"

/* The current directory of the project below a review's upper (w->lower),
 * opened as the walk opens (no link, no other mount); -1 if none. */
static int lower_here(struct walk *w)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};

	if (w->lower < 0)
		return -1;
	if (w->lower_dir >= 0 && !strcmp(w->lower_at, ltd_repos_here(w)))
		return w->lower_dir;
	if (w->lower_dir >= 0)
		close(w->lower_dir);
	snprintf(w->lower_at, sizeof(w->lower_at), "%s", ltd_repos_here(w));
	w->lower_dir =
		(int)syscall(SYS_openat2, w->lower,
			     ltd_repos_here(w)[0] ? ltd_repos_here(w) : ".",
			     &how, sizeof(how));
	return w->lower_dir;
}

/* Where @name of the git directory @dir is read from: @dir, or in a
 * review's upper that does not hold it, the project's (the cage saw it). */
int ltd_repos_config_dir(struct walk *w, int dir, const char *name)
{
	struct stat st;
	int lower;

	if (w->lower < 0 || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return dir;
	lower = lower_here(w);
	return lower >= 0 ? lower : dir;
}

unsigned ltd_repos_lower_makes(struct walk *w, unsigned flags)
{
	static const char *const m[] = {"commondir", "objects", "refs"};
	struct stat st;
	int fd = lower_here(w);

	if (fd < 0)
		return flags;
	if (fstatat(fd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) == 0)
		flags |= LTD_RN_HEAD;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (fstatat(fd, m[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			flags |= LTD_RN_MAKES;
	return flags;
}

/* The directory the commondir file of the git directory @dir (w->path)
 * names (relative to @dir, or absolute), opened as
 * ltd_repos_open_in_view() opens, its path into @shown; a negative errno
 * when there is none or it cannot be. */
static int open_common(struct walk *w, int dir, char *shown, size_t size)
{
	_cleanup_free_ char *text = NULL;
	struct ltd_err err = {0};
	struct stat st;
	size_t len;

	dir = ltd_repos_config_dir(w, dir, "commondir");
	if (fstatat(dir, "commondir", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) ||
	    ltd_policy_read_file(dir, "commondir", "commondir", &text, &len,
				 &err))
		return -ENOENT;
	/* As git reads it: the whole file but its trailing line ends. */
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	text[len] = '\0';
	if (!len || strlen(text) != len)
		return -ENOENT;
	return ltd_repos_open_in_view(w, ltd_repos_here(w), text,
				      O_RDONLY | O_DIRECTORY, shown, size);
}

/* w->path made @shown (a path in the root that fits) for what follows,
 * the old one kept in @saved; false when it cannot be. */
static bool path_to(struct walk *w, const char *shown, char *saved, size_t size)
{
	size_t n = strlen(shown);

	if (n >= size || n >= sizeof(w->path) ||
	    strncmp(shown, w->path, w->root_len) != 0 ||
	    (shown[w->root_len] != '/' && shown[w->root_len] != '\0'))
		return false;
	memcpy(saved, w->path, size);
	memcpy(w->path, shown, n + 1);
	return true;
}

/*
 * A linked worktree's git directory @dir: git reads the configuration and
 * hooks of the directory its commondir file names, which git does not
 * need to hold a HEAD.  One in the root with no HEAD (no git directory to
 * the walk, which would judge it where it lies) is judged here, as a git
 * directory named by its own path.
 */
void ltd_repos_judge_common(struct walk *w, int dir)
{
	char shown[PATH_MAX * 2], saved[PATH_MAX];
	struct stat st;
	int fd;

	if (w->in_common)
		return;
	fd = open_common(w, dir, shown, sizeof(shown));
	if (ltd_repos_unfollowed(fd))
		ltd_repos_say_unfollowed(w, shown[0] ? shown : NULL,
					 shown[0] ? NULL : "commondir",
					 "this worktree's commondir", fd);
	if (fd < 0)
		return; /* out of the project: said when commondir changed */
	if (!path_to(w, shown, saved, sizeof(saved))) {
		close(fd);
		return;
	}
	/* In a review's upper, a HEAD in the project below counts too. */
	if (fstatat(fd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    !(ltd_repos_lower_makes(w, 0) & LTD_RN_HEAD)) {
		w->in_common = true;
		ltd_repos_judge_gitdir(w, fd, false);
		w->in_common = false;
	}
	memcpy(w->path, saved, sizeof(saved));
	close(fd);
}

/* The configuration of the git directory @gd, at w->path: its common
 * directory's config, its config, its config.worktree, in git's order,
 * each read where ltd_repos_config_dir() says, without a word. */
static void read_config(struct walk *w, struct ltd_repos_cfg *c, int gd)
{
	char shown[PATH_MAX * 2], inner[PATH_MAX];
	int common;

	c->w = w;
	w->quiet = true;
	common = open_common(w, gd, shown, sizeof(shown));
	if (common >= 0) {
		if (path_to(w, shown, inner, sizeof(inner))) {
			ltd_repos_config_file(
				w, c, ltd_repos_config_dir(w, common, "config"),
				"config");
			memcpy(w->path, inner, sizeof(inner));
		}
		close(common);
	}
	ltd_repos_config_file(w, c, ltd_repos_config_dir(w, gd, "config"),
			      "config");
	ltd_repos_config_file(w, c,
			      ltd_repos_config_dir(w, gd, "config.worktree"),
			      "config.worktree");
	w->quiet = false;
}

/*
 * The current directory is a work tree of the git directory @gd (shown as
 * @gd_shown; closed here): a .git file here names it.  Its relative
 * core.hooksPath (read_config()) is taken from here, so the hooks it
 * names here are judged, and the files its commands name from here.  The
 * keys themselves are the git directory's to judge (where the walk meets
 * it): nothing else is said.
 */
void ltd_repos_hooks_of_work_tree(struct walk *w, int gd, const char *gd_shown)
{
	struct ltd_repos_cfg *c = calloc(1, sizeof(*c));
	char base[PATH_MAX], saved[PATH_MAX];
	const char *hp;

	snprintf(base, sizeof(base), "%s", ltd_repos_here(w));
	if (!c || !path_to(w, gd_shown, saved, sizeof(saved)))
		goto out;
	read_config(w, c, gd);
	memcpy(w->path, saved, sizeof(saved));
	hp = c->hooks_path;
	if (hp[0] && hp[0] != '/' && hp[0] != '~')
		ltd_repos_hooks_path_at(w, base, hp);
	for (unsigned i = 0; !hp[0] && i < ltd_repos_default_hooks(w)->n; i++)
		ltd_repos_hooks_path_at(w, base, w->default_hooks->v[i]);
	ltd_repos_judge_named(w, c, base);
out:
	ltd_repos_cfg_free(c);
	close(gd);
}

/* The directory @fd (of the project below a review's upper) is a git
 * directory as the walk takes one (repos.c's entry_flags()). */
static bool is_git_dir(int fd)
{
	static const char *const m[] = {"commondir", "objects", "refs"};
	struct stat st;

	if (fstatat(fd, "HEAD", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (fstatat(fd, m[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			return true;
	return false;
}

/*
 * In a review's upper, the current directory @dir holds no .git and the
 * project below it does: a work tree of a repository the command did not
 * change (a linked worktree's .git file, a nested repository's .git),
 * whose hooks path (read from the project) names hooks the command may
 * have written here, in the upper.  The .git file is read as the walk
 * reads one; the git directory's hooks and hooks path are judged as the
 * walk judges its own, but its own hooks/ (the project's, not the
 * command's).  The project's own .git is protected before the run.
 */
void ltd_repos_judge_below(struct walk *w, int dir)
{
	char shown[PATH_MAX * 2], saved[PATH_MAX];
	struct ltd_repos_cfg *c;
	struct stat st;
	int lower, gd;

	if (w->lower < 0 || w->below ||
	    fstatat(dir, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    (lower = lower_here(w)) < 0 ||
	    fstatat(lower, ".git", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	/* @lower is lower_here()'s, which the next lower_here() of another
	 * place closes: neither use below needs it after that. */
	if (!S_ISDIR(st.st_mode)) {
		ltd_repos_judge_gitfile(w, lower, true);
		return;
	}
	if ((w->skip & LTD_REPOS_SKIP_ROOT_GIT) && !ltd_repos_here(w)[0])
		return;
	if (snprintf(shown, sizeof(shown), "%s/.git", w->path) >=
		    (int)sizeof(shown) ||
	    (gd = openat(lower, ".git",
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	c = is_git_dir(gd) ? calloc(1, sizeof(*c)) : NULL;
	if (c && path_to(w, shown, saved, sizeof(saved))) {
		read_config(w, c, gd);
		w->below = true;
		ltd_repos_judge_hooks(w, gd, c);
		w->below = false;
		memcpy(w->path, saved, sizeof(saved));
	}
	ltd_repos_cfg_free(c);
	close(gd);
}
