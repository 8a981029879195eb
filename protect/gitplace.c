// SPDX-License-Identifier: GPL-2.0-or-later
/* Where a path git names lies (see gitplace.h). */
#include "protect/gitplace.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"

/* @path's real path, or for a path not there (yet) its longest existing
 * prefix's with the rest appended (a hooks path through a link to where
 * it does not exist yet leads there once made); false if none resolves. */
static bool real_or_prefix(const char *path, char *out, size_t size)
{
	char tmp[PATH_MAX], real[PATH_MAX];
	char *slash;

	if (realpath(path, out))
		return true;
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return false;
	while ((slash = strrchr(tmp, '/')) && slash > tmp) {
		*slash = '\0';
		if (realpath(tmp, real))
			return snprintf(out, size, "%s/%s", real,
					path + (slash - tmp) + 1) < (int)size;
	}
	return false;
}

/*
 * @rel (relative to @base, or absolute) as git names it: by the text into
 * @joined (PATH_MAX * 2), and where it (or, missing yet, its existing
 * part) really leads into @real (PATH_MAX; "" if nowhere), both
 * normalized.  False for an empty or overlong name.
 */
static bool place_of(const char *base, const char *rel, char *joined,
		     char *real)
{
	if (!rel[0] ||
	    snprintf(joined, PATH_MAX * 2, "%s%s%s", rel[0] == '/' ? "" : base,
		     rel[0] == '/' ? "" : "/", rel) >= PATH_MAX * 2)
		return false;
	if (real_or_prefix(joined, real, PATH_MAX))
		ltd_path_normalize(real);
	else
		real[0] = '\0';
	ltd_path_normalize(joined);
	return true;
}

/*
 * Add @rel (relative to @base, or absolute) if it names a path inside the
 * project.  Resolved lexically and, where it exists, through the host's
 * links: a path that leads out of the project is not ours to protect (the
 * cage cannot reach it).
 */
int ltd_gitplace_protect(struct ltd_protected *s, const char *base,
			 const char *rel, struct ltd_err *err)
{
	char joined[PATH_MAX * 2], real[PATH_MAX];

	if (!place_of(base, rel, joined, real))
		return 0;
	/* By the text too: a link on the way is itself in the project, where
	 * the command could re-point it (ltd_protected_check_links
	 * refuses). */
	if (ltd_path_below(joined, s->project)) {
		int ret = ltd_protected_add(s, joined, err);

		if (ret)
			return ret;
	}
	if (!real[0] || !ltd_path_below(real, s->project))
		return 0;
	return ltd_protected_add(s, real, err);
}

/*
 * A directory git runs files from (hooks), or finds other repositories'
 * configs and hooks in, that holds the project (or a writable bind, then
 * @s's project, named by @flag): the command could write there what git on
 * the host runs.  Refused, naming it and, when a configuration names it,
 * @cfg and @key.  @rel is relative to @base, or absolute; by the text and,
 * where it exists, the real path.
 */
int ltd_gitplace_refuse_holding(const struct ltd_protected *s, const char *flag,
				const char *base, const char *rel,
				const char *what, const char *cfg,
				const char *key, struct ltd_err *err)
{
	char joined[PATH_MAX * 2], real[PATH_MAX], named[PATH_MAX + 300] = "";
	bool project = !strcmp(flag, "--project");

	if (!place_of(base, rel, joined, real))
		return 0;
	/* The project, or a directory above it. */
	if (!ltd_path_is_under(s->project, joined) &&
	    !(real[0] && ltd_path_is_under(s->project, real)))
		return 0;
	if (cfg)
		snprintf(named, sizeof(named), " (%s in %s)", key, cfg);
	return ltd_err_set(
		err, EPERM,
		"%s%s%s: %s%sis or lies in %s, %s%s: the command could write "
		"there what git on the host runs; %s",
		flag, project ? "" : " ", project ? "" : s->project,
		project ? s->project : "", project ? " " : "", joined, what,
		named,
		project ? "choose a project outside it (or use "
			  "--unsafe-writable-git)"
			: "bind it read-only (--ro-bind), choose another "
			  "place, or use --unsafe-writable-git");
}
