/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unpack layers (tar streams, compressed or not) into a staging tree, as
 * the invoking user: files are created owner-writable and owned by the
 * user; the image's ownership and modes are kept in @meta for the manifest
 * and applied (as read-only modes) when the tree is sealed.
 */
#ifndef LTD_UNPACK_H
#define LTD_UNPACK_H

#include <stdint.h>

#include "rootfs-tools/layer.h"
#include "rootfs-tools/manifest.h"

struct ltd_progress {
	bool tty;	   /* stderr is a terminal: show progress */
	const char *what;  /* "layer 1/2" */
	uint64_t total;	   /* bytes expected, 0 unknown */
	uint64_t shown_at; /* bytes when last shown */
};

struct ltd_unpack {
	int root; /* the staging tree */
	struct ltd_meta_map meta;
	unsigned layer;	  /* 1 for the first */
	uint64_t dropped; /* device nodes, FIFOs, sockets */
	struct ltd_progress progress;
};

/*
 * Apply the tar stream read from @fd as the next layer.  The bytes read
 * are hashed; when @expect_hex is given, a different digest (or, when
 * @expect_size is not 0, size) is an error naming both, and then nothing
 * of the layer may be used (the caller discards the tree).  @found_hex
 * receives the digest.
 */
int ltd_unpack_layer(struct ltd_unpack *u, int fd, const char *expect_hex,
		     uint64_t expect_size, char found_hex[LTD_HEX_LEN + 1],
		     struct ltd_err *err);

/* Remove @name under @dirfd and all beneath it, sealed or not; never
 * follows a link.  0 if it did not exist. */
int ltd_rm_tree(int dirfd, const char *name);

void ltd_progress_show(struct ltd_progress *p, uint64_t done, bool last);

#endif
