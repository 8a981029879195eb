/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The directories of a project where Claude Code, started there on the
 * host, would find settings of that directory's own: a `.claude` (a
 * directory, or a link of the user's to one: `../shared/cc`) or an
 * `.mcp.json`.  A review judges a change by its name; what such a link
 * leads to has another, and what settings there run lies anywhere
 * (decisions 0166, 0167).  Reads the host; changes nothing.
 */
#ifndef LTD_AGENTLINKS_H
#define LTD_AGENTLINKS_H

#include <stdbool.h>
#include <stddef.h>

/* Directories looked into, at most, and how deep below the root. */
#define LTD_AGENTLINKS_MAX_DIRS	 1000000UL
#define LTD_AGENTLINKS_MAX_DEPTH 64

struct ltd_agentlinks {
	char **dirs; /* relative to the root; "" for the root itself */
	size_t n;
	/* A directory of the user's it could not read (the first, relative;
	 * NULL when none), or a limit met: what lies there is not known (the
	 * caller says so).  One of another user's the user cannot read
	 * either holds no link of theirs: passed over, as the exit walk
	 * does. */
	char *unread;
	bool past_limit;
};

/*
 * Every directory of the tree at @root (a directory fd) that holds a
 * `.claude` or an `.mcp.json` of any type, into @out: no link followed,
 * no other mount entered, no `.git` and no `node_modules` looked into
 * (nobody starts Claude Code in a package manager's tree: decision
 * 0166).  0, or -ENOMEM (@out empty).
 */
int ltd_agentlinks_find(int root, struct ltd_agentlinks *out);

void ltd_agentlinks_free(struct ltd_agentlinks *l);

#endif
