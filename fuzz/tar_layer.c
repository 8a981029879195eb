// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for image layers (rootfs-tools/unpack.c, layer.c): tar
 * streams from anyone's image, unpacked by `ltd-rootfs import` into a
 * staging tree.  The input is up to three layers split at "\n=====\n"
 * (whiteouts act across layers), each fed through a memfd to
 * ltd_unpack_layer(), into a fresh tree under a directory made here, with
 * small limits.  Checks beyond ASan + UBSan: nothing is written beside the
 * tree (a canary file there stays as it was and is the only thing there),
 * and the limits hold.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-tools/unpack.h"

#define LAYERS 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* LTD_FUZZ_VERBOSE=1: say what became of each input (seeds' checks). */
static bool verbose;

static char dir[64];
static int top = -1;

static void cleanup(void)
{
	ltd_rm_tree(AT_FDCWD, dir);
}

static void setup(void)
{
	int fd;

	if (top >= 0)
		return;
	snprintf(dir, sizeof(dir), "/tmp/ltd-fuzz-layer.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = openat(top, "canary", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (top < 0 || fd < 0 || write(fd, "canary", 6) != 6)
		abort();
	close(fd);
}

/* Only "canary" and "tree" beside each other, the canary unchanged. */
static void check_outside(void)
{
	char buf[16];
	int fd = openat(top, "canary", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int dup_fd = fd >= 0 ? openat(top, ".", O_RDONLY | O_CLOEXEC) : -1;
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *e;

	if (fd < 0 || read(fd, buf, sizeof(buf)) != 6 ||
	    memcmp(buf, "canary", 6) != 0 || !d)
		abort();
	close(fd);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "canary") && strcmp(e->d_name, "tree"))
			abort();
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltd_unpack u = {.lim = {.bytes = 1 << 20,
				       .file_bytes = 256 << 10,
				       .entries = 512,
				       .layers = LAYERS,
				       .depth = 64}};
	const uint8_t *s = data, *end = data + size, *cut;
	struct ltd_err err = {0};
	char hex[LTD_HEX_LEN + 1];

	setup();
	verbose = getenv("LTD_FUZZ_VERBOSE") != NULL;
	if (mkdirat(top, "tree", 0700) < 0)
		abort();
	u.root = openat(top, "tree", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (u.root < 0)
		abort();
	for (unsigned i = 0; i < LAYERS; i++) {
		int fd = memfd_create("layer", MFD_CLOEXEC);
		size_t len;
		int ret;

		cut = memmem(s, (size_t)(end - s), "\n=====\n", 7);
		len = (size_t)((cut ? cut : end) - s);
		if (fd < 0 || write(fd, s, len) != (ssize_t)len ||
		    lseek(fd, 0, SEEK_SET) != 0)
			abort();
		u.layer = i + 1;
		ret = ltd_unpack_layer(&u, fd, NULL, 0, hex, &err);
		close(fd);
		if (verbose)
			fprintf(stderr, "layer %u: %d %s\n", i + 1, ret,
				ret ? err.msg : "");
		if (u.bytes > u.lim.bytes || u.entries > u.lim.entries + 1)
			abort();
		if (ret < 0 || !cut)
			break;
		s = cut + 7;
	}
	close(u.root);
	ltd_meta_free(&u.meta);
	check_outside();
	if (ltd_rm_tree(top, "tree") < 0)
		abort();
	return 0;
}
