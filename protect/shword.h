/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sh-word reader: the words of a shell command line that may name a
 * place, read as sh splits them.  Pure (no filesystem access): a hook's
 * or a git command's line is the launcher's input before any cage exists,
 * and fuzz/command_paths.c runs this under libFuzzer.
 */
#ifndef LTD_SHWORD_H
#define LTD_SHWORD_H

#include <stdbool.h>
#include <stddef.h>

/* The most places one command line may name (more: -E2BIG). */
#define LTD_SHWORD_MAX_PLACES 1024

enum ltd_shword_kind {
	LTD_SHWORD_PATH,    /* a word with a '/': an absolute, normalized
			       path */
	LTD_SHWORD_BARE,    /* a word without: absolute, in its directory */
	LTD_SHWORD_GLOB,    /* an unquoted pattern, absolute */
	LTD_SHWORD_UNKNOWN, /* a path-like word that cannot be resolved: as
			       written */
};

/* A place that a command line names. */
struct ltd_shword_place {
	char *path;
	enum ltd_shword_kind kind;
	bool input; /* the target of a `<` */
};

/*
 * The words of shell command line @cmd that may name a place, read as sh
 * splits them (quotes, escapes, line joins, ; & | ( ) and redirections),
 * with $CLAUDE_PROJECT_DIR (any ${...} form), $PWD,
 * $(git rev-parse --show-toplevel), $HOME and a leading ~ (with @home)
 * expanded; relative words are taken from @project (Claude Code runs hooks
 * there) or from where a `cd` in command position moved, within its
 * subshell.  Options are skipped (their =VALUE is read); output targets
 * too.  At most LTD_SHWORD_MAX_PLACES places (-E2BIG); -ENAMETOOLONG for
 * a @project too long, -ENOMEM.
 */
int ltd_shword_places(const char *cmd, const char *project, const char *home,
		      struct ltd_shword_place **out, size_t *n);
void ltd_shword_places_free(struct ltd_shword_place *v, size_t n);

#endif
