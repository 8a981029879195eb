// SPDX-License-Identifier: GPL-2.0-or-later
/* A directory's names, read at once (common/dir.c): sorted, with their
 * types, and only those a filter keeps. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dir.h"
#include "common/vec.h"
#include "tests/common/fixture.h"

static char dir[40];

static void setup(void)
{
	char path[64];

	fx_tmpdir(dir, sizeof(dir), "dir");
	fx_put(dir, "b", "x");
	fx_put(dir, "a", "x");
	fx_put(dir, ".h", "x");
	fx_mkdirs(dir, "d/x");
	snprintf(path, sizeof(path), "%s/l", dir);
	cr_assert_eq(symlink("a", path), 0);
}

static void fini(void)
{
	fx_rm_rf(dir);
}

TestSuite(dir, .init = setup, .fini = fini);

static bool not_plain(void *ctx, const char *name, unsigned char type)
{
	(void)ctx;
	(void)name;
	return type != DT_REG;
}

Test(dir, names_come_sorted_with_their_types)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ unsigned char *types = NULL;
	char **names = NULL;
	size_t n = 0;

	cr_assert_eq(ltd_dir_names_typed(fd, 0, &names, &types, &n), 0);
	cr_assert_eq(n, 5);
	cr_assert_str_eq(names[0], ".h");
	cr_assert_str_eq(names[1], "a");
	cr_assert_str_eq(names[2], "b");
	cr_assert_str_eq(names[3], "d");
	cr_assert_str_eq(names[4], "l");
	/* tmpfs and ext4 say; a file system that does not says DT_UNKNOWN. */
	if (types[1] != DT_UNKNOWN) {
		cr_assert_eq(types[1], DT_REG);
		cr_assert_eq(types[3], DT_DIR);
		cr_assert_eq(types[4], DT_LNK);
	}
	ltd_strv_free(names, n);
	cr_assert_eq(ltd_dir_names(fd, LTD_DIR_SKIP_HIDDEN, &names, &n), 0);
	cr_assert_eq(n, 4);
	cr_assert_str_eq(names[0], "a");
	ltd_strv_free(names, n);
}

Test(dir, a_filter_keeps_only_what_it_says)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names = NULL;
	size_t n = 0;

	cr_assert_eq(ltd_dir_names_if(fd, 0, not_plain, NULL, &names, NULL, &n),
		     0);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(names[0], "d");
	cr_assert_str_eq(names[1], "l");
	ltd_strv_free(names, n);
	/* The offset is back at the start: read again, the same. */
	cr_assert_eq(ltd_dir_names(fd, 0, &names, &n), 0);
	cr_assert_eq(n, 5);
	ltd_strv_free(names, n);
}
