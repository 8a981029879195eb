/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What host programs run from the project, and from the places the cage
 * may write: git (its hooks, its configuration and what that names),
 * Claude Code (its settings' commands), ltd-native's own project policy.
 * Each is added to the protected paths (read-only in the cage, the
 * directories on the way pinned), or the run is refused where that cannot
 * hold.  Reads the host; changes nothing on it.
 */
#ifndef LTD_PROTECT_H
#define LTD_PROTECT_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/policy.h"
#include "protect/protected.h"

/*
 * Once ltd_policy_validate() has resolved the project: what git, Claude
 * Code and ltd-native run from it or are configured by, into @out
 * (emptied first; its project and home are @p's); no protected path
 * reached through a link in the project.
 */
int ltd_protect_project(const struct ltd_policy *p, struct ltd_protected *out,
			struct ltd_err *err);

/*
 * Once ltd_policy_validate_binds() has resolved every bind: the files the
 * next run reads that lie in the project (@p->inputs_in_project) join
 * @out; a writable bind that git would run something from is refused;
 * each is judged by the repositories above the project and the other
 * binds (and the project by theirs); what was added since is checked for
 * links too.
 */
int ltd_protect_binds(const struct ltd_policy *p, struct ltd_protected *out,
		      struct ltd_err *err);

/* @dir is a git directory, as git's is_git_directory() judges one. */
bool ltd_git_is_dir(const char *dir);

/*
 * A writable bind (@flag, the real path @src) that holds a git
 * repository's .git, or is or lies in a git directory, is refused unless
 * git protection is off (--unsafe-writable-git): its hooks and config
 * would be the cage's to write, and git on the host runs them.
 */
int ltd_git_bind_check(const struct ltd_policy *p, const char *flag,
		       const char *src, struct ltd_err *err);

/*
 * Once the binds are resolved: each writable bind the user asked for is
 * judged by the repositories above the project and above every other such
 * bind too (refused as ltd_git_bind_check refuses), and the project by the
 * repositories above each bind (what they name in it becomes read-only).
 */
int ltd_git_cross_check(const struct ltd_policy *p, struct ltd_protected *s,
			struct ltd_err *err);

/* Add to @s what git runs from the project (reads the host); @s's project
 * and home are @p's. */
int ltd_git_protected(const struct ltd_policy *p, struct ltd_protected *s,
		      struct ltd_err *err);

/*
 * Add to @s what Claude Code on the host runs from the project
 * by itself: the project's .claude/hooks, and the project files that the
 * commands of .claude/settings.json, .claude/settings.local.json (hooks,
 * statusLine, the *Helper commands, env) and .mcp.json (servers' command
 * and args) name; what cannot be resolved is added to @s's warnings.  A
 * settings file that is there but is not JSON ltd-native can read, or not a
 * regular file, is an error naming it (nothing would say what it runs).
 * @s's project and home are @p's.
 */
int ltd_agent_protected(const struct ltd_policy *p, struct ltd_protected *s,
			struct ltd_err *err);

/* The same for one settings file's text, @file naming it in messages (the
 * fuzz target's way in). */
int ltd_agent_settings_scan(const struct ltd_policy *p, struct ltd_protected *s,
			    const char *file, const char *text, size_t len,
			    struct ltd_err *err);

/* Where the commands being read come from, and what they added so far. */
struct ltd_cmd_scan {
	struct ltd_protected *set; /* what they name joins it */
	const char *file;	   /* the file that holds them, for messages */
	size_t added;		   /* paths protected so far (at most 256) */
	bool said_unknown;	   /* one warning per file */
	/* A path through a link in the project: protected by its text, so
	 * that ltd_protected_check_links refuses the run (git's config), or an
	 * error here (Claude Code's settings). */
	bool refuse_links;
};

/*
 * Add to @s->set the places in its project that command line @cmd, run
 * in @base, names (ltd_shword_places): a path with a '/' by its text, a
 * bare word when it is a file there, a glob's matches; not a directory
 * unless @dirs.  What cannot be resolved is added to its warnings; a path
 * through a link in the project is protected by its text with
 * @s->refuse_links (ltd_protected_check_links then refuses the run naming
 * the link), and is an error (-ELOOP) without.
 */
int ltd_protect_command(struct ltd_cmd_scan *s, const char *cmd,
			const char *base, bool dirs, struct ltd_err *err);

#endif
