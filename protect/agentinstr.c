// SPDX-License-Identifier: GPL-2.0-or-later
/* The agents' instruction files in the project (see agentinstr.h). */
#include "protect/agentinstr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/path.h"
#include "common/text.h"
#include "common/vec.h"
#include "protect/protected.h"

struct ltd_agentinstr {
	size_t n;
	struct {
		char *rel;	/* its place in the project */
		char *leads_to; /* realpath(), or NULL when it leads nowhere */
	} e[LTD_AGENTINSTR_MAX];
	const char *project;
};

/* One link or special file found at @rel (in @dir, as @name). */
typedef void (*found_fn)(void *ctx, int dir, const char *name, const char *rel,
			 const struct stat *st);

static const struct {
	const char *dir, *name, *who;
} files[] = {
	{".", "CLAUDE.md", "Claude Code"},
	{".", "CLAUDE.local.md", "Claude Code"},
	{".claude", "CLAUDE.md", "Claude Code"},
	{".", "AGENTS.md", "Codex"},
	{".", "AGENTS.override.md", "Codex"},
	{".", "GEMINI.md", "Gemini CLI"},
};

static int open_project(const char *project)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS,
	};

	return (int)syscall(SYS_openat2, AT_FDCWD, project, &how, sizeof(how));
}

static bool special(mode_t mode)
{
	return !S_ISREG(mode) && !S_ISDIR(mode);
}

/* Where @rel (in @project) leads on the host: NULL when nowhere. */
static char *leads_to(const char *project, const char *rel)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", project, rel) >=
		    (int)sizeof(path) ||
	    !realpath(path, real))
		return NULL;
	return strdup(real);
}

/* The directory a link at @rel leads to, when it lies in the project:
 * opened beneath @top (Claude Code reads a linked rules directory too). */
static int linked_dir(int top, const char *project, const char *rel)
{
	_cleanup_free_ char *to = leads_to(project, rel);
	const char *in = to ? ltd_path_below(to, project) : NULL;

	if (!in)
		return -1;
	return ltd_dir_open_beneath(top, in[0] ? in : ".");
}

/* A walk of .claude/rules: each directory once (links among the rules
 * may lead to the same one again and again), and so many entries at most;
 * past either, @over. */
struct rwalk {
	int top;
	const char *project;
	found_fn fn;
	void *ctx;
	size_t n_seen, entries;
	struct {
		dev_t dev;
		ino_t ino;
	} seen[LTD_AGENTINSTR_DIRS];
	bool over;
};

/* @dir not walked yet: now marked. */
static bool first_visit(struct rwalk *r, int dir)
{
	struct stat st;

	if (fstat(dir, &st) < 0)
		return false;
	for (size_t i = 0; i < r->n_seen; i++)
		if (r->seen[i].dev == st.st_dev && r->seen[i].ino == st.st_ino)
			return false;
	if (r->n_seen == LTD_AGENTINSTR_DIRS) {
		r->over = true;
		return false;
	}
	r->seen[r->n_seen].dev = st.st_dev;
	r->seen[r->n_seen++].ino = st.st_ino;
	return true;
}

/* What .claude/rules holds, @depth deep at most; @rel its path so far. */
static void rules(struct rwalk *r, int dir, char *rel, size_t size, int depth)
{
	char **names = NULL;
	size_t n = strlen(rel), count = 0;

	if (!first_visit(r, dir) || ltd_dir_names(dir, 0, &names, &count) < 0)
		return;
	for (size_t i = 0; i < count; i++) {
		_cleanup_close_ int sub = -1;
		struct stat st;

		if (++r->entries > LTD_AGENTINSTR_ENTRIES) {
			r->over = true;
			break;
		}
		if (fstatat(dir, names[i], &st, AT_SYMLINK_NOFOLLOW) ||
		    snprintf(rel + n, size - n, "/%s", names[i]) >=
			    (int)(size - n))
			continue;
		if (special(st.st_mode))
			r->fn(r->ctx, dir, names[i], rel, &st);
		if (S_ISDIR(st.st_mode))
			sub = ltd_dir_open_beneath(dir, names[i]);
		else if (S_ISLNK(st.st_mode))
			sub = linked_dir(r->top, r->project, rel);
		if (sub >= 0 && depth <= 0)
			r->over = true;
		else if (sub >= 0)
			rules(r, sub, rel, size, depth - 1);
		rel[n] = '\0';
	}
	ltd_strv_free(names, count);
}

