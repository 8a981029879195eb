// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The project's protection, in the order each part needs: git's paths
 * first (the others are judged against them), then Claude Code's, then
 * the other host programs' (hostrun.c), then ltd-native's own policy
 * file; links last, over all of them.
 */
#include "protect/protect.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/base.h"
#include "common/mountinfo.h"
#include "common/path.h"
#include "protect/agentprotect.h"
#include "protect/gitbinds.h"
#include "protect/gitprotect.h"
#include "protect/hostrun.h"

/* The project's own policy file: read-only inside, like .git/config
 * (the approval would refuse a changed one; this keeps it from changing). */
static int protect_policy_dir(struct ltd_protected *s, struct ltd_err *err)
{
	char path[PATH_MAX];

	if (ltd_path_fmt(path, sizeof(path), "%s/.ltd-native", s->project) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "--project: too long");
	return ltd_protected_add(s, path, err);
}

int ltd_protect_project(const struct ltd_policy *p, struct ltd_protected *out,
			struct ltd_err *err)
{
	int ret = 0;

	ltd_protected_free(out);
	ltd_protected_for(out, p);
	if (p->protect_git)
		ret = ltd_gitprotect_project(p, out, err);
	if (!ret && p->protect_git)
		ret = ltd_agentprotect_project(p, out, err);
	/* Editors', other agents' and tools' files (hostrun.c's table). */
	if (!ret && p->protect_git)
		ret = ltd_hostrun_protect(out, err);
	if (!ret)
		ret = protect_policy_dir(out, err);
	if (!ret)
		ret = ltd_protected_check_links(out, err);
	return ret;
}

/* A place on the host by identity, and the protected path it is or
 * holds (@idx in the set). */
struct place {
	dev_t dev;
	ino_t ino;
	size_t idx;
	bool alias; /* above it in its filesystem, not by name */
};

struct places {
	struct place *v;
	size_t n;
};

static int place_add(struct places *ps, const struct stat *st, size_t idx,
		     bool alias)
{
	struct place *v;

	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].dev == st->st_dev && ps->v[i].ino == st->st_ino)
			return 0;
	v = realloc(ps->v, (ps->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ps->v = v;
	ps->v[ps->n++] = (struct place){st->st_dev, st->st_ino, idx, alias};
	return 0;
}

static const struct place *place_find(const struct places *ps,
				      const struct stat *st)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].dev == st->st_dev && ps->v[i].ino == st->st_ino)
			return &ps->v[i];
	return NULL;
}

/* The mounts the protected paths lie on: each one's first path (@idx). */
struct on_mounts {
	struct {
		int id;
		size_t idx;
	} * v;
	size_t n;
};

static int on_mount(struct on_mounts *om, int id, size_t idx)
{
	void *v;

	for (size_t i = 0; i < om->n; i++)
		if (om->v[i].id == id)
			return 0;
	v = realloc(om->v, (om->n + 1) * sizeof(*om->v));
	if (!v)
		return -ENOMEM;
	om->v = v;
	om->v[om->n].id = id;
	om->v[om->n++].idx = idx;
	return 0;
}

struct alias_ctx {
	struct places *above;
	size_t idx;
};

/* A name of a directory above a mount's root (mountinfo.h), when nothing
 * is mounted over it there. */
static int alias_add(const char *alias, int on, void *arg)
{
	const struct alias_ctx *a = arg;
	struct statx sx;
	struct stat st = {0};

	if (statx(AT_FDCWD, alias, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
		  STATX_INO | STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID) || sx.stx_mnt_id != (uint64_t)on)
		return 0;
	st.st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	st.st_ino = sx.stx_ino;
	return place_add(a->above, &st, a->idx, true);
}

/*
 * The directories above each mount root the protected paths lie below,
 * in their filesystem: a bind mount on the host hides them, and "above
 * by name" does not reach them (a project at ~/proj, a host bind mount of
 * /srv/ws/proj: /srv/ws holds it).  Without the mount table, -EIO: the
 * caller refuses (a bind cannot be judged).
 */
static int aliases_of(const struct on_mounts *om, struct places *above)
{
	struct ltd_mountinfo mi;
	int ret;

	if (!om->n)
		return 0;
	ret = ltd_mountinfo_read(&mi);
	if (ret < 0)
		return ret == -ENOMEM ? ret : -EIO;
	for (size_t i = 0; !ret && i < om->n; i++) {
		struct alias_ctx a = {above, om->v[i].idx};

		ret = ltd_mountinfo_aliases_above(&mi, om->v[i].id, alias_add,
						  &a);
	}
	ltd_mountinfo_free(&mi);
	return ret;
}

/* The protected paths that are there (@at), every directory above each
 * by name, up to /, and by their filesystem (aliases_of()) (@above). */
static int places_of(const struct ltd_protected *s, struct places *at,
		     struct places *above)
{
	char dir[PATH_MAX], *slash;
	struct on_mounts om = {0};
	struct statx sx;
	struct stat st;
	int ret = 0;

	for (size_t i = 0; !ret && i < s->n; i++) {
		if (statx(AT_FDCWD, s->paths[i], AT_SYMLINK_NOFOLLOW,
			  STATX_INO | STATX_MNT_ID, &sx) < 0)
			continue;
		st.st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
		st.st_ino = sx.stx_ino;
		ret = place_add(at, &st, i, false);
		if (!ret && (sx.stx_mask & STATX_MNT_ID))
			ret = on_mount(&om, (int)sx.stx_mnt_id, i);
		snprintf(dir, sizeof(dir), "%s", s->paths[i]);
		while (!ret && (slash = strrchr(dir, '/')) && dir[1]) {
			slash[slash == dir] = '\0'; /* "/x" becomes "/" */
			if (stat(dir, &st) == 0)
				ret = place_add(above, &st, i, false);
		}
	}
	if (!ret)
		ret = aliases_of(&om, above);
	free(om.v);
	return ret;
}

