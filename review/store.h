/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where reviews are kept.  One directory per user,
 * $XDG_STATE_HOME/ltd-native/reviews (~/.local/state/... when unset),
 * owned by the user, mode 0700, or refused; in it:
 *
 *   NAME/              0700, one per review
 *     meta.json        the project, when the review began, its runs, what
 *                      apply landed (written by temporary and rename)
 *     upper/ work/     the overlay's upper and work directories (0700):
 *                      the cage's writes, read by ltd-native as hostile
 *     lock             flock: held exclusive by the launcher of a run of
 *                      the review for its whole life, and by `apply`;
 *                      holds the boot id of a run from its start until its
 *                      review was made durable at its end (review/run.c)
 *     journal.json     only while an apply lands (journal.h; its staged
 *                      copies are in the project, one filesystem)
 *   .apply-HASH.lock   flock per project (HASH: SHA-256 of its path):
 *                      exclusive while an apply lands, shared by each
 *                      review run of that project for its whole life
 *
 * The kernel, not a pid, says whether a review's cage is live: its lock.
 */
#ifndef LTD_REVIEW_STORE_H
#define LTD_REVIEW_STORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "common/error.h"
#include "common/names.h"

/* What apply landed: a path and its ctime in the project after landing
 * (a later host change moves it: a conflict again). */
struct ltd_review_applied {
	char *path;
	struct timespec ctime;
};

struct ltd_review_meta {
	char name[LTD_NAME_MAX + 1];
	char project[PATH_MAX];
	struct timespec began; /* the first run's start (coarse clock) */
	long long last_run;    /* seconds since the epoch */
	unsigned runs;
	struct ltd_review_applied *applied;
	size_t n_applied;
};

void ltd_review_meta_free(struct ltd_review_meta *m);

/* Pure: @m as JSON text (malloc'd), and back. */
char *ltd_review_meta_format(const struct ltd_review_meta *m);
int ltd_review_meta_parse(const char *text, struct ltd_review_meta *m,
			  struct ltd_err *err);

/* The ctime apply recorded for @path, or NULL. */
const struct timespec *ltd_review_applied_at(const struct ltd_review_meta *m,
					     const char *path);
/* Record (or update) @path's ctime after apply. */
int ltd_review_applied_set(struct ltd_review_meta *m, const char *path,
			   struct timespec ctime);

/*
 * Open the reviews directory (creating it and its parents, 0700, with
 * @create), checked as the user's own and private.  Its real path in
 * @path when not NULL (PATH_MAX).  -ENOENT when absent and !@create.
 */
int ltd_reviews_open(bool create, char *path, struct ltd_err *err);

/* Where reviews are kept (created or not): into @buf. */
int ltd_reviews_path(char *buf, size_t size, struct ltd_err *err);

/* Where reviews are kept, or the nearest directory above it that exists
 * (`doctor` probes its filesystem and creates nothing): into @buf. */
int ltd_reviews_probe_dir(char *buf, size_t size, struct ltd_err *err);

/* Open review @name's directory beneath @base (creating it with
 * @create); -ENOENT (with @err) when there is no such review. */
int ltd_review_dir(int base, const char *name, bool create,
		   struct ltd_err *err);

int ltd_review_meta_load(int dir, struct ltd_review_meta *m,
			 struct ltd_err *err);
/* meta.json written to a temporary, synced, renamed into place: the
 * record as apply leaves it (durable before it replaces the old one). */
int ltd_review_meta_save(int dir, const struct ltd_review_meta *m,
			 struct ltd_err *err);
/* The two halves of a save without its sync, for a caller that syncs
 * between them (a review run: review/run.c): meta.json.tmp written, then
 * renamed over meta.json. */
int ltd_review_meta_stage(int dir, const struct ltd_review_meta *m,
			  struct ltd_err *err);
int ltd_review_meta_place(int dir, struct ltd_err *err);

/*
 * The review's lock: exclusive, without waiting.  Returns its fd (the
 * lock lasts while it is open), -EWOULDBLOCK when a run or an apply holds
 * it, or another -errno.
 */
int ltd_review_lock(int dir, struct ltd_err *err);

/* Whether review @name's lock is held by someone (a live run, an apply). */
bool ltd_review_busy(int dir);

/* The per-project apply lock (its fd), @how LOCK_SH or LOCK_EX, | LOCK_NB
 * to not wait; -EWOULDBLOCK when held. */
int ltd_review_project_lock(int base, const char *project, int how,
			    struct ltd_err *err);

/* One review, as `review` lists it. */
struct ltd_review_info {
	struct ltd_review_meta meta; /* only its name when !record */
	bool live;		     /* a run of it holds its lock */
	bool record;		     /* its meta.json is there */
	bool stopped;		     /* ltd_review_stopped() */
};

/* This boot's id (/proc/sys/kernel/random/boot_id, newline and all;
 * "unknown" when /proc does not say: never equal to an id a run wrote). */
void ltd_boot_id(char *buf, size_t size);

/*
 * Did the machine stop during a run of the review in @dir (decision 0145)?
 * Either the run after it found that and left the file "stopped" (which
 * stays with the review), or no run has been since and the lock file
 * still holds the mark of a run begun in another boot.
 */
bool ltd_review_stopped(int dir);
/* The file "stopped" left in @dir; 0 or -errno. */
int ltd_review_note_stopped(int dir);
/* The error for review @name (in the store at @base_path) with an upper
 * and no record: -ENOENT, saying where its files are and what removes it. */
int ltd_review_no_record(const char *name, const char *base_path,
			 struct ltd_err *err);
/* A warning that review @name's run was cut by a stop of the machine:
 * what it wrote may not all be on the disk. */
void ltd_review_say_stopped(const char *name);

/* Every review, sorted by name (one with an upper and no record as its
 * name alone, !record); what cannot be read is skipped.
 * ltd_review_infos_free(). */
int ltd_review_list(int base, struct ltd_review_info **out, size_t *n,
		    struct ltd_err *err);
void ltd_review_infos_free(struct ltd_review_info *v, size_t n);

/* Another review (not @except) of @project whose run is live: its name
 * into @who; false when there is none. */
bool ltd_review_other_live(int base, const char *project, const char *except,
			   char *who, size_t size);

/* Remove review @name whole (upper, work and all).  0, or -errno. */
int ltd_review_remove(int base, const char *name, struct ltd_err *err);

#endif
