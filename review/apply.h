/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply's parts, shared by the review commands (review.h has apply). */
#ifndef LTD_REVIEW_APPLY_H
#define LTD_REVIEW_APPLY_H

#include <stdio.h>

#include "common/error.h"
#include "review/changes.h"
#include "review/journal.h"
#include "review/store.h"

/*
 * An apply of review @name that a crash interrupted: completed (it was
 * landing) or rolled back (it was still staging), and said on @out.  0
 * when there was none; refused while a run of the review is live.
 */
int ltd_review_recover_pending(FILE *out, const char *name,
			       struct ltd_err *err);

/*
 * After the landing: the review tidied.  What landed leaves the upper
 * directory (an opaque directory only once nothing below it stays
 * pending), each landed path's ctime in the project recorded in @meta (a
 * later host change is a conflict again), and the review removed when
 * nothing but what never lands is left.  Sets *@removed.
 */
int ltd_review_tidy(int base, int dir, int upper, int project,
		    struct ltd_review_meta *meta, const struct ltd_journal *j,
		    bool *removed, struct ltd_err *err);

#endif
