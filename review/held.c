// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What apply holds back (see held.h).  Names are judged by their text; a
 * git directory by what the upper and the project hold, as overlayfs
 * showed them to the cage.
 */
#include "review/held.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base.h"
#include "common/cleanup.h"
#include "common/text.h"
#include "protect/agentlinks.h"
#include "protect/agentprotect.h"
#include "protect/hostrun.h"
#include "protect/repos.h"
#include "review/fs.h"
#include "review/heldcmds.h"
#include "review/heldlinks.h"

static const char why_protected[] =
	"a protected path: git, Claude Code or ltd-native on the host runs "
	"or reads it";
static const char why_host_run[] =
	"a file another host program (an editor, an agent, direnv, "
	"pre-commit) runs or reads commands from";
static const char why_nested_git[] =
	"a git repository's own directory: git on the host obeys its "
	"configuration and hooks";
static const char why_git[] =
	"git's own directory: nothing of .git lands (its index, refs and "
	"commits could carry files the diff never shows; commit on the host "
	"after apply)";
static const char why_other_git[] =
	"a git repository's own directory: nothing of a .git lands (git on "
	"the host obeys its configuration and hooks)";
static const char why_link[] =
	"a link by the name of a directory whose files a host program runs "
	"(it would lead the program to files of the cage's choosing)";
static const char why_holds[] = "it holds a path that is held back";
static const char why_hook[] =
	"a git hook or a file git's configuration runs (or what one links "
	"to, or a link on the way to them) of a repository of the project: "
	"git on the host runs it";

static const char why_nested_cmd[] =
	"a file that a nested .claude's settings or .mcp.json runs (or a "
	"link or directory on the way to one): Claude Code started in that "
	"directory on the host runs it";

static const char why_nested_link[] =
	"what a nested .claude, settings file or .mcp.json of yours links to "
	"(or a link or directory on the way): Claude Code started in that "
	"link's directory on the host takes settings and places from it";

static const char why_unsearched[] =
	"the project could not be searched whole for a nested .claude that "
	"is a link, or one could not be followed (the warning says why): it "
	"may lead here, and Claude Code started in its directory on the "
	"host would take settings from it";

static void hold(struct ltd_change *c, const char *why)
{
	if (c->flags & (LTD_CHF_REFUSED | LTD_CHF_HELD))
		return;
	c->flags = (c->flags & ~LTD_CHF_GIT) | LTD_CHF_HELD;
	c->why = why;
}

/* Nothing of a `.git` lands, --include-protected or not: a landed index
 * or ref would carry files past the review, a config or hook would run
 * on the host (decision 0126, amended).  git itself tracks no path with
 * a `.git` name in it, so no work tree's change is lost. */
static void judge_git(struct ltd_change *c, bool own)
{
	ltd_change_refuse(c, own ? why_git : why_other_git);
}

bool ltd_review_in_dot_git(const char *path)
{
	for (const char *s = path; s; s = strchr(s, '/'), s = s ? s + 1 : s)
		if (!strncmp(s, ".git", 4) && (s[4] == '/' || !s[4]))
			return true;
	return false;
}

/* The host program's row @rel is or lies in (at the top or below any
 * directory: sub/.envrc), Claude Code's first, or NULL. */
static const struct ltd_hostrun *host_run(const char *rel)
{
	for (const char *s = rel; s; s = strchr(s, '/'), s = s ? s + 1 : s) {
		const struct ltd_hostrun *h =
			*s ? ltd_agentprotect_who(s) : NULL;

		if (h)
			return h;
	}
	return NULL;
}

/* Held back with the reason of the table's row: which program runs it,
 * and what it runs from there (the general reason when out of memory). */
static void hold_host_run(struct ltd_change *c, const struct ltd_hostrun *h)
{
	char *why = NULL;

	if (c->flags & (LTD_CHF_REFUSED | LTD_CHF_HELD))
		return;
	if (asprintf(&why, "%s on the host runs or reads it: %s", h->program,
		     h->runs) < 0)
		why = NULL;
	hold(c, why ? why : why_host_run);
	free(c->why_own);
	c->why_own = why;
}

