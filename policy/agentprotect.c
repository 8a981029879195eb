// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What Claude Code on the host runs from the project without being asked:
 * the commands that the project's settings name (hooks, the status line,
 * the credential helpers) and the MCP servers of .mcp.json.  The settings
 * themselves are protected with git's paths (gitprotect.c); the scripts
 * they run are protected here, so that a script the agent rewrites in the
 * cage does not run on the host at the next Claude Code session.
 *
 * A command is a shell line; its words are read as the shell would split
 * them, and each that names a place in the project is protected: by its
 * text when it has a '/' (a missing one is reported if the cage makes it),
 * only when it is a file there when it is a bare word (`node hook.js`).
 */
#include "policy/policy.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/cleanup.h"

#define PROJECT_VAR   "CLAUDE_PROJECT_DIR"
#define SETTINGS_MAX  (1u << 20)
#define JSON_DEPTH    64
#define RESPLIT_DEPTH 2

/* The word being read: bytes, and what disqualifies it. */
struct word {
	char *s;
	size_t len, cap;
	bool quoted; /* some of it was quoted: `''` is a word */
	bool bad;    /* another variable, ~ */
};

struct split {
	const char *project;
	char cwd[PATH_MAX]; /* after a `cd`; "" when not known */
	bool after_cd;
	struct ltd_cmd_path *v;
	size_t n;
	int depth;
};

static int put(struct word *w, const char *s, size_t len)
{
	if (w->len + len + 1 > w->cap) {
		size_t cap = (w->len + len + 1) * 2;
		char *t = realloc(w->s, cap);

		if (!t)
			return -ENOMEM;
		w->s = t;
		w->cap = cap;
	}
	memcpy(w->s + w->len, s, len);
	w->len += len;
	w->s[w->len] = '\0';
	return 0;
}

static bool ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* At '$': the project for $CLAUDE_PROJECT_DIR and ${CLAUDE_PROJECT_DIR};
 * any other variable makes the word unknowable; "$(" is read as a word
 * break (what a substitution runs is a command line too).  Returns the
 * bytes used. */
static size_t dollar(const char *c, struct word *w, const char *project,
		     int *ret)
{
	size_t n = strlen(PROJECT_VAR);

	if (!strncmp(c + 1, PROJECT_VAR, n) && !ident(c[1 + n])) {
		*ret = put(w, project, strlen(project));
		return 1 + n;
	}
	if (c[1] == '{' && !strncmp(c + 2, PROJECT_VAR, n) && c[2 + n] == '}') {
		*ret = put(w, project, strlen(project));
		return 3 + n;
	}
	if (c[1] == '(')
		return 1; /* the '(' that follows breaks the word */
	if (ident(c[1]) || c[1] == '{')
		w->bad = true;
	*ret = put(w, c, 1);
	return 1;
}

static int words(struct split *sp, const char *cmd);

/* A finished word: a place in the project, or nothing. */
static int take(struct split *sp, struct word *w)
{
	char path[PATH_MAX * 2];
	size_t plen = strlen(sp->project);
	struct ltd_cmd_path *v;
	int ret = 0;

	if (sp->after_cd && !(w->len && w->s[0] == '-')) {
		/* `cd DIR`: later relative words are DIR's, known only while
		 * DIR is a known place in the project. */
		sp->after_cd = false;
		if (w->bad || !sp->cwd[0] ||
		    snprintf(path, sizeof(path), "%s%s%s",
			     w->s[0] == '/' ? "" : sp->cwd,
			     w->s[0] == '/' ? "" : "/",
			     w->s) >= (int)sizeof(sp->cwd))
			path[0] = '\0';
		ltd_path_normalize(path);
		if (strncmp(path, sp->project, plen) != 0 ||
		    (path[plen] != '/' && path[plen]))
			path[0] = '\0';
		memcpy(sp->cwd, path, strlen(path) + 1);
		goto out;
	}
	if (w->len == 2 && !memcmp(w->s, "cd", 2)) {
		sp->after_cd = true;
		goto out;
	}
	if (!w->len || w->bad || w->s[0] == '-')
		goto out;
	/* A quoted inner command line (`bash -c '...'`): its words too. */
	if (sp->depth < RESPLIT_DEPTH && strpbrk(w->s, " \t\n;&|()<>`")) {
		sp->depth++;
		ret = words(sp, w->s);
		sp->depth--;
		if (ret < 0)
			goto out;
	}
	if ((w->s[0] != '/' && !sp->cwd[0]) ||
	    snprintf(path, sizeof(path), "%s%s%s",
		     w->s[0] == '/' ? "" : sp->cwd, w->s[0] == '/' ? "" : "/",
		     w->s) >= (int)sizeof(path))
		goto out;
	ltd_path_normalize(path);
	if (strncmp(path, sp->project, plen) != 0 || path[plen] != '/' ||
	    !path[plen + 1])
		goto out;
	for (size_t i = 0; i < sp->n; i++)
		if (!strcmp(sp->v[i].path, path))
			goto out;
	v = realloc(sp->v, (sp->n + 1) * sizeof(*v));
	if (!v) {
		ret = -ENOMEM;
		goto out;
	}
	sp->v = v;
	v[sp->n].path = strdup(path);
	if (!v[sp->n].path) {
		ret = -ENOMEM;
		goto out;
	}
	v[sp->n++].bare = !strchr(w->s, '/');
out:
	w->len = 0;
	if (w->s)
		w->s[0] = '\0';
	w->quoted = w->bad = false;
	return ret;
}

