/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a path git's configuration or layout names lies, by its text and,
 * where it exists, by its real path: in the project (kept read-only), or
 * holding the project (refused: the command could write there what git on
 * the host runs).  Reads the host (realpath).
 */
#ifndef LTD_GITPLACE_H
#define LTD_GITPLACE_H

#include "common/error.h"
#include "protect/protected.h"

/*
 * Add @rel (relative to @base, or absolute) to @s if it names a path in
 * @s's project: by the text, and where it exists, through the host's links
 * (a path that leads out of the project is not ours to protect: the cage
 * cannot reach it).
 */
int ltd_gitplace_protect(struct ltd_protected *s, const char *base,
			 const char *rel, struct ltd_err *err);

/*
 * A directory git runs files from (hooks), or finds other repositories'
 * configs and hooks in, that is or holds @s's project (for a writable bind
 * judged as a project, named by @flag, its source): refused (-EPERM),
 * naming it as @what and, when a configuration names it, @cfg and @key
 * (else NULL).  @rel is relative to @base, or absolute.
 */
int ltd_gitplace_refuse_holding(const struct ltd_protected *s, const char *flag,
				const char *base, const char *rel,
				const char *what, const char *cfg,
				const char *key, struct ltd_err *err);

#endif
