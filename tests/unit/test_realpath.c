// SPDX-License-Identifier: GPL-2.0-or-later
/* A path as the kernel reaches it (common/realpath.h): links and ".." in
 * the part that exists, as realpath(3) follows them; the missing rest by
 * its text. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/realpath.h"
#include "tests/common/fixture.h"

static char dir[64];

static void setup(void)
{
	fx_tmpdir(dir, sizeof(dir), "realpath");
	fx_mkdir(dir, "home", 0755);
	fx_mkdir(dir, "home/x", 0755);
	fx_mkdir(dir, "home/p", 0755);
}

static void teardown(void)
{
	fx_rm_rf(dir);
}

TestSuite(realpath, .init = setup, .fini = teardown);

/* @in (relative to the test's directory) resolves to @want (relative). */
static void resolves(const char *in, const char *want)
{
	char path[256], out[256], expect[256];

	fx_path(path, sizeof(path), dir, in);
	fx_path(expect, sizeof(expect), dir, want);
	cr_assert_eq(ltd_realpath_existing(path, out, sizeof(out)), 0, "%s",
		     in);
	cr_assert_str_eq(out, expect, "%s", in);
}

Test(realpath, dotdot_dot_and_doubled_slashes)
{
	resolves("home/x/../p/.st/ltd-native", "home/p/.st/ltd-native");
	resolves("home/./p//.st", "home/p/.st");
	resolves("home/p", "home/p");
}

Test(realpath, a_link_in_the_part_that_exists)
{
	char link[256], target[256];

	fx_path(link, sizeof(link), dir, "home/x/st");
	fx_path(target, sizeof(target), dir, "home/p");
	cr_assert_eq(symlink(target, link), 0);
	resolves("home/x/st/ltd-native/reviews", "home/p/ltd-native/reviews");
	/* ".." after a link is the link's target's parent, as the kernel
	 * has it, not the text's. */
	cr_assert_eq(symlink("../p", link), -1); /* exists already */
	resolves("home/x/st/../x", "home/x");
}

Test(realpath, refusals)
{
	char out[16];

	cr_assert_eq(ltd_realpath_existing("rel/path", out, sizeof(out)),
		     -EINVAL);
	cr_assert_eq(ltd_realpath_existing("/a/very/long/path/indeed", out,
					   sizeof(out)),
		     -ENAMETOOLONG);
	cr_assert_str_eq(out, "");
}
