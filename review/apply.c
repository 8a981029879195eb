// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `apply NAME [PATH...]`: all or nothing (see review.h and journal.h).
 *
 * In order: the locks (the review's, so that no run of it starts; the
 * project's, exclusive, so that no other apply and no review run of the
 * project is under way); an interrupted apply finished; the changes read
 * again under the locks and judged (held back, refused); the selection
 * and what it needs (the directories its paths are made in); every path
 * checked against the project (a conflict stops everything before
 * anything is written); the copies staged and synced; the journal; the
 * landing; the tidy-up.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/text.h"
#include "policy/option.h"
#include "review/apply.h"
#include "review/conflict.h"
#include "review/fs.h"
#include "review/held.h"
#include "review/review.h"

enum { SKIP, LAND, BLOCKED };

struct entry {
	const char *path;
	size_t i; /* in v.ch */
};

struct apply {
	struct ltd_review_view v;
	const struct ltd_apply_opts *o;
	unsigned char *state; /* per change: SKIP, LAND, BLOCKED */
	struct entry *index;  /* the changes by path (bsearch) */
	char **paths;	      /* o->paths as the changes name them */
	struct ltd_journal j;
	int staging;
	unsigned staged;
};

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path,
		      ((const struct entry *)b)->path);
}

/* The change at @path, or NULL. */
static struct ltd_change *find(struct apply *a, const char *path)
{
	struct entry key = {.path = path};
	struct entry *hit = a->v.ch.n ? bsearch(&key, a->index, a->v.ch.n,
						sizeof(*a->index), cmp_path)
				      : NULL;

	return hit ? &a->v.ch.v[hit->i] : NULL;
}

static bool makes_dir(const struct ltd_change *c)
{
	return S_ISDIR(c->mode) &&
	       (c->kind == LTD_CH_ADD || c->kind == LTD_CH_TYPE);
}

static bool landable(const struct apply *a, const struct ltd_change *c)
{
	if (c->flags & LTD_CHF_REFUSED)
		return false;
	return !(c->flags & LTD_CHF_HELD) || a->o->include_protected;
}

/* Named by a PATH of the command line (all when none).  A rename is one
 * change: its deletion is named by either of its names, as its addition
 * is. */
static bool named(const struct apply *a, const struct ltd_change *c)
{
	for (size_t i = 0; i < a->o->n_paths; i++)
		if (ltd_change_named(c, a->paths[i]))
			return true;
	return false;
}

static bool selected(const struct apply *a, const struct ltd_change *c)
{
	if (!a->o->n_paths || named(a, c))
		return true;
	if (!(c->flags & LTD_CHF_RENAMED))
		return false;
	for (size_t i = 0; i < a->v.ch.n; i++) {
		const struct ltd_change *r = &a->v.ch.v[i];

		if (r->from && !strcmp(r->from, c->path))
			return named(a, r);
	}
	return false;
}

/*
 * What lands: the selected changes that may, and the directories they are
 * made in (a change whose directory is held back or never lands cannot).
 */
static int select_changes(struct apply *a)
{
	struct ltd_changes *ch = &a->v.ch;

	a->state = calloc(ch->n ? ch->n : 1, 1);
	a->index = calloc(ch->n ? ch->n : 1, sizeof(*a->index));
	if (!a->state || !a->index)
		return -ENOMEM;
	for (size_t i = 0; i < ch->n; i++)
		a->index[i] = (struct entry){ch->v[i].path, i};
	qsort(a->index, ch->n, sizeof(*a->index), cmp_path);
	for (size_t i = 0; i < ch->n; i++) {
		struct ltd_change *c = &ch->v[i];
		char dir[4096];

		if (!landable(a, c) || !selected(a, c))
			continue;
		/* A directory made lands for what lands in it (an empty one
		 * for itself): none is made for held-back contents alone. */
		if (!(makes_dir(c) && i + 1 < ch->n &&
		      ltd_change_under(ch->v[i + 1].path, c->path)))
			a->state[i] = LAND;
		snprintf(dir, sizeof(dir), "%s", c->path);
		for (char *s = strrchr(dir, '/'); a->state[i] == LAND && s;
		     s = strrchr(dir, '/')) {
			struct ltd_change *d;

			*s = '\0';
			d = find(a, dir);
			if (!d || !makes_dir(d))
				continue;
			if (landable(a, d))
				a->state[d - ch->v] = LAND;
			else
				a->state[i] = BLOCKED;
		}
	}
	/* A directory marked after what it holds was seen: its order in
	 * the list (before its contents) is what lands. */
	return 0;
}

