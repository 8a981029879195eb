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

#include "rootfs-tools/manifest.h"

struct ltd_layer_ref {
	char *path; /* relative to the image directory */
	char hex[LTD_HEX_LEN + 1];
	uint64_t size; /* 0 when the format does not say */
};

struct ltd_image {
	const char *format; /* "OCI layout" or "docker save" */
	struct ltd_layer_ref *l;
	size_t n;
};

int ltd_image_read(int dirfd, struct ltd_image *img, struct ltd_err *err);
void ltd_image_free(struct ltd_image *img);

/* Open @path beneath @dirfd; links resolve inside it, never out. */
int ltd_open_in(int dirfd, const char *path, int flags);

#endif
