/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What git runs from the project: its .git (or the project as a git
 * directory), the repositories nested in it and those it lies in, read
 * for the paths git executes from or reads its configuration from.
 * Reads the host; changes nothing.
 */
#ifndef LTD_GITPROTECT_H
#define LTD_GITPROTECT_H

#include <stdbool.h>

#include "common/error.h"
#include "policy/policy.h"
#include "protect/protected.h"

/* Add to @s what git runs from @p's project (@s's project and home are
 * then @p's); refuse a project where git runs hooks from. */
int ltd_gitprotect_project(const struct ltd_policy *p, struct ltd_protected *s,
			   struct ltd_err *err);

/*
 * The repository whose work tree's top is @top, if it has one: its .git
 * directory, or the git directory a .git file (a linked worktree, a
 * submodule) names, what it names in @s's project gathered into @s (with
 * @flag: see gitscan.h).  *@seen is set when a repository's configs (the
 * global ones with them) were read.
 */
int ltd_gitprotect_worktree(struct ltd_protected *s, const char *flag,
			    const char *top, bool *seen, struct ltd_err *err);

/* The repositories whose work tree or git directory is @from or lies
 * above it, as ltd_gitprotect_worktree() gathers one. */
int ltd_gitprotect_walk_up(struct ltd_protected *s, const char *flag,
			   const char *from, bool *seen, struct ltd_err *err);

#endif
