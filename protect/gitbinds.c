// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writable binds judged as git would use them (see gitbinds.h): a bind has
 * no read-only paths of its own, so what would be protected in it refuses
 * it.
 */
#include "protect/gitbinds.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "protect/gitdir.h"
#include "protect/gitprotect.h"
#include "protect/gitscan.h"

/* @err, said for a project ("--project: DIR is or lies in X, ...; choose
 * a project outside it"), said again for the bind @flag @src. */
static int said_for_bind(int ret, const char *flag, const char *src,
			 struct ltd_err *err)
{
	struct ltd_err why = *err;
	const char *at = strstr(why.msg, "is or lies in ");
	const char *end = at ? strstr(at, ": the command could") : NULL;

	if (!at || !end)
		return ltd_err_set(err, -ret, "%s %s: %s", flag, src, why.msg);
	return ltd_err_set(err, -ret,
			   "%s %s: %.*s: the command could write there what "
			   "git on the host runs; bind it read-only "
			   "(--ro-bind), choose another place, or use "
			   "--unsafe-writable-git",
			   flag, src, (int)(end - at), at);
}

/*
 * A writable bind @src in no git directory: judged by what git's
 * configuration names, as the project is — the system and global configs,
 * and those of the repositories whose work trees hold it, with what they
 * include.  Whatever would be read-only in a project there (a hooks path,
 * an fsmonitor, an include, the files a command value names, a hook's
 * link target), or a hooks path that holds it, refuses the bind: a bind
 * has no read-only paths of its own.
 */
static int bind_configs(const struct ltd_policy *p, const char *flag,
			const char *src, const char *from, struct ltd_err *err)
{
	/* What would be protected in it, were it the project. */
	struct ltd_protected s = {.project = src, .home = p->id.home};
	char dir[PATH_MAX], parent[PATH_MAX], *slash;
	/* A file bound alone is judged as the directory it lies in, scanned
	 * as a project would be (what is named there is gathered, not
	 * refused: only the file itself is bound); a hooks path holding that
	 * directory refuses it still. */
	const char *as = flag;
	const char *held = NULL;
	bool seen = false;
	struct stat st;
	int ret = 0;

	if (stat(src, &st) == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(parent, sizeof(parent), "%s", src);
		slash = strrchr(parent, '/');
		if (slash)
			slash[slash == parent] = '\0';
		s.project = parent;
		as = "--project";
	}
	if (!from) {
		/* The work trees above it (no directory above it is a git
		 * directory: ltd_gitbinds_check looked), and the global
		 * configs. */
		snprintf(dir, sizeof(dir), "%s", src);
		while (!ret && strcmp(dir, "/") &&
		       (slash = strrchr(dir, '/'))) {
			slash[slash == dir] = '\0'; /* "/x" becomes "/" */
			ret = ltd_gitprotect_worktree(&s, as, dir, &seen, err);
		}
		if (!ret && !seen)
			ret = ltd_gitscan_global(&s, as, err);
	} else {
		/* The repositories at @from and above it (another writable
		 * place's): what they name in the bind. */
		ret = ltd_gitprotect_walk_up(&s, as, from, &seen, err);
	}
	if (ret < 0 && as != flag)
		ret = said_for_bind(ret, flag, src, err);
	for (size_t i = 0; !ret && !held && i < s.n; i++)
		if (as == flag || !strcmp(s.paths[i], src))
			held = s.paths[i];
	if (!ret && held)
		ret = ltd_err_set(err, EPERM,
				  "%s %s: %s %s, which git on the host "
				  "runs or reads (a repository's own file, "
				  "or one its configuration names); bind it "
				  "read-only (--ro-bind), "
				  "choose another place, or use "
				  "--unsafe-writable-git",
				  flag, src, strcmp(held, src) ? "holds" : "is",
				  held);
	ltd_protected_free(&s);
	return ret;
}

int ltd_gitbinds_check(const struct ltd_policy *p, const char *flag,
		       const char *src, struct ltd_err *err)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *what = NULL;
	struct stat st;
	char *slash;

	if (!p->protect_git)
		return 0;
	snprintf(dir, sizeof(dir), "%s", src);
	if (snprintf(path, sizeof(path), "%s/.git", src) < (int)sizeof(path) &&
	    lstat(path, &st) == 0) {
		what = "holds a git repository's .git";
		snprintf(dir, sizeof(dir), "%s", path);
	}
	/* The bind itself, or a directory above it, a git directory: its
	 * hooks, config, modules... */
	while (!what) {
		if (ltd_gitdir_is(dir)) {
			what = "is or lies in a git directory";
			break;
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (!what)
		return bind_configs(p, flag, src, NULL, err);
	return ltd_err_set(err, EPERM,
			   "%s %s: %s (%s): the command could write there "
			   "hooks or configuration that git on the host runs; "
			   "bind it read-only (--ro-bind), make it the project "
			   "(whose git ltd-native protects), or use "
			   "--unsafe-writable-git",
			   flag, src, what, dir);
}

/* A bind the user asked for, writable, resolved and there. */
static bool user_writable(const struct ltd_user_mount *m)
{
	struct stat st;

	return m->kind == LTD_UM_BIND && !m->derived && m->src &&
	       lstat(m->src, &st) == 0;
}

int ltd_gitbinds_cross_check(const struct ltd_policy *p,
			     struct ltd_protected *s, struct ltd_err *err)
{
	char flag[48];
	bool seen;
	int ret = 0;

	if (!p->protect_git)
		return 0;
	ltd_protected_for(s, p);
	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *b = &p->mounts[i];

		if (!user_writable(b))
			continue;
		snprintf(flag, sizeof(flag), "--%s", b->flag);
		/* The project by the repositories above this bind. */
		seen = false;
		ret = ltd_gitprotect_walk_up(s, "--project", b->src, &seen,
					     err);
		/* This bind by those above the project and the others. */
		if (!ret)
			ret = bind_configs(p, flag, b->src, p->project, err);
		for (size_t j = 0; !ret && j < p->n_mounts; j++)
			if (j != i && user_writable(&p->mounts[j]))
				ret = bind_configs(p, flag, b->src,
						   p->mounts[j].src, err);
	}
	/* What became read-only in the project: no link on its way. */
	return ret ? ret : ltd_protected_check_links(s, err);
}
