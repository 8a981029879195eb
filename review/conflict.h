/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conflicts: a change whose project copy the host changed since the
 * review's first run began (its ctime is later: the cage cannot set a
 * ctime back, and nothing is recorded at start, so the check costs what
 * the review changed, not the project's size).  Apply refuses them;
 * `review NAME`, `diff` and the run's summary mark them beforehand.
 */
#ifndef LTD_REVIEW_CONFLICT_H
#define LTD_REVIEW_CONFLICT_H

#include "review/changes.h"
#include "review/store.h"

/*
 * Why @c cannot land as the project (@project, an fd) now is, or NULL:
 * made there since (an addition), gone from it, changed since @m's review
 * began (unless apply itself landed that copy).  The caller knows whether
 * @c lies below a directory the apply makes (then it has no conflict).
 */
const char *ltd_review_conflict(int project, const struct ltd_review_meta *m,
				const struct ltd_change *c);

/* Mark every change of @ch that could land and conflicts
 * (LTD_CHF_CONFLICT, and why): all but those below a directory the
 * review makes and those that never land.  A rename conflicts when its
 * deletion does.  0, or -ENOMEM. */
int ltd_review_mark_conflicts(struct ltd_changes *ch, int project,
			      const struct ltd_review_meta *m);

#endif
