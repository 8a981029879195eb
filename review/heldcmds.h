/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the nested .claude settings and .mcp.json files of the project run
 * (decision 0166), for apply to hold back (held.c): Claude Code started
 * in their directory on the host runs it by itself.
 */
#ifndef LTD_REVIEW_HELDCMDS_H
#define LTD_REVIEW_HELDCMDS_H

#include <stdbool.h>
#include <stddef.h>

#include "review/changes.h"
#include "review/heldlinks.h"

/* Paths relative to the project, sorted, each once. */
struct ltd_named {
	char **v;
	size_t n;
};

/*
 * The files (and directories whose files: a glob's, a *PATH entry's) that
 * the commands of .claude/settings.json, .claude/settings.local.json and
 * .mcp.json run, read from the project at @project (one the command
 * changed is held itself, so the project's stays), in
 * each directory below the top that holds one of @c's changes or lies
 * above one, and in each of @links's directories (every one with a
 * .claude or .mcp.json of its own; a link of the user's on the way read
 * where it leads; NULL: none).  0, or -ENOMEM.
 */
int ltd_review_nested_cmds(const struct ltd_changes *c, const char *project,
			   const struct ltd_linked *links,
			   struct ltd_named *out);

/* @rel, or a directory above it, is one of @n's. */
bool ltd_named_covers(const struct ltd_named *n, const char *rel);

/* One of @n's lies below @rel. */
bool ltd_named_below(const struct ltd_named *n, const char *rel);

void ltd_named_free(struct ltd_named *n);

#endif
