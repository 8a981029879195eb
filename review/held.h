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
 *  - the project's own .git, but for what a commit made inside leaves:
 *    new objects, a fast-forward of a branch, a new tag, HEAD, the index,
 *    the reflogs (docs/decisions/0126-review-git.md).
 * What lands by .git's rules is marked LTD_CHF_GIT; ltd_review_git_check()
 * holds back a ref that is not a fast-forward.
 */
#ifndef LTD_REVIEW_HELD_H
#define LTD_REVIEW_HELD_H

#include <stddef.h>

#include "common/error.h"
#include "review/changes.h"

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
