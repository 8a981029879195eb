/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How an apply lands, and how a crash part-way is completed.
 *
 * The changes become a list of operations on the project, each opened
 * beneath the project without following a link or crossing a mount
 * (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV), each
 * idempotent: "put" renames a staged copy over the path (atomic), "remove"
 * unlinks a file or link, "rmdir" an emptied directory, "mkdir" makes one
 * (0700 until its contents landed), "chmod" sets a mode (directories'
 * last, deepest first).  The staged copies are written first, into a
 * directory of the apply's own in the project (one filesystem: rename
 * cannot fail for crossing one).
 *
 * The journal (journal.json in the review's directory, written to a
 * temporary, synced, renamed) says "staging" before the first copy is
 * made and "landing" once every copy is synced: the next apply, review or
 * discard removes the staging directory of the first (nothing had
 * landed), and lands the second again from the top (every operation is
 * idempotent), then tidies the review.
 */
#ifndef LTD_REVIEW_JOURNAL_H
#define LTD_REVIEW_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

enum ltd_op_kind {
	LTD_LOP_PUT,
	LTD_LOP_REMOVE,
	LTD_LOP_RMDIR,
	LTD_LOP_MKDIR,
	LTD_LOP_CHMOD,
};

struct ltd_land_op {
	enum ltd_op_kind kind;
	char *path;	/* relative to the project */
	unsigned stage; /* LTD_LOP_PUT: the staged copy's number */
	mode_t mode;	/* LTD_LOP_CHMOD */
};

struct ltd_journal {
	bool landing;	   /* false: still staging */
	char staging[128]; /* the staging directory's name in the project */
	char project[4096];
	struct ltd_land_op *ops;
	size_t n_ops;
	/* The changes that land, for the tidy-up of the upper. */
	char **landed;
	size_t n_landed;
	/* A test's crash (LTD_TEST_APPLY_CRASH, with the test hooks on): the
	 * process is killed after this many operations; 0: never. */
	size_t crash_after;
};

int ltd_journal_add_op(struct ltd_journal *j, enum ltd_op_kind kind,
		       const char *path, unsigned stage, mode_t mode);
int ltd_journal_add_landed(struct ltd_journal *j, const char *path);
void ltd_journal_free(struct ltd_journal *j);

/* Pure: the journal as JSON text (malloc'd), and back. */
char *ltd_journal_format(const struct ltd_journal *j);
int ltd_journal_parse(const char *text, struct ltd_journal *j,
		      struct ltd_err *err);

/* journal.json in the review's directory @dir: written (synced) or
 * read; -ENOENT when there is none. */
int ltd_journal_save(int dir, const struct ltd_journal *j, struct ltd_err *err);
int ltd_journal_load(int dir, struct ltd_journal *j, struct ltd_err *err);
int ltd_journal_remove(int dir, struct ltd_err *err);

/* Run every operation on the project @project (an fd) in order, the
 * staged copies taken from @staging (an fd).  0, or -errno naming the
 * path. */
int ltd_journal_land(const struct ltd_journal *j, int project, int staging,
		     struct ltd_err *err);

#endif
