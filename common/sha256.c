// SPDX-License-Identifier: GPL-2.0-or-later
#include "common/sha256.h"

#include <stdint.h>

void ltd_sha256_init(struct ltd_sha256 *h)
{
	sha256_init(&h->ctx);
}

void ltd_sha256_update(struct ltd_sha256 *h, const void *buf, size_t len)
{
	sha256_update(&h->ctx, len, buf);
}

void ltd_sha256_done(struct ltd_sha256 *h, char out[LTD_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t md[SHA256_DIGEST_SIZE];

	sha256_digest(&h->ctx, sizeof(md), md);
	for (unsigned i = 0; i < sizeof(md); i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[LTD_SHA256_HEX_LEN] = '\0';
}

void ltd_sha256_hex(const void *buf, size_t len,
		    char out[LTD_SHA256_HEX_LEN + 1])
{
	struct ltd_sha256 h;

	ltd_sha256_init(&h);
	ltd_sha256_update(&h, buf, len);
	ltd_sha256_done(&h, out);
}
