// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What Claude Code on the host runs from the project without being asked:
 * the commands that the project's settings name (hooks, the status line,
 * the credential helpers, the environment they run with) and the MCP
 * servers of .mcp.json.  The settings themselves are protected with git's
 * paths (gitprotect.c); the files they run are protected here, so that a
 * script the agent rewrites in the cage does not run on the host at the
 * next Claude Code session there.
 *
 * A command is a shell line, read as sh would split it (shword.c: quotes,
 * escapes, line joins, operators, subshells, redirections, a `cd` in
 * command position moving the base of later relative words).  Each word
 * that names a place in the project is protected: a path (it has a '/') by
 * its text, reported if the cage makes it; a bare word (`node hook.js`)
 * when it is a file there, or by its text when missing.  Directories named
 * as arguments (`prettier --write src/`) and output redirections are not
 * (the agent works there).  What cannot be known — another variable, a
 * substitution, a link in the project on the way — is said at start.
 *
 * The reading and placing of a command line (ltd_protect_command) serve
 * gitprotect.c too, for the commands that git's configuration names.
 */
#include "policy/policy.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "policy/option.h"
#include "protect/protect.h"
#include "protect/shword.h"

#define SETTINGS_MAX  (4u << 20)
#define JSON_DEPTH    64
#define MAX_PROTECTED 256 /* paths added from all the settings */
#define GLOB_MAX      64

/* --- the settings files ------------------------------------------------ */

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

