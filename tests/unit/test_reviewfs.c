// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * review/fs.c's removal of a tree the cage made: however deep it goes,
 * it is removed, with a bounded number of descriptors and frames at once
 * (a subtree past the bound is moved up beside it and removed from
 * there), and nothing it moved is left.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <dirent.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "review/fs.h"
#include "tests/common/fixture.h"

static char root[256];

static void setup(void)
{
	fx_tmpdir(root, sizeof(root), "reviewfs");
}

static void teardown(void)
{
	fx_rm_rf(root);
}

TestSuite(reviewfs, .init = setup, .fini = teardown);

/* @levels directories, each in the last, from @root/t. */
static void nest(unsigned levels)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY);

	cr_assert_geq(fd, 0);
	for (unsigned i = 0; i < levels; i++) {
		int next;

		cr_assert_eq(mkdirat(fd, "t", 0700), 0, "level %u", i);
		next = openat(fd, "t", O_RDONLY | O_DIRECTORY);
		cr_assert_geq(next, 0);
		close(fd);
		fd = next;
	}
	close(fd);
}

Test(reviewfs, a_deep_tree_goes)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY);

	nest(200);
	cr_assert_eq(ltd_remove_tree(fd, "t"), 0);
	cr_assert_eq(faccessat(fd, "t", F_OK, AT_SYMLINK_NOFOLLOW), -1);
	close(fd);
}

Test(reviewfs, deeper_than_the_bound_goes_too)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	struct rlimit few = {.rlim_cur = 300, .rlim_max = 300};
	DIR *d;
	struct dirent *e;

	nest(4200);
	/* Far fewer descriptors than levels: it holds at most ~256. */
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &few), 0);
	cr_assert_eq(ltd_remove_tree(fd, "t"), 0);
	d = fdopendir(dup(fd));
	cr_assert_not_null(d);
	while ((e = readdir(d)))
		cr_assert(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."),
			  "left: %s", e->d_name);
	closedir(d);
	close(fd);
}
