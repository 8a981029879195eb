// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the upper directory (see changes.h).  Two trees are walked side
 * by side, each directory opened beneath the one above it without
 * following a link or crossing a mount: the upper's, and the project's
 * directory of the same name while it is one (a project link or file that
 * the upper replaced by a directory is never entered: what lies behind a
 * link is not the project's).
 */
#include "review/changes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/sha256.h"
#include "review/fs.h"

/* Deeper than this, or a longer path: refused as a whole (it would not
 * land anyway: PATH_MAX). */
#define MAX_DEPTH 1024

struct walk {
	struct ltd_changes *out;
	struct ltd_err *err;
	char path[PATH_MAX]; /* the directory being read, relative */
	size_t len;
};

mode_t ltd_change_land_mode(mode_t upper)
{
	return upper & (S_IFMT | (S_ISDIR(upper) ? 01777 : 0777));
}

void ltd_change_refuse(struct ltd_change *c, const char *why)
{
	if (c->flags & LTD_CHF_REFUSED)
		return;
	c->flags = (c->flags & ~LTD_CHF_HELD) | LTD_CHF_REFUSED;
	c->why = why;
}

static struct ltd_change *add(struct walk *w, const char *name,
			      enum ltd_change_kind kind)
{
	struct ltd_changes *o = w->out;
	struct ltd_change *c, *nv;
	size_t n = strlen(name);

	nv = realloc(o->v, (o->n + 1) * sizeof(*nv));
	if (!nv) {
		ltd_err_set(w->err, ENOMEM, "out of memory");
		return NULL;
	}
	o->v = nv;
	c = &o->v[o->n];
	*c = (struct ltd_change){.kind = kind};
	c->path = malloc(w->len + 1 + n + 1);
	if (!c->path) {
		ltd_err_set(w->err, ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(c->path, w->path, w->len);
	if (w->len)
		c->path[w->len] = '/';
	memcpy(c->path + w->len + (w->len ? 1 : 0), name, n + 1);
	o->n++;
	return c;
}

/* Into @name below the current directory; false when the path would be
 * too long. */
static bool push(struct walk *w, const char *name, size_t *was)
{
	size_t n = strlen(name);

	*was = w->len;
	if (w->len + 1 + n >= sizeof(w->path))
		return false;
	if (w->len)
		w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, n + 1);
	w->len += n;
	return true;
}

static void pop(struct walk *w, size_t was)
{
	w->len = was;
	w->path[was] = '\0';
}

static char *read_link(int dir, const char *name, off_t size)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(dir, name, buf, sizeof(buf));

	(void)size;
	if (n < 0 || n >= (ssize_t)sizeof(buf))
		return NULL;
	return strndup(buf, (size_t)n);
}

/* A directory's entries (not . and ..), sorted, malloc'd. */
struct names {
	char **v;
	size_t n;
};

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(int fd, struct names *s)
{
	int dup_fd = ltd_beneath(fd, ".", O_RDONLY | O_DIRECTORY);
	struct dirent *e;
	DIR *d;

	*s = (struct names){0};
	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		char **nv;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
		if (!nv || !(nv[s->n] = strdup(e->d_name))) {
			free(nv ? nv : s->v);
			s->v = NULL;
			closedir(d);
			return -ENOMEM;
		}
		s->v = nv;
		s->n++;
	}
	closedir(d);
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	return 0;
}

static bool names_has(const struct names *s, const char *name)
{
	return s->n && bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_str);
}

/*
 * Open the directory @name in @dir to read it.  One of the upper's that
 * the cage made unreadable (chmod 000) is ours: opened up for the read,
 * and its mode given back by close_dir().
 */
