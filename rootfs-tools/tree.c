// SPDX-License-Identifier: GPL-2.0-or-later
#include "rootfs-tools/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"

struct node {
	int dirfd;	  /* the directory holding it */
	const char *name; /* "." for the root */
	struct stat st;
	struct ltd_mf_entry e; /* type, size, hash, target, path */
};

typedef int (*visit_fn)(void *ctx, struct node *n, struct ltd_err *err);

struct walk {
	visit_fn visit;
	void *ctx;
	struct ltd_progress *progress;
	uint64_t bytes;
};

static int hash_file(struct walk *w, struct node *n, struct ltd_err *err)
{
	_cleanup_close_ int fd =
		openat(n->dirfd, n->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct ltd_sha256 ctx;
	uint8_t buf[1 << 16];
	uint64_t total = 0;
	ssize_t r;

	if (fd < 0)
		return ltd_err_sys(err, "'%s'", n->e.path);
	ltd_sha256_init(&ctx);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		ltd_sha256_update(&ctx, buf, (size_t)r);
		total += (uint64_t)r;
		w->bytes += (uint64_t)r;
		ltd_progress_show(w->progress, w->bytes, false);
	}
	ltd_sha256_done(&ctx, n->e.hash);
	if (r < 0)
		return ltd_err_sys(err, "'%s'", n->e.path);
	if (!n->e.hash[0])
		return ltd_err_set(err, ENOMEM, "'%s': SHA-256 failed",
				   n->e.path);
	n->e.size = total;
	return 0;
}

/* Visit one node; 1 when it is a directory to descend into. */
static int visit_node(struct walk *w, int dirfd, const char *name,
		      const char *path, struct ltd_err *err)
{
	struct node n = {.dirfd = dirfd, .name = name};
	char target[4096];
	int ret;

	n.e.path = (char *)path;
	if (fstatat(dirfd, name, &n.st, AT_SYMLINK_NOFOLLOW) < 0)
		return ltd_err_sys(err, "'%s'", path);
	if (S_ISDIR(n.st.st_mode)) {
		n.e.type = 'd';
	} else if (S_ISREG(n.st.st_mode)) {
		n.e.type = 'f';
		ret = hash_file(w, &n, err);
		if (ret < 0)
			return ret;
	} else if (S_ISLNK(n.st.st_mode)) {
		ssize_t len =
			readlinkat(dirfd, name, target, sizeof(target) - 1);

		if (len <= 0)
			return ltd_err_sys(err, "'%s': readlink", path);
		target[len] = '\0';
		n.e.type = 'l';
		n.e.target = target;
	} else {
		return ltd_err_set(err, EINVAL,
				   "'%s' is neither a file, a directory nor "
				   "a link",
				   path);
	}
	ret = w->visit(w->ctx, &n, err);
	return ret < 0 ? ret : n.e.type == 'd';
}

/* A directory being walked: its sorted names, the next one at @i. */
struct frame {
	char **names;
	size_t n, i;
	char *path;
	struct stat st; /* to check ".." on the way back */
};

static void frame_free(struct frame *f)
{
	ltd_strv_free(f->names, f->n);
	free(f->path);
	*f = (struct frame){0};
}

/* Enter directory @fd (@path, which the frame takes): list it. */
static int push(struct frame **fr, size_t *depth, size_t *cap, int fd,
		char *path, struct ltd_err *err)
{
	struct frame *f;
	int ret;

	if (*depth == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct frame *g = realloc(*fr, c * sizeof(*g));

		if (!g) {
			free(path);
			return ltd_err_set(err, ENOMEM, "out of memory");
		}
		*fr = g;
		*cap = c;
	}
	f = &(*fr)[(*depth)++];
	*f = (struct frame){.path = path};
	if (fstat(fd, &f->st) < 0)
		return ltd_err_sys(err, "'%s'", path);
	ret = ltd_dir_names(fd, 0, &f->names, &f->n);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "'%s': read", path);
	}
	return 0;
}

/*
 * Depth first, names sorted, parents before children; iterative, with one
 * directory open at a time whatever the depth: down by name, back up by
 * "..", checked to be the directory we came from.
 */
/* Back up by ".." to the directory of frame @to, checked to be the one
 * we came from. */