/* Below a directory this apply makes: the project has nothing there. */
static bool in_new_dir(struct apply *a, const char *path)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *s = strrchr(dir, '/'); s; s = strrchr(dir, '/')) {
		struct ltd_change *d;

		*s = '\0';
		d = find(a, dir);
		if (d && makes_dir(d) && a->state[d - a->v.ch.v] == LAND)
			return true;
	}
	return false;
}

/* Why @c cannot land as the project now is, or NULL. */
static const char *conflict(struct apply *a, const struct ltd_change *c)
{
	if (in_new_dir(a, c->path))
		return NULL;
	return ltd_review_conflict(a->v.project, &a->v.meta, c);
}

static int check_conflicts(struct apply *a, struct ltd_err *err)
{
	unsigned n = 0;

	for (size_t i = 0; i < a->v.ch.n; i++) {
		const char *why;

		if (a->state[i] != LAND || !(why = conflict(a, &a->v.ch.v[i])))
			continue;
		if (!n++)
			fprintf(stderr,
				"ltd-native: apply %s: these changed on the "
				"host since the review began:\n",
				a->v.meta.name);
		fputs("  C  ", stderr);
		ltd_fput_shown(stderr, a->v.ch.v[i].path);
		fprintf(stderr, "  (%s)\n", why);
	}
	if (n)
		return ltd_err_set(err, EEXIST,
				   "apply %s: %u conflict%s: nothing landed "
				   "(discard the review, or apply the other "
				   "paths by name)",
				   a->v.meta.name, n, n == 1 ? "" : "s");
	return 0;
}

/* A staged copy of @c's upper file or link; its number. */
static int stage(struct apply *a, const struct ltd_change *c,
		 struct ltd_err *err)
{
	char name[16];
	const char *leaf;
	_cleanup_close_ int dir = -1, in = -1, out = -1;
	struct stat st = {.st_dev = c->dev,
			  .st_ino = c->ino,
			  .st_mode = c->mode,
			  .st_uid = geteuid()};
	int ret;

	snprintf(name, sizeof(name), "%u", a->staged);
	if (S_ISLNK(c->mode)) {
		if (symlinkat(c->target, a->staging, name) < 0)
			return ltd_err_sys(err, "apply: stage '%s'", c->path);
		return (int)a->staged++;
	}
	dir = ltd_beneath_parent(a->v.upper, c->path, &leaf);
	in = dir < 0 ? -1 : ltd_open_upper_file(dir, leaf, &st);
	if (in < 0)
		return ltd_err_sys(err, "apply: read '%s' in the review",
				   c->path);
	out = openat(a->staging, name,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0600);
	if (out < 0)
		return ltd_err_sys(err, "apply: stage '%s'", c->path);
	ret = ltd_copy_fd(in, out);
	if (!ret && fchmod(out, ltd_change_land_mode(c->mode) & 0777) < 0)
		ret = -errno;
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "apply: stage '%s'", c->path);
	}
	return (int)a->staged++;
}

/* The operations that land @c (journal.h), its content staged. */
static int plan_one(struct apply *a, const struct ltd_change *c,
		    struct ltd_err *err)
{
	struct ltd_journal *j = &a->j;
	bool was_dir = S_ISDIR(c->old_mode);
	int ret = 0, n;