static bool has_name(int root, const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s%s%s", dir, dir[0] ? "/" : "",
		     name) >= (int)sizeof(path))
		return false;
	return ltd_beneath_lstat(root, path, &st) == 0;
}

/* @dir (relative) is a git directory as git's is_git_directory() judges
 * one (HEAD and objects and refs, or a commondir), in the upper or the
 * project: the cage saw both. */
static bool is_git_dir(int upper, int project, const char *dir)
{
	bool head =
		has_name(upper, dir, "HEAD") || has_name(project, dir, "HEAD");
	bool objects = has_name(upper, dir, "objects") ||
		       has_name(project, dir, "objects");
	bool refs =
		has_name(upper, dir, "refs") || has_name(project, dir, "refs");
	bool common = has_name(upper, dir, "commondir") ||
		      has_name(project, dir, "commondir");

	return head && ((objects && refs) || common);
}

/*
 * Below a git directory other than the project's .git, or a `.git` below
 * the top: judged once a directory, by the prefixes of @path (the list is
 * in walk order, so a small cache of the last directory's answer does).
 */
struct gitdirs {
	int upper, project;
	char last[4096]; /* the last directory judged */
	bool last_in;	 /* it, or one above it, is a git directory */
	bool valid;
};

static bool in_nested_git(struct gitdirs *g, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	bool in = false;

	if (n >= sizeof(dir))
		return true; /* unjudged: held */
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (g->valid && !strcmp(dir, g->last))
		return g->last_in;
	for (char *s = dir; !in && s;) {
		char *next = strchr(s, '/');
		char was = next ? *next : 0;
		const char *name;

		if (next)
			*next = '\0';
		name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
		/* The project's own .git has rules of its own. */
		if (strcmp(dir, ".git") != 0 &&
		    (!strcmp(name, ".git") ||
		     is_git_dir(g->upper, g->project, dir)))
			in = true;
		if (next)
			*next = was;
		s = next ? next + 1 : NULL;
	}
	/* The directory itself judged too (the project's root is not). */
	if (!in && n && strcmp(dir, ".git") != 0 &&
	    strncmp(dir, ".git/", 5) != 0)
		in = is_git_dir(g->upper, g->project, dir);
	snprintf(g->last, sizeof(g->last), "%s", dir);
	g->last_in = in;
	g->valid = true;
	return in;
}

