/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading an image's layout: an OCI image layout (oci-layout, index.json,
 * blobs/sha256/...) or a `docker save` directory (manifest.json).  Every
 * JSON blob is verified against its digest before it is parsed; the layers
 * are listed with the digest their bytes must have (an OCI descriptor's
 * digest; for docker save, the config's diff_ids, which it verifies).
 */
#ifndef LTD_IMAGE_H
#define LTD_IMAGE_H

#include <stdint.h>

#include "rootfs/manifest.h"

struct ltd_layer_ref {
	char *path; /* relative to the image directory */
	char hex[LTD_HEX_LEN + 1];
	uint64_t size; /* 0 when the format does not say */
};

struct ltd_image {
	const char *format; /* "OCI layout" or "docker save" */
	/*
	 * The image's digest: in an OCI layout, the descriptor's that was
	 * selected (index.json's for this machine, or the one @want named,
	 * in index.json or an index it lists): a manifest's, or an index's
	 * when it names a multi-arch index; for docker save, the config's
	 * (the image ID).
	 */
	char digest[LTD_HEX_LEN + 1];
	struct ltd_layer_ref *l;
	size_t n;
};

/*
 * Pure: the value of @opt (--digest), "sha256:" and 64 lowercase hex
 * digits, into @hex; else an error naming @opt and the value.
 */
int ltd_image_digest_parse(const char *opt, const char *arg,
			   char hex[LTD_HEX_LEN + 1], struct ltd_err *err);

/*
 * Read the layout in @dirfd.  @want NULL: the manifest for this machine
 * (or the only one), as ever.  @want a digest (hex): the image must have
 * it, else nothing is read further and the error names the digest
 * expected and those found.  In an OCI layout @want selects the
 * descriptor of that digest in index.json or in an index it lists (then,
 * when it is an index, this machine's manifest in it); every blob read is
 * verified, so what is listed is what @want pins.  For docker save @want
 * is the image ID (the config's digest) and selects one of the images
 * manifest.json lists.
 */
int ltd_image_read(int dirfd, const char *want, struct ltd_image *img,
		   struct ltd_err *err);
void ltd_image_free(struct ltd_image *img);

/* Open @path beneath @dirfd; links resolve inside it, never out. */
int ltd_open_in(int dirfd, const char *path, int flags);

#endif