	if (c->kind == LTD_CH_DELETE)
		return ltd_journal_add_op(
			j, was_dir ? LTD_LOP_RMDIR : LTD_LOP_REMOVE, c->path, 0,
			0);
	if (S_ISDIR(c->mode)) {
		if (c->kind == LTD_CH_TYPE)
			ret = ltd_journal_add_op(j, LTD_LOP_REMOVE, c->path, 0,
						 0);
		if (!ret && c->kind != LTD_CH_MODE)
			ret = ltd_journal_add_op(j, LTD_LOP_MKDIR, c->path, 0,
						 0);
		return ret;
	}
	if (c->kind == LTD_CH_MODE)
		return ltd_journal_add_op(j, LTD_LOP_CHMOD, c->path, 0,
					  ltd_change_land_mode(c->mode) & 0777);
	if (c->kind == LTD_CH_TYPE && was_dir)
		ret = ltd_journal_add_op(j, LTD_LOP_RMDIR, c->path, 0, 0);
	n = ret < 0 ? ret : stage(a, c, err);
	if (n < 0)
		return n;
	return ltd_journal_add_op(j, LTD_LOP_PUT, c->path, (unsigned)n, 0);
}

static int plan_all(struct apply *a, struct ltd_err *err)
{
	struct ltd_changes *ch = &a->v.ch;
	int ret = 0;

	for (size_t i = 0; !ret && i < ch->n; i++) {
		if (a->state[i] != LAND)
			continue;
		ret = plan_one(a, &ch->v[i], err);
		if (!ret)
			ret = ltd_journal_add_landed(&a->j, ch->v[i].path);
		if (ret < 0 && !err->msg[0])
			ret = ltd_err_set(err, -ret, "apply: out of memory");
	}
	/* Directories' modes last, the deepest first: a read-only one
	 * would refuse what lands in it. */
	for (size_t i = ch->n; !ret && i-- > 0;) {
		const struct ltd_change *c = &ch->v[i];

		if (a->state[i] == LAND && S_ISDIR(c->mode) &&
		    c->kind != LTD_CH_DELETE)
			ret = ltd_journal_add_op(
				&a->j, LTD_LOP_CHMOD, c->path, 0,
				ltd_change_land_mode(c->mode) & 07777);
	}
	return ret < 0 && !err->msg[0]
		       ? ltd_err_set(err, -ret, "apply: out of memory")
		       : ret;
}

/* The staging directory's name: ".ltd-native-apply.NAME.X", which no
 * change uses and nothing in the project has. */
static int staging_name(struct apply *a, struct ltd_err *err)
{
	for (unsigned tries = 0; tries < 64; tries++) {
		struct timespec t;
		struct stat st;

		clock_gettime(CLOCK_MONOTONIC, &t);
		snprintf(a->j.staging, sizeof(a->j.staging),
			 ".ltd-native-apply.%s.%lx", a->v.meta.name,
			 (unsigned long)t.tv_nsec ^ (unsigned long)getpid() ^
				 tries);
		if (!find(a, a->j.staging) &&
		    fstatat(a->v.project, a->j.staging, &st,
			    AT_SYMLINK_NOFOLLOW) < 0 &&
		    errno == ENOENT)
			return 0;
	}
	return ltd_err_set(err, EEXIST, "apply: no staging directory name");
}

/* Made once the journal names it: a crash leaves nothing unnamed. */
static int make_staging(struct apply *a, struct ltd_err *err)
{
	if (mkdirat(a->v.project, a->j.staging, 0700) < 0)
		return ltd_err_sys(err, "apply: make a staging directory in "
					"the project");
	a->staging =
		ltd_beneath(a->v.project, a->j.staging, O_RDONLY | O_DIRECTORY);
	return a->staging < 0 ? ltd_err_sys(err, "apply: staging") : 0;
}

/* A test hook: LTD_TEST_APPLY_CRASH=N kills apply after N of its
 * landing operations, as a crash would (policy/option.h's test hooks). */
static size_t test_crash_after(void)
{
	const char *on = getenv(LTD_TEST_HOOKS_VAR);
	const char *n = getenv("LTD_TEST_APPLY_CRASH");

	if (!on || strcmp(on, "1") != 0 || !n)
		return 0;
	return (size_t)strtoul(n, NULL, 10);
}