/* Each link or special file among the instruction files of @top; true
 * when .claude/rules could not be looked through whole. */
static bool each(int top, const char *project, found_fn fn, void *ctx)
{
	_cleanup_free_ struct rwalk *r = calloc(1, sizeof(*r));
	_cleanup_close_ int rdir = -1;
	char rel[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		_cleanup_close_ int dir =
			ltd_dir_open_beneath(top, files[i].dir);
		struct stat st;

		snprintf(rel, sizeof(rel), "%s%s%s",
			 strcmp(files[i].dir, ".") ? files[i].dir : "",
			 strcmp(files[i].dir, ".") ? "/" : "", files[i].name);
		if (dir >= 0 &&
		    !fstatat(dir, files[i].name, &st, AT_SYMLINK_NOFOLLOW) &&
		    special(st.st_mode))
			fn(ctx, dir, files[i].name, rel, &st);
	}
	/* .claude/rules itself: a link, judged as its entries are, and
	 * followed where it stays in the project. */
	{
		_cleanup_close_ int cl = ltd_dir_open_beneath(top, ".claude");
		struct stat st;

		snprintf(rel, sizeof(rel), ".claude/rules");
		if (cl < 0 || fstatat(cl, "rules", &st, AT_SYMLINK_NOFOLLOW))
			return false;
		if (special(st.st_mode))
			fn(ctx, cl, "rules", rel, &st);
		rdir = S_ISDIR(st.st_mode)   ? ltd_dir_open_beneath(cl, "rules")
		       : S_ISLNK(st.st_mode) ? linked_dir(top, project, rel)
					     : -1;
	}
	if (rdir < 0)
		return false;
	if (!r)
		return true;
	*r = (struct rwalk){
		.top = top, .project = project, .fn = fn, .ctx = ctx};
	rules(r, rdir, rel, sizeof(rel), LTD_AGENTINSTR_RULES_DEPTH);
	return r->over;
}

static void keep(void *ctx, int dir, const char *name, const char *rel,
		 const struct stat *st)
{
	struct ltd_agentinstr *ids = ctx;

	(void)dir;
	(void)name;
	(void)st;
	if (ids->n == LTD_AGENTINSTR_MAX || !(ids->e[ids->n].rel = strdup(rel)))
		return;
	ids->e[ids->n].leads_to = leads_to(ids->project, rel);
	ids->n++;
}

struct ltd_agentinstr *ltd_agentinstr_ids(const char *project)
{
	_cleanup_close_ int top = open_project(project);
	struct ltd_agentinstr *ids;

	if (top < 0 || !(ids = calloc(1, sizeof(*ids))))
		return NULL;
	ids->project = project;
	(void)each(top, project, keep, ids); /* the end says what is missed */
	return ids;
}

struct judge {
	FILE *out;
	const char *project;
	int top;
	const struct ltd_agentinstr *before;
};

/* @rel was there before, leading where it leads now (@to; NULL:
 * nowhere): the user's, whatever that is. */
static bool was_there(const struct ltd_agentinstr *before, const char *rel,
		      const char *to)
{
	for (size_t i = 0; before && i < before->n; i++)
		if (!strcmp(before->e[i].rel, rel))
			return (!to && !before->e[i].leads_to) ||
			       (to && before->e[i].leads_to &&
				!strcmp(to, before->e[i].leads_to));
	return false;
}

/* @to (where @rel leads; NULL: nowhere) is out of the project: a link
 * that leads nowhere now may lead to a file of the user's later, and a
 * FIFO, socket or device is never an instruction file. */
