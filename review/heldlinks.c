// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the user's nested .claude links lead (see heldlinks.h).
 */
#include "review/heldlinks.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/vec.h"
#include "protect/agentlinks.h"

#define MAX_HOPS	 40 /* links followed on one path, as the kernel */
#define MAX_CLAUDE_DEPTH 16 /* directories looked into in a .claude */

struct follow {
	struct ltd_linked *l;
	const char *project;
	size_t plen;
	const char *dir, *name; /* the user's link */
};

/* @abs relative to the project ("" for the project itself), or NULL
 * when it lies outside. */
static const char *in_project(const struct follow *f, const char *abs)
{
	if (strncmp(abs, f->project, f->plen) ||
	    (abs[f->plen] != '/' && abs[f->plen]))
		return NULL;
	return abs[f->plen] ? abs + f->plen + 1 : "";
}

/* @abs is the user's link's directory or lies above it. */
static bool holds_link(const struct follow *f, const char *abs)
{
	const char *rel = in_project(f, abs);
	size_t n;

	if (!rel)
		return true;
	n = strlen(rel);
	return !n ||
	       (!strncmp(f->dir, rel, n) && (f->dir[n] == '/' || !f->dir[n]));
}

/* The link cannot be followed to its end: it may lead anywhere.  But for
 * the user's home's (~/.claude/x to a directory they cannot read): one of
 * them that reached the project would have been followed into it, which
 * the user can read, and a review of any project would otherwise be held
 * back whole for it. */
static int unfollowed(struct follow *f)
{
	if (strcmp(f->dir, HOME_DIR))
		f->l->unfollowed = true;
	return 0;
}

static int push(struct follow *f, const char *abs, bool way)
{
	const char *rel = in_project(f, abs);
	struct ltd_linked_one *one;
	size_t n = strlen(abs);

	/* A target above the project holds it (a project named `agents`
	 * below a directory a .claude links to): all of it. */
	if (!rel && !way && !strncmp(f->project, abs, n) &&
	    (f->project[n] == '/' || (n == 1 && abs[0] == '/')))
		rel = "";
	if (!rel)
		return 0;
	one = ltd_vec_push(&f->l->v, f->l->n);
	if (!one)
		return -ENOMEM;
	one->to = strdup(rel);
	one->dir = strdup(f->dir);
	one->name = strdup(f->name);
	one->way = way;
	if (!one->to || !one->dir || !one->name) {
		free(one->to);
		free(one->dir);
		free(one->name);
		return -ENOMEM;
	}
	f->l->n++;
	return 0;
}

/* @rest without its first component (up to @slash, NULL: all of it). */
static void drop_first(char *rest, const char *slash)
{
	const char *after = slash ? slash + 1 : "";

	memmove(rest, after, strlen(after) + 1);
}

/* @text, then a slash, before @rest (of @size); false when too long. */
static bool prepend(char *rest, size_t size, const char *text)
{
	size_t t = strlen(text), r = strlen(rest);

	if (t + 1 + r + 1 > size)
		return false;
	memmove(rest + t + 1, rest, r + 1);
	memcpy(rest, text, t);
	rest[t] = '/';
	return true;
}

/*
 * Follow @path (absolute, no link before its last component: the
 * project's path is real) as the kernel would, component by component:
 * each link met is pushed as one on the way, the end (there or not yet)
 * as the target.  Past MAX_HOPS, what was reached is the target.
 */
static int follow(struct follow *f, const char *path)
{
	char cur[PATH_MAX] = "", rest[2 * PATH_MAX], text[PATH_MAX];
	char next[PATH_MAX + NAME_MAX + 2];
	unsigned hops = 0;
	int ret = 0;

	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return unfollowed(f);
	while (!ret && rest[0]) {
		char *c = rest + strspn(rest, "/"), *slash = strchr(c, '/');
		struct stat st;
		ssize_t n;

		if (slash)
			*slash = '\0';
		/* What ".." leaves is on the way too (a link in its place
		 * would send ".." elsewhere), but for the directories the
		 * user's link lies in: one replaced moves the link itself. */
		if (!strcmp(c, "..") && strrchr(cur, '/')) {
			if (!holds_link(f, cur))
				ret = push(f, cur, true);
			*strrchr(cur, '/') = '\0';
		}
		if (!*c || !strcmp(c, ".") || !strcmp(c, "..")) {
			drop_first(rest, slash);
			continue;
		}
		if ((size_t)snprintf(next, sizeof(next), "%s/%s", cur, c) >=
		    PATH_MAX)
			return unfollowed(f);
		drop_first(rest, slash);
		if (lstat(next, &st) < 0) {
			if (errno == EACCES)
				return unfollowed(f);
			st.st_mode = 0; /* not there (yet) */
		}
		if (!S_ISLNK(st.st_mode) || hops++ >= MAX_HOPS) {
			memcpy(cur, next, strlen(next) + 1);
			continue;
		}
		ret = push(f, next, true);
		n = readlink(next, text, sizeof(text) - 1);
		if (n <= 0)
			return ret ? ret : unfollowed(f);
		text[n] = '\0';
		if (text[0] == '/')
			cur[0] = '\0';
		if (!prepend(rest, sizeof(rest), text))
			return ret ? ret : unfollowed(f);
	}
	return ret ? ret : push(f, cur[0] ? cur : "/", false);
}

/* @name in @dir of the project (relative; HOME_DIR: the user's home),
 * when it is a link: followed. */
