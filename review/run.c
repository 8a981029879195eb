// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/path.h"
#include "common/text.h"
#include "review/changes.h"
#include "review/fs.h"
#include "review/held.h"
#include "review/review.h"

bool ltd_review_kernel_ok(const char *release)
{
	unsigned major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 5 || (major == 5 && minor >= 11);
}

/* upper/ or work/ in the review: ours, a directory, 0700. */
static int layer_dir(int dir, const char *name, struct ltd_err *err)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (mkdirat(dir, name, 0700) < 0 && errno != EEXIST)
		return ltd_err_sys(err, "--review: create %s", name);
	fd = ltd_beneath(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0)
		return ltd_err_sys(err, "--review: %s", name);
	if (st.st_uid != geteuid())
		return ltd_err_set(err, EPERM,
				   "--review: %s is not yours (uid %u)", name,
				   (unsigned)st.st_uid);
	return 0;
}

static void coarse_now(struct timespec *t)
{
	clock_gettime(CLOCK_REALTIME_COARSE, t);
}

/*
 * The review's record: a new one, or the pending one if it is this
 * project's.  A new record is written now, not synced: it is made
 * durable at the end with what the cage wrote, if the review stays
 * (keep()), and a review that ends empty is removed without a sync.  A
 * pending record is rewritten (its runs) only then too, after that sync:
 * the one on the disk stays whole whatever happens to this run.
 */
static int begin_meta(const struct ltd_policy *p, struct ltd_review_run *r,
		      struct ltd_err *err)
{
	struct timespec now;
	struct stat st;
	int ret = ltd_review_meta_load(r->dir, &r->meta, err);

