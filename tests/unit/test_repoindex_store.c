// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk's index as a file in the state directory: a store leaves the
 * index and nothing else; what a writer killed between its link and its
 * rename left is removed by the next store; a store under way in another
 * run is let finish.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protect/repoindex.h"
#include "tests/common/fixture.h"

static char dir[PATH_MAX];
static int dfd = -1;
static struct ltd_rindex x;

static void setup(void)
{
	uint32_t at;

	fx_tmpdir(dir, sizeof(dir), "rindex-store");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dfd, 0);
	x = (struct ltd_rindex){.dev = 7, .ino = 100};
	cr_assert_eq(ltd_rindex_add(&x, "", 0, 0, &at), 0);
	cr_assert_eq(ltd_rindex_add(&x, "a", 1, 1, &at), 0);
	x.v[0].ino = 100; /* the root's, as the header says */
	x.v[1].ino = 101;
}

static void teardown(void)
{
	ltd_rindex_free(&x);
	close(dfd);
	fx_rm_rf(dir);
}

TestSuite(rindex_store, .init = setup, .fini = teardown);

/* The directory's names but . and .., sorted, one per line. */
static void names_in(char *buf, size_t size)
{
	char cmd[PATH_MAX + 32];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	n = fread(buf, 1, size - 1, p);
	buf[n] = '\0';
	pclose(p);
}

static bool index_loads(void)
{
	struct ltd_rindex y;

	if (ltd_rindex_load(dfd, "idx", 7, 100, &y))
		return false;
	ltd_rindex_free(&y);
	return true;
}

Test(rindex_store, a_store_leaves_the_index_alone)
{
	char names[256];

	cr_assert_eq(ltd_rindex_store(dfd, "idx", &x), 0);
	cr_assert_eq(ltd_rindex_store(dfd, "idx", &x), 0);
	names_in(names, sizeof(names));
	cr_expect_str_eq(names, "idx\n");
	cr_expect(index_loads());
}

Test(rindex_store, what_a_killed_writer_left_is_removed)
{
	char names[256];

	fx_put(dir, "idx.tmp", "half an index");
	cr_assert_eq(ltd_rindex_store(dfd, "idx", &x), 0);
	names_in(names, sizeof(names));
	cr_expect_str_eq(names, "idx\n", "left: %s", names);
	cr_expect(index_loads());
}

Test(rindex_store, a_store_under_way_is_let_finish)
{
	char path[PATH_MAX], names[256];
	int other;

	fx_path(path, sizeof(path), dir, "idx.tmp");
	fx_put(dir, "idx.tmp", "another run's index, being written");
	other = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(other, 0);
	cr_assert_eq(flock(other, LOCK_EX), 0);
	cr_expect_eq(ltd_rindex_store(dfd, "idx", &x), -EBUSY);
	names_in(names, sizeof(names));
	cr_expect_str_eq(names, "idx.tmp\n", "left: %s", names);
	close(other);
}
