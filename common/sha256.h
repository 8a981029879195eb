/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-256 (nettle), in lowercase hex: approved project policies, pinned
 * root filesystems and their files.
 */
#ifndef LTD_COMMON_SHA256_H
#define LTD_COMMON_SHA256_H

#include <stddef.h>

#include <nettle/sha2.h>

#define LTD_SHA256_HEX_LEN 64

struct ltd_sha256 {
	struct sha256_ctx ctx;
};

void ltd_sha256_init(struct ltd_sha256 *h);
void ltd_sha256_update(struct ltd_sha256 *h, const void *buf, size_t len);
/* Finish into @out (the context may be dropped after). */
void ltd_sha256_done(struct ltd_sha256 *h, char out[LTD_SHA256_HEX_LEN + 1]);
/* The SHA-256 of @len bytes at @buf. */
void ltd_sha256_hex(const void *buf, size_t len,
		    char out[LTD_SHA256_HEX_LEN + 1]);

#endif
