// SPDX-License-Identifier: GPL-2.0-or-later
/* list, verify, rm. */
#include "rootfs-tools/rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"
#include "common/text.h"
#include "rootfs-tools/tree.h"
#include "rootfs-tools/unpack.h"

/* Sorted names in @dir (none if it does not exist), hidden ones skipped. */
static int names_in(const char *dir, char ***out, size_t *n,
		    struct ltd_err *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	*out = NULL;
	*n = 0;
	if (fd < 0)
		return errno == ENOENT ? 0 : ltd_err_sys(err, "%s", dir);
	ret = ltd_dir_names(fd, LTD_DIR_SKIP_HIDDEN, out, n);
	return ret ? ltd_err_set(err, -ret, "%s: reading the directory", dir)
		   : 0;
}

int ltd_rootfs_list(const char *store, struct ltd_err *err)
{
	char **pins = NULL, **entries = NULL, dir[4096];
	char hex[LTD_HEX_LEN + 1];
	size_t np = 0, ne = 0;
	int ret;

	snprintf(dir, sizeof(dir), "%s/pins", store);
	ret = names_in(dir, &pins, &np, err);
	snprintf(dir, sizeof(dir), "%s/entries", store);
	if (ret == 0)
		ret = names_in(dir, &entries, &ne, err);
	for (size_t i = 0; ret == 0 && i < np; i++) {
		struct ltd_err e = {0};
		struct stat st;
		char path[4096];

		/* A name in pins/ is any file's put there: shown. */
		ltd_fput_shown(stdout, pins[i]);
		if (ltd_store_resolve(store, pins[i], hex, &e) < 0) {
			fputs("\t(unreadable pin: ", stdout);
			ltd_fput_shown(stdout, e.msg);
			fputs(")\n", stdout);
			continue;
		}
		snprintf(path, sizeof(path), "%s/entries/%s", store, hex);
		printf("\tsha256:%s%s\n", hex,
		       stat(path, &st) < 0 ? "\t(entry missing)" : "");
	}
	/* Entries no pin records: reachable as sha256:DIGEST only. */
	for (size_t i = 0; ret == 0 && i < ne; i++) {
		bool pinned = false;

		for (size_t j = 0; j < np && !pinned; j++)
			pinned = ltd_store_resolve(store, pins[j], hex,
						   &(struct ltd_err){0}) == 0 &&
				 strcmp(hex, entries[i]) == 0;
		if (!pinned) {
			fputs("-\tsha256:", stdout);
			ltd_fput_shown(stdout, entries[i]);
			fputc('\n', stdout);
		}
	}
	ltd_strv_free(pins, np);
	ltd_strv_free(entries, ne);
	return ret;
}

int ltd_rootfs_verify(const char *store, const char *ref, struct ltd_err *err)
{
	struct ltd_store_entry e;
	struct ltd_progress progress = {.tty = isatty(STDERR_FILENO),
					.what = "verifying"};
	char hex[LTD_HEX_LEN + 1];
	_cleanup_close_ int tree = -1;
	int ret;

	ret = ltd_store_resolve(store, ref, hex, err);
	if (ret == 0)
		ret = ltd_store_open(store, ref, hex, &e, err);
	if (ret < 0)
		return ret;
	tree = open(e.tree, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tree < 0)
		ret = ltd_err_sys(err, "%s", e.tree);
	else
		ret = ltd_tree_verify(tree, &e.mf, &progress, err);
	if (ret < 0) {
		ltd_err_prefix(err, "rootfs '%s' (sha256:%s)", ref, hex);
	} else {
		printf("%s sha256:%s: ok, %zu entries\n", ref, hex, e.mf.n);
	}
	ltd_store_entry_free(&e);
	return ret;
}

/* Does a pin other than @self (NULL: any) record @hex? */
static int pinned_elsewhere(const char *store, const char *self,
			    const char *hex, bool *found, struct ltd_err *err)
{
	char other[LTD_HEX_LEN + 1], dir[4096];
	char **pins = NULL;
	size_t np = 0;
	int ret;

	*found = false;
	snprintf(dir, sizeof(dir), "%s/pins", store);
	ret = names_in(dir, &pins, &np, err);
	for (size_t i = 0; ret == 0 && i < np && !*found; i++)
		*found = !(self && strcmp(pins[i], self) == 0) &&
			 ltd_store_resolve(store, pins[i], other,
					   &(struct ltd_err){0}) == 0 &&
			 strcmp(other, hex) == 0;
	ltd_strv_free(pins, np);
	return ret;
}

int ltd_rootfs_rm(const char *store, const char *name, struct ltd_err *err)
{
	char hex[LTD_HEX_LEN + 1], path[4096];
	_cleanup_close_ int lock = -1, held = -1, entries = -1;
	bool pin = strncmp(name, "sha256:", 7) != 0, kept = false;
	int ret;

	/* A missing pin is said before the store is touched; what counts
	 * is the answer under the store's lock, which no import's commit
	 * holds meanwhile. */
	ret = ltd_store_resolve(store, name, hex, err);
	if (ret == 0)
		ret = ltd_store_lock(store, &lock, err);
	if (ret == 0)
		ret = ltd_store_resolve(store, name, hex, err);
	/* The entry goes with its last pin. */
	if (ret == 0)
		ret = pinned_elsewhere(store, pin ? name : NULL, hex, &kept,
				       err);
	/* Before anything is removed: an entry a running cage uses stays,
	 * and so does the pin that would take it along. */
	if (ret == 0 && !kept) {
		ret = ltd_store_entry_lock(store, name, hex, LOCK_EX | LOCK_NB,
					   &held, err);
		if (ret == -EBUSY)
			snprintf(err->msg + strlen(err->msg),
				 sizeof(err->msg) - strlen(err->msg),
				 "; nothing removed (stop the cage first)");
		else if (ret == -ENOENT)
			ret = 0; /* a pin to a missing entry: the pin goes */
	}
	if (ret < 0)
		return ret;
	if (pin) {
		snprintf(path, sizeof(path), "%s/pins/%s", store, name);
		if (unlink(path) < 0)
			return ltd_err_sys(err, "%s", path);
		printf("removed pin %s\n", name);
	}
	if (kept) {
		printf("kept entry sha256:%s: another pin records it\n", hex);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/entries", store);
	entries = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Still locked (held): no run starts on what is being removed. */
	if (entries >= 0 && (ret = ltd_rm_tree(entries, hex)) < 0) {
		errno = -ret;
		return ltd_err_sys(err, "remove %s/%s", path, hex);
	}
	printf("removed entry sha256:%s\n", hex);
	return 0;
}
