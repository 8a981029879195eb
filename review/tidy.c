// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After an apply: the review's upper directory loses what landed, so that
 * the review shows what is still pending and a run that continues it sees
 * the project as it now is.  Nothing here decides what lands.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/file.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "review/apply.h"
#include "review/fs.h"
#include "review/held.h"

#define OPAQUE "user.overlay.opaque"

/* The upper directory @dir (relative) is opaque. */
static bool opaque(int upper, const char *dir)
{
	_cleanup_close_ int fd =
		ltd_beneath(upper, dir, O_RDONLY | O_DIRECTORY);
	char v[4];

	return fd >= 0 && fgetxattr(fd, OPAQUE, v, sizeof(v)) == 1 &&
	       v[0] == 'y';
}

static bool pending_under(const struct ltd_changes *left, const char *dir)
{
	for (size_t i = 0; i < left->n; i++)
		if (ltd_change_under(left->v[i].path, dir))
			return true;
	return false;
}

/*
 * @path may leave the upper: no opaque directory above it (or it) still
 * holds something pending.  An opaque directory hides the project's
 * entries of that name: while anything below it is pending, what landed
 * stays in it (the same bytes as the project's now: no change).
 */
static bool may_leave(int upper, const struct ltd_changes *left,
		      const char *path)
{
	char dir[4096];
	size_t n = strlen(path);

	if (n >= sizeof(dir))
		return false;
	memcpy(dir, path, n + 1);
	for (char *s = dir;; s++) {
		char was = *s;

		if (was != '/' && was != '\0')
			continue;
		*s = '\0';
		if (opaque(upper, dir) && pending_under(left, dir))
			return false;
		*s = was;
		if (!was)
			return true;
	}
}

/* Take @path out of the upper: a file, link or whiteout unlinked; a
 * directory removed when empty, else no longer opaque (nothing below it
 * is pending: the project's own entries are what the cage saw). */
static void leave(int upper, const char *path)
{
	const char *leaf;
	_cleanup_close_ int dir = ltd_beneath_parent(upper, path, &leaf);
	struct stat st;

	if (dir < 0 || fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlinkat(dir, leaf, 0);
		return;
	}
	if (unlinkat(dir, leaf, AT_REMOVEDIR) == 0)
		return;
	{
		_cleanup_close_ int fd =
			ltd_beneath(dir, leaf, O_RDONLY | O_DIRECTORY);

		if (fd >= 0)
			fremovexattr(fd, OPAQUE);
	}
}

/* What is left never lands (a `.git`'s changes never do: held.h). */
static bool only_refused(const struct ltd_changes *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (!(c->v[i].flags & LTD_CHF_REFUSED) &&
		    !ltd_review_in_dot_git(c->v[i].path))
			return false;
	return true;
}

int ltd_review_tidy(int base, int dir, int upper, int project,
		    struct ltd_review_meta *meta, const struct ltd_journal *j,
		    bool *removed, struct ltd_err *err)
{
	struct ltd_changes left = {0};
	int ret;

	*removed = false;
	for (size_t i = 0; i < j->n_landed; i++) {
		struct stat st;

		if (ltd_beneath_lstat(project, j->landed[i], &st) == 0 &&
		    ltd_review_applied_set(meta, j->landed[i], st.st_ctim) < 0)
			return ltd_err_set(err, ENOMEM, "out of memory");
	}
	ret = ltd_changes_read(upper, project, &left, err);
	if (ret < 0)
		return ret;
	for (size_t i = j->n_landed; i-- > 0;)
		if (may_leave(upper, &left, j->landed[i]))
			leave(upper, j->landed[i]);
	ltd_changes_free(&left);
	ret = ltd_changes_read(upper, project, &left, err);
	if (!ret && only_refused(&left)) {
		ltd_changes_free(&left);
		*removed = true;
		return ltd_review_remove(base, meta->name, err);
	}
	ltd_changes_free(&left);
	return ret < 0 ? ret : ltd_review_meta_save(dir, meta, err);
}

/* Finish @j, an interrupted apply of the review in @dir. */
static int finish(FILE *out, const char *name, int base, int dir,
		  struct ltd_journal *j, struct ltd_err *err)
{
	struct ltd_review_meta meta = {0};
	_cleanup_close_ int project = -1, staging = -1, upper = -1;
	bool removed = false;
	int ret;

