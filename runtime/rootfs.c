// SPDX-License-Identifier: GPL-2.0-or-later
#include "runtime/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/vec.h"
#include "rootfs/store.h"

/* A small /etc file of the image, read for copying; NULL to bind it. */
static char *read_small(const char *tree, const char *rel, uint64_t size,
			size_t *len)
{
	_cleanup_close_ int fd = -1;
	char path[PATH_MAX + 64];
	char *buf;
	size_t n = 0;
	ssize_t r;

	if (size > LTD_HOSTFS_COPY_MAX)
		return NULL;
	snprintf(path, sizeof(path), "%s%s", tree, rel);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	buf = fd < 0 ? NULL : malloc(size + 1);
	if (!buf)
		return NULL;
	while (n < size && (r = read(fd, buf + n, size - n)) > 0)
		n += (size_t)r;
	if (n != size) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The entries directly inside @dir ("" for the root) of the manifest. */
static int collect(const struct ltd_store_entry *e, const char *dir,
		   bool copy_files, struct ltd_pinned_ent **out, size_t *n,
		   struct ltd_err *err)
{
	size_t dl = strlen(dir);

	for (size_t i = 1; i < e->mf.n; i++) {
		const struct ltd_mf_entry *m = &e->mf.e[i];
		struct ltd_pinned_ent *g;
		const char *name;

		if (strncmp(m->path, dir, dl) != 0 || m->path[dl] != '/' ||
		    strchr(m->path + dl + 1, '/'))
			continue;
		name = m->path + dl + 1;
		g = ltd_vec_push(out, *n);
		if (!g)
			return ltd_err_set(err, ENOMEM, "out of memory");
		*g = (struct ltd_pinned_ent){
			.type = m->type,
			.name = strdup(name),
			.target = m->target ? strdup(m->target) : NULL,
			.mode = ltd_manifest_disk_mode(m->type, m->mode),
		};
		(*n)++;
		if (!g->name || (m->target && !g->target))
			return ltd_err_set(err, ENOMEM, "out of memory");
		if (copy_files && m->type == 'f')
			g->data =
				read_small(e->tree, m->path, m->size, &g->len);
	}
	return 0;
}

int ltd_rootfs_load(const struct ltd_policy *p, struct ltd_pinned *pin,
		    int *lock, bool *has_shell, struct ltd_err *err)
{
	_cleanup_free_ char *path = NULL, *store = NULL;
	char hex[LTD_HEX_LEN + 1];
	struct ltd_store_entry e = {0};
	int ret;

	*pin = (struct ltd_pinned){0};
	*lock = -1;
	ret = ltd_store_path(&path, err);
	if (ret < 0)
		return ret;
	/* Sources are opened without following links: name the store by
	 * its real path. */
	store = realpath(path, NULL);
	/* Nothing imported yet: the store itself does not exist. */
	if (!store && errno == ENOENT)
		return ltd_err_set(err, ENOENT,
				   "--rootfs %s: there is no pinned root "
				   "filesystem named '%s' (nothing is imported "
				   "yet: see 'ltd-rootfs list'; 'ltd-rootfs "
				   "import NAME IMAGE' pins one)",
				   p->rootfs, p->rootfs);
	if (!store)
		return ltd_err_sys(err, "--rootfs %s: the store %s", p->rootfs,
				   path);
	ret = ltd_store_resolve(store, p->rootfs, hex, err);
	/* Before the entry is read and checked, and for the launcher's
	 * life: `ltd-rootfs rm` cannot take the tree from under the cage
	 * (the binds show the live directory). */
	if (ret == 0)
		ret = ltd_store_entry_lock(store, p->rootfs, hex, LOCK_SH, lock,
					   err);
	if (ret == 0)
		ret = ltd_store_open(store, p->rootfs, hex, &e, err);
	if (ret == 0)
		ret = ltd_store_quick_check(&e, err);
	if (ret == 0)
		ret = collect(&e, "", false, &pin->top, &pin->n_top, err);
	if (ret == 0)
		ret = collect(&e, "/etc", true, &pin->etc, &pin->n_etc, err);
	if (ret == 0)
		*has_shell = ltd_manifest_find(&e.mf, p->id.shell) != NULL;
	if (ret == 0)
		pin->tree = ltd_steal_ptr(&e.tree);
	ltd_store_entry_free(&e);
	if (ret < 0) {
		ltd_err_prefix(err, "--rootfs");
		ltd_pinned_free(pin);
		ltd_closep(lock);
		*lock = -1;
	}
	return ret;
}

static void free_ents(struct ltd_pinned_ent *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].target);
		free(v[i].data);
	}
	free(v);
}

void ltd_pinned_free(struct ltd_pinned *pin)
{
	free_ents(pin->top, pin->n_top);
	free_ents(pin->etc, pin->n_etc);
	free(pin->tree);
	*pin = (struct ltd_pinned){0};
}
