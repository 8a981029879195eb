// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure rules of layer application. */
#include "rootfs-tools/layer.h"

#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

int ltd_tar_path_clean(const char *in, char *out, size_t size)
{
	size_t o = 0;

	if (in[0] == '/')
		return -EINVAL;
	while (*in) {
		size_t len = strcspn(in, "/");

		if (len == 2 && in[0] == '.' && in[1] == '.')
			return -EINVAL;
		if (len > 0 && !(len == 1 && in[0] == '.')) {
			if (o + (o ? 1 : 0) + len + 1 > size)
				return -ENAMETOOLONG;
			if (o)
				out[o++] = '/';
			memcpy(out + o, in, len);
			o += len;
		}
		in += len;
		while (*in == '/')
			in++;
	}
	if (size == 0)
		return -ENAMETOOLONG;
	out[o] = '\0';
	return 0;
}

bool ltd_link_target_ok(const char *rel, const char *target)
{
	long depth = 0;

	if (!target[0])
		return false;
	if (target[0] == '/')
		return true;
	/* The link's own directory: one level per '/' in @rel. */
	for (const char *c = rel; *c; c++)
		depth += *c == '/';
	while (*target) {
		size_t len = strcspn(target, "/");

		if (len == 2 && target[0] == '.' && target[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (len > 0 && !(len == 1 && target[0] == '.')) {
			depth++;
		}
		target += len;
		while (*target == '/')
			target++;
	}
	return true;
}

#define WH     ".wh."
#define WH_OPQ ".wh..wh..opq"

int ltd_whiteout_kind(const char *rel, char *victim, size_t size)
{
	const char *base = strrchr(rel, '/');
	size_t dirlen;

	base = base ? base + 1 : rel;
	dirlen = base > rel ? (size_t)(base - rel - 1) : 0;
	if (strncmp(base, WH, strlen(WH)) != 0)
		return LTD_WH_NONE;
	if (strcmp(base, WH_OPQ) == 0) {
		if (dirlen + 1 > size)
			return -ENAMETOOLONG;
		memcpy(victim, rel, dirlen);
		victim[dirlen] = '\0';
		return LTD_WH_OPAQUE;
	}
	if (strncmp(base, WH WH, 2 * strlen(WH)) == 0)
		return LTD_WH_IGNORE;
	base += strlen(WH);
	if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EINVAL;
	if (dirlen + 1 + strlen(base) + 1 > size)
		return -ENAMETOOLONG;
	memcpy(victim, rel, dirlen);
	if (dirlen)
		victim[dirlen++] = '/';
	strcpy(victim + dirlen, base);
	return LTD_WH_FILE;
}

struct node {
	struct ltd_meta meta;
	char path[]; /* first member compared: see cmp() */
};

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->path,
		      ((const struct node *)b)->path);
}

static struct node *node_new(const char *path)
{
	struct node *n = malloc(sizeof(*n) + strlen(path) + 1);

	if (n)
		strcpy(n->path, path);
	return n;
}

int ltd_meta_put(struct ltd_meta_map *m, const char *path,
		 const struct ltd_meta *meta)
{
	struct node *n = node_new(path), **slot;

	if (!n)
		return -ENOMEM;
	slot = tsearch(n, &m->root, cmp);
	if (!slot) {
		free(n);
		return -ENOMEM;
	}
	if (*slot != n)
		free(n);
	else
		m->n++;
	(*slot)->meta = *meta;
	return 0;
}

const struct ltd_meta *ltd_meta_get(const struct ltd_meta_map *m,
				    const char *path)
{
	struct node *key = node_new(path), **slot;

	if (!key)
		return NULL;
	slot = tfind(key, &m->root, cmp);
	free(key);
	return slot ? &(*slot)->meta : NULL;
}

struct drop_ctx {
	const char *path;
	size_t len;
	struct node **victims;
	size_t n, cap;
	bool oom;
};

static void collect(const void *nodep, VISIT which, void *closure)
{
	struct node *n = *(struct node *const *)nodep;
	struct drop_ctx *c = closure;

	if (which != postorder && which != leaf)
		return;
	if (strncmp(n->path, c->path, c->len) != 0 ||
	    (c->len && n->path[c->len] != '\0' && n->path[c->len] != '/'))
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct node **v = realloc(c->victims, cap * sizeof(*v));

		if (!v) {
			c->oom = true;
			return;
		}
		c->victims = v;
		c->cap = cap;
	}
	c->victims[c->n++] = n;
}

void ltd_meta_drop(struct ltd_meta_map *m, const char *path)
{
	struct drop_ctx c = {.path = path, .len = strlen(path)};

	twalk_r(m->root, collect, &c);
	for (size_t i = 0; i < c.n; i++) {
		tdelete(c.victims[i], &m->root, cmp);
		free(c.victims[i]);
		m->n--;
	}
	free(c.victims);
}

static void free_node(void *n)
{
	free(n);
}

void ltd_meta_free(struct ltd_meta_map *m)
{
	tdestroy(m->root, free_node);
	*m = (struct ltd_meta_map){0};
}

bool ltd_whiteout_hides(const struct ltd_meta_map *m, const char *path,
			unsigned layer)
{
	const struct ltd_meta *meta = ltd_meta_get(m, path);

	return !meta || meta->layer != layer;
}