static int land(struct apply *a, FILE *out, struct ltd_err *err)
{
	bool removed = false;
	int ret;

	snprintf(a->j.project, sizeof(a->j.project), "%s", a->v.meta.project);
	ret = plan_all(a, err) < 0 ? -1 : 0;
	/* (Staging happens in plan_all; the journal says "staging" from
	 * before the directory was made: see ltd_review_apply.) */
	if (!ret && syncfs(a->staging) < 0)
		ret = ltd_err_sys(err, "apply: sync the staged copies");
	if (!ret) {
		a->j.landing = true;
		ret = ltd_journal_save(a->v.dir, &a->j, err);
	}
	a->j.crash_after = test_crash_after();
	if (!ret)
		ret = ltd_journal_land(&a->j, a->v.project, a->staging, err);
	if (ret < 0)
		return ret;
	syncfs(a->v.project);
	ret = ltd_review_tidy(a->v.base, a->v.dir, a->v.upper, a->v.project,
			      &a->v.meta, &a->j, &removed, err);
	unlinkat(a->v.project, a->j.staging, AT_REMOVEDIR);
	if (!ret && !removed)
		ret = ltd_journal_remove(a->v.dir, err);
	if (!ret) {
		fprintf(out, "ltd-native: apply %s: %zu change%s landed in ",
			a->v.meta.name, a->j.n_landed,
			a->j.n_landed == 1 ? "" : "s");
		ltd_fput_shown(out, a->v.meta.project);
		fputs(removed ? "; the review is fully landed and removed\n"
			      : "\n",
		      out);
	}
	return ret;
}

/* Left behind and said: @flag's changes (held back, or never landing). */
static void say_kept(struct apply *a, FILE *out, unsigned flag,
		     const char *head, const char *head_git)
{
	unsigned n = 0;
	bool git = false;

	for (size_t i = 0; i < a->v.ch.n; i++) {
		const struct ltd_change *c = &a->v.ch.v[i];

		if (a->state[i] != LAND && selected(a, c) &&
		    (c->flags & flag) && ltd_change_shown(c))
			git |= ltd_review_in_dot_git(c->path);
	}
	struct ltd_change_lines l = {.out = out, .indent = "  "};

	for (size_t i = 0; i < a->v.ch.n; i++) {
		struct ltd_change *c = &a->v.ch.v[i];

		if (a->state[i] == LAND || !selected(a, c) ||
		    !(c->flags & flag) || !ltd_change_shown(c))
			continue;
		if (!n++)
			fprintf(out, "ltd-native: apply %s: %s:\n",
				a->v.meta.name,
				git && head_git ? head_git : head);
		ltd_change_lines_add(&l, c);
	}
	ltd_change_lines_end(&l);
}

/* What stays behind, named: what --include-protected would land apart
 * from what never lands (it would not: saying so would mislead). */
static void say_left(struct apply *a, FILE *out)
{
	say_kept(a, out, LTD_CHF_HELD,
		 "held back ('apply --include-protected' lands what is "
		 "marked !)",
		 NULL);
	say_kept(a, out, LTD_CHF_REFUSED, "never lands (marked -)",
		 "never lands (marked -; nothing of .git does: once the work "
		 "tree's changes have landed, commit them on the host)");
	for (size_t i = 0; i < a->v.ch.n; i++) {
		if (a->state[i] != BLOCKED)
			continue;
		fputs("  (its directory is held back) ", out);
		ltd_change_print(out, &a->v.ch.v[i]);
	}
}

/* The project's apply lock, exclusive: waited for while another apply
 * holds it; refused while a review run of the project holds it shared. */
static int project_exclusive(int base, const char *project, const char *name,
			     struct ltd_err *err)
{
	for (;;) {
		char who[LTD_NAME_MAX + 1];
		struct timespec pause = {0, 50 * 1000 * 1000};
		int fd = ltd_review_project_lock(base, project,
						 LOCK_EX | LOCK_NB, err);

		if (fd != -EWOULDBLOCK)
			return fd;
		if (ltd_review_other_live(base, project, name, who,
					  sizeof(who)))
			return ltd_err_set(err, EBUSY,
					   "apply %s: review '%s' of the same "
					   "project is running (apply would "
					   "change what its cage sees); apply "
					   "when it has ended",
					   name, who);
		nanosleep(&pause, NULL);
	}
}

