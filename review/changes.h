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

#include <jansson.h>
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
	LTD_CHF_CONFLICT = 1 << 7, /* the project's copy changed on the host
				      since the review began (conflict.h) */
};

struct ltd_change {
	char *path; /* relative to the project, the upper's own bytes */
	enum ltd_change_kind kind;
	unsigned flags;
	mode_t mode;	 /* in the upper: type and permissions; 0: deleted */
	mode_t old_mode; /* in the project; 0 when absent */
	off_t size, old_size;
	char *target;	      /* a link's text, in the upper */
	char *old_target;     /* and in the project */
	char *from;	      /* a rename: the path deleted for it */
	const char *why;      /* held or refused: the reason (static, or
				 why_own) */
	char *why_own;	      /* a reason made for this change */
	const char *conflict; /* LTD_CHF_CONFLICT: why (static) */
	mode_t from_mode;     /* a rename: the mode of the path deleted */
	dev_t dev;	      /* the upper's file (hard links) */
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

/* Undo the renames whose addition is held back or never lands: their
 * deletion is then shown, counted and judged as the deletion it is (a
 * `mv guard.txt .git/` must not hide that guard.txt goes). */
void ltd_changes_unpair_held(struct ltd_changes *c);

/* Mark @c refused (if it was not) with @why. */
void ltd_change_refuse(struct ltd_change *c, const char *why);

/*
 * What a change is, for its count and its JSON "kind": each change that
 * `review NAME` shows (not a deletion a rename accounts for) is exactly
 * one of these, so the counts add up to its lines.
 */
enum ltd_change_cat {
	LTD_CAT_ADDED,	 /* a file added */
	LTD_CAT_CHANGED, /* a file's content (and maybe its mode) */
	LTD_CAT_DELETED, /* a file or link deleted */
	LTD_CAT_RENAMED, /* an addition whose content a deletion had */
	LTD_CAT_MODE,	 /* a file's or directory's mode alone */
	LTD_CAT_TYPE,	 /* a directory, file or link replaced by another */
	LTD_CAT_LINK,	 /* a link added, or its text changed */
	LTD_CAT_DIR,	 /* a directory added or deleted */
	LTD_CAT_N,
};

/* Whether `review NAME` shows @c (a deletion a rename accounts for is
 * shown by its rename). */
bool ltd_change_shown(const struct ltd_change *c);
enum ltd_change_cat ltd_change_category(const struct ltd_change *c);
/* The JSON "kind" of @cat: "added", "changed", ..., "dir". */
const char *ltd_change_cat_name(enum ltd_change_cat cat);

/* What `review`, `review NAME` and the run's summary count: one function,
 * ltd_changes_count(), for all three.  Each line is counted once: a change
 * that never lands in refused alone (apply does not offer it), any other
 * in its category, and held or a conflict on top. */
struct ltd_change_counts {
	unsigned added, changed, deleted, renamed, modes, types, links, dirs;
	unsigned held, refused, conflicts;
};

void ltd_changes_count(const struct ltd_changes *c,
		       struct ltd_change_counts *n);

/* "3 added, 1 changed, ..." (only what is not 0; "no changes"). */
void ltd_counts_print(FILE *out, const struct ltd_change_counts *n);

/* The counts as a JSON object (the keys of `review --json`'s "changes"),
 * and one change as `review NAME --json` shows it: path, status letter,
 * kind, from, target, modes, held and why, never_lands, conflict and
 * why.  NULL when out of memory. */
json_t *ltd_counts_json(const struct ltd_change_counts *n);
json_t *ltd_change_json(const struct ltd_change *c);

/* The one-letter status `review NAME` shows for @c (A, M, D, R, T), and
 * the mark after it: '-' never lands, 'C' a conflict (the host changed
 * its project copy since the review began), '!' held back, ' ' lands. */
char ltd_change_letter(const struct ltd_change *c);
char ltd_change_mark(const struct ltd_change *c);

/*
 * One line of `review NAME` (like `git status --short`): "XY PATH", a
 * rename "R  FROM -> PATH", a link's text, a mode or type change, and
 * the reason of a held or refused change, and a conflict's.  Names are shown as
 * ltd_fput_shown() shows them.  A deletion a rename accounts for is not
 * shown (its rename is).
 */
void ltd_change_print(FILE *out, const struct ltd_change *c);

/* git's own bookkeeping right below a .git: its index, HEAD, ORIG_HEAD,
 * FETCH_HEAD, COMMIT_EDITMSG, packed-refs, objects/, refs/, logs/. */
#define LTD_GIT_OWN_ROWS 9
extern const char *const ltd_git_own_names[LTD_GIT_OWN_ROWS];

/*
 * @path is git's own bookkeeping right below its last .git (".git/index",
 * "sub/.git/objects/3e/..."): the length of the .git's path with its '/'
 * ("sub/.git/"), its row of ltd_git_own_names in *@row; else 0.  Anything
 * else of a .git (config, hooks, info, a lock) keeps its name.
 */
size_t ltd_change_git_own(const char *path, size_t *row);

/*
 * Lines of changes as ltd_change_print() prints them, each after
 * @indent, but a .git's own bookkeeping that never lands (a commit in the
 * cage: its index, objects, refs, logs) in one line for that .git, as
 * `diff NAME --stat` has it ("-- .git/  git's own index, objects/, refs/
 * (23 files)  [never lands: ...]").  _add() is true when @c began a line
 * (its own, or its .git's); _end() prints the .git's line still pending.
 */
struct ltd_change_lines {
	FILE *out;
	const char *indent;
	const struct ltd_change *git; /* the first of the .git's line */
	size_t git_len, n_git;
	unsigned rows; /* of ltd_git_own_names, as bits */
};

bool ltd_change_lines_add(struct ltd_change_lines *l,
			  const struct ltd_change *c);
void ltd_change_lines_end(struct ltd_change_lines *l);

/*
 * A PATH of `apply`'s or `diff`'s command line as the changes name it:
 * relative to the project @project (a path under it loses it), no "./"
 * or leading '/', no trailing '/'; "" for the whole project.  Written to
 * @buf; false when it does not fit.
 */
bool ltd_change_path_arg(const char *project, const char *arg, char *buf,
			 size_t size);

/* @c is named by @p (ltd_change_path_arg's): its path or a rename's
 * old name is @p or below it ("" names every change). */
bool ltd_change_named(const struct ltd_change *c, const char *p);

/* The mode @c changes (a file's or directory's, a renamed file's against
 * its old name's), the old one and the one it lands with; false when
 * it changes none. */
bool ltd_change_mode_change(const struct ltd_change *c, mode_t *old,
			    mode_t *new_mode);

#endif
