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
 * A command is a shell line, read here as sh would split it (quotes,
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

#include "common/cleanup.h"
#include "common/path.h"
#include "policy/option.h"
#include "protect/protect.h"

#define PROJECT_VAR   "CLAUDE_PROJECT_DIR"
#define TOPLEVEL_CMD  "git rev-parse --show-toplevel"
#define SETTINGS_MAX  (4u << 20)
#define JSON_DEPTH    64
#define NEST_DEPTH    4	   /* subshells, substitutions, `sh -c` lines */
#define MAX_WORDS     1024 /* candidates of one command line */
#define MAX_PROTECTED 256  /* paths added from all the settings */
#define GLOB_MAX      64

/* The word being read. */
struct word {
	char *s;
	size_t len, cap;
	bool any;     /* something was read (`''` is a word) */
	bool unknown; /* another variable, a substitution, ~, braces */
	bool glob;    /* an unquoted * ? [ */
};

struct split {
	const char *project;
	const char *home; /* may be NULL: then ~ and $HOME are unknown */
	struct ltd_cmd_path *v;
	size_t n;
};

/* One command line (or subshell) being read: its base directory. */
struct level {
	struct split *sp;
	char cwd[PATH_MAX];	/* "" when not known (after `cd $X`, `cd`) */
	char cmd_cwd[PATH_MAX]; /* the base before a `-C DIR` of this
				   command, restored at its end ("": none) */
	int depth;
	bool cmd_pos; /* the next word is a command's name */
	enum { P_NONE, P_CD, P_CMD_CD, P_SKIP, P_INPUT } pending;
};

/* Words after which the next word is still a command's name. */
static bool keeps_command_position(const char *s)
{
	static const char *const words[] = {
		"if",	   "then",   "else",   "elif",	"do",	   "while",
		"until",   "!",	     "{",      "time",	"command", "builtin",
		"exec",	   "nohup",  "env",    "nice",	"sudo",	   "xargs",
		"timeout", "stdbuf", "setsid", "watch", NULL,
	};

	for (const char *const *w = words; *w; w++)
		if (!strcmp(s, *w))
			return true;
	return false;
}

/* An option that runs the command from another directory: its value is
 * that directory for the rest of the command. */
static bool changes_directory(const char *s)
{
	return !strcmp(s, "-C") || !strcmp(s, "--directory") ||
	       !strcmp(s, "--prefix") || !strcmp(s, "--cwd") ||
	       !strcmp(s, "--chdir") || !strcmp(s, "--cd");
}

/* @l's base moved to @s (relative to it): "" when that is not known. */
static void move_base(struct level *l, const char *s, bool unknown)
{
	char to[PATH_MAX];

	if (unknown || (s[0] != '/' && !l->cwd[0]) ||
	    snprintf(to, sizeof(to), "%s%s%s", s[0] == '/' ? "" : l->cwd,
		     s[0] == '/' ? "" : "/", s) >= (int)sizeof(to)) {
		l->cwd[0] = '\0';
		return;
	}
	ltd_path_normalize(to);
	memcpy(l->cwd, to, sizeof(l->cwd));
}

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
	w->any = true;
	return 0;
}

static void clear(struct word *w)
{
	w->len = 0;
	if (w->s)
		w->s[0] = '\0';
	w->any = w->unknown = w->glob = false;
}

