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
#include "rootfs/manifest.h"

struct ltd_progress {
	bool tty;	   /* stderr is a terminal: show progress */
	const char *what;  /* "layer 1/2" */
	uint64_t total;	   /* bytes expected, 0 unknown */
	uint64_t shown_at; /* bytes when last shown */
};

/*
 * Bounds on what untrusted layers may make us write and hash
 * (docs/decisions/0058-rootfs-import-limits.md, "Limits on what an import
 * unpacks").  A file's size is its declared size, holes of a sparse file
 * included; a hard link counts its target's size again (sealing hashes it
 * again).
 */
struct ltd_limits {
	uint64_t bytes;	     /* all entries' sizes, over all layers */
	uint64_t file_bytes; /* one entry's size */
	uint64_t entries;    /* tar entries, over all layers */
	uint64_t layers;     /* layers of an image */
	uint64_t depth;	     /* path components of an entry */
};

#define LTD_LIMITS_DEFAULT                                                     \
	((struct ltd_limits){.bytes = 16ull << 30,                             \
			     .file_bytes = 4ull << 30,                         \
			     .entries = 1000000,                               \
			     .layers = 256,                                    \
			     .depth = 256})

struct ltd_unpack {
	int root; /* the staging tree */
	struct ltd_meta_map meta;
	unsigned layer;	  /* 1 for the first */
	uint64_t dropped; /* device nodes, FIFOs, sockets */
	struct ltd_progress progress;
	struct ltd_limits lim;
	uint64_t bytes, entries; /* counted against @lim */
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
 * follows a link.  0 if it did not exist.  Iterative, with two file
 * descriptors at most whatever the depth (it cleans up after a failure,
 * which may have been a lack of descriptors). */
int ltd_rm_tree(int dirfd, const char *name);

void ltd_progress_show(struct ltd_progress *p, uint64_t done, bool last);

#endif
