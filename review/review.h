/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The review commands' library side: `review [NAME] [--json]`, `diff`,
 * `apply`, `discard`.  The CLI (cli/review.c) parses the words and calls
 * one of these; each prints what it has to say and returns 0 or a -errno
 * with @err.
 */
#ifndef LTD_REVIEW_REVIEW_H
#define LTD_REVIEW_REVIEW_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "policy/policy.h"
#include "protect/protected.h"
#include "review/changes.h"
#include "review/store.h"

/* A review opened to be read: its record, its two trees, its changes
 * with what apply holds back marked. */
struct ltd_review_view {
	int base, dir, upper, project;
	char upper_path[PATH_MAX];
	struct ltd_review_meta meta;
	struct ltd_changes ch;
	struct ltd_policy policy;  /* the project's, for its protected paths */
	struct ltd_protected prot; /* and those paths */
	bool stopped;		   /* ltd_review_stopped() */
	bool policy_init;	   /* policy to be freed */
	bool policy_ok;
};

#define LTD_REVIEW_VIEW_INIT                                                   \
	{                                                                      \
		.base = -1, .dir = -1, .upper = -1, .project = -1              \
	}

enum {
	LTD_VIEW_STRICT = 1 << 0, /* the project's protected paths must be
				     known (apply), or the open fails */
	LTD_VIEW_QUIET = 1 << 1,  /* no warning when they are not */
};

/*
 * Open review @name and read its changes, judged as apply judges them:
 * held back, never landing, conflicts.  @user (who runs: a host fact the
 * caller probed) resolves the project's policy; without LTD_VIEW_STRICT
 * a project whose policy cannot be resolved is judged by the tables
 * alone and a warning says so (unless LTD_VIEW_QUIET).  The review's
 * record must name it.  ltd_review_view_close() in any case.
 */
int ltd_review_view_open(struct ltd_review_view *v, const char *name,
			 const struct ltd_host_user *user, unsigned how,
			 struct ltd_err *err);
void ltd_review_view_close(struct ltd_review_view *v);

/*
 * The PATHs of `@cmd NAME PATH...` (@args, @n of them) as @v's changes
 * name them (ltd_change_path_arg), each checked first: one that names no
 * change of the review is an error naming it (-EINVAL: "'p' is not a
 * change of review NAME"), so that nothing is done for the others.
 * *@out (NULL when @n is 0) is freed by ltd_review_paths_free().
 */
int ltd_review_paths(const struct ltd_review_view *v, const char *cmd,
		     char *const *args, size_t n, char ***out,
		     struct ltd_err *err);
void ltd_review_paths_free(char **paths, size_t n);

/* `review`: every review, one line each (name, project, when, counts), or
 * as a JSON array.  The counts are ltd_changes_count()'s of each review
 * as ltd_review_view_open() judges it (@user: who runs). */
int ltd_review_list_print(FILE *out, bool json,
			  const struct ltd_host_user *user,
			  struct ltd_err *err);

/* `review NAME`: a line of counts (as `review` has them), then its
 * changes, one line each, as `git status --short`; with @json, the
 * review as `review --json` lists it with "paths", each change. */
int ltd_review_status(FILE *out, const char *name, bool json,
		      const struct ltd_host_user *user, struct ltd_err *err);

/* The names of the pending reviews, for an error that wants one: ", "
 * between them, into @buf ("" when none). */
void ltd_review_names(char *buf, size_t size);

/* `discard NAME`: the review removed whole; refused while a run of it
 * is live or an apply of it is under way. */
int ltd_review_discard(FILE *out, const char *name, struct ltd_err *err);

struct ltd_diff_opts {
	const struct ltd_host_user *user; /* who runs (a host fact) */
	char *const *paths; /* only these (and what is below them); NULL:
			       all */
	size_t n_paths;
	bool stat;  /* --stat: a line per file and the totals */
	bool color; /* colours (a terminal) */
	bool shown; /* control characters of the content shown as '?'
		       (a terminal: the cage chose the bytes) */
	/* --stat's columns ($COLUMNS, a terminal's); 0: 80 */
	unsigned width;
};

/* `diff NAME [PATH...]`: a unified diff of the review, binary files and
 * links named as such. */
int ltd_review_diff(FILE *out, const char *name, const struct ltd_diff_opts *o,
		    struct ltd_err *err);

struct ltd_apply_opts {
	const struct ltd_host_user *user; /* who runs (a host fact) */
	char *const *paths; /* only these (and what is below them) */
	size_t n_paths;
	bool include_protected;
};

/*
 * `apply NAME [PATH...]`: all or nothing.  Refused while the review's
 * cage runs or another review run of the project is live; every path is
 * checked before anything lands (a change on the host since the review
 * began is a conflict: nothing lands, each is named); then each lands by
 * a staged copy and a rename, under a journal that the next apply or
 * review completes after a crash.  Held-back changes stay unless
 * @include_protected.  Returns 0, or -EEXIST for conflicts.
 */
int ltd_review_apply(FILE *out, const char *name,
		     const struct ltd_apply_opts *o, struct ltd_err *err);

#endif
