/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Claude Code's rules: what it runs on the host from the project without
 * being asked.  Reads the host; changes nothing.
 */
#ifndef LTD_AGENTPROTECT_H
#define LTD_AGENTPROTECT_H

#include "common/error.h"
#include "policy/policy.h"
#include "protect/hostrun.h"
#include "protect/protected.h"

/* The row of Claude Code's table (.claude/hooks, agents, skills,
 * commands, workflows, routines, launch.json, scheduled_tasks.json) that
 * @rel is or lies in; NULL when none. */
const struct ltd_hostrun *ltd_agentprotect_find(const char *rel);

/* Who runs @rel: Claude Code's row, else another host program's
 * (ltd_hostrun_find()); NULL when none. */
const struct ltd_hostrun *ltd_agentprotect_who(const char *rel);

/*
 * Add to @s what Claude Code on the host runs from @p's project by itself:
 * the places of its table above, and the project files
 * that the commands of .claude/settings.json, .claude/settings.local.json
 * (hooks, statusLine, the *Helper commands, env) and .mcp.json (servers'
 * command and args) name; what cannot be resolved is added to @s's
 * warnings.  A settings file that is there but is not JSON ltd-native can
 * read, or not a regular file, is an error naming it (nothing would say
 * what it runs).  @s's project and home are then @p's.
 */
int ltd_agentprotect_project(const struct ltd_policy *p,
			     struct ltd_protected *s, struct ltd_err *err);

/* The same for one settings file's text, @file naming it in messages (the
 * fuzz target's way in). */
int ltd_agentprotect_settings(const struct ltd_policy *p,
			      struct ltd_protected *s, const char *file,
			      const char *text, size_t len,
			      struct ltd_err *err);

/* The settings file at @fd whole, malloc'd into *@text: a regular file of
 * at most 4 MiB (what Claude Code's settings and .mcp.json are); 0,
 * -EINVAL when it is not one, or -errno. */
int ltd_agentprotect_read(int fd, char **text, size_t *len);

/* @rel (relative) lies in a package manager's tree (a `node_modules`
 * name on the way): nobody starts Claude Code there, and every install
 * rewrites it. */
bool ltd_agentprotect_in_packages(const char *rel);

/*
 * The project files that the commands of a nested settings file or
 * .mcp.json (@text, @file naming it in messages) run when Claude Code is
 * started in @base, a directory of @s's project: into @s, whose project
 * and home the caller set.  A path through a link is added by its text
 * (the caller judges the link).  What cannot be resolved goes to @s's
 * warnings; text that is not JSON is an error.
 */
int ltd_agentprotect_nested(struct ltd_protected *s, const char *base,
			    const char *file, const char *text, size_t len,
			    struct ltd_err *err);

#endif
