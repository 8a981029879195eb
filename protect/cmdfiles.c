// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files a command line runs, kept read-only (see cmdfiles.h).  The
 * line is read as sh would split it (shword.c); each word that names a
 * place in the project is protected: a path (it has a '/') by its text,
 * reported if the cage makes it; a bare word (`node hook.js`) when it is a
 * file there, or by its text when missing and named as a script.
 * Directories named as arguments (`prettier --write src/`) and output
 * redirections are not (the agent works there).  What cannot be known —
 * another variable, a substitution — is said at start.
 */
#include "protect/cmdfiles.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/path.h"
#include "protect/shword.h"

#define MAX_PROTECTED 256 /* paths added from all the commands scanned */
#define GLOB_MAX      64

/* A place in the project: strictly below it (the project itself is
 * bound read-write; no command names it to be kept). */
static bool inside(const char *project, const char *path)
{
	const char *rel = ltd_path_below(path, project);

	return rel && rel[0];
}

/* The first link between the project and @path, as far as it exists. */
static bool link_on_the_way(const char *project, const char *path, char *link,
			    size_t size)
{
	struct stat st;

	for (const char *c = path + strlen(project) + 1;; c++) {
		if (*c && *c != '/')
			continue;
		if ((size_t)(c - path) >= size)
			return false;
		memcpy(link, path, (size_t)(c - path));
		link[c - path] = '\0';
		if (lstat(link, &st) < 0)
			return false; /* missing from here: by its text */
		if (S_ISLNK(st.st_mode))
			return true;
		if (!*c)
			return false;
	}
}

static int protect(struct ltd_cmdfiles *s, const char *path,
		   struct ltd_err *err)
{
	if (++s->added > MAX_PROTECTED)
		return ltd_err_set(err, E2BIG,
				   "%s: its commands name more than %d files; "
				   "ltd-native keeps at most that many "
				   "read-only (--unsafe-writable-git runs "
				   "without this protection)",
				   s->file, MAX_PROTECTED);
	return ltd_protected_add(s->set, path, err);
}

/* One warning of each kind per file: the first case says enough. */
static int note(struct ltd_cmdfiles *s, bool *said, const char *msg,
		struct ltd_err *err)
{
	if (*said)
		return 0;
	*said = true;
	return ltd_protected_warn(s->set, err, "%s: %s", s->file, msg);
}

