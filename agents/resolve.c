// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command resolver (agents/resolve.h): find a command on the caller's
 * PATH, follow it to the real file link by link, and place what it needs
 * in the cage.  docs/decisions/0120-command-resolver-binds.md
 */
#include "agents/resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/path.h"
#include "common/vec.h"

/* Interpreters of interpreters: `#!` lines followed this deep. */
#define MAX_DEPTH 4
/* As the kernel: links followed on one path (MAXSYMLINKS). */
#define MAX_LINKS 40

/* The host's own system directories, which the default cage shows. */
static const char *const system_tops[] = {"/usr",   "/bin",   "/sbin",	"/lib",
					  "/lib32", "/lib64", "/libx32"};

static int oom(struct ltd_err *err)
{
	return ltd_err_set(err, ENOMEM, "out of memory");
}

bool ltd_resolve_shown(const struct ltd_resolver *r, const char *path)
{
	for (size_t i = 0; r->system_shown && i < ARRAY_SIZE(system_tops); i++)
		if (ltd_path_is_under(path, system_tops[i]))
			return true;
	for (size_t i = 0; i < r->n_shown; i++)
		if (ltd_path_is_under(path, r->shown[i]))
			return true;
	return false;
}

static bool under_bind(const struct ltd_resolver *r, const char *path)
{
	for (size_t i = 0; i < r->n_binds; i++)
		if (ltd_path_is_under(path, r->binds[i].path))
			return true;
	return false;
}

int ltd_resolve_add_bind(struct ltd_resolver *r, const char *path,
			 struct ltd_err *err)
{
	struct ltd_link *v;
	size_t k = 0;

	if (under_bind(r, path) || ltd_resolve_shown(r, path))
		return 0;
	/* Never the whole home, nor anything holding it. */
	if (r->home && ltd_path_is_under(r->home, path))
		return ltd_err_set(err, EPERM,
				   "'%s' holds your home directory: ltd-native "
				   "never binds it for a command",
				   path);
	for (size_t i = 0; i < r->n_binds; i++) {
		if (ltd_path_is_under(r->binds[i].path, path))
			free(r->binds[i].path);
		else
			r->binds[k++] = r->binds[i];
	}
	r->n_binds = k;
	v = ltd_vec_push(&r->binds, r->n_binds);
	if (!v)
		return oom(err);
	*v = (struct ltd_link){.path = strdup(path), .why = r->why};
	if (!v->path)
		return oom(err);
	r->n_binds++;
	return 0;
}

int ltd_resolve_add_note(struct ltd_resolver *r, struct ltd_err *err,
			 const char *fmt, ...)
{
	char *s = NULL, **v;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return oom(err);
	for (size_t i = 0; i < r->n_notes; i++)
		if (!strcmp(r->notes[i], s)) {
			free(s);
			return 0;
		}
	v = ltd_vec_push(&r->notes, r->n_notes);
	if (!v) {
		free(s);
		return oom(err);
	}
	*v = s;
	r->n_notes++;
	return 0;
}

static int add_link(struct ltd_resolver *r, struct ltd_link **v, size_t *n,
		    const char *path, const char *target, struct ltd_err *err)
{
	struct ltd_link *l;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i].path, path) == 0)
			return 0; /* the first one found wins, as on PATH */
	l = ltd_vec_push(v, *n);
	if (!l)
		return oom(err);
	*l = (struct ltd_link){strdup(path), strdup(target), r->why};
	(*n)++;
	if (!l->path || !l->target)
		return oom(err);
	return 0;
}

void ltd_resolver_free(struct ltd_resolver *r)
{
	for (size_t i = 0; i < r->n_binds; i++)
		free(r->binds[i].path);
	for (size_t i = 0; i < r->n_links; i++) {
		free(r->links[i].path);
		free(r->links[i].target);
	}
	for (size_t i = 0; i < r->n_cmds; i++) {
		free(r->cmds[i].path);
		free(r->cmds[i].target);
	}
	for (size_t i = 0; i < r->n_notes; i++)
		free(r->notes[i]);
	free(r->binds);
	free(r->links);
	free(r->cmds);
	free(r->notes);
	r->notes = NULL;
	r->binds = r->links = r->cmds = NULL;
	r->n_binds = r->n_links = r->n_cmds = r->n_notes = 0;
}

int ltd_resolve_find(const char *path, const char *name, char *out, size_t size)
{
	const char *p = path;

	out[0] = '\0';
	while (p && *p) {
		size_t n = strcspn(p, ":");
		char cand[PATH_MAX];
		struct stat st;

		/* An empty or relative entry is the current directory: the
		 * project, whose files the agent writes. */
		if (n && p[0] == '/' &&
		    ltd_path_fmt(cand, sizeof(cand), "%.*s/%s", (int)n, p,
				 name) == 0 &&
		    stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0 && strlen(cand) < size) {
			strcpy(out, cand);
			return 0;
		}
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

/* The links met on one path, in order. */
struct chain {
	struct ltd_link v[MAX_LINKS];
	size_t n;
};

static void chain_free(struct chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].target);
	}
	c->n = 0;
}

