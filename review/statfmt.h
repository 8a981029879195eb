/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `diff NAME --stat`'s lines, laid out as `git diff --stat` lays out its
 * own: the names padded to one width (one too long for the width cut to
 * "..." and its end), the counts right-aligned, the bars of '+' and '-'
 * scaled to the width (the largest change fills what is left of it, the
 * others in proportion, one of each at least); then the totals in git's
 * words.  What never lands (anything in a .git, a FIFO...) is said so in
 * place of counts and is not among the files changed; git's own
 * bookkeeping below a .git (its index, HEAD, objects, refs and logs:
 * what a plain `git status` or `git commit` in the cage writes) is one
 * line for that .git, its other files (config, hooks...) keep their
 * names (decision 0164).  Pure: the counts come from review/diff.c, the lines
 * go to a stream, so a test gives the files and reads the text.
 */
#ifndef LTD_REVIEW_STATFMT_H
#define LTD_REVIEW_STATFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The width when neither $COLUMNS nor a terminal says one (git's). */
#define LTD_STATFMT_WIDTH 80

enum {
	LTD_STATF_BINARY = 1 << 0,   /* "Bin": no lines counted */
	LTD_STATF_MODE = 1 << 1,     /* its mode changed */
	LTD_STATF_CONFLICT = 1 << 2, /* the host changed it: apply refuses */
	LTD_STATF_HELD = 1 << 3,     /* held back unless --include-protected */
	LTD_STATF_NEVER = 1 << 4,    /* never lands: no counts shown */
};

struct ltd_statf {
	const char *path; /* the cage chose it: shown safely */
	unsigned add, del;
	unsigned flags;
};

/* The lines of @f[@n], in that order, then the totals, to @out, in
 * @width columns (0: LTD_STATFMT_WIDTH); the bars coloured as git
 * colours them when @color. */
void ltd_statfmt(FILE *out, const struct ltd_statf *f, size_t n, unsigned width,
		 bool color);

#endif
