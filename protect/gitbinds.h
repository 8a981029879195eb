/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writable binds and git: a bind git would run something from is refused
 * (its hooks and configuration would be the cage's to write, and git on
 * the host runs them), and the project is judged by the repositories
 * above each bind.  Off with --unsafe-writable-git.  Reads the host.
 */
#ifndef LTD_GITBINDS_H
#define LTD_GITBINDS_H

#include "common/error.h"
#include "policy/policy.h"
#include "protect/protected.h"

/*
 * A writable bind (@flag, the real path @src) that holds a git
 * repository's .git, or is or lies in a git directory, or holds what
 * git's configuration names (a hooks path, an include, a command's file),
 * is refused unless git protection is off (--unsafe-writable-git).
 */
int ltd_gitbinds_check(const struct ltd_policy *p, const char *flag,
		       const char *src, struct ltd_err *err);

/*
 * Once the binds are resolved: each writable bind the user asked for is
 * judged by the repositories above the project and above every other such
 * bind too (refused as ltd_gitbinds_check refuses), and the project by the
 * repositories above each bind (what they name in it joins @s); then no
 * link on the way of what @s holds.
 */
int ltd_gitbinds_cross_check(const struct ltd_policy *p,
			     struct ltd_protected *s, struct ltd_err *err);

#endif
