// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The paths inside the project that git executes from or reads its
 * configuration from, so that the cage can make them read-only and nothing
 * planted there runs later on the host.  Reads the project's .git (the
 * host's copy, before the cage exists); changes nothing.
 *
 * Fixed: .git itself (pinned), .git/config, .git/hooks, .git/commondir
 * (redirects git to another config and hooks), .git/modules and
 * .git/worktrees (other repositories' configs and hooks).  From the
 * configuration: what gitscan.c finds.  From .git/hooks: the targets of
 * hooks that are links into the project.  A project that is itself a git
 * directory (a bare repository, a .git) has the same paths protected in
 * it; so has a repository nested in the project, and the repositories
 * above it are read for what they name in it.
 */
#include "protect/gitprotect.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/base.h"
#include "protect/gitdir.h"
#include "protect/gitplace.h"
#include "protect/gitscan.h"

/* .git first (pinned); then what git, and Claude Code on the host, run or
 * are configured by (Claude Code runs the hooks of a project's settings). */
static const char *const fixed[] = {
	".git",
	".git/config",
	".git/hooks",
	".git/commondir",
	".git/config.worktree",
	".git/modules",
	".git/worktrees",
	".claude/settings.json",
	".claude/settings.local.json",
	".mcp.json",
};

/* A hook that is a link into the project: its target runs too. */
static int scan_hooks(struct ltd_protected *s, const char *gitdir,
		      struct ltd_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX * 2], real[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/hooks", gitdir) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode) ||
		    !realpath(path, real))
			continue;
		ret = ltd_gitplace_protect(s, "/", real, err);
	}
	closedir(d);
	return ret;
}

/* In a repository's common directory, and in a worktree's own one. */
static const char *const in_common[] = {
	"config", "config.worktree", "hooks", "commondir", "modules",
};
static const char *const in_gitdir[] = {
	"config.worktree",
	"commondir",
	"modules",
};

/*
 * The other worktrees of a repository nested in the project: what
 * redirects their git (commondir, config.worktree) is read-only.  Not the
 * whole of worktrees/: this worktree's own index and HEAD are in it.
 */
static int protect_worktrees(struct ltd_protected *s, const char *common,
			     struct ltd_err *err)
{
	char dir[PATH_MAX], entry[PATH_MAX * 2];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (snprintf(dir, sizeof(dir), "%s/worktrees", common) >=
	    (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    snprintf(entry, sizeof(entry), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(entry))
			continue;
		ret = ltd_gitplace_protect(s, entry, "commondir", err);
		if (!ret)
			ret = ltd_gitplace_protect(s, entry, "config.worktree",
						   err);
	}
	closedir(d);
	return ret;
}

/*
 * The project in a git directory's hooks (where git runs them from), or
 * in its modules or worktrees (other repositories' configs and hooks)
 * unless the project is such a repository's own git directory, which is
 * then protected as one.
 */
static int refuse_in_gitdir(const struct ltd_protected *s, const char *flag,
			    const char *gitdir, const char *common,
			    struct ltd_err *err)
{
	static const char *const mods =
		"where git keeps submodules' configs and hooks";
	int ret = ltd_gitplace_refuse_holding(s, flag, common, "hooks",
					      "where git runs hooks from", NULL,
					      NULL, err);

