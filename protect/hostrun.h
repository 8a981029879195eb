/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Project files that host programs other than git and Claude Code run,
 * or take the commands they run from, without the user asking each time:
 * editors' tasks and settings, other agents' MCP servers and hooks,
 * direnv, pre-commit, dev containers.  One table, as data (hostrun.c),
 * documented entry by entry in docs/guide/filesystem.md (a unit test
 * holds the two together).
 *
 * The protected set takes every entry (ltd_hostrun_protect): read-only in
 * the cage when present at the start, moved aside at exit when the
 * command created it (protected.c).  Review mode holds back at apply what
 * ltd_hostrun_find() names.  git's places, Claude Code's and ltd-native's
 * own policy are protect/'s other tables.
 */
#ifndef LTD_HOSTRUN_H
#define LTD_HOSTRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "protect/protected.h"

enum ltd_hostrun_kind {
	LTD_HOSTRUN_FILE,    /* the path itself */
	LTD_HOSTRUN_DIR,     /* a directory, and everything it holds */
	LTD_HOSTRUN_PATTERN, /* names at the project's top (fnmatch) */
};

struct ltd_hostrun {
	const char *path; /* relative to the project */
	enum ltd_hostrun_kind kind;
	const char *program; /* who runs it: "VS Code" */
	const char *runs;    /* what it runs from there, and when */
};

extern const struct ltd_hostrun ltd_hostrun_table[];
extern const size_t ltd_hostrun_count;

/*
 * The entry that @rel (relative to the project: no leading "/" or "./",
 * no trailing "/") is, lies in (a DIR entry's contents) or matches (a
 * PATTERN entry, at the top only); NULL when none.  Names are compared as
 * they are, byte for byte (a case-insensitive file system is not judged).
 */
const struct ltd_hostrun *ltd_hostrun_find(const char *rel);

/* The same in another table of @n rows (Claude Code's: agentprotect.h). */
const struct ltd_hostrun *ltd_hostrun_find_in(const struct ltd_hostrun *table,
					      size_t n, const char *rel);

/*
 * Add every entry to @s (whose project is set): FILE and DIR entries by
 * their names, whether they exist or not; a PATTERN entry for each name
 * at the project's top that matches it now (read from the project's
 * directory, no link followed).
 */
int ltd_hostrun_protect(struct ltd_protected *s, struct ltd_err *err);

/* @rel is, or lies in, an entry at the project's top or below any of its
 * directories (sub/.envrc): what a review's apply holds back. */
bool ltd_hostrun_match(const char *rel);

/* @rel's last name is one the table's paths begin with (.vscode, .envrc)
 * or a directory of the protected set's (.claude, .git): a link by that
 * name would lead a host program to files of the cage's choosing. */
bool ltd_hostrun_dir(const char *rel);

#endif