	project = ltd_open_nofollow(j->project, O_RDONLY | O_DIRECTORY);
	if (project < 0)
		return ltd_err_sys(err,
				   "an interrupted apply of review '%s': "
				   "its project %s",
				   name, j->project);
	if (!j->landing) {
		/* Nothing had landed: the staged copies go. */
		ret = ltd_remove_tree(project, j->staging);
		if (ret < 0) {
			errno = -ret;
			return ltd_err_sys(err, "remove '%s/%s'", j->project,
					   j->staging);
		}
		ret = ltd_journal_remove(dir, err);
		if (!ret) {
			fprintf(out, "ltd-native: an interrupted apply of "
				     "review ");
			ltd_fput_shown(out, name);
			fputs(" was undone: nothing of it had landed\n", out);
		}
		return ret;
	}
	staging = ltd_beneath(project, j->staging, O_RDONLY | O_DIRECTORY);
	ret = ltd_journal_land(j, project, staging, err);
	if (!ret)
		ret = ltd_review_meta_load(dir, &meta, err);
	upper = ret ? -1 : ltd_beneath(dir, "upper", O_RDONLY | O_DIRECTORY);
	if (!ret && upper < 0)
		ret = ltd_err_sys(err, "review '%s': its upper directory",
				  name);
	if (!ret)
		ret = ltd_review_tidy(base, dir, upper, project, &meta, j,
				      &removed, err);
	if (!ret)
		unlinkat(project, j->staging, AT_REMOVEDIR);
	if (!ret && !removed)
		ret = ltd_journal_remove(dir, err);
	ltd_review_meta_free(&meta);
	if (ret < 0)
		return ltd_err_prefix(err,
				      "an interrupted apply of review "
				      "'%s' could not be completed",
				      name);
	fprintf(out, "ltd-native: an interrupted apply of review ");
	ltd_fput_shown(out, name);
	fprintf(out, " was completed: %zu change%s landed\n", j->n_landed,
		j->n_landed == 1 ? "" : "s");
	return 0;
}

/*
 * The journal and the record are the review's to trust only when they
 * agree with each other and name this review: both are read back from
 * the store, and a store bound into a cage (the gate refuses it, but
 * fail closed all the same) could have been written by it.  The file at
 * fault is named.
 */
static int check_journal(const char *base_path, const char *name, int dir,
			 const struct ltd_journal *j, struct ltd_err *err)
{
	struct ltd_review_meta m = {0};
	int ret = ltd_review_meta_load(dir, &m, err);

	if (ret < 0)
		return ltd_err_prefix(err, "%s/%s", base_path, name);
	if (strcmp(m.name, name) != 0)
		ret = ltd_err_set(err, EINVAL,
				  "%s/%s/meta.json names another review "
				  "('%s'): refusing its journal",
				  base_path, name, m.name);
	else if (strcmp(j->project, m.project) != 0)
		ret = ltd_err_set(err, EINVAL,
				  "%s/%s/journal.json names the project %s, "
				  "not the review's (%s): refusing it",
				  base_path, name, j->project, m.project);
	ltd_review_meta_free(&m);
	return ret;
}

int ltd_review_recover_pending(FILE *out, const char *name, struct ltd_err *err)
{
	struct ltd_journal j = {0};
	char base_path[PATH_MAX];
	_cleanup_close_ int base = ltd_reviews_open(false, base_path, err);
	_cleanup_close_ int dir = -1, lock = -1, plock = -1;
	int ret;

	if (base < 0) {
		*err = (struct ltd_err){0};
		return 0; /* no reviews: the caller says so */
	}
	dir = ltd_review_dir(base, name, false, err);
	if (dir < 0) {
		*err = (struct ltd_err){0};
		return 0;
	}
	ret = ltd_journal_load(dir, &j, err);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ltd_err_prefix(err, "%s/%s", base_path, name);
	lock = ltd_review_lock(dir, err);
	if (lock < 0) {
		ltd_journal_free(&j);
		return lock == -EWOULDBLOCK
			       ? ltd_err_set(err, EBUSY,
					     "review '%s' is being applied",
					     name)
			       : lock;
	}
	ret = check_journal(base_path, name, dir, &j, err);
	plock = ret < 0 ? ret
			: ltd_review_project_lock(base, j.project, LOCK_EX,
						  err);
	ret = plock < 0 ? plock : finish(out, name, base, dir, &j, err);
	ltd_journal_free(&j);
	return ret;
}