static int protect(struct ltd_cmd_scan *s, const char *path,
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
static int note(struct ltd_cmd_scan *s, bool *said, const char *msg,
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
static int place(struct ltd_cmd_scan *s, const char *path,
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

int ltd_protect_command(struct ltd_cmd_scan *s, const char *cmd,
			const char *base, bool dirs, struct ltd_err *err)
{
	struct ltd_shword_place *v = NULL;
	char msg[2 * PATH_MAX], dir[PATH_MAX];
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
		glob_t g = {0};

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
			if (!inside(s->set->project, v[i].path))
				break;
			/* Every match runs, also one the cage adds: the
			 * directory they lie in, where it can be protected. */
			pattern_dir(v[i].path, dir, sizeof(dir));
			if (inside(s->set->project, dir)) {
				ret = place(s, dir, LTD_SHWORD_PATH, true, err);
				break;
			}
			if (glob(v[i].path, GLOB_NOSORT, NULL, &g) == 0)
				for (size_t k = 0;
				     !ret && k < g.gl_pathc && k < GLOB_MAX;
				     k++)
					ret = place(s, g.gl_pathv[k],
						    LTD_SHWORD_PATH, dirs, err);
			globfree(&g);
			snprintf(msg, sizeof(msg),
				 "a command runs what %.*s matches: a match "
				 "the cage adds at the project's top stays "
				 "unwatched",
				 PATH_MAX, v[i].path);
			if (!ret)
				ret = note(s, &s->said_unknown, msg, err);
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

/* The keys whose string is a command line Claude Code runs. */
static bool command_key(const char *k)
{
	size_t n = strlen(k);

	return !strcmp(k, "command") || !strcmp(k, "awsAuthRefresh") ||
	       !strcmp(k, "awsCredentialExport") ||
	       (n > 6 && !strcmp(k + n - 6, "Helper"));
}

/*
 * The environment the settings give Claude Code and its hooks: BASH_ENV,
 * NODE_OPTIONS... name files that run; a *PATH variable names directories
 * whose programs run.
 */
static int add_env(struct ltd_cmd_scan *s, json_t *env, struct ltd_err *err)
{
	const char *k;
	json_t *v;
	int ret = 0;

	json_object_foreach(env, k, v)
	{
		size_t n = strlen(k);
		bool dirs = n >= 4 && !strcmp(k + n - 4, "PATH");
		_cleanup_free_ char *list = NULL;
		char *save = NULL;

		if (!json_is_string(v))
			continue;
		ret = ltd_protect_command(s, json_string_value(v),
					  s->set->project, dirs, err);
		list = strdup(json_string_value(v));
		if (!ret && !list)
			ret = ltd_err_set(err, ENOMEM, "out of memory");
		for (char *part = list ? strtok_r(list, ":", &save) : NULL;
		     !ret && part && strchr(json_string_value(v), ':');
		     part = strtok_r(NULL, ":", &save))
			ret = ltd_protect_command(s, part, s->set->project,
						  dirs, err);
		if (ret)
			return ret;
	}
	return 0;
}

static int walk(struct ltd_cmd_scan *s, json_t *j, int depth,
		struct ltd_err *err)
{
	const char *k;
	json_t *v;
	size_t i;
	int ret = 0;

	if (depth > JSON_DEPTH)
		return 0;
	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
		{
			ret = walk(s, v, depth + 1, err);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (!json_is_object(j))
		return 0;
	json_object_foreach(j, k, v)
	{
		if (json_is_string(v) && command_key(k)) {
			ret = ltd_protect_command(s, json_string_value(v),
						  s->set->project, false, err);
		} else if (json_is_object(v) && !strcmp(k, "env")) {
			ret = add_env(s, v, err);
		} else if (json_is_array(v) && !strcmp(k, "args")) {
			json_t *a;

			/* An MCP server's argv: each element one word
			 * (and a `-c` line read as one). */
			json_array_foreach(v, i, a)
			{
				if (ret || !json_is_string(a))
					continue;
				ret = ltd_protect_command(
					s, json_string_value(a),
					s->set->project, false, err);
			}
		} else {
			ret = walk(s, v, depth + 1, err);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The settings' text as Claude Code reads it, or NULL and an error. */
static json_t *settings_json(const char *text, size_t len, const char *path,
			     int *ret, struct ltd_err *err)
{
	json_error_t jerr;
	json_t *j = json_loadb(text, len,
			       JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &jerr);

	*ret = 0;
	if (!j)
		*ret = ltd_err_set(err, EINVAL,
				   "%s:%d: not JSON that ltd-native can read "
				   "(%s): it cannot tell which files Claude "
				   "Code would run from it; fix the file "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   path, jerr.line, jerr.text);
	return j;
}

/*
 * The file's JSON; NULL with *@ret 0 when it is missing (or a link:
 * ltd_protected_check_links refuses that with its own message), NULL with
 * an error when it is there but cannot be read as JSON as Claude Code
 * reads it: then nothing would say which files it runs.
 */
static json_t *load(const char *path, int *ret, struct ltd_err *err)
{
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;
	ssize_t r;

	*ret = 0;
	if (fd < 0 && (errno == ENOENT || errno == ELOOP || errno == ENOTDIR))
		return NULL;
	if (fd < 0 || fstat(fd, &st) < 0) {
		*ret = ltd_err_sys(err, "%s", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > SETTINGS_MAX) {
		*ret = ltd_err_set(err, EINVAL,
				   "%s: not a regular file of at most %u "
				   "bytes: ltd-native cannot tell which files "
				   "Claude Code would run from it "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   path, SETTINGS_MAX);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		*ret = ltd_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	while (len < (size_t)st.st_size &&
	       (r = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)r;
	return settings_json(buf, len, path, ret, err);
}

int ltd_agent_settings_scan(const struct ltd_policy *p,
			    struct ltd_protected *set, const char *file,
			    const char *text, size_t len, struct ltd_err *err)
{
	struct ltd_cmd_scan s = {.set = set, .file = file};
	int ret;
	json_t *j = settings_json(text, len, file, &ret, err);

	ltd_protected_for(set, p);
	if (j)
		ret = walk(&s, j, 0, err);
	json_decref(j);
	return ret;
}

int ltd_agent_protected(const struct ltd_policy *p, struct ltd_protected *set,
			struct ltd_err *err)
{
	static const char *const files[] = {
		".claude/settings.json",
		".claude/settings.local.json",
		".mcp.json",
	};
	/* Scripts by convention, and what may carry hooks of its own in its
	 * frontmatter (agents, skills): read-only, or reported when the
	 * cage makes them. */
	static const char *const dirs[] = {
		".claude/hooks",
		".claude/agents",
		".claude/skills",
	};
	struct ltd_cmd_scan s = {.set = set};
	char path[PATH_MAX];
	int ret = 0;

	ltd_protected_for(set, p);
	ret = ltd_protected_add_names(set, dirs, ARRAY_SIZE(dirs), err);
	for (size_t i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *j;

		snprintf(path, sizeof(path), "%s/%s", set->project, files[i]);
		s.file = path;
		s.said_unknown = false;
		j = load(path, &ret, err);
		if (j)
			ret = walk(&s, j, 0, err);
		json_decref(j);
	}
	return ret;
}
