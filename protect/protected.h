/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each protected path is before and after a run, and the report of
 * those the command created or replaced.
 */
#ifndef LTD_PROTECTED_H
#define LTD_PROTECTED_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "policy/policy.h"

/* Not a file type: the path cannot be reached from the project without
 * following a link or crossing a mount. */
#define LTD_PROTECTED_UNREACHABLE S_IFMT

struct ltd_protected_id {
	dev_t dev;
	ino_t ino;
	mode_t type; /* 0: absent; or LTD_PROTECTED_UNREACHABLE */
};

/* What each of @p's protected paths is, by type and inode, as seen from
 * the project's directory without following a link; NULL without memory.
 * free() it. */
struct ltd_protected_id *ltd_protected_ids(const struct ltd_policy *p);

/*
 * A Claude Code settings file (.claude/settings.json,
 * .claude/settings.local.json, .mcp.json) that @after shows created since
 * @before is renamed to NAME.ltd-native-quarantine in its directory (never
 * over an existing file, never through a link), said on @out, and marked
 * absent in @after: Claude Code on the host would run its hooks at its
 * next start, and a git-ignored file shows in no `git status`.
 */
void ltd_protected_quarantine(FILE *out, const struct ltd_policy *p,
			      const struct ltd_protected_id *before,
			      struct ltd_protected_id *after);

/*
 * To @out, a warning for each protected path that @after shows created or
 * replaced since @before (either may be NULL: nothing is said).
 */
void ltd_protected_report(FILE *out, const struct ltd_policy *p,
			  const struct ltd_protected_id *before,
			  const struct ltd_protected_id *after);

#endif
