/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying image layers to a tree: the pure rules (which tar paths are
 * acceptable, what a whiteout names, what it hides) and the side that
 * unpacks a tar stream with libarchive (unpack.c).
 *
 * Layers come from untrusted archives.  Every entry's path is cleaned
 * (no absolute path, no "..") and resolved under the tree without following
 * a link; a link's target may not climb out of the tree; device nodes and
 * FIFOs are dropped (the cage's /dev is its own).
 */
#ifndef LTD_LAYER_H
#define LTD_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/*
 * Clean a tar entry's name into a path relative to the tree's root:
 * leading "./" and repeated or trailing '/' dropped, "." components
 * dropped; "" is the root itself.  -EINVAL for an absolute path or a ".."
 * component, -ENAMETOOLONG past @size.
 */
int ltd_tar_path_clean(const char *in, char *out, size_t size);

/*
 * May the entry at @rel (cleaned) be a symbolic link to @target?  An
 * absolute target is read inside the cage's root and is fine; a relative
 * one may not climb above the tree's root, read from @rel's directory.
 * An empty target is refused.
 */
bool ltd_link_target_ok(const char *rel, const char *target);

enum ltd_wh {
	LTD_WH_NONE = 0, /* an ordinary entry */
	LTD_WH_FILE,	 /* .wh.NAME: hides NAME from lower layers */
	LTD_WH_OPAQUE,	 /* .wh..wh..opq: hides the directory's lower content */
	LTD_WH_IGNORE,	 /* another .wh..wh.* (AUFS bookkeeping): skipped */
};

/*
 * What a cleaned entry path means.  For LTD_WH_FILE, @victim is the path
 * it hides; for LTD_WH_OPAQUE, the directory ("" for the root).  -EINVAL
 * for a whiteout of "", "." or "..".
 */
int ltd_whiteout_kind(const char *rel, char *victim, size_t size);

/* What the image says about a path (ownership is not applied on disk). */
struct ltd_meta {
	unsigned mode; /* 07777 */
	unsigned uid, gid;
	unsigned layer; /* the layer that last wrote the path */
};

/* Path -> meta, for every path the layers wrote. */
struct ltd_meta_map {
	void *root; /* tsearch tree */
	size_t n;
};

int ltd_meta_put(struct ltd_meta_map *m, const char *path,
		 const struct ltd_meta *meta);
const struct ltd_meta *ltd_meta_get(const struct ltd_meta_map *m,
				    const char *path);
/* Forget @path and everything beneath it. */
void ltd_meta_drop(struct ltd_meta_map *m, const char *path);
void ltd_meta_free(struct ltd_meta_map *m);

/*
 * Does a whiteout in layer @layer remove @path, which exists in the tree?
 * Whiteouts apply to lower layers only: a path written by this same layer
 * (before or after the whiteout in the archive) stays.
 */
bool ltd_whiteout_hides(const struct ltd_meta_map *m, const char *path,
			unsigned layer);

#endif