static int link_at(struct ltd_linked *l, const char *project, const char *dir,
		   const char *name)
{
	struct follow f = {.l = l,
			   .project = project,
			   .plen = strlen(project),
			   .dir = dir,
			   .name = name};
	const char *home = getenv("HOME");
	bool in_home = !strcmp(dir, HOME_DIR);
	char path[PATH_MAX];
	struct stat st;

	if (in_home && (!home || home[0] != '/'))
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s/%s",
			     in_home ? home : project,
			     dir[0] && !in_home ? "/" : "", in_home ? "" : dir,
			     name) >= sizeof(path))
		return unfollowed(&f);
	if (lstat(path, &st) < 0)
		return errno == EACCES ? unfollowed(&f) : 0;
	if (!S_ISLNK(st.st_mode))
		return 0;
	return follow(&f, path);
}

/* The links in @dir's .claude (@sub below it), a few levels down: a
 * linked commands/ or agents/ is the .claude's as much as its settings.
 * One that cannot be read may hold one. */
static int claude_links(struct ltd_linked *l, const char *project,
			const char *dir, const char *sub, unsigned depth)
{
	char path[PATH_MAX], name[PATH_MAX];
	struct dirent *e;
	int ret = 0;
	DIR *d;

	if (depth > MAX_CLAUDE_DEPTH ||
	    (size_t)snprintf(path, sizeof(path), "%s%s%s/%s", project,
			     dir[0] ? "/" : "", dir, sub) >= sizeof(path)) {
		l->unfollowed = true;
		return 0;
	}
	if (!(d = opendir(path))) {
		l->unfollowed |= errno == EACCES;
		return 0;
	}
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(name, sizeof(name), "%s/%s", sub,
				     e->d_name) >= sizeof(name)) {
			l->unfollowed = true;
			continue;
		}
		if (e->d_type == DT_LNK || e->d_type == DT_UNKNOWN)
			ret = link_at(l, project, dir, name);
		/* Into a linked directory too (opendir follows it): the links
		 * in a linked commands/ are the .claude's as well. */
		if (!ret && e->d_type != DT_REG &&
		    strcmp(e->d_name, "node_modules") &&
		    strcmp(e->d_name, ".git"))
			ret = claude_links(l, project, dir, name, depth + 1);
	}
	closedir(d);
	return ret;
}

/*
 * The user's own Claude Code configuration linked into the project (a
 * dotfiles repository, or a shared configuration reviewed as the
 * project): ~/.claude, what lies right in it, ~/.claude.json (its MCP
 * servers).  Claude Code takes them wherever it starts.
 */
static int home_links(struct ltd_linked *l, const char *project)
{
	const char *home = getenv("HOME");
	char path[PATH_MAX], name[NAME_MAX + 16];
	struct dirent *e;
	int ret = link_at(l, project, HOME_DIR, ".claude");
	DIR *d;

	if (!ret)
		ret = link_at(l, project, HOME_DIR, ".claude.json");
	if (ret || !home || home[0] != '/' ||
	    (size_t)snprintf(path, sizeof(path), "%s/.claude", home) >=
		    sizeof(path) ||
	    !(d = opendir(path)))
		return ret;
	while (!ret && (e = readdir(d)))
		if (e->d_type == DT_LNK &&
		    (size_t)snprintf(name, sizeof(name), ".claude/%s",
				     e->d_name) < sizeof(name))
			ret = link_at(l, project, HOME_DIR, name);
	closedir(d);
	return ret;
}

static struct ltd_linked *find(const char *project, int project_fd)
{
	struct ltd_linked *l = calloc(1, sizeof(*l));
	struct ltd_agentlinks found;
	int ret = 0;

	if (!l || ltd_agentlinks_find(project_fd, &found) < 0) {
		free(l);
		return NULL;
	}
	l->dirs = found.dirs;
	l->n_dirs = found.n;
	l->unread = found.unread;
	l->past_limit = found.past_limit;
	for (size_t i = 0; !ret && i < l->n_dirs; i++) {
		ret = link_at(l, project, l->dirs[i], ".claude");
		if (!ret)
			ret = link_at(l, project, l->dirs[i], ".mcp.json");
		if (!ret)
			ret = claude_links(l, project, l->dirs[i], ".claude",
					   0);
	}
	if (!ret)
		ret = home_links(l, project);
	return ret ? NULL : l;
}

/* One project's a process: `review` judges each of its reviews.  The
 * CLI and the launcher free nothing at exit (decision 0132). */
const struct ltd_linked *ltd_review_linked(const char *project, int project_fd)
{
	static char *cached_for;
	static struct ltd_linked *cached;

	if (cached && cached_for && !strcmp(cached_for, project))
		return cached;
	cached = find(project, project_fd);
	free(cached_for);
	cached_for = cached ? strdup(project) : NULL;
	return cached;
}

/* @a is @b or lies in it ("" is the project: everything lies in it). */
static bool under(const char *a, const char *b)
{
	size_t n = strlen(b);

	return !n || (!strncmp(a, b, n) && (a[n] == '/' || !a[n]));
}

const struct ltd_linked_one *ltd_linked_find(const struct ltd_linked *l,
					     const struct ltd_change *x)
{
	bool on_way = S_ISLNK(x->mode) || x->kind == LTD_CH_TYPE ||
		      x->kind == LTD_CH_DELETE;

	for (size_t i = 0; l && i < l->n; i++)
		if (under(x->path, l->v[i].to) ||
		    (on_way && under(l->v[i].to, x->path)))
			return &l->v[i];
	return NULL;
}
