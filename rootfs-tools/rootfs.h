/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The entry points of ltd-rootfs, one per subcommand (main.c calls them). */
#ifndef LTD_ROOTFS_H
#define LTD_ROOTFS_H

#include <stdbool.h>

#include "rootfs-tools/unpack.h"
#include "rootfs/store.h"

struct ltd_build_opts {
	const char *suite;    /* default bookworm */
	const char *packages; /* comma-separated, or NULL */
	const char *mirror;   /* or NULL for mmdebstrap's default */
	const char *epoch;    /* SOURCE_DATE_EPOCH */
};

/*
 * @lim NULL: LTD_LIMITS_DEFAULT.  @digest NULL, or the image's digest
 * (hex, see ltd_image_read()): another image is refused before any layer
 * is unpacked, and nothing is stored.
 */
int ltd_rootfs_import(const char *store, const char *name, const char *image,
		      const struct ltd_limits *lim, const char *digest,
		      struct ltd_err *err);
int ltd_rootfs_build(const char *store, const char *name,
		     const struct ltd_build_opts *o, struct ltd_err *err);
int ltd_rootfs_list(const char *store, struct ltd_err *err);
int ltd_rootfs_verify(const char *store, const char *ref, struct ltd_err *err);
int ltd_rootfs_rm(const char *store, const char *name, struct ltd_err *err);

#endif
