/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What apply holds back: nothing the host would run lands unless the user
 * says so (--include-protected).  A change is held back when it touches
 *  - a protected path of the project (protect/'s tables: git's hooks and
 *    configuration and what they name, Claude Code's settings, hooks,
 *    agents and skills and what they name, .mcp.json, ltd-native's own
 *    policy), or deletes or replaces a directory that holds one;
 *  - a project file another host program runs without asking (editors'
 *    tasks and settings, other agents' configurations: protect/hostrun.h);
 *  - a git repository's own directory other than the project's (a `.git`
 *    anywhere below, a directory git would take for a git directory);
 *  - a git hook the command planted where git on the host runs it: under
 *    the hooks path of any work tree of the project's repositories, whose
 *    .git and configuration may be the project's, unchanged; and a file
 *    such a configuration names for git to run (core.fsmonitor, a
 *    filter...): what the exit walk finds, protect/repos.h's
 *    ltd_repos_upper_hooks();
 *  - a file that a nested .claude's settings or a nested .mcp.json of the
 *    project runs, in the directory of a change or above it (heldcmds.h,
 *    decision 0166);
 * A change in a `.git` (the project's own or any other, at any depth)
 * never lands, --include-protected or not (LTD_CHF_REFUSED): its index,
 * refs and commits could carry files the diff never shows, its config and
 * hooks run on the host (docs/decisions/0126-review-git.md, amended).
 * LTD_CHF_GIT and ltd_review_git_check() are what 0126 first let land by
 * .git's rules; nothing is so marked since its amendment.
 */
#ifndef LTD_REVIEW_HELD_H
#define LTD_REVIEW_HELD_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "review/changes.h"

/* A name of @path (relative to the project) is `.git`: it never lands. */
bool ltd_review_in_dot_git(const char *path);

/*
 * Mark @c: held back (LTD_CHF_HELD and why) or landing by .git's rules
 * (LTD_CHF_GIT).  @project is the project's path, @protected its
 * protected paths (absolute, as struct ltd_policy holds them); @upper and
 * @project_fd the two trees (to tell a git directory).
 */
int ltd_review_hold(struct ltd_changes *c, const char *project,
		    const char *const *protected, size_t n_protected, int upper,
		    int project_fd, struct ltd_err *err);

/*
 * The LTD_CHF_GIT changes judged by git on the host (reading the
 * project's .git, with the upper's objects as an alternate, running no
 * hook, no config command): a branch must be new or a fast-forward of the
 * project's, a tag new, HEAD a branch or an object there is; the rest is
 * held back with why.  Without git, every ref and HEAD is held back.
 * @upper is the upper directory's path.
 */
void ltd_review_git_check(struct ltd_changes *c, const char *project,
			  const char *upper);

#endif
