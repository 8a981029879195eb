// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rootfs store under concurrency: `ltd-rootfs rm` against an entry a
 * running cage holds (its shared lock), on a small store made by hand in
 * a temporary directory.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-tools/rootfs.h"

#define HEX "2f0a91a38fa16603cb2743580d4a93df26d3b6ea140778529ecdfbbc7e418104"

static char store[] = "/tmp/ltd-store.XXXXXX";
static struct ltd_err err;

static void put(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", store, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(content, f);
	fclose(f);
}

static void sub(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", store, rel);
	cr_assert_eq(mkdir(path, 0700), 0, "%s", path);
}

static bool there(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", store, rel);
	return access(path, F_OK) == 0;
}

/* One entry, pinned as "a" (and "b" when @two). */
static void make_store(bool two)
{
	cr_assert_not_null(mkdtemp(store));
	sub("pins");
	sub("entries");
	sub("entries/" HEX);
	sub("entries/" HEX "/tree");
	put("entries/" HEX "/manifest", "not read by rm\n");
	put("pins/a", "sha256:" HEX "\n");
	if (two)
		put("pins/b", "sha256:" HEX "\n");
}

/* What a running cage's launcher holds. */
static int hold_entry(void)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/entries/" HEX, store);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(flock(fd, LOCK_SH), 0);
	return fd;
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	return remove(path);
}

static void drop_store(void)
{
	nftw(store, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

Test(store_busy, rm_refuses_an_entry_in_use_and_removes_nothing,
     .fini = drop_store)
{
	int fd;

	make_store(false);
	fd = hold_entry();
	cr_assert_eq(ltd_rootfs_rm(store, "a", &err), -EBUSY, "%s", err.msg);
	cr_assert(strstr(err.msg, "in use by a running cage"), "%s", err.msg);
	cr_assert(strstr(err.msg, "nothing removed"), "%s", err.msg);
	cr_assert_null(strchr(err.msg, '\n'), "one line");
	cr_assert(there("pins/a"), "the pin was removed");
	cr_assert(there("entries/" HEX "/tree"), "the entry was removed");
	/* Once the cage has ended, the entry goes with its last pin. */
	close(fd);
	cr_assert_eq(ltd_rootfs_rm(store, "a", &err), 0, "%s", err.msg);
	cr_assert_not(there("pins/a"));
	cr_assert_not(there("entries/" HEX));
}

Test(store_busy, rm_of_a_pin_whose_entry_stays_is_fine_in_use,
     .fini = drop_store)
{
	int fd;

	make_store(true);
	fd = hold_entry();
	cr_assert_eq(ltd_rootfs_rm(store, "b", &err), 0, "%s", err.msg);
	cr_assert_not(there("pins/b"));
	cr_assert(there("pins/a"));
	cr_assert(there("entries/" HEX "/tree"));
	/* "a" is now the last pin: refused as a whole. */
	cr_assert_eq(ltd_rootfs_rm(store, "a", &err), -EBUSY, "%s", err.msg);
	cr_assert(there("pins/a"));
	close(fd);
}
