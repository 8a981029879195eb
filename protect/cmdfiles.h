/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files in the project that a command line runs, kept read-only: the
 * commands of Claude Code's settings (agentprotect.c) and those git's
 * configuration names (gitscan.c).  Reads the host (what is there).
 */
#ifndef LTD_CMDFILES_H
#define LTD_CMDFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "protect/protected.h"

/* Where the commands being read come from, and what they added so far. */
struct ltd_cmdfiles {
	struct ltd_protected *set; /* what they name joins it */
	const char *file;	   /* the file that holds them, for messages */
	size_t added;		   /* paths protected so far (at most 256) */
	bool said_unknown;	   /* one warning per file */
	/* A path through a link in the project: protected by its text, so
	 * that ltd_protected_check_links refuses the run (git's config), or
	 * an error here (Claude Code's settings). */
	bool refuse_links;
	/* Where the commands run (a nested .claude's directory); NULL: the
	 * project's top. */
	const char *base;
};

/*
 * Add to @s->set the places in its project that command line @cmd, run
 * in @base, names (ltd_shword_places): a path with a '/' by its text, a
 * bare word when it is a file there, a glob's matches (or the directory
 * they lie in); not a directory unless @dirs.  What cannot be resolved is
 * added to its warnings; a path through a link in the project is
 * protected by its text with @s->refuse_links (ltd_protected_check_links
 * then refuses the run naming the link), and is an error (-ELOOP)
 * without.
 */
int ltd_cmdfiles_protect(struct ltd_cmdfiles *s, const char *cmd,
			 const char *base, bool dirs, struct ltd_err *err);

#endif