/* The locks, in order; *@lock and *@plock hold them. */
static int take_locks(const char *name, int *lock, int *plock,
		      struct ltd_err *err)
{
	struct ltd_review_meta m = {0};
	char base_path[PATH_MAX];
	_cleanup_close_ int base = ltd_reviews_open(false, base_path, err);
	_cleanup_close_ int dir = -1;
	int ret;

	if (base == -ENOENT)
		return ltd_err_set(err, ENOENT, "there is no review '%s'",
				   name);
	if (base < 0)
		return base;
	dir = ltd_review_dir(base, name, false, err);
	if (dir < 0)
		return dir;
	*lock = ltd_review_lock(dir, err);
	if (*lock == -EWOULDBLOCK)
		return ltd_err_set(err, EBUSY,
				   "apply %s: the review's cage is still "
				   "running (or another apply of it is under "
				   "way); apply when it has ended",
				   name);
	if (*lock < 0)
		return *lock;
	ret = ltd_review_meta_load(dir, &m, err);
	if (ret == -ENOENT)
		return ltd_review_no_record(name, base_path, err);
	if (ret < 0)
		return ltd_err_prefix(err, "apply %s: %s/%s", name, base_path,
				      name);
	/* Locked by the project it names: only once it is this review's
	 * own (ltd_review_view_open checks it again). */
	if (strcmp(m.name, name) != 0) {
		ret = ltd_err_set(err, EINVAL,
				  "apply %s: %s/%s/meta.json names another "
				  "review ('%s'): refusing it",
				  name, base_path, name, m.name);
		ltd_review_meta_free(&m);
		return ret;
	}
	*plock = project_exclusive(base, m.project, name, err);
	ltd_review_meta_free(&m);
	return *plock < 0 ? *plock : 0;
}

int ltd_review_apply(FILE *out, const char *name,
		     const struct ltd_apply_opts *o, struct ltd_err *err)
{
	struct apply a = {.v = LTD_REVIEW_VIEW_INIT, .o = o, .staging = -1};
	_cleanup_close_ int lock = -1, plock = -1;
	bool any = false, journal = false;
	int ret;

	ret = ltd_review_recover_pending(out, name, err);
	if (!ret)
		ret = take_locks(name, &lock, &plock, err);
	if (!ret)
		ret = ltd_review_view_open(&a.v, name, o->user, LTD_VIEW_STRICT,
					   err);
	if (!ret)
		ret = ltd_review_paths(&a.v, "apply", o->paths, o->n_paths,
				       &a.paths, err);
	if (!ret)
		ret = select_changes(&a) < 0
			      ? ltd_err_set(err, ENOMEM, "out of memory")
			      : 0;
	for (size_t i = 0; !ret && i < a.v.ch.n; i++)
		any |= a.state[i] == LAND;
	if (!ret && any)
		ret = check_conflicts(&a, err);
	if (!ret && any)
		ret = staging_name(&a, err);
	if (!ret && any) {
		snprintf(a.j.project, sizeof(a.j.project), "%s",
			 a.v.meta.project);
		ret = ltd_journal_save(a.v.dir, &a.j, err);
		journal = ret == 0;
	}
	if (!ret && any)
		ret = make_staging(&a, err);
	if (!ret && any)
		ret = land(&a, out, err);
	else if (!ret)
		fprintf(out, "ltd-native: apply %s: nothing to land\n", name);
	/* Failed before anything landed: nothing of it stays behind. */
	if (ret < 0 && journal && !a.j.landing) {
		ltd_remove_tree(a.v.project, a.j.staging);
		ltd_journal_remove(a.v.dir, &(struct ltd_err){0});
	}
	if (!ret)
		say_left(&a, out);
	if (a.staging >= 0)
		close(a.staging);
	ltd_journal_free(&a.j);
	free(a.state);
	free(a.index);
	ltd_review_paths_free(a.paths, o->n_paths);
	ltd_review_view_close(&a.v);
	return ret;
}
