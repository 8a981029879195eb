// SPDX-License-Identifier: GPL-2.0-or-later
#include "tests/common/fixture.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fx_tmpdir(char *buf, size_t size, const char *tag)
{
	int n = snprintf(buf, size, "/tmp/ltd-unit-%s.XXXXXX", tag);

	cr_assert(n > 0 && (size_t)n < size, "fx_tmpdir: '%s' too long", tag);
	cr_assert_not_null(mkdtemp(buf), "mkdtemp %s: %s", buf,
			   strerror(errno));
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	/* A test may have made a directory unreadable or unwritable. */
	if (flag == FTW_DP || flag == FTW_D)
		chmod(path, 0700);
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

void fx_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode))
		chmod(path, 0700);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void fx_path(char *buf, size_t size, const char *dir, const char *rel)
{
	int n = snprintf(buf, size, "%s/%s", dir, rel);

	cr_assert(n > 0 && (size_t)n < size, "fx_path: %s/%s too long", dir,
		  rel);
}

void fx_put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	fx_path(path, sizeof(path), dir, rel);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	cr_assert_eq(fclose(f), 0, "%s", path);
}

void fx_mkdir(const char *dir, const char *rel, mode_t mode)
{
	char path[4096];

	fx_path(path, sizeof(path), dir, rel);
	cr_assert_eq(mkdir(path, mode), 0, "mkdir %s: %s", path,
		     strerror(errno));
}

void fx_mkdirs(const char *dir, const char *rel)
{
	char path[4096];

	fx_path(path, sizeof(path), dir, rel);
	for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		cr_assert(mkdir(path, 0755) == 0 || errno == EEXIST,
			  "mkdir %s: %s", path, strerror(errno));
		*s = '/';
	}
}

bool fx_exists(const char *dir, const char *rel)
{
	char path[4096];
	struct stat st;

	fx_path(path, sizeof(path), dir, rel);
	return lstat(path, &st) == 0;
}
