// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * review/fs.c's removal of a tree the cage made: its depth is bounded
 * (each level holds a descriptor and a frame), and it stops at the
 * bound rather than running out of either.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
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

Test(reviewfs, deeper_than_the_bound_is_refused)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY);

	nest(4200);
	cr_assert_eq(ltd_remove_tree(fd, "t"), -ELOOP);
	close(fd);
}