static bool ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int add(struct split *sp, const char *path, enum ltd_cmd_kind kind,
	       bool input)
{
	struct ltd_cmd_path *v;

	for (size_t i = 0; i < sp->n; i++)
		if (sp->v[i].kind == kind && !strcmp(sp->v[i].path, path)) {
			sp->v[i].input |= input;
			return 0;
		}
	if (sp->n == MAX_WORDS)
		return -E2BIG;
	v = realloc(sp->v, (sp->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	sp->v = v;
	v[sp->n] = (struct ltd_cmd_path){
		.path = strdup(path), .kind = kind, .input = input};
	if (!v[sp->n].path)
		return -ENOMEM;
	sp->n++;
	return 0;
}

/* A word that may name a place: where, if anywhere, it is. */
static int candidate(struct level *l, const char *word, bool unknown, bool glob,
		     bool input)
{
	char path[PATH_MAX];
	bool slash = strchr(word, '/') != NULL;

	if (!word[0])
		return 0;
	if (unknown || (word[0] != '/' && !l->cwd[0]))
		return slash ? add(l->sp, word, LTD_CMD_UNKNOWN, input) : 0;
	if (snprintf(path, sizeof(path), "%s%s%s", word[0] == '/' ? "" : l->cwd,
		     word[0] == '/' ? "" : "/", word) >= (int)sizeof(path))
		return 0; /* nothing that long exists or can be made */
	ltd_path_normalize(path);
	if (glob)
		return add(l->sp, path, LTD_CMD_GLOB, input);
	return add(l->sp, path, slash ? LTD_CMD_PATH : LTD_CMD_BARE, input);
}

static int parse(struct level *l, const char **cur, char close);

/* A nested command line (a substitution's, `sh -c`'s, a subshell's): read
 * with a base directory of its own, starting from this one's. */
static int nested(struct level *l, const char *text)
{
	struct level in = {.sp = l->sp, .depth = l->depth + 1, .cmd_pos = true};
	const char *c = text;

	if (in.depth > NEST_DEPTH)
		return 0;
	memcpy(in.cwd, l->cwd, sizeof(in.cwd));
	return parse(&in, &c, '\0');
}

static int take(struct level *l, struct word *w);

/* --directory=DIR: DIR taken as the word after --directory would be. */
static int take_value(struct level *l, struct word *w, const char *value)
{
	struct word v = {.glob = w->glob};
	int ret = put(&v, value, strlen(value));

	if (!ret)
		ret = take(l, &v);
	free(v.s);
	return ret;
}

/* The end of a word: what the command line makes of it. */
static int take(struct level *l, struct word *w)
{
	const char *s = w->s ? w->s : "", *eq;
	int ret = 0;

	if (!w->any)
		return 0;
	/* A quoted inner line (`bash -c 'cd x && ./y.sh'`): its words too. */
	if (!w->unknown && strpbrk(s, " \t\n;&|()<>`$"))
		ret = nested(l, s);
	if (ret < 0)
		goto out;
	switch (l->pending) {
	case P_SKIP: /* an output's target, a here-document's word */
		l->pending = P_NONE;
		goto out;
	case P_INPUT: /* `sh < script` runs it */
		l->pending = P_NONE;
		ret = candidate(l, s, w->unknown, w->glob, true);
		goto out;
	case P_CD:
		if (s[0] == '-' && !w->unknown)
			goto out; /* cd -P DIR */
		l->pending = P_NONE;
		move_base(l, s, w->unknown || w->glob);
		goto out;
	case P_CMD_CD: /* make -C DIR, uv --directory DIR: this command's */
		l->pending = P_NONE;
		if (!l->cmd_cwd[0])
			snprintf(l->cmd_cwd, sizeof(l->cmd_cwd), "%s",
				 l->cwd[0] ? l->cwd : "-");
		move_base(l, s, w->unknown || w->glob);
		goto out;
	case P_NONE:
		break;
	}
	if (!strcmp(s, "{") || !strcmp(s, "}"))
		goto out; /* a group's braces: keywords, not brace expansion */
	if (l->cmd_pos) {
		/* NAME=VALUE before the command: the value may be a path. */
		eq = strchr(s, '=');
		if (eq && eq > s && !w->unknown) {
			const char *k = s;

			while (k < eq && ident(*k))
				k++;
			if (k == eq) {
				ret = candidate(l, eq + 1, false, w->glob,
						false);
				goto out;
			}
		}
		if (!w->unknown && keeps_command_position(s))
			goto out;
		l->cmd_pos = false;
		if (!w->unknown && (!strcmp(s, "cd") || !strcmp(s, "pushd"))) {
			l->pending = P_CD;
			goto out;
		}
		if (!w->unknown && !strcmp(s, "popd")) {
			l->cwd[0] =
				'\0'; /* back to a directory not known here */
			goto out;
		}
	} else if (s[0] == '-') {
		/* --require=./x.js: the value; a bare option: nothing;
		 * -C DIR and the like: the command's directory. */
		eq = strchr(s, '=');
		if (!w->unknown && changes_directory(s))
			l->pending = P_CMD_CD;
		else if (eq && !w->unknown) {
			char opt[32];

			snprintf(opt, sizeof(opt), "%.*s",
				 (int)(eq - s < 31 ? eq - s : 31), s);
			if (changes_directory(opt)) {
				l->pending = P_CMD_CD;
				ret = take_value(l, w, eq + 1);
				goto out;
			}
		}
		if (eq && l->pending != P_CMD_CD)
			ret = candidate(l, eq + 1, w->unknown, w->glob, false);
		goto out;
	}
	ret = candidate(l, s, w->unknown, w->glob, false);
out:
	clear(w);
	return ret;
}

/* At '$': what the expansion adds to the word.  Returns the bytes read. */
static size_t dollar(struct level *l, const char *c, struct word *w, int *ret)
{
	size_t n = strlen(PROJECT_VAR);
	const char *end;

	/* $CLAUDE_PROJECT_DIR, ${CLAUDE_PROJECT_DIR}, and any
	 * ${CLAUDE_PROJECT_DIR<op>...} (it is always set). */
	if (!strncmp(c + 1, PROJECT_VAR, n) && !ident(c[1 + n])) {
		*ret = put(w, l->sp->project, strlen(l->sp->project));
		return 1 + n;
	}
	if (c[1] == '{') {
		end = strchr(c + 2, '}');
		if (!end) {
			w->unknown = true;
			*ret = put(w, c, strlen(c));
			return strlen(c);
		}
		if (!strncmp(c + 2, PROJECT_VAR, n) && !ident(c[2 + n]))
			*ret = put(w, l->sp->project, strlen(l->sp->project));
		else if (!strncmp(c + 2, "PWD}", 4) && l->cwd[0])
			*ret = put(w, l->cwd, strlen(l->cwd));
		else if (!strncmp(c + 2, "HOME}", 5) && l->sp->home)
			*ret = put(w, l->sp->home, strlen(l->sp->home));
		else {
			/* Kept as written: the warning shows it. */
			w->unknown = true;
			*ret = put(w, c, (size_t)(end - c) + 1);
		}
		return (size_t)(end - c) + 1;
	}
	if (!strncmp(c + 1, "PWD", 3) && !ident(c[4])) {
		if (l->cwd[0])
			*ret = put(w, l->cwd, strlen(l->cwd));
		else
			w->unknown = true;
		return 4;
	}
	if (!strncmp(c + 1, "HOME", 4) && !ident(c[5])) {
		if (l->sp->home)
			*ret = put(w, l->sp->home, strlen(l->sp->home));
		else
			w->unknown = true;
		return 5;
	}
	if (c[1] == '(') {
		/* $(...): what it runs is a command line too; its output
		 * is known only for the repository's top level. */
		int depth = 0;
		size_t i = 1;
		_cleanup_free_ char *inner = NULL;

		for (; c[i]; i++) {
			depth += c[i] == '(';
			depth -= c[i] == ')';
			if (!depth)
				break;
		}
		inner = strndup(c + 2, i > 2 ? i - 2 : 0);
		if (!inner) {
			*ret = -ENOMEM;
			return strlen(c);
		}
		if (!strcmp(inner, TOPLEVEL_CMD)) {
			*ret = put(w, l->sp->project, strlen(l->sp->project));
		} else {
			w->unknown = true;
			*ret = put(w, c, c[i] ? i + 1 : i);
			if (!*ret)
				*ret = nested(l, inner);
		}
		return c[i] ? i + 1 : i;
	}
	if (c[1] && (ident(c[1]) || strchr("@*#?$!-", c[1]))) {
		w->unknown = true;
		for (n = 1; ident(c[n]); n++)
			;
		n = n > 1 ? n : 2;
		*ret = put(w, c, n);
		return n;
	}
	*ret = put(w, c, 1);
	return 1;
}

/* A backquoted substitution: like $(...). */
static size_t backquote(struct level *l, const char *c, struct word *w,
			int *ret)
{
	const char *end = strchr(c + 1, '`');
	_cleanup_free_ char *inner = NULL;

	w->unknown = true;
	if (!end)
		end = c + strlen(c);
	inner = strndup(c + 1, (size_t)(end - c - 1));
	*ret = inner ? put(w, c, (size_t)(end - c) + (*end ? 1 : 0)) : -ENOMEM;
	if (!*ret)
		*ret = nested(l, inner);
	return (size_t)(end - c) + (*end ? 1 : 0);
}

/* A double-quoted part, from after its opening quote; returns the bytes
 * read past the closing one. */
static size_t dquoted(struct level *l, const char *c, struct word *w, int *ret)
{
	const char *s = c;

	while (!*ret && *s && *s != '"') {
		if (*s == '\\' && s[1] == '\n')
			s += 2;
		else if (*s == '\\' && s[1] && strchr("\"\\$`", s[1])) {
			*ret = put(w, s + 1, 1);
			s += 2;
		} else if (*s == '$')
			s += dollar(l, s, w, ret);
		else if (*s == '`')
			s += backquote(l, s, w, ret);
		else
			*ret = put(w, s++, 1);
	}
	return (size_t)(s - c) + (*s ? 1 : 0);
}

/* An operator ends a simple command: the next word is a command's. */
static void command_ends(struct level *l)
{
	if (l->pending == P_CD)
		l->cwd[0] = '\0'; /* a bare `cd`: the home directory */
	if (l->cmd_cwd[0]) {
		/* make -C DIR moved only its own command. */
		if (!strcmp(l->cmd_cwd, "-"))
			l->cwd[0] = '\0';
		else
			memcpy(l->cwd, l->cmd_cwd, sizeof(l->cwd));
		l->cmd_cwd[0] = '\0';
	}
	l->pending = P_NONE;
	l->cmd_pos = true;
}

static int parse(struct level *l, const char **cur, char close)
{
	struct word w = {0};
	const char *c = *cur;
	int ret = 0;

	while (!ret && *c) {
		if (*c == '\\' && c[1] == '\n') {
			c += 2; /* a line continues */
		} else if (*c == '\\') {
			if (c[1])
				ret = put(&w, c + 1, 1);
			c += c[1] ? 2 : 1;
		} else if (*c == '\'') {
			const char *end = strchr(c + 1, '\'');

			if (!end)
				end = c + strlen(c);
			ret = put(&w, c + 1, (size_t)(end - c - 1));
			w.any = true;
			c = *end ? end + 1 : end;
		} else if (*c == '"') {
			w.any = true;
			c += 1 + dquoted(l, c + 1, &w, &ret);
		} else if (*c == '$' && c[1] == '\'') {
			const char *start = c;

			w.unknown = true; /* $'...': escapes not read */
			c += 2;
			while (*c && *c != '\'')
				c += c[0] == '\\' && c[1] ? 2 : 1;
			c += *c ? 1 : 0;
			ret = put(&w, start, (size_t)(c - start));
		} else if (*c == '$') {
			c += dollar(l, c, &w, &ret);
		} else if (*c == '`') {
			c += backquote(l, c, &w, &ret);
		} else if (*c == '#' && !w.any) {
			while (*c && *c != '\n')
				c++;
		} else if (*c == ' ' || *c == '\t') {
			ret = take(l, &w);
			c++;
		} else if (strchr("\n;&|", *c)) {
			ret = take(l, &w);
			if (!ret && *c == '&' && c[1] == '>') {
				l->pending = P_SKIP; /* &> FILE */
				c += 2 + (c[2] == '>');
				continue;
			}
			command_ends(l);
			c++;
		} else if (*c == '(') {
			struct level in = {.sp = l->sp,
					   .depth = l->depth + 1,
					   .cmd_pos = true};

			ret = take(l, &w);
			c++;
			memcpy(in.cwd, l->cwd, sizeof(in.cwd));
			if (!ret && in.depth <= NEST_DEPTH)
				ret = parse(&in, &c, ')');
			l->cmd_pos = false;
		} else if (*c == ')') {
			ret = take(l, &w);
			c++;
			if (close == ')')
				break;
		} else if (*c == '<' || *c == '>') {
			/* `2>`: the digits were a descriptor, not a word. */
			if (w.any && !w.unknown && w.len &&
			    strspn(w.s, "0123456789") == w.len)
				clear(&w);
			ret = take(l, &w);
			if (c[0] == '<' && c[1] == '<')
				l->pending = P_SKIP; /* here-doc, here-string */
			else if (c[1] == '&')
				l->pending = P_SKIP; /* >&2, <&3 */
			else
				l->pending = *c == '<' ? P_INPUT : P_SKIP;
			while (*c == '<' || *c == '>' || *c == '&' || *c == '|')
				c++;
		} else if (*c == '~' && !w.any) {
			/* ~ and ~/...: the home; ~user: not known here. */
			if (l->sp->home && (c[1] == '/' || !c[1] ||
					    strchr(" \t\n;&|()<>", c[1])))
				ret = put(&w, l->sp->home, strlen(l->sp->home));
			else
				w.unknown = true, ret = put(&w, c, 1);
			c++;
		} else {
			if (strchr("*?[", *c))
				w.glob = true;
			if (*c == '{' || *c == '}')
				w.unknown =
					true; /* braces: not expanded here */
			ret = put(&w, c++, 1);
		}
	}
	if (!ret)
		ret = take(l, &w);
	if (!ret && l->pending == P_CD)
		l->cwd[0] = '\0';
	free(w.s);
	*cur = c;
	return ret;
}

int ltd_command_paths(const char *cmd, const char *project, const char *home,
		      struct ltd_cmd_path **out, size_t *n)
{
	struct split sp = {.project = project, .home = home};
	struct level l = {.sp = &sp, .cmd_pos = true};
	const char *c = cmd;
	int ret;

	if (strlen(project) >= sizeof(l.cwd))
		return -ENAMETOOLONG;
	memcpy(l.cwd, project, strlen(project) + 1);
	ret = parse(&l, &c, '\0');
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

/* --- the settings files ------------------------------------------------ */

static bool inside(const char *project, const char *path)
{
	size_t n = strlen(project);

	return !strncmp(path, project, n) && path[n] == '/' && path[n + 1];
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
	return ltd_policy_protect(s->p, path, err);
}

/* One warning of each kind per file: the first case says enough. */
static int note(struct ltd_cmd_scan *s, bool *said, const char *msg,
		struct ltd_err *err)
{
	if (*said)
		return 0;
	*said = true;
	if (ltd_policy_add_note(&s->p->warnings, &s->p->n_warnings, "%s: %s",
				s->file, msg) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	return 0;
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
		 enum ltd_cmd_kind kind, bool dirs, struct ltd_err *err)
{
	char real[PATH_MAX], link[PATH_MAX];
	struct stat st;

	if (!inside(s->p->project, path)) {
		/* A path to the project through a link outside it (the
		 * cage cannot re-point that one). */
		if (kind != LTD_CMD_PATH || !realpath(path, real) ||
		    !inside(s->p->project, real))
			return 0;
		path = real;
	}
	if (link_on_the_way(s->p->project, path, link, sizeof(link))) {
		/* git's: protected by its text, so that the run is refused
		 * naming the link (ltd_policy_check_links), as for a hooks
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
		return kind == LTD_CMD_BARE && !script_name(path)
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
	struct ltd_cmd_path *v = NULL;
	char msg[2 * PATH_MAX], dir[PATH_MAX];
	size_t n = 0;
	int ret = ltd_command_paths(cmd, base, s->p->id.home, &v, &n);

	if (ret == -E2BIG)
		return ltd_err_set(err, E2BIG,
				   "%s: a command line of more than %d words "
				   "(--unsafe-writable-git runs without this "
				   "protection)",
				   s->file, MAX_WORDS);
	if (ret < 0)
		return ltd_err_set(err, -ret, "out of memory");
	for (size_t i = 0; !ret && i < n; i++) {
		glob_t g = {0};

		switch (v[i].kind) {
		case LTD_CMD_UNKNOWN:
			snprintf(msg, sizeof(msg),
				 "a command names %.*s, which ltd-native "
				 "cannot resolve (a variable, a "
				 "substitution): what it runs there stays "
				 "writable in the cage",
				 PATH_MAX, v[i].path);
			ret = note(s, &s->said_unknown, msg, err);
			break;
		case LTD_CMD_GLOB:
			if (!inside(s->p->project, v[i].path))
				break;
			/* Every match runs, also one the cage adds: the
			 * directory they lie in, where it can be protected. */
			pattern_dir(v[i].path, dir, sizeof(dir));
			if (inside(s->p->project, dir)) {
				ret = place(s, dir, LTD_CMD_PATH, true, err);
				break;
			}
			if (glob(v[i].path, GLOB_NOSORT, NULL, &g) == 0)
				for (size_t k = 0;
				     !ret && k < g.gl_pathc && k < GLOB_MAX;
				     k++)
					ret = place(s, g.gl_pathv[k],
						    LTD_CMD_PATH, dirs, err);
			globfree(&g);
			snprintf(msg, sizeof(msg),
				 "a command runs what %.*s matches: a match "
				 "the cage adds at the project's top stays "
				 "unwatched",
				 PATH_MAX, v[i].path);
			if (!ret)
				ret = note(s, &s->said_unknown, msg, err);
			break;
		case LTD_CMD_BARE:
		case LTD_CMD_PATH:
			ret = place(s, v[i].path, v[i].kind, dirs, err);
			break;
		}
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
					  s->p->project, dirs, err);
		list = strdup(json_string_value(v));
		if (!ret && !list)
			ret = ltd_err_set(err, ENOMEM, "out of memory");
		for (char *part = list ? strtok_r(list, ":", &save) : NULL;
		     !ret && part && strchr(json_string_value(v), ':');
		     part = strtok_r(NULL, ":", &save))
			ret = ltd_protect_command(s, part, s->p->project, dirs,
						  err);
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
						  s->p->project, false, err);
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
					s, json_string_value(a), s->p->project,
					false, err);
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
 * ltd_policy_check_links refuses that with its own message), NULL with
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

int ltd_agent_settings_scan(struct ltd_policy *p, const char *file,
			    const char *text, size_t len, struct ltd_err *err)
{
	struct ltd_cmd_scan s = {.p = p, .file = file};
	int ret;
	json_t *j = settings_json(text, len, file, &ret, err);

	if (j)
		ret = walk(&s, j, 0, err);
	json_decref(j);
	return ret;
}

int ltd_agent_protected(struct ltd_policy *p, struct ltd_err *err)
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
	struct ltd_cmd_scan s = {.p = p};
	char path[PATH_MAX];
	int ret = 0;

	ret = ltd_policy_protect_names(p, dirs, sizeof(dirs) / sizeof(*dirs),
				       err);
	for (size_t i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++) {
		json_t *j;

		snprintf(path, sizeof(path), "%s/%s", p->project, files[i]);
		s.file = path;
		s.said_unknown = false;
		j = load(path, &ret, err);
		if (j)
			ret = walk(&s, j, 0, err);
		json_decref(j);
	}
	return ret;
}
