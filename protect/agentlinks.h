/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The directories of a project where Claude Code, started there on the
 * host, would read settings through a link of the user's: a `.claude`
 * that is a link (to `../shared/cc`), or a `.claude/settings.json`,
 * `.claude/settings.local.json` or `.mcp.json` that is one.  A review
 * judges a change by its name; what such a link leads to has another
 * (decision 0167).  Reads the host; changes nothing.
 */
#ifndef LTD_AGENTLINKS_H
#define LTD_AGENTLINKS_H

#include <stdbool.h>
#include <stddef.h>

/* Directories looked into, at most, and how deep below the root. */
#define LTD_AGENTLINKS_MAX_DIRS	 200000UL
#define LTD_AGENTLINKS_MAX_DEPTH 64

struct ltd_agentlinks {
	char **dirs; /* relative to the root; "" for the root itself */
	size_t n;
	/* A directory could not be read, or a limit was met: what lies
	 * there is not known (the caller says so). */
	bool partial;
};

/*
 * Every directory of the tree at @root (a directory fd) that holds one of
 * those links, into @out: no link followed, no other mount entered, no
 * `.git` and no `node_modules` looked into (nobody starts Claude Code in
 * a package manager's tree: decision 0166).  0, or -ENOMEM (@out empty).
 */
int ltd_agentlinks_find(int root, struct ltd_agentlinks *out);

void ltd_agentlinks_free(struct ltd_agentlinks *l);

#endif