static bool is_protected(const char *rel, const char *project,
			 const char *const *protected, size_t n,
			 const struct ltd_change *c)
{
	size_t plen = strlen(project);

	for (size_t i = 0; i < n; i++) {
		const char *p = protected[i];

		if (strncmp(p, project, plen) != 0 || p[plen] != '/')
			continue;
		p += plen + 1;
		if (ltd_change_under(rel, p))
			return true;
		/* Deleting or replacing a directory that holds one. */
		if ((c->kind == LTD_CH_DELETE || c->kind == LTD_CH_TYPE) &&
		    ltd_change_under(p, rel))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A deletion or replacement of a directory that holds a held-back
 * path is held back too: the directory cannot go while it stays.  The
 * directories above each held-back path, sorted, then looked up. */
static int hold_ancestors(struct ltd_changes *c)
{
	char **above = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	for (size_t i = 0; !ret && i < c->n; i++) {
		const char *p = c->v[i].path;

		if (!(c->v[i].flags & (LTD_CHF_HELD | LTD_CHF_REFUSED)))
			continue;
		for (const char *s = strchr(p, '/'); s;
		     s = strchr(s + 1, '/')) {
			if (n == cap) {
				char **nv =
					realloc(above, (cap = cap * 2 + 16) *
							       sizeof(*nv));

				if (!nv) {
					ret = -ENOMEM;
					break;
				}
				above = nv;
			}
			if (!(above[n] = strndup(p, (size_t)(s - p)))) {
				ret = -ENOMEM;
				break;
			}
			n++;
		}
	}
	if (!ret && n)
		qsort(above, n, sizeof(*above), cmp_str);
	for (size_t i = 0; !ret && n && i < c->n; i++) {
		struct ltd_change *d = &c->v[i];
		const char *key = d->path;

		if ((d->kind == LTD_CH_DELETE ||
		     (d->kind == LTD_CH_TYPE && !S_ISDIR(d->mode))) &&
		    bsearch(&key, above, n, sizeof(*above), cmp_str))
			hold(d, why_holds);
	}
	for (size_t i = 0; i < n; i++)
		free(above[i]);
	free(above);
	return ret;
}

/* The hooks the exit walk finds in the upper (protect/repos.h), sorted. */
struct hooks {
	char **v;
	size_t n, cap;
	bool lost; /* out of memory: not all of them */
};

static void add_hook(void *ctx, const char *rel)
{
	struct hooks *h = ctx;

	if (h->n == h->cap) {
		size_t cap = h->cap * 2 + 16;
		char **nv = realloc(h->v, cap * sizeof(*nv));

		if (!nv) {
			h->lost = true;
			return;
		}
		h->v = nv;
		h->cap = cap;
	}
	if (!(h->v[h->n] = strdup(rel)))
		h->lost = true;
	else
		h->n++;
}

/*
 * A hook the command planted where a repository of the project has git
 * run it: in a hooks directory of its own (in a .git: refused above), or
 * under a hooks path of any work tree, whose .git and configuration may
 * be the project's, unchanged (the walk knows: decision 0157).  Held,
 * with what it links to and a link on the way to either.
 */
static int hold_hooks(struct ltd_changes *c, const char *project, int upper,
		      int project_fd)
{
	struct hooks h = {0};
	int ret = 0;

	ltd_repos_upper_hooks(upper, project_fd, project, add_hook, &h);
	if (h.lost)
		ret = -ENOMEM;
	if (!ret && h.n)
		qsort(h.v, h.n, sizeof(*h.v), cmp_str);
	for (size_t i = 0; !ret && h.n && i < c->n; i++) {
		struct ltd_change *x = &c->v[i];
		const char *key = x->path;

		if (bsearch(&key, h.v, h.n, sizeof(*h.v), cmp_str))
			hold(x, why_hook);
		else if (S_ISLNK(x->mode) && x->kind != LTD_CH_DELETE)
			for (size_t j = 0; j < h.n; j++)
				if (ltd_change_under(h.v[j], x->path))
					hold(x, why_hook);
	}
	for (size_t i = 0; i < h.n; i++)
		free(h.v[i]);
	free(h.v);
	return ret;
}

/* The reason a change where @one leads is held back, its names shown
 * safely (the reason is printed as it is); the general one when out of
 * memory. */
static void hold_linked(struct ltd_change *x, const struct ltd_linked_one *one)
{
	char *why = NULL;
	size_t len = 0;
	FILE *f;

	if (x->flags & (LTD_CHF_REFUSED | LTD_CHF_HELD))
		return;
	f = open_memstream(&why, &len);
	if (f && !strcmp(one->dir, HOME_DIR)) {
		fputs(one->way ? "on the way where ~/" : "where ~/", f);
		ltd_fput_shown(f, one->name);
		fputs(", a link in your home, leads: Claude Code on the host "
		      "takes its settings, hooks, commands and agents from "
		      "there wherever it starts",
		      f);
	} else if (f) {
		fputs(one->way ? "on the way where " : "where ", f);
		ltd_fput_shown(f, one->dir);
		fputs(one->dir[0] ? "/" : "", f);
		ltd_fput_shown(f, one->name);
		fputs(", a link in the project, leads: Claude Code started in ",
		      f);
		ltd_fput_shown(f, one->dir[0] ? one->dir : "the project");
		fputs(" on the host takes its settings, hooks, commands and "
		      "agents from there",
		      f);
	}
	if (f) {
		if (fclose(f) != 0) {
			free(why);
			why = NULL;
		}
	}
	hold(x, why ? why : why_nested_link);
	free(x->why_own);
	x->why_own = why;
}

/* Said once a process: where the links could not be looked for. */
static void say_unread(const struct ltd_linked *l)
{
	static bool said;
	char msg[LTD_ERR_MSG_MAX];

	if (said || (!l->unread && !l->past_limit && !l->unfollowed))
		return;
	said = true;
	if (l->unread)
		snprintf(msg, sizeof(msg),
			 "cannot read %s%s to look for a nested .claude, "
			 "settings file or .mcp.json that is a link: every "
			 "change is held back (make it readable, or land them "
			 "with 'apply --include-protected')",
			 l->unread[0] ? "project directory " : "the project",
			 l->unread);
	else if (l->unfollowed)
		snprintf(msg, sizeof(msg),
			 "a link into a nested .claude leads where ltd-native "
			 "cannot follow it (too long, or a directory it "
			 "cannot read): every change is held back (land them "
			 "with 'apply --include-protected')");
	else
		snprintf(msg, sizeof(msg),
			 "the project is deeper than %d directories or has "
			 "more than %lu: a nested .claude that is a link past "
			 "them is not looked for, so every change is held "
			 "back (land them with 'apply --include-protected')",
			 LTD_AGENTLINKS_MAX_DEPTH, LTD_AGENTLINKS_MAX_DIRS);
	ltd_warn(msg);
}

/* What a user's link leads Claude Code's settings to (decision 0167),
 * deleted or not; what the project's nested settings run (decision
 * 0166): the file, what lies in a directory they run from, and a link
 * or a replacement on the way to one. */
static int hold_nested_cmds(struct ltd_changes *c, const char *project,
			    int project_fd)
{
	const struct ltd_linked *links = ltd_review_linked(project, project_fd);
	struct ltd_named n;
	int ret =
		links ? ltd_review_nested_cmds(c, project, links, &n) : -ENOMEM;
	bool unsearched = links && (links->unread || links->past_limit ||
				    links->unfollowed);

	if (!ret)
		say_unread(links);
	for (size_t i = 0; !ret && i < c->n; i++) {
		struct ltd_change *x = &c->v[i];
		const struct ltd_linked_one *one = ltd_linked_find(links, x);

		if (one)
			hold_linked(x, one);
		else if (unsearched)
			hold(x, why_unsearched);
		else if (x->kind != LTD_CH_DELETE &&
			 (ltd_named_covers(&n, x->path) ||
			  ((S_ISLNK(x->mode) || x->kind == LTD_CH_TYPE) &&
			   ltd_named_below(&n, x->path))))
			hold(x, why_nested_cmd);
	}
	if (!ret)
		ltd_named_free(&n);
	return ret;
}

int ltd_review_hold(struct ltd_changes *c, const char *project,
		    const char *const *protected, size_t n_protected, int upper,
		    int project_fd, struct ltd_err *err)
{
	struct gitdirs *g = calloc(1, sizeof(*g));
	struct stat st;
	bool git_dir;

	if (!g)
		return ltd_err_set(err, ENOMEM, "out of memory");
	g->upper = upper;
	g->project = project_fd;
	git_dir = fstatat(project_fd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		  S_ISDIR(st.st_mode);
	for (size_t i = 0; i < c->n; i++) {
		struct ltd_change *x = &c->v[i];
		const struct ltd_hostrun *run;

		if (x->flags & LTD_CHF_REFUSED)
			continue;
		if (ltd_review_in_dot_git(x->path))
			judge_git(x,
				  git_dir && ltd_change_under(x->path, ".git"));
		else if ((run = host_run(x->path)))
			hold_host_run(x, run);
		else if (is_protected(x->path, project, protected, n_protected,
				      x))
			hold(x, why_protected);
		else if (S_ISLNK(x->mode) && x->kind != LTD_CH_DELETE &&
			 ltd_hostrun_dir(x->path))
			hold(x, why_link);
		else if (in_nested_git(g, x->path))
			hold(x, why_nested_git);
		/* A symbolic link under .git is no object or ref. */
		if ((x->flags & LTD_CHF_GIT) && S_ISLNK(x->mode))
			hold(x, why_git);
	}
	free(g);
	if (hold_hooks(c, project, upper, project_fd) < 0 ||
	    hold_nested_cmds(c, project, project_fd) < 0 ||
	    hold_ancestors(c) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ltd_changes_unpair_held(c);
	return 0;
}
