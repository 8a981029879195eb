// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rootfs store under concurrency: `ltd-rootfs rm` against an entry a
 * running cage holds (its shared lock), and the store's own lock file, on
 * a small store made by hand in a temporary directory.
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
#include "tests/common/fixture.h"

#define HEX "2f0a91a38fa16603cb2743580d4a93df26d3b6ea140778529ecdfbbc7e418104"

static char store[64];
static struct ltd_err err;

static void put(const char *rel, const char *content)
{
	fx_put(store, rel, content);
}

static void sub(const char *rel)
{
	fx_mkdir(store, rel, 0700);
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
	fx_tmpdir(store, sizeof(store), "store");
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

static void drop_store(void)
{
	fx_rm_rf(store);
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

/* --- the store's lock file ---------------------------------------------- */

/* rm refuses, naming the lock file, and removes nothing. */
static void expect_lock_refused(void)
{
	char lock[256];

	snprintf(lock, sizeof(lock), "%s/lock", store);
	cr_assert_lt(ltd_rootfs_rm(store, "a", &err), 0, "rm went ahead");
	cr_assert(strstr(err.msg, lock), "%s", err.msg);
	cr_assert(there("pins/a"), "the pin was removed");
	cr_assert(there("entries/" HEX "/tree"), "the entry was removed");
}

Test(store_lock, is_made_private_by_rm, .fini = drop_store)
{
	char lock[256];
	struct stat st;

	make_store(false);
	cr_assert_eq(ltd_rootfs_rm(store, "a", &err), 0, "%s", err.msg);
	snprintf(lock, sizeof(lock), "%s/lock", store);
	cr_assert_eq(lstat(lock, &st), 0, "no lock file");
	cr_assert(S_ISREG(st.st_mode));
	cr_assert_eq(st.st_mode & 07777, 0600);
}

Test(store_lock, a_link_is_refused, .fini = drop_store)
{
	char lock[256], target[256];

	make_store(false);
	snprintf(lock, sizeof(lock), "%s/lock", store);
	snprintf(target, sizeof(target), "%s/elsewhere", store);
	cr_assert_eq(symlink(target, lock), 0);
	expect_lock_refused();
	cr_assert(strstr(err.msg, "symbolic link"), "%s", err.msg);
	cr_assert_not(there("elsewhere"), "the link was followed");
}

Test(store_lock, a_fifo_is_refused, .fini = drop_store)
{
	char lock[256];

	make_store(false);
	snprintf(lock, sizeof(lock), "%s/lock", store);
	cr_assert_eq(mkfifo(lock, 0600), 0);
	expect_lock_refused();
	cr_assert(strstr(err.msg, "not a regular file"), "%s", err.msg);
}

Test(store_lock, a_directory_is_refused, .fini = drop_store)
{
	make_store(false);
	sub("lock");
	expect_lock_refused();
}

Test(store_lock, someone_elses_is_refused, .fini = drop_store)
{
	char lock[256];

	if (geteuid() != 0)
		cr_skip_test("needs root to give the lock file away");
	make_store(false);
	put("lock", "");
	snprintf(lock, sizeof(lock), "%s/lock", store);
	cr_assert_eq(chown(lock, 65534, 65534), 0);
	expect_lock_refused();
	cr_assert(strstr(err.msg, "belongs to uid 65534"), "%s", err.msg);
}
