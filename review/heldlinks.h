/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a nested .claude, something in it, or an .mcp.json of the user's
 * that is a link leads in the project (decision 0167), for apply to hold
 * back (held.c): Claude Code started in the link's directory on the host
 * takes its settings, hooks, commands and agents from there.
 */
#ifndef LTD_REVIEW_HELDLINKS_H
#define LTD_REVIEW_HELDLINKS_H

#include <stdbool.h>
#include <stddef.h>

#include "review/changes.h"

#define HOME_DIR "~"

struct ltd_linked_one {
	char *to;   /* relative to the project ("" the project itself) */
	char *dir;  /* the link's directory, relative ("" the top;
		     * HOME_DIR: the user's home) */
	char *name; /* the link, from there: ".claude", ".claude/commands" */
	/* A link met on the way there (`shared/cc` -> `../vendor/cc`): what
	 * replaces or removes it, or something above it, changes where the
	 * user's link leads; what lies below it in a review replaced it. */
	bool way;
};

struct ltd_linked {
	struct ltd_linked_one *v;
	size_t n;
	char **dirs; /* the directories with a .claude or .mcp.json */
	size_t n_dirs;
	char *unread; /* protect/agentlinks.h's */
	bool past_limit;
	/* A link could not be followed to its end (longer than a path may
	 * be, a directory on the way that cannot be read): it may lead
	 * anywhere. */
	bool unfollowed;
};

/*
 * The links of the project at @project (read at @project_fd), each
 * followed link by link as the host would, even where nothing is there
 * yet (the command may make it): found once a process for a project
 * (`review` judges each review of a project).  NULL when out of memory.
 */
const struct ltd_linked *ltd_review_linked(const char *project, int project_fd);

/* The link whose target @x is or lies in, or on whose way @x (a link, a
 * replacement, a deletion) lies; NULL when none. */
const struct ltd_linked_one *ltd_linked_find(const struct ltd_linked *l,
					     const struct ltd_change *x);

#endif