static int open_dir(int dir, const char *name, const struct stat *st,
		    bool upper)
{
	int fd = ltd_beneath(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

	if (fd >= 0 || errno != EACCES || !upper || st->st_uid != geteuid())
		return fd;
	if (ltd_chmod_beneath(dir, name, (st->st_mode & 07777) | 0700) < 0)
		return -1;
	return ltd_beneath(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

static void close_dir(int dir, const char *name, const struct stat *st, int fd)
{
	struct stat now;

	if (fd < 0)
		return;
	if (fstat(fd, &now) == 0 &&
	    (now.st_mode & 07777) != (st->st_mode & 07777))
		ltd_chmod_beneath(dir, name, st->st_mode & 07777);
	close(fd);
}

int ltd_open_upper_file(int dir, const char *name, const struct stat *st)
{
	const int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
	int fd = ltd_beneath(dir, name, flags);
	struct stat now;

	if (fd < 0 && errno == EACCES && st->st_uid == geteuid() &&
	    ltd_chmod_beneath(dir, name, (st->st_mode & 0777) | 0400) == 0) {
		fd = ltd_beneath(dir, name, flags);
		ltd_chmod_beneath(dir, name, st->st_mode & 07777);
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || !S_ISREG(now.st_mode) ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

static int deletes_below(struct walk *w, int pdir, const char *name,
			 unsigned depth);

/* The project's @name in @pdir (@pst) deleted: what it holds first. */
static int delete_one(struct walk *w, int pdir, const char *name,
		      const struct stat *pst, unsigned flags, unsigned depth)
{
	struct ltd_change *c;
	int ret;

	if (S_ISDIR(pst->st_mode)) {
		ret = deletes_below(w, pdir, name, depth);
		if (ret < 0)
			return ret;
	}
	c = add(w, name, LTD_CH_DELETE);
	if (!c)
		return -ENOMEM;
	c->flags |= flags;
	c->old_mode = pst->st_mode;
	c->old_size = pst->st_size;
	if (S_ISLNK(pst->st_mode))
		c->old_target = read_link(pdir, name, pst->st_size);
	return 0;
}

/* Every entry of the project's directory @name in @pdir, deleted. */
static int deletes_below(struct walk *w, int pdir, const char *name,
			 unsigned depth)
{
	_cleanup_close_ int fd = -1;
	struct names s;
	size_t was;
	int ret = 0;

	if (depth > MAX_DEPTH || !push(w, name, &was))
		return ltd_err_set(w->err, ENAMETOOLONG,
				   "a project path below '%s' is too deep",
				   w->path);
	fd = ltd_beneath(pdir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		ret = ltd_err_sys(w->err, "project: '%s'", w->path);
	if (!ret)
		ret = list_dir(fd, &s) < 0
			      ? ltd_err_sys(w->err, "project: list '%s'",
					    w->path)
			      : 0;
	for (size_t i = 0; !ret && i < s.n; i++) {
		struct stat st;

		if (fstatat(fd, s.v[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		ret = delete_one(w, fd, s.v[i], &st, LTD_CHF_IMPLICIT,
				 depth + 1);
	}
	if (fd >= 0)
		names_free(&s);
	pop(w, was);
	return ret;
}

static int walk_dir(struct walk *w, int udir, int pdir, bool hidden,
		    unsigned depth);

/* The same bytes and the same landing mode: no change. */
static int compare_files(struct walk *w, int udir, int pdir, const char *name,
			 const struct stat *ust, const struct stat *pst,
			 enum ltd_change_kind *kind)
{
	_cleanup_close_ int a = -1, b = -1;
	int same;

	*kind = LTD_CH_MODIFY;
	if (ust->st_size != pst->st_size)
		return 0;
	a = ltd_open_upper_file(udir, name, ust);
	if (a < 0)
		return ltd_err_sys(w->err, "upper: read '%s%s%s'", w->path,
				   w->len ? "/" : "", name);
	b = ltd_beneath(pdir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	/* The user's own file they may not read: other bytes, as far as
	 * anyone can tell (apply then checks it as any change). */
	if (b < 0 && errno == EACCES)
		return 0;
	if (b < 0)
		return ltd_err_sys(w->err, "project: read '%s%s%s'", w->path,
				   w->len ? "/" : "", name);
	same = ltd_same_content(a, b, ust->st_size);
	if (same < 0) {
		errno = -same;
		return ltd_err_sys(w->err, "compare '%s%s%s'", w->path,
				   w->len ? "/" : "", name);
	}
	if (same)
		*kind = (ltd_change_land_mode(ust->st_mode) & 07777) ==
					(pst->st_mode & 07777)
				? (enum ltd_change_kind) - 1
				: LTD_CH_MODE;
	return 0;
}

/* A file or link of the upper over @pst (NULL: nothing there). */
static int non_dir(struct walk *w, int udir, int pdir, const char *name,
		   const struct stat *ust, const struct stat *pst,
		   unsigned depth)
{
	enum ltd_change_kind kind = LTD_CH_ADD;
	_cleanup_free_ char *target = NULL, *old = NULL;
	struct ltd_change *c;
	int ret;

	if (!S_ISREG(ust->st_mode) && !S_ISLNK(ust->st_mode)) {
		/* Never lands, and neither does the deletion of what it
		 * would have replaced. */
		c = add(w, name, pst ? LTD_CH_TYPE : LTD_CH_ADD);
		if (!c)
			return -ENOMEM;
		c->mode = ust->st_mode;
		c->old_mode = pst ? pst->st_mode : 0;
		ltd_change_refuse(c, "a device node, FIFO or socket never "
				     "lands");
		return 0;
	}
	if (S_ISLNK(ust->st_mode) &&
	    !(target = read_link(udir, name, ust->st_size)))
		return ltd_err_sys(w->err, "read link '%s%s%s'", w->path,
				   w->len ? "/" : "", name);
	if (pst && S_ISDIR(pst->st_mode)) {
		ret = deletes_below(w, pdir, name, depth + 1);
		if (ret < 0)
			return ret;
		kind = LTD_CH_TYPE;
	} else if (pst && (pst->st_mode & S_IFMT) != (ust->st_mode & S_IFMT)) {
		kind = LTD_CH_TYPE;
	} else if (pst && S_ISLNK(pst->st_mode)) {
		old = read_link(pdir, name, pst->st_size);
		if (old && !strcmp(old, target))
			return 0;
		kind = LTD_CH_MODIFY;
	} else if (pst && S_ISREG(ust->st_mode)) {
		ret = compare_files(w, udir, pdir, name, ust, pst, &kind);
		if (ret < 0)
			return ret;
		if ((int)kind == -1)
			return 0;
	}
	c = add(w, name, kind);
	if (!c)
		return -ENOMEM;
	c->mode = ust->st_mode;
	c->size = ust->st_size;
	c->target = ltd_steal_ptr(&target);
	c->old_target = ltd_steal_ptr(&old);
	c->dev = ust->st_dev;
	c->ino = ust->st_ino;
	c->nlink = ust->st_nlink;
	if (pst) {
		c->old_mode = pst->st_mode;
		c->old_size = pst->st_size;
		if (S_ISLNK(pst->st_mode) && !c->old_target)
			c->old_target = read_link(pdir, name, pst->st_size);
	}
	if (S_ISREG(ust->st_mode) && (ust->st_mode & (S_ISUID | S_ISGID)))
		c->flags |= LTD_CHF_SUID;
	return 0;
}

static bool is_opaque(int fd)
{
	char v[4];
	ssize_t n = fgetxattr(fd, "user.overlay.opaque", v, sizeof(v));

	return n == 1 && v[0] == 'y';
}

/* A directory of the upper over @pst (NULL: nothing there). */
static int dir_entry(struct walk *w, int udir, int pdir, const char *name,
		     const struct stat *ust, const struct stat *pst,
		     bool hidden, unsigned depth)
{
	int ufd = -1, pfd = -1, ret = 0;
	bool merge = pst && S_ISDIR(pst->st_mode), opaque;
	struct ltd_change *c = NULL;
	size_t was;

	if (depth > MAX_DEPTH)
		return ltd_err_set(w->err, ENAMETOOLONG,
				   "upper: '%s' is too deep", w->path);
	ufd = open_dir(udir, name, ust, true);
	if (ufd < 0)
		return ltd_err_sys(w->err, "upper: '%s/%s'", w->path, name);
	opaque = is_opaque(ufd);
	if (!merge)
		c = add(w, name, pst ? LTD_CH_TYPE : LTD_CH_ADD);
	else if ((ltd_change_land_mode(ust->st_mode) & 07777) !=
		 (pst->st_mode & 07777))
		c = add(w, name, LTD_CH_MODE);
	if (!c && (!merge || (ltd_change_land_mode(ust->st_mode) & 07777) !=
				     (pst->st_mode & 07777)))
		ret = -ENOMEM;
	if (c) {
		c->mode = ust->st_mode;
		c->old_mode = pst ? pst->st_mode : 0;
		if (pst && S_ISLNK(pst->st_mode))
			c->old_target = read_link(pdir, name, pst->st_size);
		if (opaque)
			c->flags |= LTD_CHF_OPAQUE;
	}
	if (!ret && merge) {
		pfd = ltd_beneath(pdir, name,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (pfd < 0)
			ret = ltd_err_sys(w->err, "project: '%s/%s'", w->path,
					  name);
	}
	if (!ret && !push(w, name, &was))
		ret = ltd_err_set(w->err, ENAMETOOLONG,
				  "upper: a path below '%s' is too long",
				  w->path);
	if (!ret) {
		ret = walk_dir(w, ufd, pfd, merge && (hidden || opaque),
			       depth + 1);
		pop(w, was);
	}
	if (pfd >= 0)
		close(pfd);
	close_dir(udir, name, ust, ufd);
	return ret;
}

/* One entry @name of the upper directory @udir. */
static int entry(struct walk *w, int udir, int pdir, const char *name,
		 bool hidden, unsigned depth)
{
	struct stat ust, pst;
	bool in_project;

	if (fstatat(udir, name, &ust, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0
				       : ltd_err_sys(w->err, "upper: '%s/%s'",
						     w->path, name);
	in_project = pdir >= 0 &&
		     fstatat(pdir, name, &pst, AT_SYMLINK_NOFOLLOW) == 0;
	/* A whiteout: the project's path is deleted, nothing more. */
	if (S_ISCHR(ust.st_mode) && ust.st_rdev == makedev(0, 0))
		return in_project ? delete_one(w, pdir, name, &pst, 0, depth)
				  : 0;
	if (S_ISDIR(ust.st_mode))
		return dir_entry(w, udir, pdir, name, &ust,
				 in_project ? &pst : NULL, hidden, depth);
	return non_dir(w, udir, pdir, name, &ust, in_project ? &pst : NULL,
		       depth);
}

/*
 * The upper directory @udir over the project's @pdir (-1: none).
 * @hidden: the project's directory is hidden (opaque): what it holds that
 * the upper does not is deleted.
 */
static int walk_dir(struct walk *w, int udir, int pdir, bool hidden,
		    unsigned depth)
{
	struct names up = {0}, pr = {0};
	int ret;

	ret = list_dir(udir, &up);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(w->err, "upper: list '%s'", w->path);
	}
	for (size_t i = 0; !ret && i < up.n; i++)
		ret = entry(w, udir, pdir, up.v[i], hidden, depth);
	if (!ret && hidden && pdir >= 0) {
		ret = list_dir(pdir, &pr);
		if (ret < 0) {
			errno = -ret;
			ret = ltd_err_sys(w->err, "project: list '%s'",
					  w->path);
		}
		for (size_t i = 0; !ret && i < pr.n; i++) {
			struct stat st;

			if (names_has(&up, pr.v[i]) ||
			    fstatat(pdir, pr.v[i], &st, AT_SYMLINK_NOFOLLOW) <
				    0)
				continue;
			ret = delete_one(w, pdir, pr.v[i], &st,
					 LTD_CHF_IMPLICIT, depth);
		}
	}
	names_free(&up);
	names_free(&pr);
	return ret;
}

/* Hard links: a file of the upper with more names than the upper holds
 * links to a file outside it (a hand-made upper's, never the cage's). */
static void check_links(struct ltd_changes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		nlink_t seen = 0;

		if (c->v[i].nlink <= 1 || !S_ISREG(c->v[i].mode))
			continue;
		for (size_t j = 0; j < c->n; j++)
			seen += S_ISREG(c->v[j].mode) &&
				c->v[j].ino == c->v[i].ino &&
				c->v[j].dev == c->v[i].dev;
		if (seen < c->v[i].nlink)
			ltd_change_refuse(&c->v[i],
					  "a hard link to a file outside the "
					  "review never lands");
	}
}

/* @path is @dir or below it (relative paths). */
bool ltd_change_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

/* What a replacement that never lands would have deleted below it does
 * not land either: the project keeps what it has there. */
static void refuse_below_refused(struct ltd_changes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		if (!(c->v[i].flags & LTD_CHF_REFUSED) ||
		    c->v[i].kind != LTD_CH_TYPE)
			continue;
		for (size_t j = 0; j < i; j++)
			if ((c->v[j].flags & LTD_CHF_IMPLICIT) &&
			    ltd_change_under(c->v[j].path, c->v[i].path) &&
			    strcmp(c->v[j].path, c->v[i].path))
				ltd_change_refuse(&c->v[j],
						  "below a replacement that "
						  "never lands");
	}
}

int ltd_changes_read(int upper, int project, struct ltd_changes *out,
		     struct ltd_err *err)
{
	struct walk *w = calloc(1, sizeof(*w));
	int ret;

	*out = (struct ltd_changes){0};
	if (!w)
		return ltd_err_set(err, ENOMEM, "out of memory");
	w->out = out;
	w->err = err;
	ret = walk_dir(w, upper, project, false, 0);
	free(w);
	if (!ret) {
		check_links(out);
		refuse_below_refused(out);
		ret = ltd_changes_renames(out, upper, project);
		if (ret < 0)
			ret = ltd_err_set(err, -ret, "find renames");
	}
	if (ret < 0)
		ltd_changes_free(out);
	return ret;
}

void ltd_changes_free(struct ltd_changes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].target);
		free(c->v[i].old_target);
		free(c->v[i].from);
		free(c->v[i].why_own);
	}
	free(c->v);
	*c = (struct ltd_changes){0};
}