static int words(struct split *sp, const char *cmd)
{
	struct word w = {0};
	const char *c = cmd;
	int ret = 0;

	while (!ret && *c) {
		if (strchr(" \t\n;&|()<>`", *c)) {
			ret = w.len || w.quoted ? take(sp, &w) : 0;
			c++;
		} else if (*c == '\\') {
			if (c[1])
				ret = put(&w, c + 1, 1);
			c += c[1] ? 2 : 1;
		} else if (*c == '\'') {
			const char *end = strchr(c + 1, '\'');

			if (!end)
				end = c + strlen(c);
			w.quoted = true;
			ret = put(&w, c + 1, (size_t)(end - c - 1));
			c = *end ? end + 1 : end;
		} else if (*c == '"') {
			w.quoted = true;
			for (c++; !ret && *c && *c != '"';) {
				if (*c == '\\' && c[1] &&
				    strchr("\"\\$`", c[1])) {
					ret = put(&w, c + 1, 1);
					c += 2;
				} else if (*c == '$') {
					c += dollar(c, &w, sp->project, &ret);
				} else {
					ret = put(&w, c++, 1);
				}
			}
			if (*c)
				c++;
		} else if (*c == '$') {
			c += dollar(c, &w, sp->project, &ret);
		} else {
			if (*c == '~' && !w.len && !w.quoted)
				w.bad = true;
			ret = put(&w, c++, 1);
		}
	}
	if (!ret && (w.len || w.quoted))
		ret = take(sp, &w);
	free(w.s);
	return ret;
}

int ltd_command_paths(const char *cmd, const char *project,
		      struct ltd_cmd_path **out, size_t *n)
{
	struct split sp = {.project = project};
	int ret;

	if (strlen(project) >= sizeof(sp.cwd))
		return -ENAMETOOLONG;
	memcpy(sp.cwd, project, strlen(project) + 1);
	ret = words(&sp, cmd);

	if (ret < 0) {
		ltd_command_paths_free(sp.v, sp.n);
		return ret;
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

void ltd_command_paths_free(struct ltd_cmd_path *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* No link between the project and @path (as far as it exists): a bind
 * would cover a link's target, and the link itself stays re-pointable. */
static bool no_link_on_the_way(const char *project, const char *path)
{
	char prefix[PATH_MAX];
	size_t plen = strlen(project);
	struct stat st;

	for (const char *c = path + plen + 1;; c++) {
		if (*c && *c != '/')
			continue;
		if ((size_t)(c - path) >= sizeof(prefix))
			return false;
		memcpy(prefix, path, (size_t)(c - path));
		prefix[c - path] = '\0';
		if (lstat(prefix, &st) < 0)
			return true; /* missing from here: by its text */
		if (S_ISLNK(st.st_mode))
			return false;
		if (!*c)
			return true;
	}
}

static int add_command(struct ltd_policy *p, const char *cmd,
		       struct ltd_err *err)
{
	struct ltd_cmd_path *v = NULL;
	struct stat st;
	size_t n = 0;
	int ret = ltd_command_paths(cmd, p->project, &v, &n);

	if (ret < 0)
		return ltd_err_set(err, -ret, "out of memory");
	for (size_t i = 0; !ret && i < n; i++) {
		if (v[i].bare &&
		    (lstat(v[i].path, &st) < 0 || !S_ISREG(st.st_mode)))
			continue;
		if (no_link_on_the_way(p->project, v[i].path))
			ret = ltd_policy_protect(p, v[i].path, err);
	}
	ltd_command_paths_free(v, n);
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

static int walk(struct ltd_policy *p, json_t *j, int depth, struct ltd_err *err)
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
			ret = walk(p, v, depth + 1, err);
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
			ret = add_command(p, json_string_value(v), err);
		} else if (json_is_array(v) && !strcmp(k, "args")) {
			json_t *a;

			/* An MCP server's argv: each element one word. */
			json_array_foreach(v, i, a)
			{
				if (ret || !json_is_string(a))
					continue;
				ret = add_command(p, json_string_value(a), err);
			}
		} else {
			ret = walk(p, v, depth + 1, err);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* The file's JSON, or NULL: missing, not a regular file, too large, or
 * not JSON (Claude Code would not run what it names either). */
static json_t *load(const char *path)
{
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t len = 0;
	ssize_t r;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > SETTINGS_MAX)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	while (len < (size_t)st.st_size &&
	       (r = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)r;
	return json_loadb(buf, len, 0, NULL);
}

int ltd_agent_protected(struct ltd_policy *p, struct ltd_err *err)
{
	static const char *const files[] = {
		".claude/settings.json",
		".claude/settings.local.json",
		".mcp.json",
	};
	char path[PATH_MAX];
	struct stat st;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/.claude/hooks", p->project) >=
	    (int)sizeof(path))
		return ltd_err_set(err, ENAMETOOLONG, "--project: too long");
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		ret = ltd_policy_protect(p, path, err);
	for (size_t i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *j;

		snprintf(path, sizeof(path), "%s/%s", p->project, files[i]);
		j = load(path);
		if (j)
			ret = walk(p, j, 0, err);
		json_decref(j);
	}
	return ret;
}