/* One more component of a walk: @comp after @done. */
static int step(char *done, const char *comp, char *rest, const char *after,
		int *links, struct chain *c, struct ltd_err *err)
{
	char cand[PATH_MAX], text[PATH_MAX], next[2 * PATH_MAX];
	struct stat st;
	ssize_t len;

	if (ltd_path_fmt(cand, sizeof(cand), "%s/%s", done, comp) < 0)
		return ltd_err_set(err, ENAMETOOLONG, "'%s/%s'", done, comp);
	if (lstat(cand, &st) < 0)
		return ltd_err_sys(err, "'%s'", cand);
	if (!S_ISLNK(st.st_mode)) {
		if (*after && !S_ISDIR(st.st_mode))
			return ltd_err_set(err, ENOTDIR, "'%s'", cand);
		strcpy(done, cand);
		memmove(rest, after, strlen(after) + 1);
		return 0;
	}
	len = readlink(cand, text, sizeof(text) - 1);
	if (len <= 0)
		return ltd_err_sys(err, "'%s'", cand);
	text[len] = '\0';
	if (++*links > MAX_LINKS)
		return ltd_err_set(err, ELOOP, "'%s': too many links", cand);
	c->v[c->n] = (struct ltd_link){strdup(cand), strdup(text), NULL};
	if (!c->v[c->n].path || !c->v[c->n].target)
		return oom(err);
	c->n++;
	/* @after is "" or starts with its '/'. */
	if (snprintf(next, sizeof(next), "%s%s", text, after) >= (int)PATH_MAX)
		return ltd_err_set(err, ENAMETOOLONG, "'%s'", cand);
	strcpy(rest, next);
	if (text[0] == '/')
		done[0] = '\0';
	return 0;
}

/*
 * Resolve the absolute @path as the kernel does, into @real (PATH_MAX),
 * recording each link met: its path (whose directory is already real) and
 * its text.
 */
static int walk(const char *path, char *real, struct chain *c,
		struct ltd_err *err)
{
	char rest[PATH_MAX], done[PATH_MAX] = "";
	int links = 0, ret = 0;

	if (path[0] != '/' || strlen(path) >= sizeof(rest))
		return ltd_err_set(err, EINVAL, "'%s': not an absolute path",
				   path);
	strcpy(rest, path);
	while (!ret) {
		char comp[NAME_MAX + 1];
		const char *p = rest, *end;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = p + strcspn(p, "/");
		if ((size_t)(end - p) > NAME_MAX)
			return ltd_err_set(err, ENAMETOOLONG, "'%s'", path);
		memcpy(comp, p, (size_t)(end - p));
		comp[end - p] = '\0';
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			char *s = strrchr(done, '/');

			if (comp[1] && s)
				*s = '\0';
			memmove(rest, end, strlen(end) + 1);
			continue;
		}
		ret = step(done, comp, rest, end, &links, c, err);
	}
	if (ret)
		return ret;
	strcpy(real, done[0] ? done : "/");
	return 0;
}

/* A link at @path cannot be made in the cage: something the cage mounts
 * (the home, the project) lies at or below it. */
static bool link_blocked(const struct ltd_resolver *r, const char *path)
{
	if (r->home && ltd_path_is_under(r->home, path))
		return true;
	for (size_t i = 0; i < r->n_shown; i++)
		if (ltd_path_is_under(r->shown[i], path))
			return true;
	return false;
}

/* @found needs a link in LTD_CMD_DIR: the cage's PATH does not find it. */
static bool needs_cmd_link(const struct ltd_resolver *r, const char *found)
{
	size_t dlen = (size_t)(strrchr(found, '/') - found);
	const char *p = r->cage_path;

	if (!ltd_resolve_shown(r, found))
		return true;
	while (p && *p) {
		size_t n = strcspn(p, ":");

		if (n == dlen && !strncmp(p, found, n))
			return false;
		p += n + (p[n] == ':');
	}
	return true;
}

static int interpreter(struct ltd_resolver *r, const char *real, int depth,
		       struct ltd_err *err);

/*
 * Place @found (absolute) in the cage: its install tree bound, the links
 * on its way made again; @target gets what a link to it should name
 * (@found when its way can be made again, else the real file).
 */
