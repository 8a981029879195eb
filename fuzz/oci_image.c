// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for an image's layout (rootfs-tools/image.c): the
 * index, manifest and config JSON of an OCI image layout or a `docker
 * save` directory, which `ltd-rootfs import` reads from anyone's image.
 *
 * The input is split into parts at lines "===": the first line of part 0
 * says "oci" or "docker" (and "want K" to ask for part K's digest), part
 * 1 is index.json (OCI) or manifest.json (docker), each later part a blob
 * stored as blobs/sha256/<its digest>.  "@@K" in a part (K a digit) is
 * replaced by part K's digest, for K after it: a chain of blobs whose
 * digests hold, so that the fuzzer gets past verification.  Written into
 * a directory made here, read back with ltd_image_read().  Checks beyond
 * ASan + UBSan: an image read has layers, each with a lowercase hex digest
 * and a clean relative path (an OCI layer's is its blob's).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/names.h"
#include "common/sha256.h"
#include "rootfs-tools/image.h"
#include "rootfs-tools/layer.h"
#include "rootfs-tools/unpack.h"

#define PARTS 10

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* LTD_FUZZ_VERBOSE=1: say what became of each input (seeds' checks). */
static bool verbose;

struct part {
	char *s;
	size_t len;
	char hex[LTD_HEX_LEN + 1];
};

static char dir[64];
static int dirfd_ = -1;

static void cleanup(void)
{
	ltd_rm_tree(AT_FDCWD, dir);
}

static void setup(void)
{
	if (dirfd_ >= 0)
		return;
	snprintf(dir, sizeof(dir), "/tmp/ltd-fuzz-image.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	dirfd_ = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0 || mkdirat(dirfd_, "blobs", 0700) < 0 ||
	    mkdirat(dirfd_, "blobs/sha256", 0700) < 0)
		abort();
}

static void put(const char *path, const char *s, size_t len)
{
	int fd = openat(dirfd_, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			0600);

	if (fd < 0 || write(fd, s, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* Part @k with "@@J" (J > k) replaced by part J's digest. */
static void resolve(struct part *p, size_t n, size_t k)
{
	char *out = malloc(p[k].len * 32 + 1), *s = p[k].s;
	size_t o = 0;

	if (!out)
		abort();
	for (size_t i = 0; i < p[k].len; i++) {
		size_t j = i + 2 < p[k].len ? (size_t)(s[i + 2] - '0') : 99;

		if (s[i] == '@' && s[i + 1] == '@' && j < n && j > k) {
			memcpy(out + o, p[j].hex, LTD_HEX_LEN);
			o += LTD_HEX_LEN;
			i += 2;
			continue;
		}
		out[o++] = s[i];
	}
	out[o] = '\0';
	free(p[k].s);
	p[k].s = out;
	p[k].len = o;
	ltd_sha256_hex(out, o, p[k].hex);
}

static void check(const struct ltd_image *img)
{
	char clean[4096];

	if (!img->n || !ltd_hex_ok(img->digest))
		abort();
	for (size_t i = 0; i < img->n; i++) {
		const struct ltd_layer_ref *l = &img->l[i];

		if (!ltd_hex_ok(l->hex) ||
		    ltd_tar_path_clean(l->path, clean, sizeof(clean)) < 0 ||
		    strcmp(clean, l->path) != 0)
			abort();
		if (!strcmp(img->format, "OCI layout") &&
		    (strncmp(l->path, "blobs/sha256/", 13) != 0 ||
		     strcmp(l->path + 13, l->hex) != 0))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part p[PARTS] = {{0}};
	const char *s = (const char *)data, *end = s + size, *cut;
	struct ltd_image img;
	struct ltd_err err = {0};
	char path[128];
	const char *want = NULL;
	size_t n = 0;
	unsigned k;
	int ret;

	setup();
	verbose = getenv("LTD_FUZZ_VERBOSE") != NULL;
	while (n < PARTS) {
		cut = memmem(s, (size_t)(end - s), "\n===\n", 5);
		p[n].len = (size_t)((cut ? cut : end) - s);
		p[n].s = malloc(p[n].len + 1);
		if (!p[n].s)
			abort();
		memcpy(p[n].s, s, p[n].len);
		p[n].s[p[n].len] = '\0';
		n++;
		if (!cut)
			break;
		s = cut + 5;
	}
	if (n < 2)
		goto out;
	for (size_t i = n; i-- > 0;)
		resolve(p, n, i);
	unlinkat(dirfd_, "oci-layout", 0);
	unlinkat(dirfd_, "index.json", 0);
	unlinkat(dirfd_, "manifest.json", 0);
	if (!strncmp(p[0].s, "oci", 3)) {
		put("oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}", 30);
		put("index.json", p[1].s, p[1].len);
	} else {
		put("manifest.json", p[1].s, p[1].len);
	}
	for (size_t i = 2; i < n; i++) {
		snprintf(path, sizeof(path), "blobs/sha256/%s", p[i].hex);
		put(path, p[i].s, p[i].len);
	}
	if (sscanf(p[0].s, "%*s want %u", &k) == 1 && k < n)
		want = p[k].hex;
	ret = ltd_image_read(dirfd_, want, &img, &err);
	if (verbose)
		fprintf(stderr, "image: %d %s\n", ret,
			ret ? err.msg : img.format);
	if (ret == 0) {
		check(&img);
		ltd_image_free(&img);
	}
	for (size_t i = 2; i < n; i++) {
		snprintf(path, sizeof(path), "blobs/sha256/%s", p[i].hex);
		unlinkat(dirfd_, path, 0);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(p[i].s);
	return 0;
}
