// SPDX-License-Identifier: GPL-2.0-or-later
#include "review/conflict.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "review/fs.h"

static bool after(struct timespec t, struct timespec since)
{
	return t.tv_sec > since.tv_sec ||
	       (t.tv_sec == since.tv_sec && t.tv_nsec >= since.tv_nsec);
}

const char *ltd_review_conflict(int project, const struct ltd_review_meta *m,
				const struct ltd_change *c)
{
	const struct timespec *applied;
	struct stat st;
	const char *leaf;
	int ret, pdir;

	pdir = ltd_beneath_parent(project, c->path, &leaf);
	if (pdir < 0)
		return errno == ENOENT
			       ? "its directory is gone from the project"
			       : "a link or another filesystem on its "
				 "way in the project";
	ret = fstatat(pdir, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
	close(pdir);
	if (ret == -ENOENT)
		return c->kind == LTD_CH_ADD ? NULL : "gone from the project";
	if (ret < 0)
		return "cannot be read in the project";
	if (c->kind == LTD_CH_ADD)
		return "made in the project since";
	applied = ltd_review_applied_at(m, c->path);
	if (after(st.st_ctim, m->began) &&
	    !(applied && applied->tv_sec == st.st_ctim.tv_sec &&
	      applied->tv_nsec == st.st_ctim.tv_nsec))
		return "changed in the project since the review began";
	return NULL;
}

static int cmp_change(const void *a, const void *b)
{
	return strcmp((*(const struct ltd_change *const *)a)->path,
		      (*(const struct ltd_change *const *)b)->path);
}

static struct ltd_change *find(struct ltd_change **idx, size_t n,
			       const char *path)
{
	struct ltd_change key = {.path = (char *)path}, *k = &key, **hit;

	hit = n ? bsearch(&k, idx, n, sizeof(*idx), cmp_change) : NULL;
	return hit ? *hit : NULL;
}

/* Below a directory the review makes (the project has nothing there
 * that apply would not make first). */
static bool in_new_dir(struct ltd_change **idx, size_t n, const char *path)
{
	char dir[PATH_MAX];

	if (strlen(path) >= sizeof(dir))
		return false;
	strcpy(dir, path);
	for (char *s = strrchr(dir, '/'); s; s = strrchr(dir, '/')) {
		const struct ltd_change *d;

		*s = '\0';
		d = find(idx, n, dir);
		if (d && S_ISDIR(d->mode) && !(d->flags & LTD_CHF_REFUSED) &&
		    (d->kind == LTD_CH_ADD || d->kind == LTD_CH_TYPE))
			return true;
	}
	return false;
}

int ltd_review_mark_conflicts(struct ltd_changes *ch, int project,
			      const struct ltd_review_meta *m)
{
	struct ltd_change **idx = calloc(ch->n ? ch->n : 1, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < ch->n; i++)
		idx[i] = &ch->v[i];
	qsort(idx, ch->n, sizeof(*idx), cmp_change);
	for (size_t i = 0; i < ch->n; i++) {
		struct ltd_change *c = &ch->v[i];
		const char *why;

		if ((c->flags & LTD_CHF_REFUSED) ||
		    in_new_dir(idx, ch->n, c->path))
			continue;
		why = ltd_review_conflict(project, m, c);
		if (why) {
			c->flags |= LTD_CHF_CONFLICT;
			c->conflict = why;
		}
	}
	/* A rename lands its deletion too. */
	for (size_t i = 0; i < ch->n; i++) {
		struct ltd_change *c = &ch->v[i], *d;

		if (!c->from || (c->flags & LTD_CHF_CONFLICT))
			continue;
		d = find(idx, ch->n, c->from);
		if (d && (d->flags & LTD_CHF_CONFLICT)) {
			c->flags |= LTD_CHF_CONFLICT;
			c->conflict = d->conflict;
		}
	}
	free(idx);
	return 0;
}