static int place(struct ltd_resolver *r, const char *found, int depth,
		 char *target, struct ltd_err *err)
{
	struct chain c = {.n = 0}, dc = {.n = 0};
	char real[PATH_MAX], dir[PATH_MAX], rdir[PATH_MAX];
	bool keep = true;
	int ret;

	ret = walk(found, real, &c, err);
	if (!ret && !ltd_resolve_shown(r, real))
		ret = ltd_layout_bind(r, real, err);
	/* The links are made again only when @found's directory is named
	 * as it really is (a profile link on the way, as Nix has, would
	 * need the whole of it). */
	if (!ret) {
		snprintf(dir, sizeof(dir), "%s", found);
		*strrchr(dir, '/') = '\0';
		keep = !dir[0] || (walk(dir, rdir, &dc, err) == 0 &&
				   strcmp(dir, rdir) == 0);
		memset(err, 0, sizeof(*err));
	}
	for (size_t i = 0; !ret && keep && i < c.n; i++)
		if (!ltd_resolve_shown(r, c.v[i].path) &&
		    link_blocked(r, c.v[i].path))
			keep = false;
	for (size_t i = 0; !ret && keep && i < c.n; i++)
		if (!ltd_resolve_shown(r, c.v[i].path))
			ret = add_link(r, &r->links, &r->n_links, c.v[i].path,
				       c.v[i].target, err);
	if (!ret)
		strcpy(target, keep ? found : real);
	if (!ret && depth < MAX_DEPTH)
		ret = interpreter(r, real, depth + 1, err);
	chain_free(&c);
	chain_free(&dc);
	return ret;
}

/* Split the `#!` line in @buf into words, in place. */
static size_t words(char *buf, char **w, size_t max)
{
	size_t n = 0;

	for (char *s = strtok(buf, " \t"); s && n < max;
	     s = strtok(NULL, " \t"))
		w[n++] = s;
	return n;
}

/* `#!/usr/bin/env [-S] [VAR=V...] NAME`: NAME. */
static const char *env_program(char **w, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (w[i][0] == '-' || strchr(w[i], '='))
			continue;
		return w[i];
	}
	return NULL;
}

/*
 * What a script's `#!` line names: the interpreter placed too, and a
 * program `env` looks up on the PATH given a link of its own.
 */
static int interpreter(struct ltd_resolver *r, const char *real, int depth,
		       struct ltd_err *err)
{
	_cleanup_close_ int fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char buf[256], *nl, *w[16], found[PATH_MAX], target[PATH_MAX];
	const char *prog;
	ssize_t len;
	size_t n;
	int ret;

	if (fd < 0)
		return 0; /* not ours to read: the kernel will say */
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 3 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[len] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	n = words(buf + 2, w, ARRAY_SIZE(w));
	if (n == 0 || w[0][0] != '/')
		return 0;
	ret = place(r, w[0], depth, target, err);
	prog = strcmp(strrchr(w[0], '/') + 1, "env") == 0 ? env_program(w, n)
							  : NULL;
	if (ret || !prog || strchr(prog, '/'))
		return ret;
	if (ltd_resolve_find(r->path ? r->path : r->cage_path, prog, found,
			     sizeof(found)) < 0)
		return ltd_resolve_add_note(r, err,
					    "%s: its interpreter '%s' is not "
					    "on your PATH",
					    real, prog);
	ret = place(r, found, depth, target, err);
	if (!ret && needs_cmd_link(r, found))
		ret = add_link(r, &r->cmds, &r->n_cmds, prog, target, err);
	return ret;
}

/* Links a bind or a place the cage shows already holds are not made. */
static void prune_links(struct ltd_resolver *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->n_links; i++) {
		if (under_bind(r, r->links[i].path)) {
			free(r->links[i].path);
			free(r->links[i].target);
		} else {
			r->links[k++] = r->links[i];
		}
	}
	r->n_links = k;
}

int ltd_resolve_command(struct ltd_resolver *r, const char *name,
			struct ltd_err *err)
{
	const char *path = r->path ? r->path : r->cage_path;
	char found[PATH_MAX], target[PATH_MAX];
	struct stat st;
	int ret;

	if (strchr(name, '/')) {
		/* A relative path is the cage's (the project's); an absolute
		 * one the cage shows, or that the host lacks, is the cage's
		 * to find. */
		if (name[0] != '/' || ltd_resolve_shown(r, name) ||
		    lstat(name, &st) < 0 || strlen(name) >= sizeof(found))
			return 0;
		strcpy(found, name);
	} else if (ltd_resolve_find(path, name, found, sizeof(found)) < 0) {
		if (ltd_resolve_find(r->cage_path, name, found,
				     sizeof(found)) == 0)
			return 0; /* a system command: the cage has it */
		return ltd_err_set(err, ENOENT,
				   "not found on your PATH (%s) nor on the "
				   "cage's (%s)",
				   path, r->cage_path);
	}
	ret = place(r, found, 0, target, err);
	if (!ret && !strchr(name, '/') && needs_cmd_link(r, found))
		ret = add_link(r, &r->cmds, &r->n_cmds, name, target, err);
	prune_links(r);
	return ret;
}
