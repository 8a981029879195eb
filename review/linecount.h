/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lines `diff -u` (GNU diffutils) marks '+' and '-' between two
 * texts, counted here without running it: `diff NAME --stat` of a review
 * of thousands of files ran one diff(1) per file (7 ms each on the test
 * VM).  The count is exact or not given: where GNU diff's heuristics
 * could make its diff longer than a shortest one, or the work would pass
 * the bounds below, the caller asks diff(1) (decision 0163).
 */
#ifndef LTD_REVIEW_LINECOUNT_H
#define LTD_REVIEW_LINECOUNT_H

#include <stddef.h>

/* Past these a file is left to diff(1): its bytes, its lines, the edits
 * of a shortest diff (diff's own cost heuristic starts past 4096 steps
 * of its search, at least 8192 edits), the steps of the search. */
#define LTD_LINECOUNT_MAX_BYTES (16u << 20)
#define LTD_LINECOUNT_MAX_LINES (1u << 20)
#define LTD_LINECOUNT_MAX_EDITS 4000
#define LTD_LINECOUNT_MAX_STEPS (1l << 26)

struct ltd_linecount {
	unsigned add; /* lines only in @b ('+') */
	unsigned del; /* lines only in @a ('-') */
};

/* `diff -u --text a b`'s '+' and '-' lines for the texts @a (@na bytes)
 * and @b: 0; -EDOM when only diff(1) can say (see above); -ENOMEM.
 * A line is its bytes and its '\n': a last line without one differs
 * from the same line with one, as diff says "\ No newline". */
int ltd_linecount(const char *a, size_t na, const char *b, size_t nb,
		  struct ltd_linecount *out);

#endif