static int walk_up(int *cur, const struct frame *to, struct ltd_err *err)
{
	int up = openat(*cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (up < 0 || fstat(up, &st) < 0) {
		int ret = ltd_err_sys(err, "'%s': ..", to->path);

		if (up >= 0)
			close(up);
		return ret;
	}
	close(*cur);
	*cur = up;
	if (st.st_dev != to->st.st_dev || st.st_ino != to->st.st_ino)
		return ltd_err_set(err, ESTALE, "'%s' moved during the walk",
				   to->path);
	return 0;
}

/* The top frame's next name visited; a directory to enter is entered (its
 * frame pushed, @cur its descriptor). */
static int walk_next(struct walk *w, struct frame **fr, size_t *depth,
		     size_t *cap, int *cur, struct ltd_err *err)
{
	struct frame *f = &(*fr)[*depth - 1];
	const char *name = f->names[f->i++];
	char *child = NULL;
	int fd, ret;

	if (asprintf(&child, "%s/%s", strcmp(f->path, "/") ? f->path : "",
		     name) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ret = visit_node(w, *cur, name, child, err);
	if (ret != 1) {
		free(child);
		return ret;
	}
	fd = openat(*cur, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = ltd_err_sys(err, "'%s'", child);
		free(child);
		return ret;
	}
	close(*cur);
	*cur = fd;
	return push(fr, depth, cap, *cur, child, err);
}

static int walk(int root, visit_fn visit, void *ctx,
		struct ltd_progress *progress, struct ltd_err *err)
{
	struct walk w = {.visit = visit, .ctx = ctx, .progress = progress};
	struct frame *fr = NULL;
	size_t depth = 0, cap = 0;
	char *path = strdup("/");
	int cur = -1, ret;

	if (!path)
		return ltd_err_set(err, ENOMEM, "out of memory");
	ret = visit_node(&w, root, ".", "/", err);
	if (ret == 1) {
		cur = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = cur < 0 ? ltd_err_sys(err, "'/'") : 0;
	}
	if (ret == 0 && cur >= 0) {
		ret = push(&fr, &depth, &cap, cur, path, err);
		path = NULL;
	}
	while (ret == 0 && depth > 0) {
		struct frame *f = &fr[depth - 1];

		if (f->i < f->n) {
			ret = walk_next(&w, &fr, &depth, &cap, &cur, err);
			continue;
		}
		frame_free(f);
		if (--depth == 0)
			break;
		ret = walk_up(&cur, &fr[depth - 1], err);
	}
	for (size_t i = 0; i < depth; i++)
		frame_free(&fr[i]);
	free(fr);
	free(path);
	if (cur >= 0)
		close(cur);
	ltd_progress_show(progress, w.bytes, true);
	return ret < 0 ? ret : 0;
}

struct seal {
	const struct ltd_meta_map *meta;
	FILE *out;
};

static int seal_visit(void *ctx, struct node *n, struct ltd_err *err)
{
	struct seal *s = ctx;
	const struct ltd_meta *m = ltd_meta_get(s->meta, n->e.path + 1);
	_cleanup_free_ char *line = NULL;

	/* A directory no layer named was made for a path beneath it. */
	n->e.mode = m ? m->mode : n->e.type == 'd' ? 0755 : 0644;
	n->e.uid = m ? m->uid : 0;
	n->e.gid = m ? m->gid : 0;
	line = ltd_manifest_format(&n->e);
	if (!line || fputs(line, s->out) == EOF)
		return ltd_err_set(err, ENOMEM, "cannot write the manifest");
	if (n->e.type != 'l' &&
	    fchmodat(n->dirfd, n->name,
		     ltd_manifest_disk_mode(n->e.type, n->e.mode), 0) < 0)
		return ltd_err_sys(err, "'%s': chmod", n->e.path);
	return 0;
}

int ltd_tree_seal(int root, const struct ltd_meta_map *meta, FILE *manifest,
		  struct ltd_progress *progress, struct ltd_err *err)
{
	struct seal s = {.meta = meta, .out = manifest};

	if (fputs(LTD_MANIFEST_HEADER, manifest) == EOF)
		return ltd_err_set(err, EIO, "cannot write the manifest");
	return walk(root, seal_visit, &s, progress, err);
}

struct verify {
	const struct ltd_manifest *mf;
	size_t i;
};

static int verify_visit(void *ctx, struct node *n, struct ltd_err *err)
{
	struct verify *v = ctx;
	const struct ltd_mf_entry *m;

	/* Both lists are in walk order: they must agree path by path. */
	if (v->i == v->mf->n)
		return ltd_err_set(err, EBADMSG,
				   "'%s' is in the store but not in the "
				   "manifest",
				   n->e.path);
	if (strcmp(v->mf->e[v->i].path, n->e.path) != 0)
		return ltd_err_set(err, EBADMSG,
				   "the manifest lists '%s' where the store "
				   "has '%s' (a file was added or removed)",
				   v->mf->e[v->i].path, n->e.path);
	m = &v->mf->e[v->i++];
	if (m->type != n->e.type)
		return ltd_err_set(err, EBADMSG,
				   "'%s': expected type %c, "
				   "found %c",
				   m->path, m->type, n->e.type);
	if (m->type != 'l' &&
	    (n->st.st_mode & 07777) != ltd_manifest_disk_mode(m->type, m->mode))
		return ltd_err_set(
			err, EBADMSG,
			"'%s': expected mode %04o on disk, found "
			"%04o",
			m->path,
			(unsigned)ltd_manifest_disk_mode(m->type, m->mode),
			(unsigned)(n->st.st_mode & 07777));
	if (m->type == 'f' &&
	    (m->size != n->e.size || strcmp(m->hash, n->e.hash) != 0))
		return ltd_err_set(err, EBADMSG,
				   "'%s': expected sha256:%s, found sha256:%s",
				   m->path, m->hash, n->e.hash);
	if (m->type == 'l' && strcmp(m->target, n->e.target) != 0)
		return ltd_err_set(err, EBADMSG,
				   "'%s': expected a link to '%s', found one "
				   "to '%s'",
				   m->path, m->target, n->e.target);
	return 0;
}

int ltd_tree_verify(int root, const struct ltd_manifest *mf,
		    struct ltd_progress *progress, struct ltd_err *err)
{
	struct verify v = {.mf = mf};
	int ret = walk(root, verify_visit, &v, progress, err);

	if (ret == 0 && v.i < mf->n)
		return ltd_err_set(err, EBADMSG,
				   "'%s' is missing from the store",
				   mf->e[v.i].path);
	return ret;
}
