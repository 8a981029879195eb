// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sh-word reader (see shword.h).  A command line is read as sh would
 * split it: quotes, escapes, line joins, operators, subshells,
 * redirections, a `cd` in command position moving the base of later
 * relative words.  Each word that may name a place is returned: where it
 * is, or as written when that cannot be known (another variable, a
 * substitution).  Which of them matter, and what to do with them, is the
 * caller's (cmdfiles.c).
 */
#include "protect/shword.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/vec.h"

#define PROJECT_VAR  "CLAUDE_PROJECT_DIR"
#define TOPLEVEL_CMD "git rev-parse --show-toplevel"
#define NEST_DEPTH   4 /* subshells, substitutions, `sh -c` lines */

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
	struct ltd_shword_place *v;
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

static int put_str(struct word *w, const char *s)
{
	return put(w, s, strlen(s));
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

static int add(struct split *sp, const char *path, enum ltd_shword_kind kind,
	       bool input)
{
	struct ltd_shword_place *e;

	for (size_t i = 0; i < sp->n; i++)
		if (sp->v[i].kind == kind && !strcmp(sp->v[i].path, path)) {
			sp->v[i].input |= input;
			return 0;
		}
	if (sp->n == LTD_SHWORD_MAX_PLACES)
		return -E2BIG;
	e = ltd_vec_push(&sp->v, sp->n);
	if (!e || !(e->path = strdup(path)))
		return -ENOMEM;
	e->kind = kind;
	e->input = input;
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
		return slash ? add(l->sp, word, LTD_SHWORD_UNKNOWN, input) : 0;
	if (snprintf(path, sizeof(path), "%s%s%s", word[0] == '/' ? "" : l->cwd,
		     word[0] == '/' ? "" : "/", word) >= (int)sizeof(path))
		return 0; /* nothing that long exists or can be made */
	ltd_path_normalize(path);
	if (glob)
		return add(l->sp, path, LTD_SHWORD_GLOB, input);
	return add(l->sp, path, slash ? LTD_SHWORD_PATH : LTD_SHWORD_BARE,
		   input);
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

/* --- the end of a word: what the command line makes of it ------------- */

static int take(struct level *l, struct word *w);

/* --directory=DIR: DIR taken as the word after --directory would be. */
static int take_value(struct level *l, struct word *w, const char *value)
{
	struct word v = {.glob = w->glob};
	int ret = put_str(&v, value);

	if (!ret)
		ret = take(l, &v);
	free(v.s);
	return ret;
}

/* The word a redirection, a `cd` or a `-C` waits for: true when @s (@w's
 * text) was that word. */
static bool take_pending(struct level *l, const struct word *w, const char *s,
			 int *ret)
{
	switch (l->pending) {
	case P_SKIP: /* an output's target, a here-document's word */
		l->pending = P_NONE;
		return true;
	case P_INPUT: /* `sh < script` runs it */
		l->pending = P_NONE;
		*ret = candidate(l, s, w->unknown, w->glob, true);
		return true;
	case P_CD:
		if (s[0] == '-' && !w->unknown)
			return true; /* cd -P DIR */
		l->pending = P_NONE;
		move_base(l, s, w->unknown || w->glob);
		return true;
	case P_CMD_CD: /* make -C DIR, uv --directory DIR: this command's */
		l->pending = P_NONE;
		if (!l->cmd_cwd[0])
			snprintf(l->cmd_cwd, sizeof(l->cmd_cwd), "%s",
				 l->cwd[0] ? l->cwd : "-");
		move_base(l, s, w->unknown || w->glob);
		return true;
	case P_NONE:
		break;
	}
	return false;
}

/* A word in command position that names no command (an assignment, a
 * keyword) or a command that moves the base (cd, pushd, popd): true when
 * it was one of those. */
static bool take_command(struct level *l, const struct word *w, const char *s,
			 int *ret)
{
	const char *eq = strchr(s, '='), *k = s;

	/* NAME=VALUE before the command: the value may be a path. */
	if (eq && eq > s && !w->unknown) {
		while (k < eq && ident(*k))
			k++;
		if (k == eq) {
			*ret = candidate(l, eq + 1, false, w->glob, false);
			return true;
		}
	}
	if (!w->unknown && keeps_command_position(s))
		return true;
	l->cmd_pos = false;
	if (!w->unknown && (!strcmp(s, "cd") || !strcmp(s, "pushd"))) {
		l->pending = P_CD;
		return true;
	}
	if (!w->unknown && !strcmp(s, "popd")) {
		l->cwd[0] = '\0'; /* back to a directory not known here */
		return true;
	}
	return false;
}

/* --require=./x.js: the value; a bare option: nothing; -C DIR and the
 * like: the command's directory. */
static int take_option(struct level *l, struct word *w, const char *s)
{
	const char *eq = strchr(s, '=');
	char opt[32];

	if (!w->unknown && changes_directory(s)) {
		l->pending = P_CMD_CD;
	} else if (!w->unknown && !strncmp(s, "-C", 2) && s[2] && s[2] != '=') {
		l->pending = P_CMD_CD; /* make -Cdir */
		return take_value(l, w, s + 2);
	} else if (eq && !w->unknown) {
		snprintf(opt, sizeof(opt), "%.*s",
			 (int)(eq - s < 31 ? eq - s : 31), s);
		if (changes_directory(opt)) {
			l->pending = P_CMD_CD;
			return take_value(l, w, eq + 1);
		}
	}
	if (eq && l->pending != P_CMD_CD)
		return candidate(l, eq + 1, w->unknown, w->glob, false);
	return 0;
}

static int take(struct level *l, struct word *w)
{
	const char *s = w->s ? w->s : "";
	bool cmd = l->cmd_pos;
	int ret = 0;

	if (!w->any)
		return 0;
	/* A quoted inner line (`bash -c 'cd x && ./y.sh'`): its words too. */
	if (!w->unknown && strpbrk(s, " \t\n;&|()<>`$"))
		ret = nested(l, s);
	/* A group's braces: keywords, not brace expansion. */
	if (ret < 0 || take_pending(l, w, s, &ret) || !strcmp(s, "{") ||
	    !strcmp(s, "}"))
		;
	/* env -C DIR, sudo -u x: still before the command's name. */
	else if (cmd && s[0] == '-' && !w->unknown)
		ret = take_option(l, w, s);
	else if (cmd && take_command(l, w, s, &ret))
		;
	else if (!cmd && s[0] == '-')
		ret = take_option(l, w, s);
	else
		ret = candidate(l, s, w->unknown, w->glob, false);
	clear(w);
	return ret;
}

/* --- expansions ---------------------------------------------------------- */

/* ${...}, at '$': the project, $PWD and $HOME known; the rest as written
 * (the warning shows it).  Returns the bytes read. */
static size_t dollar_braced(struct level *l, const char *c, struct word *w,
			    int *ret)
{
	size_t n = strlen(PROJECT_VAR);
	const char *end = strchr(c + 2, '}');

	if (!end) {
		w->unknown = true;
		*ret = put_str(w, c);
		return strlen(c);
	}
	/* Any ${CLAUDE_PROJECT_DIR<op>...}: it is always set. */
	if (!strncmp(c + 2, PROJECT_VAR, n) && !ident(c[2 + n])) {
		*ret = put_str(w, l->sp->project);
	} else if (!strncmp(c + 2, "PWD}", 4) && l->cwd[0]) {
		*ret = put_str(w, l->cwd);
	} else if (!strncmp(c + 2, "HOME}", 5) && l->sp->home) {
		*ret = put_str(w, l->sp->home);
	} else {
		w->unknown = true;
		*ret = put(w, c, (size_t)(end - c) + 1);
	}
	return (size_t)(end - c) + 1;
}

/* $(...), at '$': what it runs is a command line too; its output is known
 * only for the repository's top level.  Returns the bytes read. */
static size_t dollar_subst(struct level *l, const char *c, struct word *w,
			   int *ret)
{
	_cleanup_free_ char *inner = NULL;
	int depth = 0;
	size_t i = 1;

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
		*ret = put_str(w, l->sp->project);
	} else {
		w->unknown = true;
		*ret = put(w, c, c[i] ? i + 1 : i);
		if (!*ret)
			*ret = nested(l, inner);
	}
	return c[i] ? i + 1 : i;
}

/* A known value for a $NAME, or the word is unknown. */
static void put_known(struct word *w, const char *value, int *ret)
{
	if (value)
		*ret = put_str(w, value);
	else
		w->unknown = true;
}

/* At '$': what the expansion adds to the word.  Returns the bytes read. */
static size_t dollar(struct level *l, const char *c, struct word *w, int *ret)
{
	size_t n = strlen(PROJECT_VAR);

	if (!strncmp(c + 1, PROJECT_VAR, n) && !ident(c[1 + n])) {
		*ret = put_str(w, l->sp->project);
		return 1 + n;
	}
	if (c[1] == '{')
		return dollar_braced(l, c, w, ret);
	if (!strncmp(c + 1, "PWD", 3) && !ident(c[4])) {
		put_known(w, l->cwd[0] ? l->cwd : NULL, ret);
		return 4;
	}
	if (!strncmp(c + 1, "HOME", 4) && !ident(c[5])) {
		put_known(w, l->sp->home, ret);
		return 5;
	}
	if (c[1] == '(')
		return dollar_subst(l, c, w, ret);
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

/* $'...': its escapes are not read, so the word is unknown.  Returns the
 * bytes read. */
static size_t ansi_c(const char *c, struct word *w, int *ret)
{
	const char *s = c + 2;

	w->unknown = true;
	while (*s && *s != '\'')
		s += s[0] == '\\' && s[1] ? 2 : 1;
	s += *s ? 1 : 0;
	*ret = put(w, c, (size_t)(s - c));
	return (size_t)(s - c);
}

/* A part of a word at *@cur that quotes, escapes or expands, read into
 * @w; false when *@cur starts none. */
static bool word_part(struct level *l, const char **cur, struct word *w,
		      int *ret)
{
	const char *c = *cur, *end;

	if (c[0] == '\\' && c[1] == '\n') {
		c += 2; /* a line continues */
	} else if (c[0] == '\\') {
		if (c[1])
			*ret = put(w, c + 1, 1);
		c += c[1] ? 2 : 1;
	} else if (c[0] == '\'') {
		end = strchr(c + 1, '\'');
		if (!end)
			end = c + strlen(c);
		*ret = put(w, c + 1, (size_t)(end - c - 1));
		w->any = true;
		c = *end ? end + 1 : end;
	} else if (c[0] == '"') {
		w->any = true;
		c += 1 + dquoted(l, c + 1, w, ret);
	} else if (c[0] == '$' && c[1] == '\'') {
		c += ansi_c(c, w, ret);
	} else if (c[0] == '$') {
		c += dollar(l, c, w, ret);
	} else if (c[0] == '`') {
		c += backquote(l, c, w, ret);
	} else {
		return false;
	}
	*cur = c;
	return true;
}

/* --- operators ------------------------------------------------------------ */

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

/* At a newline, ';', '&' or '|'. */
static const char *separator(struct level *l, const char *c, struct word *w,
			     int *ret)
{
	*ret = take(l, w);
	if (!*ret && c[0] == '&' && c[1] == '>') {
		l->pending = P_SKIP; /* &> FILE */
		return c + 2 + (c[2] == '>');
	}
	command_ends(l);
	return c + 1;
}

/* At '(': a subshell, read to its ')' with a base of its own. */
static const char *subshell(struct level *l, const char *c, struct word *w,
			    int *ret)
{
	struct level in = {.sp = l->sp, .depth = l->depth + 1, .cmd_pos = true};

	*ret = take(l, w);
	c++;
	memcpy(in.cwd, l->cwd, sizeof(in.cwd));
	if (!*ret && in.depth <= NEST_DEPTH)
		*ret = parse(&in, &c, ')');
	l->cmd_pos = false;
	return c;
}

/* At '<' or '>'. */
static const char *redirection(struct level *l, const char *c, struct word *w,
			       int *ret)
{
	/* `2>`: the digits were a descriptor, not a word. */
	if (w->any && !w->unknown && w->len &&
	    strspn(w->s, "0123456789") == w->len)
		clear(w);
	*ret = take(l, w);
	if (c[0] == '<' && c[1] == '<')
		l->pending = P_SKIP; /* here-doc, here-string */
	else if (c[1] == '&')
		l->pending = P_SKIP; /* >&2, <&3 */
	else
		l->pending = *c == '<' ? P_INPUT : P_SKIP;
	while (*c == '<' || *c == '>' || *c == '&' || *c == '|')
		c++;
	return c;
}

/* A comment, a blank or an operator at *@cur (not its end): the word
 * before it ends.  False when *@cur is none of those; *@stop at the ')'
 * that closes a subshell (@close). */
static bool operator(struct level *l, const char **cur, struct word *w,
		     char close, bool *stop, int *ret)
{
	const char *c = *cur;

	if (*c == '#' && !w->any) {
		while (*c && *c != '\n')
			c++;
	} else if (*c == ' ' || *c == '\t') {
		*ret = take(l, w);
		c++;
	} else if (strchr("\n;&|", *c)) {
		c = separator(l, c, w, ret);
	} else if (*c == '(') {
		c = subshell(l, c, w, ret);
	} else if (*c == ')') {
		*ret = take(l, w);
		c++;
		*stop = close == ')';
	} else if (*c == '<' || *c == '>') {
		c = redirection(l, c, w, ret);
	} else {
		return false;
	}
	*cur = c;
	return true;
}

/* Any other byte of a word at *@cur: a leading ~, a pattern's, a brace. */
static void plain(struct level *l, const char **cur, struct word *w, int *ret)
{
	const char *c = *cur;

	if (*c == '~' && !w->any) {
		/* ~ and ~/...: the home; ~user: not known here. */
		if (l->sp->home &&
		    (c[1] == '/' || !c[1] || strchr(" \t\n;&|()<>", c[1]))) {
			*ret = put_str(w, l->sp->home);
		} else {
			w->unknown = true;
			*ret = put(w, c, 1);
		}
	} else {
		if (strchr("*?[", *c))
			w->glob = true;
		if (*c == '{' || *c == '}')
			w->unknown = true; /* braces: not expanded here */
		*ret = put(w, c, 1);
	}
	*cur = c + 1;
}

/* The command line at *@cur, to its end or to the ')' of @close. */
static int parse(struct level *l, const char **cur, char close)
{
	struct word w = {0};
	const char *c = *cur;
	bool stop = false;
	int ret = 0;

	while (!ret && *c && !stop)
		if (!word_part(l, &c, &w, &ret) &&
		    !operator(l, &c, &w, close, &stop, &ret))
			plain(l, &c, &w, &ret);
	if (!ret)
		ret = take(l, &w);
	if (!ret && l->pending == P_CD)
		l->cwd[0] = '\0';
	free(w.s);
	*cur = c;
	return ret;
}

int ltd_shword_places(const char *cmd, const char *project, const char *home,
		      struct ltd_shword_place **out, size_t *n)
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
		ltd_shword_places_free(sp.v, sp.n);
		return ret;
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

void ltd_shword_places_free(struct ltd_shword_place *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}
