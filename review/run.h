/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A review run, the launcher's side: before clone, the review is created
 * or continued and locked, and its layers resolved; after the cage is
 * gone, its summary.  The cage's init mounts the overlay
 * (review/overlay.h) from the layers
 * (docs/decisions/0125-review-overlay-layers.md).
 */
#ifndef LTD_REVIEW_RUN_H
#define LTD_REVIEW_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "policy/policy.h"
#include "protect/protected.h"
#include "review/overlay.h"
#include "review/store.h"

struct ltd_review_run {
	int base;	     /* the reviews directory */
	int dir;	     /* the review's */
	int lock;	     /* the review's lock, held for the run */
	int project_lock;    /* the project's apply lock, shared */
	char path[PATH_MAX]; /* the review's directory */
	struct ltd_review_meta meta;
	struct ltd_review_layers layers;
	bool fresh;	 /* this run began it */
	bool marked;	 /* begun: its record read or made, its mark set */
	bool summarized; /* ltd_review_summary() ran: the cage has been */
};

#define LTD_REVIEW_RUN_INIT                                                    \
	{                                                                      \
		.base = -1, .dir = -1, .lock = -1, .project_lock = -1          \
	}

/* Pure: whether the kernel release @release ("6.1.0-13-amd64") has
 * rootless overlayfs (5.11 or later). */
bool ltd_review_kernel_ok(const char *release);

/*
 * `run --review NAME`, before clone: the review NAME created (0700) or,
 * when pending, continued; refused when it belongs to another project,
 * when a run of it is live or an apply of it is under way (or was
 * interrupted), when an apply into the project is under way, or when this
 * kernel cannot mount it.  Locks held until ltd_review_end().  Records the
 * first run's start (the conflict check's time).
 */
int ltd_review_begin(const struct ltd_policy *p, struct ltd_review_run *r,
		     struct ltd_err *err);

/*
 * After the run (the cage gone): a review that holds no change is
 * removed ("no changes, removed"), unless --keep-running; otherwise,
 * unless --quiet, the review's name and what it holds, on @out: the
 * counts `review` gives, its changes as `review NAME` shows them (the
 * first 40, and every one held back, never landing or in conflict), and
 * how to see and land them.  @user: who runs (the project's policy).
 */
void ltd_review_summary(FILE *out, struct ltd_review_run *r,
			const struct ltd_policy *p,
			const struct ltd_host_user *user);

/* Let go of the locks and descriptors. */
void ltd_review_end(struct ltd_review_run *r);

#endif
