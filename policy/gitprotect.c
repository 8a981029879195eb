// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The paths inside the project that git executes from or reads its
 * configuration from, so that the cage can make them read-only and nothing
 * planted there runs later on the host.  Reads the project's .git (the
 * host's copy, before the cage exists); changes nothing.
 *
 * Fixed: .git itself (pinned), .git/config, .git/hooks, .git/commondir
 * (redirects git to another config and hooks), .git/modules and
 * .git/worktrees (other repositories' configs and hooks).  From the config:
 * core.hooksPath, core.fsmonitor and include paths that lie in the project.
 * From .git/hooks: the targets of hooks that are links into the project.
 */
#include "policy/policy.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* .git first (pinned); then what git, and Claude Code on the host, run or
 * are configured by (Claude Code runs the hooks of a project's settings). */
static const char *const fixed[] = {
	".git",
	".git/config",
	".git/hooks",
	".git/commondir",
	".git/modules",
	".git/worktrees",
	".claude/settings.json",
	".claude/settings.local.json",
	".mcp.json",
};

int ltd_policy_protect(struct ltd_policy *p, const char *path,
		       struct ltd_err *err)
{
	char **v;

	for (size_t i = 0; i < p->n_protected; i++)
		if (strcmp(p->protected[i], path) == 0)
			return 0;
	v = realloc(p->protected, (p->n_protected + 1) * sizeof(char *));
	if (!v)
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->protected = v;
	v[p->n_protected] = strdup(path);
	if (!v[p->n_protected])
		return ltd_err_set(err, ENOMEM, "out of memory");
	p->n_protected++;
	return 0;
}

/* Resolve ".", ".." and "//" in an absolute path, in place, by the text. */
static void normalize(char *path)
{
	char *out = path, *in = path;

	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		size_t n = strcspn(in, "/");

		if (n == 1 && in[0] == '.') {
			/* nothing */
		} else if (n == 2 && in[0] == '.' && in[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/*
 * Add @rel (relative to @base, or absolute) if it names a path inside the
 * project.  Resolved lexically and, where it exists, through the host's
 * links: a path that leads out of the project is not ours to protect (the
 * cage cannot reach it).
 */
static int add_if_inside(struct ltd_policy *p, const char *base,
			 const char *rel, struct ltd_err *err)
{
	char joined[PATH_MAX * 2], real[PATH_MAX];
	size_t n = strlen(p->project);

	if (!rel[0])
		return 0;
	if (snprintf(joined, sizeof(joined), "%s%s%s",
		     rel[0] == '/' ? "" : base, rel[0] == '/' ? "" : "/",
		     rel) >= (int)sizeof(joined))
		return 0;
	if (!realpath(joined, real)) {
		/* Missing (yet): by the text, if it stays inside. */
		normalize(joined);
		if (strlen(joined) >= sizeof(real))
			return 0;
		memcpy(real, joined, strlen(joined) + 1);
	}
	if (strncmp(real, p->project, n) != 0 || real[n] != '/')
		return 0;
	return ltd_policy_protect(p, real, err);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (e - s >= 2 && s[0] == '"' && e[-1] == '"') {
		e[-1] = '\0';
		s++;
	}
	return s;
}

/* The keys of .git/config that name files git runs or reads. */
static int scan_config(struct ltd_policy *p, const char *gitdir,
		       struct ltd_err *err)
{
	char path[PATH_MAX], line[4096], section[256] = "";
	FILE *f;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/config", gitdir) >=
	    (int)sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq, *key, *val;

		if (*s == '[') {
			snprintf(section, sizeof(section), "%s", s + 1);
			for (char *c = section; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || *s == '#' || *s == ';')
			continue;
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (!strncmp(section, "core", 4) &&
		    (!strcasecmp(key, "hookspath") ||
		     !strcasecmp(key, "fsmonitor")))
			ret = add_if_inside(p, p->project, val, err);
		else if (!strncmp(section, "include", 7) &&
			 !strcasecmp(key, "path"))
			ret = add_if_inside(p, gitdir, val, err);
	}
	fclose(f);
	return ret;
}

/* A hook that is a link into the project: its target runs too. */
static int scan_hooks(struct ltd_policy *p, const char *gitdir,
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
		ret = add_if_inside(p, "/", real, err);
	}
	closedir(d);
	return ret;
}

int ltd_git_protected(struct ltd_policy *p, struct ltd_err *err)
{
	char path[PATH_MAX], gitdir[PATH_MAX];
	struct stat st;
	int ret = 0;

	for (size_t i = 0; !ret && i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (snprintf(path, sizeof(path), "%s/%s", p->project,
			     fixed[i]) >= (int)sizeof(path))
			return ltd_err_set(err, ENAMETOOLONG,
					   "--project: path too long");
		ret = ltd_policy_protect(p, path, err);
	}
	if (snprintf(gitdir, sizeof(gitdir), "%s/.git", p->project) >=
	    (int)sizeof(gitdir))
		return ret;
	/* A .git file (a linked worktree) points elsewhere: it is pinned and
	 * made read-only itself; its repository is outside the project. */
	if (ret || lstat(gitdir, &st) < 0 || !S_ISDIR(st.st_mode))
		return ret;
	ret = scan_config(p, gitdir, err);
	if (!ret)
		ret = scan_hooks(p, gitdir, err);
	return ret;
}