static bool out_of(const char *project, const char *to, const struct stat *st)
{
	if (!S_ISLNK(st->st_mode))
		return special(st->st_mode);
	return !to || !ltd_path_is_under(to, project);
}

static bool leads_out(const struct judge *j, const char *to,
		      const struct stat *st)
{
	return out_of(j->project, to, st);
}

/* Where one of .claude/rules goes: .claude, out of what Claude Code
 * reads; any other, beside itself. */
static int aside(const struct judge *j, int dir, const char *name,
		 const char *rel, char *to, size_t size)
{
	bool in_rules = !strncmp(rel, ".claude/rules/", 14);
	_cleanup_close_ int dest =
		in_rules ? ltd_dir_open_beneath(j->top, ".claude") : dup(dir);

	if (dest < 0)
		return -errno;
	return ltd_protected_move_aside_to(dir, name, dest,
					   in_rules ? "rules-" : "", to, size);
}

static void judge_one(void *ctx, int dir, const char *name, const char *rel,
		      const struct stat *st)
{
	const struct judge *j = ctx;
	const char *who = ltd_agentinstr_who(name);
	_cleanup_free_ char *to_now = leads_to(j->project, rel);
	char to[NAME_MAX + 64];
	int ret;

	if (!who)
		who = "Claude Code"; /* one of .claude/rules */
	if (was_there(j->before, rel, to_now) || !leads_out(j, to_now, st))
		return;
	ret = aside(j, dir, name, rel, to, sizeof(to));
	fputs("ltd-native: warning: the command made ", j->out);
	ltd_fput_shown(j->out, j->project);
	fputc('/', j->out);
	ltd_fput_shown(j->out, rel);
	fprintf(j->out,
		" %s, which %s on the host loads into its prompt by "
		"itself: ",
		ltd_agentinstr_kind(st), who);
	if (ret < 0) {
		fprintf(j->out,
			"it could NOT be moved aside (%s): remove it before "
			"you start %s here\n",
			strerror(-ret), who);
		return;
	}
	fputs("moved aside to ", j->out);
	if (!strncmp(rel, ".claude/rules/", 14))
		fputs(".claude/", j->out);
	ltd_fput_shown(j->out, to);
	fputs(" (a link you made yourself: move it back)\n", j->out);
}

void ltd_agentinstr_report(FILE *out, const char *project,
			   const struct ltd_agentinstr *before)
{
	struct judge j = {.out = out, .project = project, .before = before};

	j.top = open_project(project);
	if (j.top < 0)
		return;
	if (each(j.top, project, judge_one, &j)) {
		fputs("ltd-native: warning: ltd-native could not look through "
		      "all of ",
		      out);
		ltd_fput_shown(out, project);
		fputs("/.claude/rules (too deep, too many entries or "
		      "directories), whose files Claude Code on the host loads "
		      "into its prompt: look at what the command left there "
		      "before you start Claude Code here\n",
		      out);
	}
	close(j.top);
}

const char *ltd_agentinstr_who(const char *name)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(name, files[i].name))
			return files[i].who;
	return NULL;
}

const char *ltd_agentinstr_kind(const struct stat *st)
{
	return S_ISLNK(st->st_mode)
		       ? "a symbolic link out of the project (it would read "
			 "what the link leads to)"
	       : S_ISFIFO(st->st_mode) ? "a FIFO (it would block on it)"
				       : "a socket or device";
}

bool ltd_agentinstr_leads_out(int dir, const char *name, const struct stat *st,
			      const char *project)
{
	char path[PATH_MAX], real[PATH_MAX];
	bool ok;

	/* Resolved from the directory itself: nothing on its way can be
	 * swapped under the name. */
	ok = snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dir, name) <
		     (int)sizeof(path) &&
	     S_ISLNK(st->st_mode) && realpath(path, real);
	return out_of(project, ok ? real : NULL, st);
}

void ltd_agentinstr_free(struct ltd_agentinstr *ids)
{
	for (size_t i = 0; ids && i < ids->n; i++) {
		free(ids->e[i].rel);
		free(ids->e[i].leads_to);
	}
	free(ids);
}
