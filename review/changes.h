/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A review's changes, read from its upper directory against the project.
 *
 * The upper directory is hostile input: the cage chose every name, type,
 * mode, link text and xattr in it, and a hand-made one can hold anything.
 * It is read beneath its root without following a link or crossing a
 * mount, and only as overlayfs itself would show it: a character device
 * 0/0 is a whiteout (the path is deleted), a directory with the xattr
 * user.overlay.opaque "y" hides what the project holds there; every other
 * xattr is ignored.  What the cage could not have meant to land is marked
 * refused (a device node, a FIFO, a socket, a hard link to a file outside
 * the upper); set-uid and set-gid bits are dropped.
 *
 * The list is in landing order: a directory before what it holds, a
 * deletion of what a directory holds before the directory's.
 */
#ifndef LTD_REVIEW_CHANGES_H
#define LTD_REVIEW_CHANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/error.h"

enum ltd_change_kind {
	LTD_CH_ADD,    /* not in the project */
	LTD_CH_MODIFY, /* same type, other content (a link: other text) */
	LTD_CH_MODE,   /* same content, other permissions */
	LTD_CH_TYPE,   /* replaces what the project has there (a directory,
			  a file, a link: another of them) */
	LTD_CH_DELETE, /* a whiteout, or hidden by an opaque directory */
};

enum {
	LTD_CHF_HELD = 1 << 0,	   /* held back unless --include-protected */
	LTD_CHF_REFUSED = 1 << 1,  /* never lands */
	LTD_CHF_SUID = 1 << 2,	   /* set-uid/set-gid dropped */
	LTD_CHF_RENAMED = 1 << 3,  /* a deletion a rename accounts for */
	LTD_CHF_OPAQUE = 1 << 4,   /* a directory that hides the project's */
	LTD_CHF_IMPLICIT = 1 << 5, /* a deletion without a whiteout (below
				      an opaque or a replaced directory) */
	LTD_CHF_GIT = 1 << 6,	   /* lands by the project .git's own rules
				      (review/held.c) */
};

struct ltd_change {
	char *path; /* relative to the project, the upper's own bytes */
	enum ltd_change_kind kind;
	unsigned flags;
	mode_t mode;	 /* in the upper: type and permissions; 0: deleted */
	mode_t old_mode; /* in the project; 0 when absent */
	off_t size, old_size;
	char *target;	  /* a link's text, in the upper */
	char *old_target; /* and in the project */
	char *from;	  /* a rename: the path deleted for it */
	const char *why;  /* held or refused: the reason (static) */
	dev_t dev;	  /* the upper's file (hard links) */
	ino_t ino;
	nlink_t nlink;
};

struct ltd_changes {
	struct ltd_change *v;
	size_t n;
};

/* The mode a file of the upper lands with: its type and permissions,
 * never set-uid or set-gid. */
mode_t ltd_change_land_mode(mode_t upper);

/*
 * Read the changes of the upper directory @upper (an fd) against the
 * project @project (an fd).  Renames are found by content (a deletion and
 * an addition of the same bytes).  0, or a -errno with @err.
 */
int ltd_changes_read(int upper, int project, struct ltd_changes *out,
		     struct ltd_err *err);
void ltd_changes_free(struct ltd_changes *c);

/* @path is @dir or below it (paths relative to the project). */
bool ltd_change_under(const char *path, const char *dir);

/*
 * A regular file of the upper, @name in @dir as the walk saw it (@st),
 * opened to read: never a FIFO waited on, never a link followed, the same
 * inode.  One the cage made unreadable (chmod 000) is opened up for the
 * read and given its mode back.  -1 with errno.
 */
int ltd_open_upper_file(int dir, const char *name, const struct stat *st);

/* Find renames in @c: a deletion and an addition of the same bytes
 * (SHA-256 of the project's and of the upper's file).  0 or -errno. */
int ltd_changes_renames(struct ltd_changes *c, int upper, int project);

/* Mark @c refused (if it was not) with @why. */
void ltd_change_refuse(struct ltd_change *c, const char *why);

/* What `review` counts, and the run's summary. */
struct ltd_change_counts {
	unsigned added, changed, deleted, renamed, modes, links, types;
	unsigned held, refused;
};

void ltd_changes_count(const struct ltd_changes *c,
		       struct ltd_change_counts *n);

/* "3 added, 1 changed, ..." (only what is not 0; "no changes"). */
void ltd_counts_print(FILE *out, const struct ltd_change_counts *n);

/* The one-letter status `review NAME` shows for @c (A, M, D, R, T), and
 * the mark after it: '!' held back, '-' never lands, ' ' lands. */
char ltd_change_letter(const struct ltd_change *c);
char ltd_change_mark(const struct ltd_change *c);

/*
 * One line of `review NAME` (like `git status --short`): "XY PATH", a
 * rename "R  FROM -> PATH", a link's text, a mode or type change, and
 * the reason of a held or refused change.  Names are shown as
 * ltd_fput_shown() shows them.  A deletion a rename accounts for is not
 * shown (its rename is).
 */
void ltd_change_print(FILE *out, const struct ltd_change *c);

#endif