	if (ret || ltd_gitdir_is(s->project))
		return ret;
	ret = ltd_gitplace_refuse_holding(s, flag, common, "modules", mods,
					  NULL, NULL, err);
	if (!ret)
		ret = ltd_gitplace_refuse_holding(s, flag, gitdir, "modules",
						  mods, NULL, NULL, err);
	if (!ret)
		ret = ltd_gitplace_refuse_holding(
			s, flag, common, "worktrees",
			"where git keeps worktrees' configs", NULL, NULL, err);
	return ret;
}

/*
 * What git runs from a git directory (@gitdir) and its common directory,
 * where those lie in the project: read-only.  @bases: where a relative
 * hooks path is resolved.  @flag: see cfg_walk; *@seen is set (a
 * repository's configs, the global ones with them, were read).
 */
static int protect_gitdir(struct ltd_protected *s, const char *flag,
			  const char *gitdir, const char *const bases[2],
			  bool *seen, struct ltd_err *err)
{
	char path[PATH_MAX], common[PATH_MAX];
	int ret;

	/* A linked worktree's config and hooks are its common directory's. */
	if (snprintf(path, sizeof(path), "%s/commondir", gitdir) >=
	    (int)sizeof(path))
		return 0;
	ret = ltd_gitdir_pointer(path, "", gitdir, common, sizeof(common), err);
	if (ret < 0)
		return ret;
	if (ret)
		snprintf(common, sizeof(common), "%s", gitdir);
	*seen = true;
	ret = refuse_in_gitdir(s, flag, gitdir, common, err);
	if (ret)
		return ret;
	/* Where those lie in the project (a repository nested in it), what
	 * git runs from there is read-only too, as for the project's own
	 * .git; outside it, the cage cannot reach them. */
	for (size_t i = 0; !ret && i < sizeof(in_common) / sizeof(char *); i++)
		ret = ltd_gitplace_protect(s, common, in_common[i], err);
	for (size_t i = 0; !ret && i < sizeof(in_gitdir) / sizeof(char *); i++)
		ret = ltd_gitplace_protect(s, gitdir, in_gitdir[i], err);
	if (!ret)
		ret = protect_worktrees(s, common, err);
	if (!ret)
		ret = ltd_gitscan_configs(s, flag, common, gitdir, bases, err);
	if (!ret && bases[0]) {
		snprintf(path, sizeof(path), "%s/modules", gitdir);
		ret = ltd_gitscan_modules(s, flag, path, bases[0], err);
	}
	if (!ret)
		ret = scan_hooks(s, common, err);
	return ret;
}

/*
 * A git directory (@dir) that is the project or holds it: a bare
 * repository, or the .git of a work tree.  Its config, hooks and the rest
 * are what .git/config and .git/hooks are to a work tree.  Hooks run in a
 * bare repository's git directory and at the top of a work tree: a
 * relative hooks path is resolved in both (what falls outside the project
 * is not ours).
 */
static int protect_bare(struct ltd_protected *s, const char *dir, bool *seen,
			struct ltd_err *err)
{
	char parent[PATH_MAX];
	const char *bases[2] = {dir, parent};
	int ret = 0;

	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	if (!parent[0])
		bases[1] = NULL; /* @dir is "/x": its parent is "/" */
	for (size_t i = 0; !ret && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strncmp(fixed[i], ".git/", 5))
			ret = ltd_gitplace_protect(s, dir, fixed[i] + 5, err);
	if (!ret)
		ret = protect_gitdir(s, "--project", dir, bases, seen, err);
	return ret;
}

/*
 * The repository whose work tree's top is @top, if it has one: its .git
 * directory, or the git directory a .git file (a linked worktree, a
 * submodule) names, with a relative hooks path resolved at @top.
 */
int ltd_gitprotect_worktree(struct ltd_protected *s, const char *flag,
			    const char *top, bool *seen, struct ltd_err *err)
{
	const char *bases[2] = {top, NULL};
	char gitdir[PATH_MAX];
	struct stat st;
	int ret = 0;

	if (snprintf(gitdir, sizeof(gitdir), "%s/.git",
		     strcmp(top, "/") ? top : "") >= (int)sizeof(gitdir) ||
	    lstat(gitdir, &st) < 0)
		return 0;
	if (S_ISREG(st.st_mode))
		ret = ltd_gitdir_pointer(gitdir, "gitdir:", top, gitdir,
					 sizeof(gitdir), err);
	else if (!S_ISDIR(st.st_mode))
		return 0;
	if (ret)
		return ret < 0 ? ret : 0;
	return protect_gitdir(s, flag, gitdir, bases, seen, err);
}

/*
 * The repositories the project (or a writable bind: @flag) lies in, up to
 * "/": git run there on the host reads their configuration, which may name
 * hooks or includes in the project, and runs hooks from directories that
 * may hold it.
 */
static int protect_enclosing(struct ltd_protected *s, const char *flag,
			     bool *seen, struct ltd_err *err)
{
	char dir[PATH_MAX];
	char *slash;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s", s->project);
	while (!ret && strcmp(dir, "/") && (slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0'; /* "/x" becomes "/" */
		ret = ltd_gitprotect_worktree(s, flag, dir, seen, err);
		if (!ret && ltd_gitdir_is(dir))
			ret = protect_bare(s, dir, seen, err);
	}
	return ret;
}

/* The repositories whose work tree or git directory is @from or lies
 * above it: what their configuration names is gathered into @s (as for
 * the project, with @flag). */
int ltd_gitprotect_walk_up(struct ltd_protected *s, const char *flag,
			   const char *from, bool *seen, struct ltd_err *err)
{
	char dir[PATH_MAX], *slash;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s", from);
	for (;;) {
		ret = ltd_gitprotect_worktree(s, flag, dir, seen, err);
		if (!ret && ltd_gitdir_is(dir))
			ret = protect_bare(s, dir, seen, err);
		if (ret || !strcmp(dir, "/") || !(slash = strrchr(dir, '/')))
			return ret;
		slash[slash == dir] = '\0'; /* "/x" becomes "/" */
	}
}

int ltd_gitprotect_project(const struct ltd_policy *p, struct ltd_protected *s,
			   struct ltd_err *err)
{
	bool seen = false;
	int ret;

	ltd_protected_for(s, p);
	ret = ltd_protected_add_names(s, fixed, ARRAY_SIZE(fixed), err);
	if (!ret && ltd_gitdir_is(s->project))
		ret = protect_bare(s, s->project, &seen, err);
	/* A .git file names the repository elsewhere: the file is pinned
	 * and read-only; what git reads there is read here. */
	if (!ret)
		ret = ltd_gitprotect_worktree(s, "--project", s->project, &seen,
					      err);
	if (!ret)
		ret = protect_enclosing(s, "--project", &seen, err);
	/* In no repository, the global configs still name hooks paths
	 * (~/.gitconfig's core.hooksPath runs in every repository). */
	if (!ret && !seen)
		ret = ltd_gitscan_global(s, "--project", err);
	return ret;
}
