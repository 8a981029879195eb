/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One walk over git's configuration: a file's keys in order and, where
 * the caller follows them, the files its includes (include.path,
 * includeIf.<cond>.path) name, in turn, resolved as git resolves them:
 * "~/" under $HOME, a relative path from the including file's directory.
 * What a key means, and where and how a file is read, are the caller's:
 * the checks before the run read the host's configuration as git will
 * (protect/gitscan.c), the walk after the run reads only beneath the
 * project and never through a link (protect/repos.c).
 */
#ifndef LTD_GITWALK_H
#define LTD_GITWALK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"

/* A configuration file being read. */
struct ltd_gitwalk_file {
	const struct ltd_gitwalk_file *up; /* the file including it, or NULL */
	unsigned depth;			   /* of includes: 0 for the first */
	/* The include that names it, and its value with "~/" expanded
	 * (NULL for the first file). */
	const char *section, *key, *value;
	char *text; /* filled by ops->open, freed by the walk */
	size_t len;
	/* Last, and never zeroed whole (gitwalk.c's file_clear(): 16 kB of
	 * stack zeroed is four pages faulted in).  Its name: the first
	 * file's as the caller gives it; an include's value joined to the
	 * directory of up->path ("" when too long).  Its own includes are
	 * resolved from here. */
	char path[PATH_MAX * 2];
	/* How messages name it: path, unless ops->open says otherwise. */
	char shown[PATH_MAX * 2];
};

struct ltd_gitwalk;

/* git's own bound on nested includes. */
#define LTD_GIT_MAX_INCLUDE_DEPTH 10

/* How many files one walk of the user's configuration reads at the most:
 * a file that includes itself twice would otherwise cost 2^10 reads.  The
 * checks before the run refuse a configuration of more (gitscan.c); the
 * exit walk says it did not read it whole (githookspath.c). */
#define LTD_GIT_MAX_CONFIG_FILES 100

struct ltd_gitwalk_ops {
	/* Each key of w->cur, in order (as ltd_gitconfig_parse() reads
	 * them): 0 to go on; anything else stops the walk and is returned.
	 * Follows an include by calling ltd_gitwalk_include(). */
	int (*key)(struct ltd_gitwalk *w, const char *section, const char *key,
		   const char *val, struct ltd_err *err);
	/* Read @f (f->path) into f->text and f->len: 0; 1 when it is not
	 * read (missing, or not the walk's to follow); a negative errno,
	 * with @err, stops the walk. */
	int (*open)(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		    struct ltd_err *err);
	/* Optional: after the keys of @f, which ops->open read. */
	void (*close)(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f);
};

struct ltd_gitwalk {
	const struct ltd_gitwalk_ops *ops;
	void *ctx;	    /* the caller's */
	unsigned max_depth; /* includes are followed from files above it */
	struct ltd_gitwalk_file *cur; /* the file being read */
};

/* The file @path, read by ops->open, and what it includes. */
int ltd_gitwalk_file(struct ltd_gitwalk *w, const char *path,
		     struct ltd_err *err);

/* The file @f, read by the caller (path, shown, text and len set; the
 * walk frees the text), and what it includes. */
int ltd_gitwalk_text(struct ltd_gitwalk *w, struct ltd_gitwalk_file *f,
		     struct ltd_err *err);

/* @section.@key names a file git includes. */
bool ltd_gitwalk_is_include(const char *section, const char *key);

/* The file an include's @val names, as git takes it from w->cur: "~/"
 * expanded, relative to w->cur->path's directory, into @out of @size;
 * false when it does not fit. */
bool ltd_gitwalk_include_path(const struct ltd_gitwalk *w, const char *val,
			      char *out, size_t size);

/*
 * From ops->key: when @section.@key is an include with a value and w->cur
 * is less deep than w->max_depth, the file it names is read (ops->open)
 * and walked, then w->cur is its includer again.  0 when there is nothing
 * to follow or ops->open did not read it.
 */
int ltd_gitwalk_include(struct ltd_gitwalk *w, const char *section,
			const char *key, const char *val, struct ltd_err *err);

#endif
