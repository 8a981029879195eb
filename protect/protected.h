/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The protected set: the paths in the project that git, Claude Code and
 * ltd-native run from or read their configuration from, kept read-only in
 * the cage (runtime/mountplan.c binds each over itself and pins the
 * directories on the way), and what protecting them had to say.  protect/
 * computes it from a resolved policy (protect.h); the mount plan, `policy
 * show` and the checks after the run (below) read it.
 *
 * And what each protected path is before and after a run, and the report
 * of those the command created or replaced.
 */
#ifndef LTD_PROTECTED_H
#define LTD_PROTECTED_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "policy/policy.h"

struct ltd_protected {
	/* Where they lie, and the home ~ and $HOME in commands name: the
	 * policy's (borrowed, ltd_protected_for()); for a writable bind
	 * judged as a project would be, its source. */
	const char *project;
	const char *home; /* may be NULL */
	/* Absolute, each once; with git protected, [0] is .git (pinned). */
	char **paths;
	size_t n;
	char **warnings; /* what could not be protected: said at start */
	size_t n_warnings;
};

/* @s's paths lie in @p's project, and ~ in the commands it reads is @p's
 * home (borrowed from @p). */
void ltd_protected_for(struct ltd_protected *s, const struct ltd_policy *p);

/* Empty @s (its lists; project and home stay). */
void ltd_protected_free(struct ltd_protected *s);

/* Add @path (absolute, in the project) to @s, once. */
int ltd_protected_add(struct ltd_protected *s, const char *path,
		      struct ltd_err *err);

/* Add each of @names (@n, relative to the project) to @s. */
int ltd_protected_add_names(struct ltd_protected *s, const char *const *names,
			    size_t n, struct ltd_err *err);

/* Add a warning to @s, once (-ENOMEM, with @err). */
int ltd_protected_warn(struct ltd_protected *s, struct ltd_err *err,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* @path is one of @s's. */
bool ltd_protected_has(const struct ltd_protected *s, const char *path);

/*
 * Refuse a protected path that is, or passes through, a symbolic link in
 * the project: the read-only bind would cover the target, and the command
 * could re-point the link itself.
 */
int ltd_protected_check_links(const struct ltd_protected *s,
			      struct ltd_err *err);

/* Not a file type: the path cannot be reached from the project without
 * following a link or crossing a mount. */
#define LTD_PROTECTED_UNREACHABLE S_IFMT

struct ltd_protected_id {
	dev_t dev;
	ino_t ino;
	mode_t type; /* 0: absent; or LTD_PROTECTED_UNREACHABLE */
};

/* What each of @s's paths is, by type and inode, as seen from the
 * project's directory without following a link; NULL without memory.
 * free() it. */
struct ltd_protected_id *ltd_protected_ids(const struct ltd_protected *s);

/*
 * A Claude Code settings file (.claude/settings.json,
 * .claude/settings.local.json, .mcp.json), or a path of hostrun.h's table
 * (an editor's tasks, another agent's settings...), that @after shows
 * created since @before is renamed to NAME.ltd-native-quarantine in its
 * directory (never over an existing file, never through a link), said on
 * @out with who runs it, and marked absent in @after: Claude Code on the
 * host would run its hooks at its next start, VS Code a folderOpen task
 * when the folder is opened, and a git-ignored file shows in no `git
 * status`.
 */
void ltd_protected_quarantine(FILE *out, const struct ltd_protected *s,
			      const struct ltd_protected_id *before,
			      struct ltd_protected_id *after);

/*
 * @base in @dir renamed to @base.ltd-native-quarantine (or .1 ... .9 after
 * it, never over a file): the command may have taken the name first, or
 * made the directory read-only (it is the user's own: write permission is
 * given back).  The name it got in @to; 0, or -errno.
 */
/*
 * The name @base goes aside as in @dir: NAME.ltd-native-quarantine (.K
 * for the K-th try), with @prefix before it, cut to fit a file name.
 */
void ltd_protected_aside_name(char *to, size_t size, const char *prefix,
			      const char *base, int k);

int ltd_protected_move_aside(int dir, const char *base, char *to, size_t size);

/* The same into the directory @dest, the name with @prefix: out of a
 * directory whose every entry a program loads whatever its name (a
 * skill is a directory of .claude/skills), into the one above it. */
int ltd_protected_move_aside_to(int dir, const char *base, int dest,
				const char *prefix, char *to, size_t size);

/*
 * To @out, a warning for each protected path that @after shows created or
 * replaced since @before (either may be NULL: nothing is said).
 */
void ltd_protected_report(FILE *out, const struct ltd_protected *s,
			  const struct ltd_protected_id *before,
			  const struct ltd_protected_id *after);

#endif
