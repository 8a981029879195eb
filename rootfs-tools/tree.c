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

#include "runtime/cleanup.h"

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
	struct ltd_hash ctx = {0};
	uint8_t buf[1 << 16];
	uint64_t total = 0;
	ssize_t r;

	if (fd < 0)
		return ltd_err_sys(err, "'%s'", n->e.path);
	if (ltd_hash_init(&ctx) < 0)
		return ltd_err_set(err, ENOMEM, "out of memory");
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		ltd_hash_update(&ctx, buf, (size_t)r);
		total += (uint64_t)r;
		w->bytes += (uint64_t)r;
		ltd_progress_show(w->progress, w->bytes, false);
	}
	ltd_hash_done(&ctx, n->e.hash);
	if (r < 0)
		return ltd_err_sys(err, "'%s'", n->e.path);
	if (!n->e.hash[0])
		return ltd_err_set(err, ENOMEM, "'%s': SHA-256 failed",
				   n->e.path);
	n->e.size = total;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The names in @fd (a directory), sorted. */
static int list_dir(int fd, char ***out, size_t *n_out)
{
	_cleanup_close_ int dup_fd = dup(fd);
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	if (dup_fd < 0 || !(d = fdopendir(dup_fd)))
		return -errno;
	dup_fd = -1;
	while ((errno = 0, de = readdir(d))) {
		char **g;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		g = realloc(names, (n + 1) * sizeof(*g));
		if (!g || !(g[n] = strdup(de->d_name))) {
			free_names(g ? g : names, n);
			closedir(d);
			return -ENOMEM;
		}
		names = g;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	*out = names;
	*n_out = n;
	return 0;
}

static int walk_node(struct walk *w, int dirfd, const char *name,
		     const char *path, struct ltd_err *err)
{
	struct node n = {.dirfd = dirfd, .name = name};
	_cleanup_close_ int fd = -1;
	char **names = NULL;
	size_t count = 0;
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
		char target[4096];
		ssize_t len =
			readlinkat(dirfd, name, target, sizeof(target) - 1);

		if (len <= 0)
			return ltd_err_sys(err, "'%s': readlink", path);
		target[len] = '\0';
		n.e.type = 'l';
		n.e.target = target;
		return w->visit(w->ctx, &n, err);
	} else {
		return ltd_err_set(err, EINVAL,
				   "'%s' is neither a file, a directory nor "
				   "a link",
				   path);
	}
	ret = w->visit(w->ctx, &n, err);
	if (ret < 0 || n.e.type != 'd')
		return ret;
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return ltd_err_sys(err, "'%s'", path);
	ret = list_dir(fd, &names, &count);
	if (ret < 0) {
		errno = -ret;
		return ltd_err_sys(err, "'%s': read", path);
	}
	for (size_t i = 0; ret == 0 && i < count; i++) {
		char *child = NULL;

		if (asprintf(&child, "%s/%s", strcmp(path, "/") ? path : "",
			     names[i]) < 0) {
			ret = ltd_err_set(err, ENOMEM, "out of memory");
			break;
		}
		ret = walk_node(w, fd, names[i], child, err);
		free(child);
	}
	free_names(names, count);
	return ret;
}

static int walk(int root, visit_fn visit, void *ctx,
		struct ltd_progress *progress, struct ltd_err *err)
{
	struct walk w = {.visit = visit, .ctx = ctx, .progress = progress};
	int ret = walk_node(&w, root, ".", "/", err);

	ltd_progress_show(progress, w.bytes, true);
	return ret;
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
	line = ltd_mf_format(&n->e);
	if (!line || fputs(line, s->out) == EOF)
		return ltd_err_set(err, ENOMEM, "cannot write the manifest");
	if (n->e.type != 'l' &&
	    fchmodat(n->dirfd, n->name, ltd_mf_disk_mode(n->e.type, n->e.mode),
		     0) < 0)
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
	    (n->st.st_mode & 07777) != ltd_mf_disk_mode(m->type, m->mode))
		return ltd_err_set(err, EBADMSG,
				   "'%s': expected mode %04o on disk, found "
				   "%04o",
				   m->path,
				   (unsigned)ltd_mf_disk_mode(m->type, m->mode),
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
