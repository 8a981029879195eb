// SPDX-License-Identifier: GPL-2.0-or-later
/* The gate's lstat memo: from a listing of one directory, or name by name,
 * the same answers as lstat. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/lstatmemo.h"
#include "policy/policy.h"
#include "tests/common/fixture.h"

static char dir[64];

static void setup(void)
{
	char path[256];

	fx_tmpdir(dir, sizeof(dir), "lstatmemo");
	fx_put(dir, "file", "");
	fx_mkdir(dir, "sub", 0700);
	fx_path(path, sizeof(path), dir, "sub/inner");
	cr_assert_eq(symlink("/nowhere", path), 0);
	fx_path(path, sizeof(path), dir, "link");
	cr_assert_eq(symlink("sub", path), 0);
}

static void teardown(void)
{
	fx_rm_rf(dir);
}

static int ask(struct ltd_lstat_memo *m, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	return ltd_lstat_memo(m, path);
}

static void check_all(struct ltd_lstat_memo *m)
{
	for (int round = 0; round < 2; round++) {
		cr_assert_eq(ask(m, "/file"), LTD_LSTAT_OTHER);
		cr_assert_eq(ask(m, "/sub"), LTD_LSTAT_OTHER);
		cr_assert_eq(ask(m, "/link"), LTD_LSTAT_LINK);
		cr_assert_eq(ask(m, "/missing"), LTD_LSTAT_MISSING);
		cr_assert_eq(ask(m, "/sub/inner"), LTD_LSTAT_LINK);
		cr_assert_eq(ask(m, "/sub/missing"), LTD_LSTAT_MISSING);
		cr_assert_eq(ask(m, "/link/inner"), LTD_LSTAT_LINK);
	}
}

TestSuite(lstatmemo, .init = setup, .fini = teardown);

Test(lstatmemo, name_by_name)
{
	struct ltd_lstat_memo m = {0};

	check_all(&m);
	ltd_lstat_memo_free(&m);
}

Test(lstatmemo, from_a_listing)
{
	struct ltd_lstat_memo m = {.list_dir = dir};

	check_all(&m);
	cr_assert_eq(m.listed, 1, "the directory was listed");
	ltd_lstat_memo_free(&m);
}

Test(lstatmemo, a_linked_directory_is_not_listed)
{
	char link[256], inner[300];
	struct ltd_lstat_memo m = {.list_dir = link};

	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(inner, sizeof(inner), "%s/inner", link);
	cr_assert_eq(ltd_lstat_memo(&m, inner), LTD_LSTAT_LINK);
	cr_assert_eq(m.listed, -1, "a link is not followed to list");
	ltd_lstat_memo_free(&m);
}
