/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `diff NAME --stat`'s lines: a line per file (its name, its count of
 * '+' and '-' lines, a bar of them) and the totals.  Pure: the counts
 * come from review/diff.c, the lines go to a stream, so a test gives the
 * files and reads the text.
 */
#ifndef LTD_REVIEW_STATFMT_H
#define LTD_REVIEW_STATFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
	LTD_STATF_BINARY = 1 << 0,   /* "Bin": no lines counted */
	LTD_STATF_MODE = 1 << 1,     /* its mode changed */
	LTD_STATF_CONFLICT = 1 << 2, /* the host changed it: apply refuses */
};

struct ltd_statf {
	const char *path; /* the cage chose it: shown safely */
	unsigned add, del;
	unsigned flags;
};

/* The lines of @f[@n], in that order, then the totals, to @out; the
 * bars coloured as git colours them when @color. */
void ltd_statfmt(FILE *out, const struct ltd_statf *f, size_t n, bool color);

#endif