/* @path's last component ends as a script an interpreter runs does. */
static bool script_name(const char *path)
{
	static const char *const ext[] = {
		".sh", ".bash", ".zsh", ".fish", ".py", ".js",	".mjs", ".cjs",
		".ts", ".mts",	".cts", ".rb",	 ".pl", ".php", ".lua", ".ps1",
	};
	const char *base = strrchr(path, '/'), *dot;

	dot = strrchr(base ? base + 1 : path, '.');
	for (size_t i = 0; dot && i < sizeof(ext) / sizeof(*ext); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* One place a command names, on the host. */
static int place(struct ltd_cmdfiles *s, const char *path,
		 enum ltd_shword_kind kind, bool dirs, struct ltd_err *err)
{
	char real[PATH_MAX], link[PATH_MAX];
	struct stat st;

	if (!inside(s->set->project, path)) {
		/* A path to the project through a link outside it (the
		 * cage cannot re-point that one). */
		if (kind != LTD_SHWORD_PATH || !realpath(path, real) ||
		    !inside(s->set->project, real))
			return 0;
		path = real;
	}
	if (link_on_the_way(s->set->project, path, link, sizeof(link))) {
		/* git's: protected by its text, so that the run is refused
		 * naming the link (ltd_protected_check_links), as for a hooks
		 * path; a directory the command works in, as below, not. */
		if (s->refuse_links && stat(path, &st) == 0 &&
		    S_ISDIR(st.st_mode) && !dirs)
			return 0;
		if (s->refuse_links)
			return protect(s, path, err);
		/* Claude Code's: the link is the cage's to re-point. */
		return ltd_err_set(err, ELOOP,
				   "%s: a command runs %s through the link %s "
				   "in the project: the cage could re-point "
				   "the link at a file of its own; name the "
				   "real path in the command "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   s->file, path, link);
	}
	if (lstat(path, &st) < 0)
		/* A path by its text, reported if the cage makes it; a bare
		 * word that is no file (`npx`, `jq`) is no place, unless it
		 * has a script's name (`bash stop-hook.sh`: the cage could
		 * write it). */
		return kind == LTD_SHWORD_BARE && !script_name(path)
			       ? 0
			       : protect(s, path, err);
	if (S_ISDIR(st.st_mode) && !dirs)
		return 0; /* a directory the command works in */
	return protect(s, path, err);
}

/* The directory of @pattern's first component that holds a wildcard. */
static void pattern_dir(const char *pattern, char *dir, size_t size)
{
	size_t n = strcspn(pattern, "*?[");

	snprintf(dir, size, "%.*s", (int)n, pattern);
	*(strrchr(dir, '/') ?: dir) = '\0';
}

/* One match of a pattern: a ".*" component matches "." and "..", so a
 * match may lie out of the project by its normal path (PROJECT/../x),
 * which is no place of it.  One in it is placed by that path, unless a
 * link lies on the way as matched (PROJECT/link/../x: where ".." leads
 * is the link's to say): then as matched, for place() to see the link. */
static int place_match(struct ltd_cmdfiles *s, const char *match, bool dirs,
		       struct ltd_err *err)
{
	char norm[PATH_MAX], link[PATH_MAX];

	if (snprintf(norm, sizeof(norm), "%s", match) >= (int)sizeof(norm))
		return 0;
	ltd_path_normalize(norm);
	if (!inside(s->set->project, norm))
		return 0;
	return place(s,
		     link_on_the_way(s->set->project, match, link, sizeof(link))
			     ? match
			     : norm,
		     LTD_SHWORD_PATH, dirs, err);
}

/* A pattern in the project: every match runs, also one the cage adds. */
static int place_glob(struct ltd_cmdfiles *s, const char *pattern, bool dirs,
		      struct ltd_err *err)
{
	char msg[2 * PATH_MAX], dir[PATH_MAX];
	glob_t g = {0};
	int ret = 0;

	if (!inside(s->set->project, pattern))
		return 0;
	/* The directory they lie in, where it can be protected. */
	pattern_dir(pattern, dir, sizeof(dir));
	if (inside(s->set->project, dir))
		return place(s, dir, LTD_SHWORD_PATH, true, err);
	if (glob(pattern, GLOB_NOSORT, NULL, &g) == 0)
		for (size_t k = 0; !ret && k < g.gl_pathc && k < GLOB_MAX; k++)
			ret = place_match(s, g.gl_pathv[k], dirs, err);
	globfree(&g);
	snprintf(msg, sizeof(msg),
		 "a command runs what %.*s matches: a match the cage adds at "
		 "the project's top stays unwatched",
		 PATH_MAX, pattern);
	if (!ret)
		ret = note(s, &s->said_unknown, msg, err);
	return ret;
}

int ltd_cmdfiles_protect(struct ltd_cmdfiles *s, const char *cmd,
			 const char *base, bool dirs, struct ltd_err *err)
{
	struct ltd_shword_place *v = NULL;
	char msg[2 * PATH_MAX];
	size_t n = 0;
	int ret = ltd_shword_places(cmd, base, s->set->home, &v, &n);

	if (ret == -E2BIG)
		return ltd_err_set(err, E2BIG,
				   "%s: a command line of more than %d words "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   s->file, LTD_SHWORD_MAX_PLACES);
	if (ret < 0)
		return ltd_err_set(err, -ret, "out of memory");
	for (size_t i = 0; !ret && i < n; i++) {
		switch (v[i].kind) {
		case LTD_SHWORD_UNKNOWN:
			snprintf(msg, sizeof(msg),
				 "a command names %.*s, which ltd-native "
				 "cannot resolve (a variable, a "
				 "substitution): what it runs there stays "
				 "writable in the cage",
				 PATH_MAX, v[i].path);
			ret = note(s, &s->said_unknown, msg, err);
			break;
		case LTD_SHWORD_GLOB:
			ret = place_glob(s, v[i].path, dirs, err);
			break;
		case LTD_SHWORD_BARE:
		case LTD_SHWORD_PATH:
			ret = place(s, v[i].path, v[i].kind, dirs, err);
			break;
		}
	}
	ltd_shword_places_free(v, n);
	return ret;
}