	coarse_now(&now);
	/* Its upper is made after its record: an upper with no record is
	 * a first run the machine stopped before the record reached the
	 * disk, whose project nothing says any more. */
	if (ret == -ENOENT &&
	    fstatat(r->dir, "upper", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return ltd_err_set(err, EUCLEAN,
				   "--review: review '%s' holds what a cage "
				   "wrote but has no record (meta.json): the "
				   "machine may have stopped during its first "
				   "run; 'ltd-native discard %s' removes it",
				   p->review, p->review);
	if (ret == -ENOENT) {
		r->fresh = true;
		r->meta = (struct ltd_review_meta){.began = now};
		snprintf(r->meta.name, sizeof(r->meta.name), "%s", p->review);
		if (strlen(p->project) >= sizeof(r->meta.project))
			return ltd_err_set(err, ENAMETOOLONG,
					   "--review: the project's path is "
					   "too long");
		memcpy(r->meta.project, p->project, strlen(p->project) + 1);
	} else if (ret < 0) {
		return ltd_err_prefix(err, "--review %s", p->review);
	} else if (strcmp(r->meta.project, p->project) != 0) {
		return ltd_err_set(err, EEXIST,
				   "--review: review '%s' belongs to the "
				   "project %s, not this one (%s); apply or "
				   "discard it, or choose another name",
				   p->review, r->meta.project, p->project);
	}
	r->meta.runs++;
	r->meta.last_run = (long long)now.tv_sec;
	if (!r->fresh)
		return 0;
	ret = ltd_review_meta_stage(r->dir, &r->meta, err);
	return ret < 0 ? ret : ltd_review_meta_place(r->dir, err);
}

/*
 * The run's mark, in the review's lock file: the boot it began in,
 * written now and cleared at its end once the review is durable
 * (keep()); a review removed at its end goes with its lock.  A mark found
 * here is a run that ended without that: its launcher killed in this
 * boot (what its cage wrote is in the page cache, whole: nothing to say)
 * or the machine stopped (another boot: the overlay is volatile, so what
 * that run's cage wrote, even what it synced, may not have reached the
 * disk: said, for the review to be read with that in mind; decision
 * 0145).  overlayfs's scratch (work/work, with the mark of a volatile
 * mount, which would refuse the next one) goes either way.
 */
static int begin_mark(const struct ltd_policy *p, struct ltd_review_run *r,
		      struct ltd_err *err)
{
	char boot[64], was[64];
	_cleanup_close_ int work = -1;
	ssize_t n = pread(r->lock, was, sizeof(was) - 1, 0);
	int ret;

	ltd_boot_id(boot, sizeof(boot));
	if (n > 0) {
		was[n] = '\0';
		/* Said now, and kept with the review for review, diff and
		 * apply to say (the mark is this run's from here on). */
		if (strcmp(was, boot) != 0) {
			ltd_review_say_stopped(p->review);
			if (ltd_review_note_stopped(r->dir) < 0)
				return ltd_err_sys(err,
						   "--review: write %s/stopped",
						   r->path);
		}
	}
	work = ltd_beneath(r->dir, "work", O_RDONLY | O_DIRECTORY);
	if (work >= 0 && (ret = ltd_remove_tree(work, "work")) < 0) {
		errno = -ret;
		return ltd_err_sys(err, "--review: clear %s/work/work",
				   r->path);
	}
	if (pwrite(r->lock, boot, strlen(boot), 0) != (ssize_t)strlen(boot) ||
	    (n != (ssize_t)strlen(boot) &&
	     ftruncate(r->lock, (off_t)strlen(boot)) < 0))
		return ltd_err_sys(err, "--review: write %s/lock", r->path);
	return 0;
}

static int begin_locks(const struct ltd_policy *p, struct ltd_review_run *r,
		       struct ltd_err *err)
{
	struct stat st;

	r->lock = ltd_review_lock(r->dir, err);
	if (r->lock == -EWOULDBLOCK)
		return ltd_err_set(err, EBUSY,
				   "--review: review '%s' is in use: a run of "
				   "it is live, or it is being applied",
				   p->review);
	if (r->lock < 0)
		return r->lock;
	if (fstatat(r->dir, "journal.json", &st, AT_SYMLINK_NOFOLLOW) == 0)
		return ltd_err_set(err, EBUSY,
				   "--review: an apply of review '%s' was "
				   "interrupted; 'ltd-native apply %s' "
				   "finishes it",
				   p->review, p->review);
	/* Shared by every review run of the project: an apply (exclusive)
	 * would change the lower layer under a live overlay. */
	r->project_lock = ltd_review_project_lock(r->base, p->project,
						  LOCK_SH | LOCK_NB, err);
	if (r->project_lock == -EWOULDBLOCK)
		return ltd_err_set(err, EBUSY,
				   "--review: an apply into %s is under way; "
				   "try again when it has finished",
				   p->project);
	return r->project_lock < 0 ? r->project_lock : 0;
}

int ltd_review_begin(const struct ltd_policy *p, struct ltd_review_run *r,
		     struct ltd_err *err)
{
	char near[PATH_MAX], real[PATH_MAX];
	struct utsname u;
	int ret;

	if (uname(&u) == 0 && !ltd_review_kernel_ok(u.release))
		return ltd_err_set(err, ENOSYS,
				   "--review needs Linux 5.11 or later "
				   "(rootless overlayfs); this is %s",
				   u.release);
	/* The upper may not lie in its own lower layer (overlayfs refuses
	 * it; apply would land the review into itself): said before
	 * anything is made there. */
	if (ltd_reviews_path(r->path, sizeof(r->path), err) < 0 ||
	    ltd_reviews_probe_dir(near, sizeof(near), err) < 0)
		return ltd_err_prefix(err, "--review");
	if (ltd_path_is_under(r->path, p->project) ||
	    (realpath(near, real) && ltd_path_is_under(real, p->project)))
		return ltd_err_set(err, ELOOP,
				   "--review: reviews are kept in %s, which "
				   "lies in the project; set XDG_STATE_HOME "
				   "to a directory outside it",
				   r->path);
	r->base = ltd_reviews_open(true, r->path, err);
	if (r->base < 0)
		return ltd_err_prefix(err, "--review");
	r->dir = ltd_review_dir(r->base, p->review, true, err);
	if (r->dir < 0)
		return ltd_err_prefix(err, "--review");
	if (strlen(r->path) + 1 + strlen(p->review) >= sizeof(r->path))
		return ltd_err_set(err, ENAMETOOLONG,
				   "--review: the reviews' path is too long");
	strcat(r->path, "/");
	strcat(r->path, p->review);
	ret = begin_locks(p, r, err);
	if (!ret)
		ret = begin_meta(p, r, err);
	if (!ret)
		ret = begin_mark(p, r, err);
	r->marked = !ret;
	if (!ret)
		ret = layer_dir(r->dir, "upper", err);
	if (!ret)
		ret = layer_dir(r->dir, "work", err);
	if (!ret)
		ret = ltd_overlay_layers(&r->layers, p->project, r->path, err);
	return ret;
}

/* The run's summary names at most this many changes (every held-back
 * one all the same); `review NAME` lists them all. */
#define SUMMARY_LINES 40

/* Each change as `review NAME` shows it (a rename by its two names, a
 * mode, a link's text, a type change, the mark of what is held back),
 * the first SUMMARY_LINES and every held-back or refused one. */
static void summary_lines(FILE *out, const struct ltd_changes *ch,
			  const char *name)
{
	struct ltd_change_lines l = {.out = out, .indent = "  "};
	size_t shown = 0, left = 0;

	for (size_t i = 0; i < ch->n; i++) {
		const struct ltd_change *c = &ch->v[i];

		if (!ltd_change_shown(c))
			continue;
		if (shown >= SUMMARY_LINES &&
		    !(c->flags &
		      (LTD_CHF_HELD | LTD_CHF_REFUSED | LTD_CHF_CONFLICT))) {
			left++;
			continue;
		}
		shown += ltd_change_lines_add(&l, c);
	}
	ltd_change_lines_end(&l);
	if (!left)
		return;
	fprintf(out, "  ... and %zu more ('ltd-native review ", left);
	ltd_fput_shown(out, name);
	fputs("' lists them all)\n", out);
}

/* What @v holds when nothing of it could land: "no changes", "only .git
 * changed (never lands)" or "only changes that never land (N)"; NULL
 * when something could land (held back: with --include-protected). */
static const char *nothing_lands(const struct ltd_review_view *v, char *buf,
				 size_t size)
{
	size_t n = 0;
	bool git = true;

	for (size_t i = 0; i < v->ch.n; i++) {
		const struct ltd_change *c = &v->ch.v[i];

		if (!(c->flags & LTD_CHF_REFUSED))
			return NULL;
		git &= ltd_review_in_dot_git(c->path);
		n += ltd_change_shown(c);
	}
	if (!v->ch.n)
		return "no changes";
	if (git)
		return "only .git changed (never lands)";
	snprintf(buf, size, "only changes that never land (%zu)", n);
	return buf;
}

/*
 * A review that stays after its run, made durable now, once: the overlay
 * is volatile (its unmount synced nothing), so one syncfs of the store's
 * filesystem writes what the cage wrote in the upper and a new record; a
 * pending record's new count of runs is written before that sync and
 * renamed into place after it (then the directory synced), so the record
 * on the disk is whole at every moment.  Then the run's mark is cleared.
 * A failure is said: the review is there, only not yet on the disk.
 */
static void keep(struct ltd_review_run *r)
{
	struct ltd_err err = {0};
	int ret = 0;

	if (r->dir < 0 || r->lock < 0)
		return;
	if (!r->fresh)
		ret = ltd_review_meta_stage(r->dir, &r->meta, &err);
	if (!ret && syncfs(r->dir) < 0)
		ret = ltd_err_sys(&err, "sync %s", r->path);
	if (!ret && !r->fresh) {
		ret = ltd_review_meta_place(r->dir, &err);
		if (!ret && fsync(r->dir) < 0)
			ret = ltd_err_sys(&err, "sync %s", r->path);
	}
	if (!ret && ftruncate(r->lock, 0) < 0)
		ret = ltd_err_sys(&err, "clear %s/lock", r->path);
	if (ret < 0)
		ltd_warn(err.msg);
}

/* A run that left nothing apply could land leaves no review behind:
 * removed (under the run's own lock: no other run of it is live) unless
 * the run keeps its cage for more (--keep-running). */
static bool drop_if_empty(FILE *out, struct ltd_review_run *r,
			  const struct ltd_policy *p, const char *what)
{
	struct ltd_err err = {0};

	if (!what || p->keep_running || r->lock < 0 || r->base < 0)
		return false;
	if (ltd_review_remove(r->base, p->review, &err) < 0) {
		ltd_warn(err.msg);
		return false;
	}
	if (!p->quiet) {
		fputs("ltd-native: review ", out);
		ltd_fput_shown(out, p->review);
		fprintf(out, ": %s, removed\n", what);
	}
	return true;
}

/* Whether the upper holds no entry at all: no change, whatever the
 * project and its policy say (the view would find none). */
static bool upper_empty(const struct ltd_review_run *r)
{
	_cleanup_close_ int fd =
		ltd_beneath(r->dir, "upper", O_RDONLY | O_DIRECTORY);
	char buf[4096] __attribute__((aligned(8)));
	long n;

	if (fd < 0)
		return false;
	/* Every entry of the first read but "." and "..", then the end. */
	n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
	for (long off = 0; n > 0 && off < n;) {
		const struct dirent64 *d = (const void *)(buf + off);

		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			return false;
		off += d->d_reclen;
	}
	return n > 0 && syscall(SYS_getdents64, fd, buf, sizeof(buf)) == 0;
}

void ltd_review_summary(FILE *out, struct ltd_review_run *r,
			const struct ltd_policy *p,
			const struct ltd_host_user *user)
{
	struct ltd_review_view v = LTD_REVIEW_VIEW_INIT;
	struct ltd_change_counts n;
	struct ltd_err err = {0};
	char buf[64];
	int ret;

	r->summarized = true;
	/* An upper the cage left empty: nothing to judge, read or keep. */
	if (upper_empty(r) && drop_if_empty(out, r, p, "no changes"))
		return;
	/* Judged as `review NAME` and apply judge it, counted as `review`
	 * counts it: the same numbers everywhere. */
	ret = ltd_review_view_open(&v, p->review, user,
				   p->quiet ? LTD_VIEW_QUIET : 0, &err);
	if (!ret &&
	    drop_if_empty(out, r, p, nothing_lands(&v, buf, sizeof(buf)))) {
		ltd_review_view_close(&v);
		return;
	}
	keep(r);
	if (p->quiet) {
		ltd_review_view_close(&v);
		return;
	}
	fputs("ltd-native: review ", out);
	ltd_fput_shown(out, p->review);
	if (ret < 0) {
		fputs(": ltd-native could not read its changes: ", out);
		ltd_fput_shown(out, err.msg[0] ? err.msg : strerror(errno));
		fputc('\n', out);
		ltd_review_view_close(&v);
		return;
	}
	ltd_changes_count(&v.ch, &n);
	fputs(": ", out);
	ltd_counts_print(out, &n);
	fputc('\n', out);
	summary_lines(out, &v.ch, p->review);
	if (v.ch.n) {
		fputs("ltd-native: 'ltd-native review ", out);
		ltd_fput_shown(out, p->review);
		fputs("' lists the changes, 'ltd-native diff ", out);
		ltd_fput_shown(out, p->review);
		fputs("' shows them, 'ltd-native apply ", out);
		ltd_fput_shown(out, p->review);
		fputs("' lands them\n", out);
	}
	ltd_review_view_close(&v);
}

/* A run that ended before its summary (a step after the review's failed,
 * so no cage ran, or one after the cage did): a review it began and left
 * empty goes; any other is kept as the summary keeps it (made durable,
 * its mark cleared), so that no stop of the machine is said later for a
 * run that did not stop with it. */
static void end_unsummarized(struct ltd_review_run *r)
{
	struct ltd_err err = {0};

	struct stat st;

	if (!r->marked || r->summarized || r->lock < 0 || r->dir < 0 ||
	    r->base < 0)
		return;
	if (r->fresh && (upper_empty(r) || (fstatat(r->dir, "upper", &st,
						    AT_SYMLINK_NOFOLLOW) < 0 &&
					    errno == ENOENT))) {
		if (ltd_review_remove(r->base, r->meta.name, &err) < 0)
			ltd_warn(err.msg);
		return;
	}
	keep(r);
}

void ltd_review_end(struct ltd_review_run *r)
{
	end_unsummarized(r);
	ltd_review_meta_free(&r->meta);
	ltd_closep(&r->project_lock);
	ltd_closep(&r->lock);
	ltd_closep(&r->dir);
	ltd_closep(&r->base);
	r->project_lock = r->lock = r->dir = r->base = -1;
}
