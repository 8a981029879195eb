// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the nested Claude Code settings of the project run (see
 * heldcmds.h).  The directories that hold a change, and those above them
 * but the top (whose commands' files are read-only in the cage, decision
 * 0063), and every directory with a .claude or .mcp.json of its own
 * (decision 0167: `packages/a` naming `../shared/x.sh` holds no change),
 * are each looked at once for the three files in the project; each is
 * read as the exit walk reads it (protect/'s ltd_agentprotect_nested(),
 * from the directory Claude Code would be started in).
 */
#include "review/heldcmds.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/vec.h"
#include "protect/agentprotect.h"
#include "protect/protected.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort @v and drop what is there twice. */
static void sort_unique(char **v, size_t *n)
{
	size_t k = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < *n; i++) {
		if (k && !strcmp(v[k - 1], v[i])) {
			free(v[i]);
			continue;
		}
		v[k++] = v[i];
	}
	*n = k;
}

/* Every directory that holds a change or lies above one, but the top. */
static int dirs_of(const struct ltd_changes *c, char ***v, size_t *n)
{
	char dir[PATH_MAX];
	int ret = 0;

	for (size_t i = 0; !ret && i < c->n; i++) {
		const char *p = c->v[i].path;

		for (const char *s = strchr(p, '/'); !ret && s;
		     s = strchr(s + 1, '/'))
			if ((size_t)(s - p) < sizeof(dir)) {
				memcpy(dir, p, (size_t)(s - p));
				dir[s - p] = '\0';
				ret = ltd_strv_push(v, n, dir);
			}
	}
	sort_unique(*v, n);
	return ret;
}

/* @name in @dir (relative) of the project, read into @set as Claude Code
 * reads it: links followed, the project's own (the cage wrote only the
 * upper). */
static void read_one(struct ltd_protected *set, const char *dir,
		     const char *name)
{
	char base[PATH_MAX], file[PATH_MAX];
	_cleanup_free_ char *text = NULL;
	struct ltd_err err = {0};
	struct stat st;
	size_t len = 0;
	int fd;

	if ((size_t)snprintf(base, sizeof(base), "%s%s%s", set->project,
			     dir[0] ? "/" : "", dir) >= sizeof(base) ||
	    (size_t)snprintf(file, sizeof(file), "%s/%s", base, name) >=
		    sizeof(file))
		return;
	/* Nothing but a regular file is opened (a FIFO, a device). */
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return;
	if (ltd_agentprotect_read(fd, &text, &len) == 0)
		ltd_agentprotect_nested(set, base, file, text, len, &err);
	close(fd);
}

/* @path (absolute) into @out, relative, when it lies in @project. */
static int add_in(struct ltd_named *out, const char *project, const char *path)
{
	size_t plen = strlen(project);

	if (strncmp(path, project, plen) || path[plen] != '/' ||
	    !path[plen + 1])
		return 0;
	return ltd_strv_push(&out->v, &out->n, path + plen + 1);
}

static const char *const settings_files[] = {
	".claude/settings.json",
	".claude/settings.local.json",
	".mcp.json",
};

/* @path (absolute) into @out, relative, where it leads when that is
 * another place of @project (a link of the user's on the way). */
static int add_real(struct ltd_named *out, const char *project,
		    const char *path)
{
	char real[PATH_MAX];

	if (!realpath(path, real) || !strcmp(real, path))
		return 0;
	return add_in(out, project, real);
}

int ltd_review_nested_cmds(const struct ltd_changes *c, const char *project,
			   const struct ltd_linked *links,
			   struct ltd_named *out)
{
	struct ltd_protected set = {.project = project, .home = getenv("HOME")};
	size_t n = 0;
	char **dirs = NULL;
	int ret = dirs_of(c, &dirs, &n);

	*out = (struct ltd_named){0};
	if (set.home && set.home[0] != '/')
		set.home = NULL;
	/* The directories of the changes, and those with a .claude or an
	 * .mcp.json of their own (read through a user's link). */
	for (size_t i = 0; !ret && links && i < links->n_dirs; i++)
		ret = ltd_strv_push(&dirs, &n, links->dirs[i]);
	sort_unique(dirs, &n); /* each read once */
	for (size_t i = 0; !ret && i < n; i++)
		for (size_t f = 0;
		     f < sizeof(settings_files) / sizeof(*settings_files) &&
		     !ltd_agentprotect_in_packages(dirs[i]);
		     f++)
			read_one(&set, dirs[i], settings_files[f]);
	ltd_strv_free(dirs, n);
	for (size_t i = 0; !ret && i < set.n; i++) {
		ret = add_in(out, project, set.paths[i]);
		/* Through a link of the user's, where the host is led (as
		 * the exit walk follows it; the attacker's review). */
		if (!ret)
			ret = add_real(out, project, set.paths[i]);
	}
	ltd_protected_free(&set);
	sort_unique(out->v, &out->n);
	if (ret)
		ltd_named_free(out);
	return ret;
}

bool ltd_named_covers(const struct ltd_named *n, const char *rel)
{
	char up[PATH_MAX];
	const char *key = up;

	if (snprintf(up, sizeof(up), "%s", rel) >= (int)sizeof(up))
		return false;
	for (char *s = up + strlen(up); n->n;) {
		*s = '\0';
		if (bsearch(&key, n->v, n->n, sizeof(*n->v), cmp_str))
			return true;
		if (!(s = strrchr(up, '/')))
			return false;
	}
	return false;
}

bool ltd_named_below(const struct ltd_named *n, const char *rel)
{
	size_t len = strlen(rel);

	for (size_t i = 0; i < n->n; i++)
		if (!strncmp(n->v[i], rel, len) && n->v[i][len] == '/')
			return true;
	return false;
}

void ltd_named_free(struct ltd_named *n)
{
	ltd_strv_free(n->v, n->n);
	*n = (struct ltd_named){0};
}
