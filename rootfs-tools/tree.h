/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walking a tree in manifest order (depth first, names sorted bytewise):
 * sealing a staged tree (write its manifest, make it read-only) and
 * verifying a stored one against its manifest (a full re-hash).
 */
#ifndef LTD_TREE_H
#define LTD_TREE_H

#include <stdio.h>

#include "rootfs-tools/layer.h"
#include "rootfs-tools/unpack.h"
#include "rootfs/manifest.h"

/*
 * Seal the tree under @root: hash every file, write the manifest (modes
 * and owners from @meta, defaults for paths no layer named) to @manifest,
 * and give every file and directory its read-only disk mode.
 */
int ltd_tree_seal(int root, const struct ltd_meta_map *meta, FILE *manifest,
		  struct ltd_progress *progress, struct ltd_err *err);

/* Re-hash the tree under @root and compare it with @mf, entry by entry. */
int ltd_tree_verify(int root, const struct ltd_manifest *mf,
		    struct ltd_progress *progress, struct ltd_err *err);

#endif