/* How the bind @src reaches a protected path of @at/@above: "is", "holds"
 * or "lies in", with the path's index (and *@alias when it holds it under
 * another name); NULL when it does not. */
static const char *reach(const char *src, const struct places *at,
			 const struct places *above, size_t *idx, bool *alias)
{
	char dir[PATH_MAX], *slash;
	const struct place *hit;
	struct stat st;

	if (stat(src, &st) < 0)
		return NULL;
	if ((hit = place_find(at, &st)) || (hit = place_find(above, &st))) {
		*idx = hit->idx;
		*alias = hit->alias;
		return place_find(at, &st) ? "is" : "holds";
	}
	snprintf(dir, sizeof(dir), "%s", src);
	while ((slash = strrchr(dir, '/')) && dir[1]) {
		slash[slash == dir] = '\0';
		if (stat(dir, &st) == 0 && (hit = place_find(at, &st))) {
			*idx = hit->idx;
			return "lies in";
		}
	}
	return NULL;
}

/* What to do instead of a writable bind of @src (the new user's review:
 * "choose another place" helped no one who bound the project's parent). */
static const char *way_out(const struct ltd_policy *p, const char *src,
			   bool alias)
{
	if (!strcmp(src, p->project))
		return "it is the project, writable already: drop this bind";
	if (alias || ltd_path_is_under(p->project, src))
		return "bind the directories beside the project that the "
		       "command needs one by one, make this one the project "
		       "(--project), bind it read-only (--ro-bind), or use "
		       "--unsafe-writable-git";
	return "bind it read-only (--ro-bind), or use --unsafe-writable-git";
}

/* Fail closed: a writable bind that could not be judged is refused. */
static int not_judged(const struct ltd_user_mount *m, int ret,
		      struct ltd_err *err)
{
	if (ret == -ENOMEM)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return ltd_err_set(err, EPERM,
			   "--%s %s: ltd-native could not read the mount "
			   "table (/proc/self/mountinfo), which says whether "
			   "a writable bind holds the project's read-only "
			   "paths under another name; bind it read-only "
			   "(--ro-bind), or use --unsafe-writable-git",
			   m->flag, m->src);
}

/*
 * A writable bind of the user's that is, lies in or holds a path the
 * cage sees read-only (Claude Code's commands, an editor's tasks, git's
 * own) would undo that: the command would write it through the bind.
 * Refused, as git's places are (gitbinds.c), for every path of @s, judged
 * by identity: a bind of the same directory under another name (a link,
 * a bind mount on the host) is the same place.
 */
static int binds_reach(const struct ltd_policy *p,
		       const struct ltd_protected *s, struct ltd_err *err)
{
	struct places at = {0}, above = {0};
	bool known = false;
	int ret = 0;

	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];
		const struct ltd_hostrun *who;
		const char *how, *path;
		size_t idx, len = strlen(s->project);
		bool alias = false;

		if (m->kind != LTD_UM_BIND || m->derived || !m->src)
			continue;
		if (!known && (ret = places_of(s, &at, &above)))
			ret = not_judged(m, ret, err);
		known = true;
		if (ret || !(how = reach(m->src, &at, &above, &idx, &alias)))
			continue;
		path = s->paths[idx];
		who = strncmp(path, s->project, len) || path[len] != '/'
			      ? NULL
			      : ltd_agentprotect_who(path + len + 1);
		ret = ltd_err_set(
			err, EPERM,
			"--%s %s: %s %s%s, which the cage sees read-only (%s%s "
			"on the host runs or reads it%s%s); bound writable, "
			"the command could change it there: %s",
			m->flag, m->src, how, path,
			alias ? " under another name (the project is a bind "
				"mount on the host of a directory this one "
				"holds)"
			      : "",
			who ? who->program : "git",
			who ? "" : " or another program", who ? ": " : "",
			who ? who->runs : "", way_out(p, m->src, alias));
	}
	free(at.v);
	free(above.v);
	return ret;
}

int ltd_protect_binds(const struct ltd_policy *p, struct ltd_protected *out,
		      struct ltd_err *err)
{
	int ret = 0;

	ltd_protected_for(out, p);
	/* The files the next run reads, where they lie in the project
	 * (policy/inputs.c said which): read-only. */
	for (size_t i = 0; !ret && i < p->n_inputs_in_project; i++)
		ret = ltd_protected_add(out, p->inputs_in_project[i], err);
	for (size_t i = 0; !ret && i < p->n_mounts; i++) {
		const struct ltd_user_mount *m = &p->mounts[i];
		struct stat st;
		char flag[48];

		/* Persistent state ltd-native creates when missing holds no
		 * repository yet. */
		if (m->kind != LTD_UM_BIND || !m->src ||
		    (m->state && lstat(m->src, &st) < 0 && errno == ENOENT))
			continue;
		snprintf(flag, sizeof(flag), "%s%s", m->derived ? "" : "--",
			 m->flag);
		ret = ltd_gitbinds_check(p, flag, m->src, err);
	}
	/* Each writable place by every repository's configuration, not only
	 * those above itself. */
	if (!ret)
		ret = ltd_gitbinds_cross_check(p, out, err);
	/* What the inputs and the cross-check added: with git protected,
	 * the cross-check's own last pass looked at all of @out. */
	if (!ret && !p->protect_git)
		ret = ltd_protected_check_links(out, err);
	/* Last, when @out is whole: no writable bind reaches into it. */
	if (!ret && p->protect_git)
		ret = binds_reach(p, out, err);
	return ret;
}
